"""Undo an action, or resume / roll back one that was interrupted, from its journal.

Files are reached the way :func:`~.actions.execute` reaches them: through folders opened
from the recorded scan root (or the recorded destination, or the trash folder) down,
never through a symbolic link. Settling a move that was cut off between "link the new
name" and "unlink the old one" removes one of the two names only when both are the same
file, or hold the recorded content; otherwise both are kept and the report says so.

A replacement by a link (hardlink / symlink) cut off half-way is settled from what is at
the file's path: the link simdup made there means it was done (the original is in the
holding folder); the original itself means it was not (the link under a temporary name
and the held name, if made, are removed); anything else is left alone, and the held
original is kept. Undo puts the held original back over the link (never over anything
else) and only then removes it from the holding folder; a held original that `simdup
release` deleted (its bytes were at the kept side) cannot be put back, and undo says so
and leaves the link.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable

from .actions import LINK_ACTIONS, Plan, PlannedOp, execute
from .copying import settle_copy, undo_copy
from .fileops import (Anchored, Unsafe, anchor, drop_temp, duplicate_at, find_trash_entry,
                      hash_at, hash_file, hash_or_none, is_link_to, move_file, prune_empty_at,
                      replace_at, same_file, send_to_trash, sibling, temp_name_for,
                      trash_root_of, unlink_at)
from ..job import NULL_JOB, Cancelled, Job
from .journal import (JournalState, JournalWriter, check_journal, held_dir, journal_to_undo,
                      read_journal, trash_entry_reason)
from .lock import action_lock
from .outcome import ActionReport, JournalWriteError, Outcome, error_text, journal_write
from ..models import ProgressEvent

RELEASED_REASON = ("its original was released (simdup release), so there is nothing to put "
                   "back; the link stays (the kept copy had its bytes when it was released)")


def _plan_of(state: JournalState) -> Plan:
    s = state.start
    return Plan(state.action, [PlannedOp.from_dict(o) for o in state.ops], s.get("move_to"),
                bool(s.get("flat")), held=s.get("held"))


def _settle_move(state: JournalState, op: PlannedOp, dest: str, tmp: str | None, mode: str,
                 out: Outcome) -> str:
    """Settle a half-done move (or rename) of ``op`` to ``dest``; returns the outcome to
    journal."""
    move_to = _top(state, op)
    with anchor(op.path, op.root) as src, anchor(dest, move_to) as new:
        s_st, d_st = src.lstat(), new.lstat()
        if s_st is not None and tmp:
            t = Anchored(tmp, None, os.path.basename(tmp), move_to)
            t.dir_fd = new.dir_fd  # the temporary copy is beside the new name
            try:
                t_st = t.lstat()
                if t_st is not None and stat.S_ISREG(t_st.st_mode):
                    unlink_at(t, t_st)  # an unfinished copy; the original is intact
            finally:
                t.dir_fd = None
        if s_st is not None and d_st is not None:
            same = same_file(s_st, d_st)
            if not same and hash_or_none(new, d_st) != op.content_hash:
                raise OSError(f"both {op.path} and {dest} exist and differ; left both alone")
            if not same and hash_or_none(src, s_st) != op.content_hash:
                # the original was replaced or edited after the move began (a new file
                # took its name): removing either name could lose an edit
                out.status = "skipped"
                out.reason = (f"kept both: {op.path} was changed after the move began (it "
                              f"is no longer the file moved, and its content differs from "
                              f"the scan's), and {dest} holds the file as it was")
                return "kept-both"
            if mode == "resume":
                unlink_at(src, s_st)
                return "done"
            unlink_at(new, d_st)
            out.status = "done"
            out.reason = "interrupted half-way; the new copy was removed"
            return "none"
        if s_st is not None:
            return "none"
        if d_st is not None:
            return "done"
    raise OSError(f"{op.path} is at neither its old nor its new path")


def _top(state: JournalState, op: PlannedOp) -> str:
    """The folder a moved (or renamed) file's new name is reached from: the destination
    folder of a move, the scan root of a rename (its new name is in its folder)."""
    return op.root if op.action == "rename" else state.start.get("move_to") or ""


def is_ours(a: Anchored, st: os.stat_result | None, op: PlannedOp, b: dict) -> bool:
    """Is ``a`` the link the journal's begin entry ``b`` says simdup made for ``op``?"""
    return is_link_to(a, st, op.action, str(b.get("target")), int(b.get("target_dev") or 0),
                      int(b.get("target_ino") or 0))


