"""What another account could change: results files, kept copies, links between owners.

A machine may be shared. Another account can write files in a world-writable folder
(``/tmp``), in a folder shared with a group, or hand this user a results file. None of that
may make simdup act for them:

- a results file acts only when this user owns it and nobody else can write it
  (:func:`results_file_problem`), and its roots are not a whole system or home folder unless
  asked (:func:`broad_roots`);
- a kept copy justifies removing or linking a file only when it belongs to this user (or to
  the file's own owner, for an administrator tidying another account's files) and lies in
  no folder others can write (:func:`kept_copy_problem`): otherwise its owner could change
  or delete it right after, and the user's text would be gone, or a link would make the
  user's file show (or run) what another account writes;
- a hard link joins two files for good: their owners, groups and modes must agree
  (:func:`hardlink_problem`).

The user lifts the kept-copy and hard-link rules for folders they name (``trusted``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence

from .fileops import is_under

_OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH


def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def _group_is_private(gid: int, owner_uid: int) -> bool:
    """A user-private group (Debian's default: one group per user, named after them, with no
    other member): its write bit opens the folder to nobody else."""
    try:
        import grp
        import pwd

        g = grp.getgrgid(gid)
        user = pwd.getpwuid(owner_uid)
    except (ImportError, KeyError, OSError):
        return False
    return g.gr_name == user.pw_name and user.pw_gid == gid and not set(g.gr_mem) - {
        user.pw_name}


def others_can_write(st: os.stat_result) -> bool:
    """Whether an account other than the owner can write (create, rename, delete in) the
    folder or file with status ``st``."""
    if st.st_mode & stat.S_IWOTH:
        return True
    return bool(st.st_mode & stat.S_IWGRP) and not _group_is_private(st.st_gid, st.st_uid)


def folder_problem(path: str, owners: set[int] | None = None) -> str | None:
    """Why the folders holding ``path`` are open to other accounts, or None: its own folder
    writable by others (even with the sticky bit: ``/tmp``), or a folder above it writable
    by others without the sticky bit (they could rename the folders below), or its own
    folder owned by an account not in ``owners`` (default: this user; root's always do)."""
    folder = os.path.dirname(os.path.realpath(path))
    first = True
    allowed = (owners or {_uid()}) | {0}
    while True:
        try:
            st = os.stat(folder)
        except OSError as e:
            return f"its folder {folder} cannot be checked ({e.strerror or e})"
        if others_can_write(st) and (first or not st.st_mode & stat.S_ISVTX):
            return (f"lies in {folder}, a folder other accounts can write"
                    if first else f"lies under {folder}, a folder other accounts can write")
        if st.st_uid not in allowed and first:
            return f"lies in {folder}, a folder of another account (uid {st.st_uid})"
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder, first = parent, False


def _trusted(path: str, trusted: Sequence[str]) -> bool:
    return any(is_under(os.path.abspath(path), os.path.abspath(t)) for t in trusted)


def kept_copy_problem(kept: str, kept_st: os.stat_result, marked_st: os.stat_result | None,
                      trusted: Sequence[str] = ()) -> str | None:
    """Why the kept copy ``kept`` (status ``kept_st``) must not justify acting on a file
    with status ``marked_st``, or None. Folders the user named (``trusted``) are exempt."""
    if _trusted(kept, trusted):
        return None
    owners = {_uid()} | ({marked_st.st_uid} if marked_st is not None else set())
    if kept_st.st_uid not in owners:
        return (f"belongs to another account (uid {kept_st.st_uid}), which could change or "
                "remove it; name its folder as trusted to use it")
    if others_can_write(kept_st):
        return "can be changed by other accounts; name its folder as trusted to use it"
    why = folder_problem(kept, owners)
    return None if why is None else why + "; name its folder as trusted to use it"


def hardlink_problem(kept: str, kept_st: os.stat_result, marked_st: os.stat_result,
                     trusted: Sequence[str] = ()) -> str | None:
    """Why a hard link from a file (``marked_st``) to ``kept`` would change who owns or can
    read it: two names of one file share one owner, group and mode, and every later edit."""
    if _trusted(kept, trusted):
        return None
    diff = [what for what, a, b in (("owner", kept_st.st_uid, marked_st.st_uid),
                                    ("group", kept_st.st_gid, marked_st.st_gid),
                                    ("permissions", stat.S_IMODE(kept_st.st_mode),
                                     stat.S_IMODE(marked_st.st_mode))) if a != b]
    if not diff:
        return None
    return (f"its kept copy {kept} differs in {' and '.join(diff)}: a hard link would give "
            f"this file its {' and '.join(diff)}, and share every later edit; not touched")


def results_file_problem(path: str) -> str | None:
    """Why the results file ``path`` must not drive an action, or None: it belongs to another
    account, or others can write it or its folder (they could have crafted its paths)."""
    try:
        st = os.stat(path)
    except OSError as e:
        return f"cannot check it: {e.strerror or e}"
    if st.st_uid != _uid():
        return (f"it belongs to another account (uid {st.st_uid}): a results file names the "
                "files to act on, so only your own are used")
    if others_can_write(st):
        return "other accounts can write it, so its list of files may not be yours"
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fst = os.stat(folder)
    except OSError as e:
        return f"cannot check its folder: {e.strerror or e}"
    if others_can_write(fst) and not fst.st_mode & stat.S_ISVTX:
        return f"its folder {folder} can be written by other accounts, which could replace it"
    return None


def broad_roots(roots: Sequence[str]) -> list[str]:
    """The roots that are a whole file system or a whole home folder (``/``, ``~``, a drive
    root): acting under them needs the user's explicit word."""
    home = os.path.realpath(os.path.expanduser("~"))
    out = []
    for r in roots:
        real = os.path.realpath(r)
        if real == home or os.path.dirname(real) == real:
            out.append(r)
    return out
