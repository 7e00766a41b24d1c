"""File operations that never overwrite and never lose the source before the copy is safe."""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import sys
import uuid
from urllib.parse import unquote_to_bytes

HASH_CHUNK = 1 << 20
TMP_PREFIX = ".simdup-tmp-"
# errors of os.link that mean "no hard links on this file system": rename (or copy) instead
NO_HARD_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EACCES,
                 errno.ENOSYS)


def hash_file(path: str) -> str:
    """blake2b (16-byte digest) of the raw bytes, the same hash the scan records."""
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as fh:
        while chunk := fh.read(HASH_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def changed_reason(path: str, size: int, mtime_ns: int, content_hash: str) -> str | None:
    """Why ``path`` is not the file the scan saw, or None if it is unchanged."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "no longer exists"
    except OSError as e:
        return f"cannot read: {e.strerror or e}"
    if stat.S_ISLNK(st.st_mode):
        return "is now a symbolic link"
    if not stat.S_ISREG(st.st_mode):
        return "is no longer a regular file"
    if st.st_size != size:
        return f"size changed since the scan ({size} -> {st.st_size} bytes)"
    if st.st_mtime_ns != mtime_ns:
        return "modified since the scan (modification time differs)"
    if not content_hash:
        return "no content hash in the results; rescan first"
    try:
        h = hash_file(path)
    except OSError as e:
        return f"cannot read: {e.strerror or e}"
    if h != content_hash:
        return "content changed since the scan (hash differs)"
    return None


def unique_path(path: str, taken: set[str] | None = None) -> str:
    """``path`` if free, else ``name (1).ext``, ``name (2).ext``... never an existing path."""
    taken = taken or set()
    if not os.path.lexists(path) and path not in taken:
        return path
    base, ext = os.path.splitext(path)
    n = 1
    while True:
        cand = f"{base} ({n}){ext}"
        if not os.path.lexists(cand) and cand not in taken:
            return cand
        n += 1


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _place_no_clobber(src: str, dest: str) -> str:
    """Give ``src`` the extra name ``dest`` (hard link), or rename it when links are not
    supported. Raises FileExistsError rather than replace anything at ``dest``."""
    try:
        os.link(src, dest, follow_symlinks=False)
        return "link"
    except FileExistsError:
        raise
    except OSError as e:
        if e.errno not in NO_HARD_LINKS:  # EXDEV too is raised: the caller copies
            raise
    # No hard links here (FAT, some network shares): check, then rename.
    if os.path.lexists(dest):
        raise FileExistsError(errno.EEXIST, "destination exists", dest)
    os.rename(src, dest)
    return "rename"


def temp_name_for(dest: str) -> str:
    """A temporary name beside ``dest`` for a cross-file-system copy."""
    return os.path.join(os.path.dirname(dest), TMP_PREFIX + uuid.uuid4().hex)


def _remove_src_or_undo(src: str, dest: str) -> None:
    """Second half of a move: drop ``src``; if that fails, drop ``dest`` so nothing changed."""
    try:
        os.unlink(src)
    except OSError:
        try:
            os.unlink(dest)
        except OSError:
            pass
        raise


def move_file(src: str, dest: str, expected_hash: str, tmp: str | None = None) -> str:
    """Move ``src`` to ``dest`` without overwriting; returns how ("link", "rename", "copy").

    Same file system: hard link ``dest`` then remove ``src`` (atomic no-clobber; other hard
    links of the file are untouched). Across file systems: copy to a temporary name beside
    ``dest``, fsync, verify the hash, link into place, and only then remove ``src``.
    ``tmp`` is that temporary name (journal it first, so recovery can clean it up). If
    removing ``src`` fails, ``dest`` is removed again and the error raised: nothing moved.

    When ``src`` and ``dest`` are :class:`Anchored` (see :func:`anchor`), every step goes
    through their open folders (``dir_fd``), so a folder swapped for a symbolic link
    meanwhile cannot redirect it.
    """
    if isinstance(src, Anchored) and isinstance(dest, Anchored):
        return _move_at(src, dest, expected_hash, tmp)
    os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
    try:
        how = _place_no_clobber(src, dest)
    except OSError as e:
        if e.errno != errno.EXDEV:
            raise
    else:
        if how == "link":
            _remove_src_or_undo(src, dest)
        _fsync_dir(os.path.dirname(dest))
        return how
    tmp = tmp or temp_name_for(dest)
    try:
        with open(src, "rb") as fi, open(tmp, "xb") as fo:
            shutil.copyfileobj(fi, fo, HASH_CHUNK)
            fo.flush()
            os.fsync(fo.fileno())
        shutil.copystat(src, tmp)
        if hash_file(tmp) != expected_hash:
            raise OSError(errno.EIO, "the copy does not match the original (hash differs)")
        _place_no_clobber(tmp, dest)
        if os.path.lexists(tmp):
            os.unlink(tmp)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise
    _fsync_dir(os.path.dirname(dest))
    _remove_src_or_undo(src, dest)
    return "copy"


# ---- acting through open folders ------------------------------------------------------
#
# A path is acted on through its folder, opened component by component from the scanned
# root down with O_NOFOLLOW | O_DIRECTORY: a folder on the way that is (or becomes) a
# symbolic link makes the open fail instead of leading outside the root, and the last step
# (stat, open, link, unlink) is done with dir_fd= on the folder already open, without
# following a symbolic link. The root itself is opened as the user gave it.

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRFLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
FD_SAFE = ({os.open, os.stat, os.unlink, os.link, os.mkdir, os.rename, os.rmdir}
           <= os.supports_dir_fd and bool(_NOFOLLOW))


class Unsafe(Exception):
    """A path that cannot be acted on safely; the message is the reason shown."""


class AtName(str):
    """The last component of a path, used with ``dir_fd=`` (the str value is what the
    system call sees); it prints (``str``, ``repr``, error messages) as the full path."""

    full: str

    def __new__(cls, name: str, full: str) -> AtName:
        o = super().__new__(cls, name)
        o.full = full
        return o

    def __str__(self) -> str:
        return self.full

    def __repr__(self) -> str:
        return repr(self.full)


class Anchored(str):
    """A full path (the str value) whose folder is held open: act on it with
    ``name`` and ``dir_fd=dir_fd``. Close it (or use ``with``) when done."""

    dir_fd: int | None
    name: AtName
    root: str

    def __new__(cls, path: str, dir_fd: int | None, name: str, root: str) -> Anchored:
        o = super().__new__(cls, path)
        o.dir_fd, o.name, o.root = dir_fd, AtName(name, path), root
        return o

    def close(self) -> None:
        fd, self.dir_fd = self.dir_fd, None
        if fd is not None:
            os.close(fd)

    def __enter__(self) -> Anchored:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except (OSError, AttributeError):
            pass

    def lstat(self) -> os.stat_result | None:
        """The entry's own status (not following a link), or None if there is none."""
        try:
            return os.stat(self.name, dir_fd=self.dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return None


def is_under(path: str, root: str) -> bool:
    """Is ``path`` strictly inside ``root`` (both compared as normalised absolute paths)?"""
    if not path or not root:
        return False
    path, root = os.path.normpath(path), os.path.normpath(root)
    return path != root and path.startswith(root.rstrip(os.sep) + os.sep)


def outside_reason(path: str, root: str) -> str | None:
    """Why ``path`` does not lie under ``root`` now, following links (None if it does)."""
    if not root:
        return "no scan root is recorded for it (results from an older simdup?); rescan"
    if os.path.normpath(path) != path or not os.path.isabs(path):
        return "its path is not a plain absolute path; rescan"
    if not is_under(path, root):
        return f"it is not under its scanned root {root}"
    try:
        real, real_root = os.path.realpath(path), os.path.realpath(root)
    except OSError as e:  # a link on the way vanished while being read
        return f"cannot resolve its real path: {e.strerror or e}"
    if not is_under(real, real_root):
        return (f"its real path {real} is outside the scanned root {root} (a folder on its "
                "path was replaced by a symbolic link?); not touched")
    return None


def _why_not_folder(fd: int, name: str, shown: str) -> str:
    try:
        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return f"the folder {shown} no longer exists"
    except OSError as e:
        return f"cannot open the folder {shown}: {e.strerror or e}"
    if stat.S_ISLNK(st.st_mode):
        return (f"the folder {shown} is now a symbolic link (not followed: it could lead "
                "outside the scanned root)")
    return f"{shown} is no longer a folder"


def open_folder(root: str, parts: list[str], create: bool = False) -> int:
    """Open ``root/parts...`` one component at a time without following links below
    ``root``; with ``create``, make missing folders (``root`` too). Raises :class:`Unsafe`."""
    try:
        if create:
            os.makedirs(root, exist_ok=True)
        fd = os.open(root, _DIRFLAGS)
    except FileNotFoundError:
        raise Unsafe(f"the folder {root} no longer exists") from None
    except OSError as e:
        raise Unsafe(f"cannot open the folder {root}: {e.strerror or e}") from None
    shown = root
    try:
        for part in parts:
            shown = os.path.join(shown, part)
            if create:
                try:
                    os.mkdir(part, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                except OSError as e:
                    raise Unsafe(f"cannot make the folder {shown}: {e.strerror or e}") from None
            try:
                nfd = os.open(part, _DIRFLAGS | _NOFOLLOW, dir_fd=fd)
            except OSError:
                raise Unsafe(_why_not_folder(fd, part, shown)) from None
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return fd


def anchor(path: str, root: str, create: bool = False) -> Anchored:
    """``path`` (under ``root``) with its folder opened from ``root`` down, never through a
    symbolic link; ``create`` makes missing folders. Raises :class:`Unsafe`."""
    if not is_under(path, root):
        raise Unsafe(f"{path} is not under {root}")
    root = os.path.normpath(root)
    parts = os.path.relpath(os.path.normpath(path), root).split(os.sep)
    if not FD_SAFE:  # no dir_fd here (Windows): paths, after the real-path check
        if create:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        return Anchored(path, None, path, root)
    return Anchored(path, open_folder(root, parts[:-1], create), parts[-1], root)


def hash_fd(fd: int) -> str:
    """The content hash of what ``fd`` reads from its current position to the end."""
    return _read_hash(fd)


def _read_hash(fd: int) -> str:
    h = hashlib.blake2b(digest_size=16)
    while chunk := os.read(fd, HASH_CHUNK):
        h.update(chunk)
    return h.hexdigest()


def open_at(a: Anchored, st: os.stat_result | None = None) -> int:
    """Open the regular file ``a`` for reading (no link followed); if ``st`` is given it
    must still be that file (device and inode)."""
    fd = os.open(a.name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0),
                 dir_fd=a.dir_fd)
    fst = os.fstat(fd)
    if not stat.S_ISREG(fst.st_mode) or (st is not None and not same_file(fst, st)):
        os.close(fd)
        raise OSError(errno.ESTALE, "the file was replaced while being checked", str(a))
    return fd


def hash_at(a: Anchored, st: os.stat_result | None = None) -> str:
    fd = open_at(a, st)
    try:
        return _read_hash(fd)
    finally:
        os.close(fd)


def same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def changed_reason_at(a: Anchored, size: int, mtime_ns: int, content_hash: str,
                      ino: int = 0, dev: int = 0) -> tuple[str | None, os.stat_result | None]:
    """:func:`changed_reason` through the open folder, plus the scan's inode and device
    (when known). Returns (reason or None, the file's status)."""
    try:
        st = os.stat(a.name, dir_fd=a.dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return "no longer exists", None
    except OSError as e:
        return f"cannot read: {e.strerror or e}", None
    if stat.S_ISLNK(st.st_mode):
        return "is now a symbolic link", st
    if not stat.S_ISREG(st.st_mode):
        return "is no longer a regular file", st
    if ino and st.st_ino != ino or dev and st.st_dev != dev:
        return "is not the file the scan saw (another file, device or inode, took its " \
            "place)", st
    if st.st_size != size:
        return f"size changed since the scan ({size} -> {st.st_size} bytes)", st
    if st.st_mtime_ns != mtime_ns:
        return "modified since the scan (modification time differs)", st
    if not content_hash:
        return "no content hash in the results; rescan first", st
    try:
        h = hash_at(a, st)
    except OSError as e:
        return f"cannot read: {e.strerror or e}", st
    if h != content_hash:
        return "content changed since the scan (hash differs)", st
    return None, st


def hash_or_none(a: Anchored, st: os.stat_result) -> str | None:
    """The content hash of the regular file ``a`` (status ``st``); None for anything else
    or a file that cannot be read."""
    if not stat.S_ISREG(st.st_mode):
        return None
    try:
        return hash_at(a, st)
    except OSError:
        return None


def drop_temp(folder: Anchored, tmp: str) -> None:
    """Remove simdup's temporary copy ``tmp`` (beside ``folder``'s file) if it is there."""
    if os.path.dirname(tmp) != os.path.dirname(str(folder)) or \
            not os.path.basename(tmp).startswith(TMP_PREFIX):
        return
    t = Anchored(tmp, None, os.path.basename(tmp), folder.root)
    t.dir_fd = folder.dir_fd
    try:
        t_st = t.lstat()
        if t_st is not None and stat.S_ISREG(t_st.st_mode):
            unlink_at(t, t_st)
    finally:
        t.dir_fd = None


def unlink_at(a: Anchored, st: os.stat_result | None = None) -> None:
    """Remove ``a`` (never through a link); if ``st`` is given it must still be that file."""
    if st is not None:
        now = a.lstat()
        if now is None:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(a))
        if not same_file(now, st):
            raise OSError(errno.ESTALE, "another file took its place just now; not removed",
                          str(a))
    os.unlink(a.name, dir_fd=a.dir_fd)


def _fsync_fd(fd: int | None) -> None:
    if fd is None:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass


def _place_at(src: Anchored, sname: str, dest: Anchored) -> str:
    """:func:`_place_no_clobber` through open folders (``sname`` in ``src``'s folder)."""
    try:
        os.link(sname, dest.name, src_dir_fd=src.dir_fd, dst_dir_fd=dest.dir_fd,
                follow_symlinks=False)
        return "link"
    except FileExistsError:
        raise
    except OSError as e:
        if e.errno not in NO_HARD_LINKS:  # EXDEV too is raised: the caller copies
            raise
    if dest.lstat() is not None:
        raise FileExistsError(errno.EEXIST, "destination exists", str(dest))
    os.rename(sname, dest.name, src_dir_fd=src.dir_fd, dst_dir_fd=dest.dir_fd)
    return "rename"


def _remove_src_or_undo_at(src: Anchored, dest: Anchored, st: os.stat_result,
                           placed: os.stat_result | None = None) -> None:
    """Second half of a move: drop ``src`` if it is still the file ``st``; if that fails,
    drop ``dest`` again (only if it is still what was placed there: ``placed``, default
    ``st``, a hard link of it) so nothing changed."""
    try:
        unlink_at(src, st)
    except OSError:
        try:
            now = dest.lstat()
            if now is not None and same_file(now, placed or st):
                os.unlink(dest.name, dir_fd=dest.dir_fd)
        except OSError:
            pass
        raise


def _move_at(src: Anchored, dest: Anchored, expected_hash: str, tmp: str | None) -> str:
    st = src.lstat()
    if st is None:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(src))
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(src))
    try:
        how = _place_at(src, src.name, dest)
    except OSError as e:
        if e.errno != errno.EXDEV:
            raise
    else:
        if how == "link":
            _remove_src_or_undo_at(src, dest, st)
        _fsync_fd(dest.dir_fd)
        return how
    tst = copy_at(src, st, dest, expected_hash, tmp)
    _remove_src_or_undo_at(src, dest, st, tst)
    return "copy"