def _held_state(state: JournalState, held: str) -> tuple[Anchored | None, os.stat_result | None]:
    """The held original ``held`` with its folder open (None if that folder is gone)."""
    try:
        h = anchor(held, state.start.get("held") or "")
    except Unsafe:
        return None, None
    return h, h.lstat()


def _drop_ours(a: Anchored, op: PlannedOp, b: dict) -> None:
    st = a.lstat()
    if is_ours(a, st, op, b):
        os.unlink(a.name, dir_fd=a.dir_fd)


def _settle_link(state: JournalState, op: PlannedOp, b: dict, out: Outcome) -> str:
    """Settle a half-done replacement of ``op`` by a link; returns the outcome to journal:
    "done" (the link is in place, the original held), "none" (the original is still there:
    leftovers removed), or "kept-both" (the file was changed meanwhile: the held
    original, if complete, stays)."""
    held, tmp = str(b.get("held")), str(b.get("tmp"))
    with anchor(op.path, op.root) as x:
        x_st = x.lstat()
        h, h_st = _held_state(state, held)
        try:
            if is_ours(x, x_st, op, b):
                if h_st is None:
                    raise OSError(f"{op.path} is a link now, but its original is not held at "
                                  f"{held}")
                return "done"
            t = sibling(x, tmp)
            try:
                _drop_ours(t, op, b)  # the link made under a temporary name, never used
            finally:
                t.dir_fd = None
            held_ok = h is not None and h_st is not None and stat.S_ISREG(h_st.st_mode) \
                and hash_or_none(h, h_st) == op.content_hash
            if x_st is not None and hash_or_none(x, x_st) == op.content_hash:
                if h is not None and h_st is not None and stat.S_ISREG(h_st.st_mode):
                    unlink_at(h, h_st)  # the original is still in place: drop its held name
                    prune_empty_at(held_dir(), os.path.dirname(held))
                return "none"
            if not held_ok:
                if h is not None and h_st is not None and stat.S_ISREG(h_st.st_mode):
                    unlink_at(h, h_st)  # an unfinished copy (or a name of the edited file)
                if x_st is None:
                    raise OSError(f"{op.path} no longer exists (removed by someone else)")
                return "none"  # changed by the user; acting again skips it
            out.status = "skipped"
            out.reason = (f"kept both: {op.path} was changed or removed after the link "
                          f"began; the file as scanned is held at {held}")
            return "kept-both"
        finally:
            if h is not None:
                h.close()


def _settle(state: JournalState, seq: int, mode: str, w: JournalWriter) -> Outcome | None:
    """Decide what a half-done op (begun, no outcome) actually did, and finish it off:
    ``mode`` "resume" completes a half-finished move, "rollback" reverts it.

    Returns an outcome to report, or None when the op is left to the normal run (resume
    redoes an untouched file; undo moves back a finished one)."""
    op = PlannedOp.from_dict(state.ops[seq])
    b = state.begun[seq]
    src, dest, tmp = op.path, b.get("dest"), b.get("tmp")
    out = Outcome(src, "skipped", op.action, dest=dest, size=op.size, group_id=op.group_id)
    entry: dict = {"type": "resolved", "seq": seq, "time": time.time()}
    try:
        if op.action in ("move", "rename") and dest:
            outcome = _settle_move(state, op, dest, tmp, mode, out)
            entry.update(outcome=outcome, dest=dest)
        elif op.action == "copy" and dest:
            outcome = settle_copy(state, op, b, mode)
            entry.update(outcome=outcome, dest=dest)
        elif op.action in LINK_ACTIONS:
            out.dest = b.get("target")
            outcome = _settle_link(state, op, b, out)
            entry.update(outcome=outcome)
        elif op.action == "trash":
            src_here = os.path.lexists(src)
            outcome = "none" if src_here else "done"
            te = None if src_here else find_trash_entry(src)
            entry.update(outcome=outcome, restorable=te is not None, **(te or {}))
        else:
            outcome = "none" if os.path.lexists(src) else "done"
            entry.update(outcome=outcome)
    except (OSError, Unsafe) as e:
        entry.update(outcome="failed", error=error_text(e))
        out.status, out.reason = "failed", entry["error"]
        journal_write(w, entry)
        return out
    journal_write(w, entry)
    if outcome == "kept-both":
        state.results[seq] = dict(entry, type="kept-both")
        return out
    if outcome == "done":
        state.results[seq] = dict(entry, type="done")
        if mode == "rollback":
            return None
        out.status, out.reason = "done", "finished from the journal after an interruption"
        return out
    state.begun.pop(seq, None)
    return out if out.status == "done" else None


