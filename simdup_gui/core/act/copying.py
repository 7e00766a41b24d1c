"""The actions that remove nothing: copy a file into a folder, rename a file in its folder
(dupeGuru's "Copy marked to…" and "Rename"), with their journal entries, and how undo and
recovery take them back.

Both are checked like a move before they act (actions.execute: the file inside its scanned
root and unchanged since the scan, reached through folders opened from the root down) and
neither ever writes over a name that exists. A copy is made under a temporary name beside
its destination, verified by its hash, then given its name (fileops.copy_at); a rename is
a move within the folder (a second name, then the old one removed).

Undo moves a renamed file back under its old name (recovery: the move's undo). It removes a
copy only when the copy is still the one made (the same file, the same bytes) and the
original is still there unchanged: a copy that was edited, or that became the last copy of
its text because the original went, stays.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable

from .fileops import (Anchored, Unsafe, anchor, changed_reason_at, drop_temp, hash_at,
                      hash_or_none, prune_empty_at, sibling, unlink_at)
from .journal import JournalState, JournalWriter
from .outcome import Outcome, error_text, journal_write

KEEPS_ALL = ("copy", "rename")  # actions that remove no file: no kept copy is needed


def rename_journaled(op, loc: Anchored, writer: JournalWriter, move_file: Callable) -> str:
    """Give ``op``'s checked file ``loc`` the new name ``op.dest`` in its folder (reached
    through the folder already open), journaled first; never over an existing name
    (FileExistsError). Returns how ("link" and the old name removed, or "rename")."""
    d = sibling(loc, op.dest)
    try:
        journal_write(writer, {"type": "begin", "seq": op.seq, "path": op.path,
                               "dest": op.dest})
        return move_file(loc, d, op.content_hash)
    finally:
        d.dir_fd = None


def rename_problem(op) -> str | None:
    """Why ``op``'s new name cannot be given now (None: it can)."""
    if not op.dest or os.path.dirname(op.dest) != os.path.dirname(op.path):
        return f"its new name {op.dest!r} is not in its folder"
    if os.path.lexists(op.dest):
        return f"{op.dest} exists already: a rename never replaces a file; not renamed"
    return None


def undo_copy(state: JournalState, op, out: Outcome, record: Callable[..., None]) -> Outcome:
    """Remove the copy ``op`` made, if it is unchanged and its original is still there
    unchanged (module docstring); else leave it and say why."""
    r = state.results.get(op.seq, {})
    dest, top = r.get("dest"), state.start.get("move_to") or ""
    out.dest = dest
    try:
        with anchor(dest or "", top) as c, anchor(op.path, op.root) as orig:
            st = c.lstat()
            why = _not_ours(c, st, op, r)
            if why is None:
                gone, _ = changed_reason_at(orig, op.size, op.mtime_ns, op.content_hash,
                                            op.ino, op.dev)
                if gone is not None:
                    why = (f"its original {op.path} is not as it was ({gone}), so the copy "
                           f"may be the last one of its text; the copy stays at {dest}")
            if why is not None:
                out.status, out.reason = "skipped", why
                if st is None:
                    out.status = "done"  # nothing left to take back
                record({"type": "undone" if st is None else "undo-failed", "seq": op.seq,
                        **({"time": time.time()} if st is None else {"error": why})})
                return out
            unlink_at(c, st)
    except (OSError, Unsafe) as e:
        out.status, out.reason = "failed", error_text(e)
        record({"type": "undo-failed", "seq": op.seq, "error": out.reason})
        return out
    try:
        prune_empty_at(top, os.path.dirname(dest))
    except (OSError, Unsafe):
        pass
    out.status, out.reason = "done", "the copy was removed"
    record({"type": "undone", "seq": op.seq, "time": time.time()}, sync=False)
    return out


def _not_ours(c: Anchored, st: os.stat_result | None, op, r: dict) -> str | None:
    """Why the file at the copy's place is not the copy simdup made, unchanged (None if it
    is; "already gone" when nothing is there)."""
    if st is None:
        return f"the copy {c} is gone already"
    if not stat.S_ISREG(st.st_mode):
        return f"{c} is no longer a regular file; left it there"
    if r.get("ino") and (st.st_ino, st.st_dev) != (r.get("ino"), r.get("dev")):
        return f"{c} is no longer the copy simdup made; left it there"
    try:
        same = hash_at(c, st) == op.content_hash
    except OSError as e:
        return f"cannot read {c}: {error_text(e)}"
    if not same:
        return f"the copy {c} was changed since it was made; left it there"
    return None


def settle_copy(state: JournalState, op, b: dict, mode: str) -> str:
    """A copy cut off half-way (begun, no outcome): its unfinished temporary file removed;
    "done" when the copy is in place with the original's bytes (a resume keeps it, an undo
    then removes it), else "none" (not made: a resume copies it again)."""
    dest, tmp, top = b.get("dest"), b.get("tmp"), state.start.get("move_to") or ""
    with anchor(dest or "", top) as d:
        if tmp:
            drop_temp(d, tmp)
        st = d.lstat()
        if st is not None and hash_or_none(d, st) == op.content_hash:
            return "done"
    return "none"
