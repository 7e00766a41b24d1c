"""Free the space of the originals a link action holds for undo (`simdup release`).

A hardlink or symlink action keeps each replaced original in ``held/<journal id>/``
(:func:`~.journal.held_dir`), so undo can put it back byte-exact; that holds its space.
Releasing deletes a held original only when its bytes are on disk elsewhere right now:
its hash must equal that of the kept side, read now (for a hard link, the file at the
path, which must still be the link simdup made; for a symbolic link, the kept copy it
points to, and the path must still be that symbolic link). Anything else (the kept copy
edited or gone, the path replaced, a file that cannot be read) keeps the held original,
and the report says why.

The journal is read and checked as undo and resume read it (signatures, owner, what it
may touch); each release is journaled (``released``, fsynced) before the unlink, which
goes through the holding folder opened from :func:`~.journal.held_dir` down without
following a link. It holds the action lock, so it never runs beside an undo of the same
journal. Undo afterwards leaves the links of released files and says so.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass

from ..job import NULL_JOB, Cancelled, Job
from ..models import ProgressEvent, human_size
from .actions import LINK_ACTIONS, PlannedOp, root_for
from .fileops import Anchored, Unsafe, anchor, hash_at, prune_empty_at, unlink_at
from .journal import (JournalState, JournalWriter, check_journal, held_dir, read_journal,
                      readable_journals)
from .lock import action_lock
from .outcome import ActionReport, JournalWriteError, Outcome, error_text, journal_write
from .recovery import is_ours

CHANGED_REASON = ("the kept copy changed since; its held original is the only copy of those "
                  "bytes, so it is kept")


class ReleaseRefused(ValueError):
    """The journal is not one whose originals can be released now (another action, or an
    interrupted one); nothing was touched."""


@dataclass
class ReleaseReport(ActionReport):
    """A release's outcomes ("done": the held original was deleted) and the bytes freed."""

    freed: int = 0  # bytes of held originals deleted (or, in a dry run, that would be)

    def summary(self) -> str:
        text = super().summary()
        if self.freed:
            verb = "would free" if self.dry_run else "freed"
            text += f"; {verb} {human_size(self.freed)}"
        return text

    def to_dict(self) -> dict:
        return dict(super().to_dict(), bytes_freed=self.freed)


def releasable(state: JournalState) -> list[int]:
    """The files of a link action that were replaced by a link and not undone: those
    whose held original a release may delete (none for other actions)."""
    if state.action not in LINK_ACTIONS:
        return []
    return [s for s in state.done() if s not in state.undone]


def _holds(state: JournalState) -> bool:
    """Does the holding folder still hold an original of ``state``'s action?"""
    for s in releasable(state):
        h = (state.begun.get(s) or {}).get("held")
        if isinstance(h, str) and os.path.lexists(h):
            return True
    return False


def journals_to_release(folder: str | None = None) -> list[str]:
    """The journals of link actions that still hold originals, newest first (by the time
    the action started)."""
    return [st.path for st in reversed(readable_journals(folder)) if _holds(st)]


def journal_to_release(folder: str | None = None) -> str | None:
    """The newest journal of a link action that still holds originals, or None."""
    found = journals_to_release(folder)
    return found[0] if found else None


def release(journal: str | None = None, job: Job = NULL_JOB, *,
            dry_run: bool = False) -> ReleaseReport:
    """Delete the held originals of the link action in ``journal`` (default: the newest
    one that still holds originals) whose bytes are at the kept side now; with
    ``dry_run`` say what would be freed and touch nothing.

    Raises :class:`~.journal.JournalRefused` for a journal that is not trusted,
    :class:`ReleaseRefused` for one of another action or an interrupted one,
    :class:`~.lock.ActionLocked` while another action runs (not for a dry run), and
    FileNotFoundError when no journal holds originals (``journal`` None). Cancelling
    ``job`` stops between files."""
    if dry_run:
        return _release(journal, job, True)
    with action_lock():
        return _release(journal, job, False)