def _settle_all(state: JournalState, mode: str, w: JournalWriter,
                report: ActionReport) -> bool:
    """Settle every half-done op into ``report``; False if the journal could not be
    written (the report says so and nothing more is done)."""
    for s in state.pending():
        try:
            o = _settle(state, s, mode, w)
        except JournalWriteError as e:
            report.stopped = f"{e}; stopped"
            return False
        if o is not None:
            report.outcomes.append(o)
    return True


def resume(journal: str, job: Job = NULL_JOB,
           trash: Callable[[str], None] = send_to_trash) -> ActionReport:
    """Finish an interrupted (or cancelled) action: settle the half-done file, then do the
    files not reached, with the same checks as a fresh run. Holds the action lock."""
    with action_lock():
        return _resume(journal, job, trash)


def _resume(journal: str, job: Job, trash: Callable[[str], None]) -> ActionReport:
    state = read_journal(journal)
    check_journal(state, for_resume=True)
    with JournalWriter(journal) as w:
        head = ActionReport(state.action, journal=journal)
        if not _settle_all(state, "resume", w, head):
            return head
        rest = execute(_plan_of(state), job, trash=trash, seqs=state.not_started(), _writer=w)
    rest.outcomes[:0] = head.outcomes
    rest.journal = journal
    return rest


def undo(journal: str | None = None, job: Job = NULL_JOB) -> ActionReport:
    """Reverse the action in ``journal`` (default: the newest action that still has
    something to undo, so repeated undos walk back through the actions). On an interrupted
    journal this is the rollback: the half-done file is put back first. Moves are moved
    back; trashed files come back where the trash can be read (freedesktop); permanent
    deletes are reported as not restorable. Nothing is ever overwritten. Holds the action
    lock (see :func:`~.lock.action_lock`)."""
    with action_lock():
        return _undo(journal, job)


def _undo(journal: str | None, job: Job) -> ActionReport:
    journal = journal or journal_to_undo()
    if journal is None:
        raise FileNotFoundError("nothing left to undo: no recorded action has files to "
                                "restore")
    state = read_journal(journal)
    check_journal(state)
    report = ActionReport("undo", journal=journal)
    with JournalWriter(journal) as w:
        if not _settle_all(state, "rollback", w, report):
            return report
        todo = [s for s in reversed(state.done()) if s not in state.undone]
        try:
            for i, seq in enumerate(todo):
                job.check()
                op = PlannedOp.from_dict(state.ops[seq])
                job.report(ProgressEvent("undo", i, len(todo), current=op.path))
                try:
                    report.outcomes.append(_undo_one(state, op, w))
                except _UndoStop as stop:
                    report.outcomes.append(stop.out)
                    report.stopped = f"{stop.err}; stopped before the next file"
                    break
        except Cancelled:
            report.cancelled = True
        if not report.stopped:
            try:
                if not state.ended:
                    w.write({"type": "end", "time": time.time(), "cancelled": True})
                w.write({"type": "undo-end", "time": time.time(),
                         "cancelled": report.cancelled})
            except OSError as e:
                report.stopped = f"the journal's end could not be written ({error_text(e)})"
    job.report(ProgressEvent("done", len(report.outcomes), len(report.outcomes)))
    return report