def copy_at(src: Anchored, st: os.stat_result, dest: Anchored, expected_hash: str,
            tmp: str | None = None) -> os.stat_result:
    """Copy the checked file ``src`` (status ``st``) to ``dest``, never over anything there
    (FileExistsError): into the temporary name ``tmp`` beside it (journal it first) with
    its mode and times, fsynced, verified by ``expected_hash``, then given the name
    ``dest``. Returns the copy's status. A half-made copy is removed on failure."""
    tmp = tmp or temp_name_for(str(dest))
    tname = AtName(os.path.basename(tmp) if FD_SAFE else tmp, tmp)
    made = False
    try:
        fi = open_at(src, st)
        try:
            _copy_into(fi, dest.dir_fd, tname, st)
            made = True
        finally:
            os.close(fi)
        tst = os.stat(tname, dir_fd=dest.dir_fd, follow_symlinks=False)
        tmp_a = Anchored(tmp, None, tname, dest.root)
        tmp_a.dir_fd = dest.dir_fd  # borrowed: not closed by tmp_a
        try:
            if hash_at(tmp_a, tst) != expected_hash:
                raise OSError(errno.EIO, "the copy does not match the original (hash differs)")
            placed_how = _place_at(tmp_a, tname, dest)
        finally:
            tmp_a.dir_fd = None
        made = False
        if placed_how == "link":
            os.unlink(tname, dir_fd=dest.dir_fd)
    except BaseException:
        if made:
            try:
                os.unlink(tname, dir_fd=dest.dir_fd)
            except OSError:
                pass
        raise
    _fsync_fd(dest.dir_fd)
    return tst