def _release(journal: str | None, job: Job, dry_run: bool) -> ReleaseReport:
    journal = journal or journal_to_release()
    if journal is None:
        raise FileNotFoundError("nothing to release: no hard or symbolic link action holds "
                                "originals")
    state = read_journal(journal)
    check_journal(state, for_resume=True)
    if state.action not in LINK_ACTIONS:
        raise ReleaseRefused(f"{journal} is a {state.action} action: only a replacement by "
                             "hard or symbolic links holds originals; nothing to release")
    if os.path.islink(held_dir()):
        raise ReleaseRefused(f"the holding folder {held_dir()} is a symbolic link; simdup "
                             "deletes nothing through it, so nothing was released")
    if state.interrupted or state.pending():
        raise ReleaseRefused(f"the action in {journal} was interrupted: finish it with "
                             f"`simdup resume {journal}` or take it back with `simdup undo "
                             f"{journal}` first; nothing was released")
    report = ReleaseReport("release", dry_run=dry_run, journal=journal)
    todo = releasable(state)
    roots = {str(o.get("root")) for o in state.ops if o.get("root")}
    writer = None if dry_run else JournalWriter(journal)
    try:
        for i, seq in enumerate(todo):
            op = PlannedOp.from_dict(state.ops[seq])
            job.report(ProgressEvent("release", i, len(todo), current=op.path))
            try:
                job.check()
            except Cancelled:
                report.cancelled = True
                break
            try:
                out, freed = _release_one(state, op, roots, writer)
            except JournalWriteError as e:  # before the unlink: this one is still held
                report.outcomes.append(Outcome(op.path, "skipped", "release", size=op.size,
                                               group_id=op.group_id, reason=f"not released: {e}"))
                report.stopped = f"{e}; stopped before the next file"
                break
            if out is not None:
                report.outcomes.append(out)
                report.freed += freed
    finally:
        if writer is not None:
            writer.close()
    job.report(ProgressEvent("done", len(report.outcomes), len(report.outcomes)))
    return report


def _release_one(state: JournalState, op: PlannedOp, roots: set[str],
                 writer: JournalWriter | None) -> tuple[Outcome | None, int]:
    """Release the held original of ``op`` if its bytes are at the kept side; (its
    outcome, bytes freed). None: already released, nothing to report. ``writer`` None:
    a dry run."""
    b = state.begun.get(op.seq) or {}
    held = b.get("held")
    out = Outcome(op.path, "skipped", "release", dest=held, size=op.size, group_id=op.group_id)
    if not isinstance(held, str):
        out.reason = "the journal does not say where its original is held"
        return out, 0
    if op.seq in state.undo_open:
        out.reason = (f"an undo of it was cut off half-way; finish it with `simdup undo "
                      f"{state.path}` first; its held original is kept")
        return out, 0
    try:
        h = anchor(held, held_dir())
    except Unsafe as e:
        if op.seq in state.released:
            return None, 0  # released before, and its folder pruned
        out.reason = f"its held original cannot be reached safely: {e}"
        return out, 0
    with h:
        try:
            h_st = h.lstat()
        except OSError as e:
            out.reason = f"cannot read its held original: {error_text(e)}"
            return out, 0
        if h_st is None:
            if op.seq in state.released:
                if writer is not None:  # a release killed between unlink and prune left
                    prune_empty_at(held_dir(), os.path.dirname(held))  # its folder: tidy it
                return None, 0
            out.reason = f"its original is no longer held at {held} (removed by hand?); " \
                "nothing to free"
            return out, 0
        if not stat.S_ISREG(h_st.st_mode):
            out.reason = f"{held} is not a regular file; left alone"
            return out, 0
        try:
            hh = hash_at(h, h_st)
        except OSError as e:
            out.reason = f"cannot read its held original, so it is kept: {error_text(e)}"
            return out, 0
        why, seen = _kept_side(state, op, b, hh, roots, h_st)
        if why is not None:
            out.reason = why
            return out, 0
        freed = h_st.st_size if h_st.st_nlink == 1 else 0
        shared = "" if freed else "; the held original has other names too, so no space is " \
            "freed"
        if writer is None:
            out.status = "planned"
            out.reason = (f"would delete its held original ({human_size(h_st.st_size)}): the "
                          "kept copy has its bytes" + shared)
            return out, freed
        journal_write(writer, {"type": "released", "seq": op.seq, "held": held, "hash": hh,
                     "size": h_st.st_size, "time": time.time()})
        if _identity(*seen[:2]) != seen[2]:  # changed while the entry was written
            out.reason = f"the kept side changed just now; {CHANGED_REASON}"
            journal_write(writer, {"type": "release-failed", "seq": op.seq, "held": held,
                         "error": out.reason})
            return out, 0
        try:
            unlink_at(h, h_st)
        except OSError as e:
            out.status, out.reason = "failed", f"its held original was not deleted: {error_text(e)}"
            journal_write(writer, {"type": "release-failed", "seq": op.seq, "held": held,
                         "error": out.reason})
            return out, 0
    prune_empty_at(held_dir(), os.path.dirname(held))
    out.status = "done"
    out.reason = (f"its held original was deleted ({human_size(h_st.st_size)}); the kept "
                  "copy has its bytes, and undo can no longer put the original back" + shared)
    return out, freed