class _UndoStop(Exception):
    def __init__(self, out: Outcome, err: JournalWriteError) -> None:
        self.out, self.err = out, err


def _source_of(state: JournalState, op: PlannedOp, r: dict) -> tuple[str | None, str]:
    """Where a done op's file is now, and the folder to reach it from."""
    if op.action in ("move", "rename"):
        return r.get("dest"), _top(state, op)
    src = r.get("trash_file")
    return src, trash_root_of(src) if src else ""


def _undo_one(state: JournalState, op: PlannedOp, w: JournalWriter) -> Outcome:
    r = state.results[op.seq]
    out = Outcome(op.path, "failed", "undo", size=op.size, group_id=op.group_id)

    def record(entry: dict, sync: bool = True) -> None:
        try:
            journal_write(w, entry, sync)
        except JournalWriteError as e:
            raise _UndoStop(out, e) from None

    if op.action == "delete":
        out.status, out.reason = "skipped", "deleted permanently; cannot be restored"
        return out
    if op.action in LINK_ACTIONS:
        return _undo_link(state, op, out, record)
    if op.action == "copy":
        return undo_copy(state, op, out, record)
    if op.action == "trash" and not (r.get("restorable") and r.get("trash_file")):
        out.status = "skipped"
        out.reason = "the trash on this platform cannot be restored by simdup; restore it " \
            "from the system trash"
        return out
    src, top = _source_of(state, op, r)
    out.dest = src  # where it was taken back from
    ub = state.undo_begun.get(op.seq)  # an earlier undo of this file was cut off
    notes: list[str] = []
    try:
        with anchor(src or "", top) as here, anchor(op.path, op.root, create=True) as back:
            if ub is not None and ub.get("tmp"):
                drop_temp(back, ub["tmp"])
            st, b_st = here.lstat(), back.lstat()
            if st is None:
                if b_st is not None and hash_or_none(back, b_st) in (
                        op.content_hash, (ub or {}).get("hash")):
                    notes.append("already back (an earlier undo was cut off)")
                    h = op.content_hash
                else:
                    raise OSError(f"it is no longer at {src}")
            else:
                if not stat.S_ISREG(st.st_mode):
                    raise OSError(f"{src} is no longer a regular file; left it there")
                if op.action == "trash":
                    why = trash_entry_reason(op.path, src, r.get("trash_info"), on_disk=True)
                    if why is not None:
                        raise OSError(f"not restored: {why}")
                h = hash_at(here, st)
                if b_st is not None:
                    if ub is None or not (same_file(st, b_st)
                                          or hash_or_none(back, b_st) == h):
                        out.status = "skipped"
                        out.reason = (f"something else is now at the original path; left "
                                      f"it at {src}")
                        return out
                    # an undo cut off after putting the file back, before removing it here
                    unlink_at(here, st)
                    notes.append("finished an undo that was cut off")
                else:
                    tmp = temp_name_for(op.path)
                    record({"type": "undo-begin", "seq": op.seq, "tmp": tmp, "hash": h})
                    move_file(here, back, h, tmp)
    except (OSError, Unsafe) as e:
        out.reason = error_text(e)
        record({"type": "undo-failed", "seq": op.seq, "error": out.reason})
        return out
    out.status = "done"
    if h != op.content_hash:
        notes.append("restored, but its content had changed since the action")
    try:
        if op.action == "trash" and r.get("trash_info"):
            _drop_trash_info(op.path, src, r["trash_info"], top)
        if op.action == "move":
            prune_empty_at(top, os.path.dirname(src))
    except (OSError, Unsafe) as e:
        notes.append(f"restored; the trash's note about it stays: {error_text(e)}")
    out.reason = "; ".join(notes)
    record({"type": "undone", "seq": op.seq, "time": time.time()}, sync=False)
    return out


