"""The kept copies that justify acting on a file: still there unchanged, inside a scanned
root, out of other accounts' reach (:class:`KeptChecker`), and held against a second simdup
acting at the same moment (:class:`PairGuard`)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .fileops import (Anchored, Unsafe, anchor, changed_reason_at, hash_fd, is_under, open_at,
                      outside_reason, same_file)
from .outcome import error_text
from .trust import kept_copy_problem

NEAR_REASON = ("not byte-identical to any kept copy (a near duplicate): a link would lose "
               "its differences, so only exact copies are replaced by links; not touched")



@dataclass
class KeptCopy:
    path: str
    size: int
    mtime_ns: int
    content_hash: str
    root: str = ""  # its scan root, inode and device (0: not known); see bind_scan_identity
    ino: int = 0
    dev: int = 0


def check_file(path: str, root: str, size: int, mtime_ns: int, content_hash: str,
                ino: int = 0, dev: int = 0
                ) -> tuple[str | None, os.stat_result | None, Anchored | None]:
    """Is ``path`` still the file the scan saw, and inside its scanned ``root``? Returns
    (reason it is not, or None; its status; the file with its folder held open, which the
    caller closes)."""
    why = outside_reason(path, root)
    if why is not None:
        return why, None, None
    try:
        loc = anchor(path, root)
    except Unsafe as e:
        return str(e), None, None
    why, st = changed_reason_at(loc, size, mtime_ns, content_hash, ino, dev)
    return why, st, loc


class KeptChecker:
    """Is some kept copy of a file still there unchanged, inside a scanned root, and out of
    other accounts' reach (trust.kept_copy_problem; ``trusted``: folders the user named)?
    Hashes each kept file once per run unless its size, mtime or inode changes in between."""

    def __init__(self, roots: set[str], trusted: Sequence[str] = ()) -> None:
        self.roots = roots
        self.trusted = list(trusted)
        self.linked: dict[str, list[str]] = {}  # files simdup's symbolic links point to
        self.destination: str | None = None  # why a move's destination is not safe
        self._cache: dict[str, tuple[tuple, str | None]] = {}

    def _usable(self, k: KeptCopy, marked_st: os.stat_result | None) -> str | None:
        why = self._check(k)
        if why is None:
            try:
                kst = os.stat(k.path)
            except OSError as e:
                return f"cannot be checked: {e.strerror or e}"
            why = kept_copy_problem(k.path, kst, marked_st, self.trusted)
        return why

    def recheck(self, k: KeptCopy) -> str | None:
        """``k`` checked again from the disk (its hash read again, nothing cached): the
        last look before a file is removed or replaced on its account."""
        self._cache.pop(k.path, None)
        why = self._check(k)
        self._cache.pop(k.path, None)
        return None if why is None else f"its kept copy {k.path} {why} just now; not touched"

    def _check(self, k: KeptCopy) -> str | None:
        try:
            st = os.lstat(k.path)
            key = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev, st.st_mode)
        except OSError:
            key = ()
        hit = self._cache.get(k.path)
        if hit is not None and hit[0] == key and key:
            return hit[1]
        root = k.root or root_for(k.path, self.roots)
        if not root:
            self._cache[k.path] = (key, "is not under a scanned root")
            return "is not under a scanned root"
        why, _, loc = check_file(k.path, root, k.size, k.mtime_ns, k.content_hash, k.ino,
                                  k.dev)
        if loc is not None:
            loc.close()
        self._cache[k.path] = (key, why)
        return why

    def identical(self, op, marked_st: os.stat_result | None = None
                  ) -> tuple[KeptCopy | None, str | None]:
        """A kept copy with the same bytes as ``op``'s file (its content hash), still there
        unchanged and not that file itself; else (None, the reason)."""
        same = [k for k in op.kept if k.content_hash == op.content_hash and k.path != op.path]
        if not same:
            return None, NEAR_REASON
        return self._first(op, same, marked_st, "is the same file as this one (a symbolic link)",
                           "no unchanged byte-identical kept copy remains")

    def usable(self, op, marked_st: os.stat_result | None = None
               ) -> tuple[KeptCopy | None, str | None]:
        """A kept copy that is fine (still there unchanged, another file, out of other
        accounts' reach); else (None, the reason no kept copy qualifies)."""
        return self._first(op, op.kept, marked_st,
                           "is the same file as the one to remove (link)",
                           "no unchanged kept copy remains")

    def _first(self, op, kept: list[KeptCopy], marked_st: os.stat_result | None,
               same_file_reason: str, none_reason: str) -> tuple[KeptCopy | None, str | None]:
        """The first of ``kept`` that qualifies for ``op``'s file, else why none does."""
        reasons = []
        target = _realpath(op.path)
        for k in kept:
            why = ("is the file to remove itself" if k.path == op.path
                   else self._usable(k, marked_st))
            if why is None and _realpath(k.path) == target:
                why = same_file_reason
            if why is None:
                return k, None
            reasons.append(f"{k.path} {why}")
        return None, f"{none_reason} (" + "; ".join(reasons) + ")"


def _realpath(path: str) -> str | None:
    try:
        return os.path.realpath(path)
    except OSError:  # a link on the way vanished while being read
        return None


LAST_COPY_REASON = ("the last copy on this computer: only a catalog says a copy is on a drive "
                    "that is not plugged in, and on a catalog's word a file is moved or "
                    "trashed, never deleted permanently; not touched")
BUSY_REASON = ("another simdup is acting on it or on its kept copy right now (another "
               "window, user or machine); not touched, so the two never take both copies")


class PairGuard:
    """Advisory locks where the files are, whatever the data folder: an exclusive lock on
    the file about to be deleted, trashed or replaced by a link, and a shared one on the
    kept copy that justifies it, both taken without waiting (flock on descriptors opened
    without following links). Two applies with opposite keeps (two data folders: sudo, a
    Flatpak, two machines on NFS) each find the other's lock on one of the two files and
    skip, so they never remove both copies. The kept copy's bytes are then read again
    through its locked descriptor (:meth:`kept_changed`)."""

    def __init__(self) -> None:
        self.fds: list[int] = []
        self.kept_fd: int | None = None
        self.kept_st: os.stat_result | None = None

    def take(self, loc: Anchored | None, st: os.stat_result | None, k: KeptCopy | None,
             roots: set[str]) -> str | None:
        try:
            import fcntl
        except ImportError:  # no flock (Windows): the checks alone
            return None
        if loc is None or st is None:
            return None
        try:
            fd = open_at(loc, st)
            self.fds.append(fd)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if k is None:
                return None
            kloc, kst, why = anchor_kept(k, roots)
            if why is not None:
                return why
            try:
                if same_file(kst, st):  # one file by two names: the lock above covers it
                    return None
                kfd = open_at(kloc, kst)
            finally:
                kloc.close()
            self.fds.append(kfd)
            fcntl.flock(kfd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            self.kept_fd, self.kept_st = kfd, kst
        except BlockingIOError:
            return BUSY_REASON
        except OSError as e:
            return f"cannot lock it or its kept copy: {error_text(e)}; not touched"
        return None

    def kept_changed(self, k: KeptCopy | None) -> str | None:
        """Why the locked kept copy no longer holds the bytes it was chosen for, or None."""
        if k is None or self.kept_fd is None:
            return None
        try:
            os.lseek(self.kept_fd, 0, os.SEEK_SET)
            st = os.fstat(self.kept_fd)
            if (st.st_size, st.st_mtime_ns) != (k.size, k.mtime_ns) or \
                    hash_fd(self.kept_fd) != k.content_hash:
                return f"its kept copy {k.path} changed just now; not touched"
        except OSError as e:
            return f"cannot read its kept copy {k.path} again: {error_text(e)}; not touched"
        return None

    def release(self) -> None:
        for fd in self.fds:
            os.close(fd)  # (closing drops the lock)
        self.fds.clear()
        self.kept_fd = None


def anchor_kept(k: KeptCopy, roots: set[str]
                 ) -> tuple[Anchored | None, os.stat_result | None, str | None]:
    """The kept copy ``k`` (just checked unchanged) with its folder open, and its status,
    or the reason it cannot be linked to."""
    root = k.root or root_for(k.path, roots)
    try:
        a = anchor(k.path, root)
    except Unsafe as e:
        return None, None, f"its kept copy {k.path}: {e}"
    st = a.lstat()
    if st is None or not stat.S_ISREG(st.st_mode) or (st.st_size, st.st_mtime_ns) != (
            k.size, k.mtime_ns) or k.ino and st.st_ino != k.ino or k.dev and st.st_dev != k.dev:
        a.close()
        return None, None, f"its kept copy {k.path} changed just now; not touched"
    return a, st, None


def root_for(path: str, roots: Iterable[str]) -> str:
    """The innermost of ``roots`` that holds ``path`` ("" if none)."""
    best = ""
    for r in roots:
        if is_under(path, r) and len(r) > len(best):
            best = r
    return best


def path_still_leads_to(loc: Anchored | None, st: os.stat_result | None) -> str | None:
    """The trash takes a path, not a folder: check that the path, followed now, still leads
    through the folder that was opened and checked to the file that was checked."""
    if loc is None or st is None or loc.dir_fd is None:
        return None
    try:
        folder = os.stat(os.path.dirname(str(loc)))
        here = os.lstat(str(loc))
    except OSError as e:
        return f"cannot check its folder: {e.strerror or e}"
    if not same_file(folder, os.fstat(loc.dir_fd)) or not same_file(here, st):
        return "its path no longer leads to the file that was checked (a folder on the " \
            "way changed just now); not touched"
    return None