def prune_empty_at(top: str, folder: str) -> None:
    """Remove ``folder`` and its parents while empty, up to (not including) ``top``,
    through open folders (never through a link)."""
    if not is_under(folder, top):
        return
    parts = os.path.relpath(os.path.normpath(folder), os.path.normpath(top)).split(os.sep)
    if not FD_SAFE:
        while is_under(folder, top):
            try:
                os.rmdir(folder)
            except OSError:
                return
            folder = os.path.dirname(folder)
        return
    fds: list[int] = []
    try:
        fds.append(os.open(top, _DIRFLAGS))
        for part in parts[:-1]:
            fds.append(os.open(part, _DIRFLAGS | _NOFOLLOW, dir_fd=fds[-1]))
        for i in range(len(parts) - 1, -1, -1):
            os.rmdir(parts[i], dir_fd=fds[i])
    except OSError:
        pass
    finally:
        for fd in fds:
            os.close(fd)


# ---- trash -----------------------------------------------------------------------------

def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def _mount_point(path: str) -> str:
    path = os.path.realpath(path)
    while not os.path.ismount(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def home_trash() -> str:
    data = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(data, "Trash")


def trash_dirs_for(path: str) -> list[tuple[str, str]]:
    """(trash folder, the folder its Path= entries are relative to) candidates for ``path``."""
    top = _mount_point(os.path.dirname(os.path.abspath(path)))
    data = os.path.dirname(home_trash())
    return [(home_trash(), data), (os.path.join(top, ".Trash", str(_uid())), top),
            (os.path.join(top, f".Trash-{_uid()}"), top)]


def read_info_path(info_file: str) -> str | None:
    """The ``Path=`` of a ``.trashinfo`` note, as a file name: read as bytes and
    percent-decoded to bytes (a name need not be UTF-8), then decoded as the file system
    does (undecodable bytes become surrogate escapes, as in ``os.listdir``)."""
    try:
        with open(info_file, "rb") as fh:
            data = fh.read(1 << 16)
    except OSError:
        return None
    for line in data.splitlines():
        if line.startswith(b"Path="):
            return os.fsdecode(unquote_to_bytes(line[5:].strip()))
    return None


def trash_root_of(trash_file: str) -> str:
    """The trash folder of a file in its ``files/`` folder (``<trash>/files/<name>``)."""
    return os.path.dirname(os.path.dirname(trash_file))


def find_trash_entry(path: str, claimed: set[str] | None = None) -> dict | None:
    """Find the freedesktop trash entry (files/ and info/ paths) for a just-trashed ``path``.

    Returns None where there is none to find (macOS, Windows, or an unusual trash layout).
    """
    if sys.platform in ("darwin", "win32"):
        return None
    claimed = claimed or set()
    target = os.path.abspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    best: tuple[int, dict] | None = None
    for trash, top in trash_dirs_for(path):
        info_dir = os.path.join(trash, "info")
        try:
            names = [n for n in os.listdir(info_dir)
                     if n.startswith(stem) and n.endswith(".trashinfo")]
        except OSError:
            continue
        for n in names:
            info = os.path.join(info_dir, n)
            if info in claimed:
                continue
            p = read_info_path(info)
            if p is None or os.path.normpath(os.path.join(top, p)) != target:
                continue
            files = os.path.join(trash, "files", n[: -len(".trashinfo")])
            if not os.path.lexists(files):
                continue
            mt = os.stat(info).st_mtime_ns
            if best is None or mt > best[0]:
                best = (mt, {"trash_file": files, "trash_info": info})
    return best[1] if best else None


def send_to_trash(path: str) -> None:
    """The system trash (send2trash); imported late so the engine loads without it."""
    from send2trash import send2trash

    send2trash(path)


# ---- replacing a file by a link (hardlink / symlink actions) ---------------------------

def sibling(a: Anchored, path: str) -> Anchored:
    """``path`` (a name in ``a``'s folder) reached through ``a``'s open folder, which it
    borrows: it is not closed by the returned object (set its ``dir_fd`` to None first)."""
    name = os.path.basename(path) if FD_SAFE else path
    s = Anchored(path, None, name, a.root)
    s.dir_fd = a.dir_fd
    return s


def is_link_to(a: Anchored, st: os.stat_result | None, kind: str, target: str,
               target_dev: int, target_ino: int) -> bool:
    """Is ``a`` (status ``st``) the link simdup made: a symbolic link to ``target``
    (``kind`` "symlink") or a name of the file ``(target_dev, target_ino)`` ("hardlink")?"""
    if st is None:
        return False
    if kind == "symlink":
        if not stat.S_ISLNK(st.st_mode):
            return False
        try:
            return os.readlink(a.name, dir_fd=a.dir_fd) == target
        except OSError:
            return False
    return stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) == (target_dev, target_ino)


