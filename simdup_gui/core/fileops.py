"""File operations that never overwrite and never lose the source before the copy is safe."""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import sys
import uuid
from urllib.parse import unquote

HASH_CHUNK = 1 << 20
TMP_PREFIX = ".simdup-tmp-"


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
        if e.errno == errno.EXDEV:
            raise
        if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK,
                           errno.EACCES, errno.ENOSYS):
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
    """
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


def _read_info_path(info_file: str) -> str | None:
    try:
        with open(info_file, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("Path="):
                    return unquote(line[5:].rstrip("\n"))
    except OSError:
        return None
    return None


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
            p = _read_info_path(info)
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