def _kept_side(state: JournalState, op: PlannedOp, b: dict, held_hash: str,
               roots: set[str], held_st: os.stat_result) -> tuple[str | None, tuple]:
    """(why the bytes ``held_hash`` are not at the kept side of ``op`` right now, or None if
    they are; (path, root, identity) of the file that has them, to look at again just
    before the unlink). The path must still be the link simdup made, and the file it
    shares bytes with (the path itself for a hard link, the kept copy for a symbolic
    link) must hash to ``held_hash`` and be another file than the held original itself."""
    kind = "hard link" if op.action == "hardlink" else "symbolic link"
    target = str(b.get("target"))
    try:
        with anchor(op.path, op.root) as x:
            x_st = x.lstat()
            if x_st is None:
                return (f"{op.path} no longer exists; its held original is the only copy "
                        "left there, so it is kept"), ()
            if not is_ours(x, x_st, op, b):
                return (f"{op.path} is no longer the {kind} simdup made (replaced or "
                        "changed since); its held original is kept"), ()
            if op.action == "hardlink":
                return _differs(x, x_st, held_hash, held_st), (op.path, op.root,
                                                                _ident(x_st))
            kroot = next((k.root for k in op.kept if k.path == target and k.root), "") \
                or root_for(target, roots)
            with anchor(target, kroot) as k:
                k_st = k.lstat()
                if k_st is None:
                    return (f"the kept copy {target} is gone; its held original is the only "
                            "copy of those bytes, so it is kept"), ()
                if not stat.S_ISREG(k_st.st_mode):
                    return (f"the kept copy {target} is no longer a regular file; its held "
                            "original is kept"), ()
                return _differs(k, k_st, held_hash, held_st), (target, kroot, _ident(k_st))
    except Unsafe as e:
        return f"{e}; its held original is kept", ()
    except OSError as e:
        return f"cannot read the kept side ({error_text(e)}); its held original is kept", ()


def _ident(st: os.stat_result) -> tuple:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _identity(path: str, root: str) -> tuple | None:
    """What the kept side is now (None if it cannot be looked at safely)."""
    try:
        with anchor(path, root) as a:
            st = a.lstat()
            return None if st is None else _ident(st)
    except (Unsafe, OSError):
        return None


def _differs(a: Anchored, st: os.stat_result, held_hash: str,
             held_st: os.stat_result) -> str | None:
    if (st.st_dev, st.st_ino) == (held_st.st_dev, held_st.st_ino):
        return ("the kept side is the held original itself (a folder was replaced by a link "
                "into the holding folder?); it is the only copy, so it is kept")
    return None if hash_at(a, st) == held_hash else CHANGED_REASON
