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

from ..owners import chain_problem, others_can_write, uid
from .fileops import is_under

def _trusted(path: str, trusted: Sequence[str]) -> bool:
    return any(is_under(os.path.abspath(path), os.path.abspath(t)) for t in trusted)


def kept_copy_problem(kept: str, kept_st: os.stat_result, marked_st: os.stat_result | None,
                      trusted: Sequence[str] = ()) -> str | None:
    """Why the kept copy ``kept`` (status ``kept_st``) must not justify acting on a file
    with status ``marked_st``, or None. Folders the user named (``trusted``) are exempt."""
    if _trusted(kept, trusted):
        return None
    owners = {uid()} | ({marked_st.st_uid} if marked_st is not None else set())
    if kept_st.st_uid not in owners:
        return (f"belongs to another account (uid {kept_st.st_uid}), which could change or "
                "remove it; name its folder as trusted to use it")
    if others_can_write(kept_st, kept):
        return "can be changed by other accounts; name its folder as trusted to use it"
    why = chain_problem(kept, owners)
    return None if why is None else why + "; name its folder as trusted to use it"


def destination_problem(folder: str, trusted: Sequence[str] = ()) -> str | None:
    """Why files moved into ``folder`` would be in another account's reach, or None: the
    folder (created if missing) must be the user's, out of other accounts' reach, like a
    kept copy's folder."""
    if _trusted(folder, trusted):
        return None
    existing = os.path.abspath(folder)
    while not os.path.isdir(existing) and os.path.dirname(existing) != existing:
        existing = os.path.dirname(existing)  # (the folders still to make are ours)
    why = chain_problem(os.path.join(existing, "moved-file"))
    return None if why is None else (f"its destination {why}; name it as trusted to move "
                                     "files there")


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
    account, others can write it, or a folder above it is in another account's reach
    (they could have crafted its paths, or swap it). See :func:`read_own_results`."""
    try:
        with _open_checked(path) as fh:
            _own_results_problem(path, os.fstat(fh.fileno()))
    except _NotOwn as e:
        return str(e)
    except OSError as e:
        return f"cannot check it: {e.strerror or e}"
    return None


class _NotOwn(Exception):
    pass


def _open_checked(path: str):
    """``path`` opened for reading without waiting: a FIFO (or a device) planted in place
    of a results file would make a plain open wait for a writer for ever, before any check
    could say no (_NotOwn for anything but a regular file)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _NotOwn("it is not a regular file (a pipe, a device or a folder)")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _own_results_problem(path: str, st: os.stat_result) -> None:
    if st.st_uid != uid():
        raise _NotOwn(f"it belongs to another account (uid {st.st_uid}): a results file "
                      "names the files to act on, so only your own are used")
    if others_can_write(st, path):
        raise _NotOwn("other accounts can write it, so its list of files may not be yours")
    why = chain_problem(path)
    if why is not None:
        raise _NotOwn(f"it {why}, where it could be swapped")


def _open_regular(path: str):
    try:
        return _open_checked(path)
    except _NotOwn as e:
        raise ValueError(f"refusing {path}: {e}") from None


def read_own_results(path: str, trust: bool = False) -> str:
    """The text of the results file ``path``, read from the one descriptor that was checked
    (:func:`results_file_problem`'s rules, unless ``trust``): ValueError saying why not."""
    with (open(path, "rb") if trust else _open_regular(path)) as fh:
        if not trust:
            try:
                _own_results_problem(path, os.fstat(fh.fileno()))
            except _NotOwn as e:
                raise ValueError(f"refusing {path}: {e} (use --trust-results if you are sure "
                                 "it is what you reviewed)") from None
        return fh.read().decode("utf-8", "surrogateescape")


def broad_roots(roots: Sequence[str]) -> list[str]:
    """The roots that are a whole file system, a whole home folder (anyone's: an
    administrator's results can name another user's) or the folder of all homes: acting
    under them needs the user's explicit word."""
    homes: set[str] = set()
    try:
        import pwd

        homes = {os.path.realpath(p.pw_dir) for p in pwd.getpwall()  # people and root,
                 if (p.pw_uid >= 1000 and p.pw_uid != 65534 or p.pw_uid == 0)  # not daemons
                 and p.pw_dir and p.pw_dir != "/" and os.path.isdir(p.pw_dir)}
    except (ImportError, OSError):
        pass
    homes |= {os.path.dirname(h) for h in homes if os.path.dirname(h) != "/"}  # /home
    homes.add(os.path.realpath(os.path.expanduser("~")))
    out = []
    for r in roots:
        real = os.path.realpath(r)
        if real in homes or os.path.dirname(real) == real:
            out.append(r)
    return out