def make_link_at(kind: str, target: Anchored, dest: Anchored) -> None:
    """Make ``dest`` (which must not exist) a hard link of ``target`` or a symbolic link to
    ``target``'s absolute path. A hard link across file systems raises EXDEV."""
    if kind == "hardlink":
        os.link(target.name, dest.name, src_dir_fd=target.dir_fd, dst_dir_fd=dest.dir_fd,
                follow_symlinks=False)
    else:
        os.symlink(str(target), dest.name, dir_fd=dest.dir_fd)


def duplicate_at(src: Anchored, st: os.stat_result, dest: Anchored, expected_hash: str) -> str:
    """Give the file ``src`` (status ``st``) a second name ``dest`` (which must not exist;
    FileExistsError), keeping ``src``: a hard link on one file system ("link"), otherwise a
    copy with its mode and times, fsynced and verified by hash ("copy"). A half-made copy
    is removed on failure."""
    try:
        os.link(src.name, dest.name, src_dir_fd=src.dir_fd, dst_dir_fd=dest.dir_fd,
                follow_symlinks=False)
        _fsync_fd(dest.dir_fd)
        return "link"
    except FileExistsError:
        raise
    except OSError as e:
        if e.errno not in (errno.EXDEV, *NO_HARD_LINKS):
            raise
    _room_for(dest, st.st_size)
    fi = open_at(src, st)
    made = False
    try:
        _copy_into(fi, dest.dir_fd, dest.name, st)
        made = True
        if hash_at(dest) != expected_hash:
            raise OSError(errno.EIO, "the copy does not match the original (hash differs)",
                          str(dest))
        made = False
    finally:
        os.close(fi)
        if made:
            try:
                os.unlink(dest.name, dir_fd=dest.dir_fd)
            except OSError:
                pass
    _fsync_fd(dest.dir_fd)
    return "copy"