def _undo_link(state: JournalState, op: PlannedOp, out: Outcome,
               record: Callable[..., None]) -> Outcome:
    """Put the held original of ``op`` back over the link simdup made (or where nothing
    is), then drop it from the holding folder. Anything else at the path is left alone."""
    b = state.begun.get(op.seq)
    if b is None or not b.get("held"):
        out.reason = "the journal does not say where its original is held"
        record({"type": "undo-failed", "seq": op.seq, "error": out.reason})
        return out
    held = str(b["held"])
    out.dest = held
    ub = state.undo_begun.get(op.seq)
    notes: list[str] = []
    h: Anchored | None = None
    try:
        with anchor(op.path, op.root) as x:
            h, h_st = _held_state(state, held)
            if ub is not None and ub.get("tmp") and h_st is not None:
                drop_temp(x, ub["tmp"])  # a copy an earlier undo was cut off making
            x_st = x.lstat()
            ours = is_ours(x, x_st, op, b)
            if h is None or h_st is None:
                if not ours and x_st is not None and stat.S_ISREG(x_st.st_mode) and \
                        hash_or_none(x, x_st) in (op.content_hash, (ub or {}).get("hash")):
                    notes.append("already back (an earlier undo was cut off)")
                elif op.seq in state.released:
                    out.status = "skipped"
                    out.reason = RELEASED_REASON if ours else (
                        f"its original was released (simdup release), so there is nothing "
                        f"to put back; {op.path} is no longer the link simdup made and is "
                        "left as it is")
                    return out
                else:
                    raise OSError(f"its original is no longer held at {held}")
            else:
                if not stat.S_ISREG(h_st.st_mode):
                    raise OSError(f"{held} is no longer a regular file; left it there")
                hh = hash_at(h, h_st)
                if x_st is not None and not ours:
                    if ub is not None and (same_file(x_st, h_st) or hash_or_none(x, x_st)
                                           == hh):
                        notes.append("finished an undo that was cut off")
                    else:
                        out.status = "skipped"
                        out.reason = (f"something else is now at {op.path} (not the link "
                                      f"simdup made); the original stays at {held}")
                        return out
                else:
                    if ours and _edited_through_link(x, x_st, op, b):
                        notes.append(f"its text had been edited through the link since the "
                                     f"action: the edit stays in {b.get('target')}, and "
                                     f"{op.path} has its original text again")
                    tmp = temp_name_for(op.path)
                    record({"type": "undo-begin", "seq": op.seq, "tmp": tmp, "hash": hh})
                    t = sibling(x, tmp)
                    try:
                        duplicate_at(h, h_st, t, hh)
                        try:
                            replace_at(t, x, x_st)
                        except BaseException:
                            drop_temp(x, tmp)
                            raise
                    finally:
                        t.dir_fd = None
                    if hh != op.content_hash:
                        notes.append("restored, but its content had changed since the action")
                unlink_at(h, h_st)
    except (OSError, Unsafe) as e:
        out.status = "failed"
        out.reason = error_text(e)
        record({"type": "undo-failed", "seq": op.seq, "error": out.reason})
        return out
    finally:
        if h is not None:
            h.close()
    prune_empty_at(held_dir(), os.path.dirname(held))
    out.status = "done"
    out.reason = "; ".join(notes)
    record({"type": "undone", "seq": op.seq, "time": time.time()}, sync=False)
    return out


def _edited_through_link(x: Anchored, x_st: os.stat_result | None, op: PlannedOp,
                         b: dict) -> bool:
    """Whether the text seen through simdup's link at ``x`` (its kept copy's) is no longer
    the text the file had when it was linked: an undo then gives the path its old text
    back, and the user is told where the edit is."""
    if x_st is None:
        return False
    if stat.S_ISREG(x_st.st_mode):  # a hard link: the kept copy's inode itself
        now = hash_or_none(x, x_st)
    else:
        try:
            now = hash_file(str(b.get("target")))
        except OSError:
            return False
    return now is not None and now != op.content_hash


def _drop_trash_info(path: str, trash_file: str, info: str, trash: str) -> None:
    """Remove the trash's ``.trashinfo`` note of the restored ``path`` (only a real note
    about that file; none left is fine)."""
    if not os.path.lexists(info):
        return
    why = trash_entry_reason(path, trash_file, info, on_disk=True)
    if why is not None:
        raise OSError(why)
    with anchor(info, trash) as a:
        st = a.lstat()
        if st is not None and stat.S_ISREG(st.st_mode):
            unlink_at(a, st)