SPARE_BYTES = 256 << 20  # left free on a disk that receives a copy (held originals)


def _room_for(dest: Anchored, size: int) -> None:
    """OSError (ENOSPC) unless the disk of ``dest``'s folder has room for ``size`` bytes and
    SPARE_BYTES more: a copy kept for undo must not fill the user's home disk."""
    try:
        v = os.fstatvfs(dest.dir_fd) if dest.dir_fd is not None else os.statvfs(
            os.path.dirname(str(dest)))
    except (OSError, AttributeError):  # unknown: the copy says so if the disk fills
        return
    free = v.f_bavail * v.f_frsize
    if free < size + SPARE_BYTES:
        raise OSError(errno.ENOSPC, f"not enough free space to hold a copy of it for undo "
                      f"({free >> 20} MB free, {(size + SPARE_BYTES) >> 20} MB needed); "
                      "not touched", os.path.dirname(str(dest)))


def _copy_into(fi: int, dir_fd: int | None, name: str, st: os.stat_result) -> None:
    """Copy the open file ``fi`` into a new file ``name`` in the folder ``dir_fd`` (never
    over an existing one, no link followed) with ``st``'s mode and times, fsynced. A
    half-made copy is removed before the error goes on."""
    fo = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600,
                 dir_fd=dir_fd)
    try:
        try:
            while chunk := os.read(fi, HASH_CHUNK):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fo, view):]
            os.fsync(fo)
            try:
                os.fchmod(fo, stat.S_IMODE(st.st_mode))
            except (OSError, AttributeError):
                pass
            os.utime(fo, ns=(st.st_atime_ns, st.st_mtime_ns))
        finally:
            os.close(fo)
    except BaseException:
        try:
            os.unlink(name, dir_fd=dir_fd)
        except OSError:
            pass
        raise


def replace_at(tmp: Anchored, dest: Anchored, expect: os.stat_result | None) -> None:
    """Rename ``tmp`` over ``dest`` (both in one open folder), only if ``dest`` is still
    the file ``expect`` (or, with ``expect`` None, still absent: then nothing is ever
    replaced). Raises OSError (ESTALE) if another file took its place."""
    now = dest.lstat()
    if expect is None:
        if now is not None:
            raise FileExistsError(errno.EEXIST, "something appeared there meanwhile",
                                  str(dest))
        os.link(tmp.name, dest.name, src_dir_fd=tmp.dir_fd, dst_dir_fd=dest.dir_fd,
                follow_symlinks=False)
        os.unlink(tmp.name, dir_fd=tmp.dir_fd)
    else:
        if now is None or not same_file(now, expect):
            raise OSError(errno.ESTALE, "another file took its place just now; not replaced",
                          str(dest))
        os.rename(tmp.name, dest.name, src_dir_fd=tmp.dir_fd, dst_dir_fd=dest.dir_fd)
    _fsync_fd(dest.dir_fd)
