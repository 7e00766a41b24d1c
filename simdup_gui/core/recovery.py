"""Undo an action, or resume / roll back one that was interrupted, from its journal."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from .actions import Outcome, Plan, PlannedOp, Report, _err, execute
from .fileops import find_trash_entry, hash_file, move_file, send_to_trash
from .job import NULL_JOB, Cancelled, Job
from .journal import JournalState, JournalWriter, journal_to_undo, read_journal
from .lock import action_lock
from .models import ProgressEvent


def _plan_of(state: JournalState) -> Plan:
    s = state.start
    return Plan(state.action, [PlannedOp.from_dict(o) for o in state.ops], s.get("move_to"),
                bool(s.get("flat")))


def _settle(state: JournalState, seq: int, mode: str, w: JournalWriter) -> Outcome | None:
    """Decide what a half-done op (begun, no outcome) actually did, and finish it off:
    ``mode`` "resume" completes a half-finished move, "rollback" reverts it.

    Returns an outcome to report, or None when the op is left to the normal run (resume
    redoes an untouched file; undo moves back a finished one)."""
    op = PlannedOp.from_dict(state.ops[seq])
    b = state.begun[seq]
    src, dest, tmp = op.path, b.get("dest"), b.get("tmp")
    out = Outcome(src, "skipped", op.action, dest=dest, size=op.size, group_id=op.group_id)
    src_here = os.path.lexists(src)
    entry: dict = {"type": "resolved", "seq": seq, "time": time.time()}
    try:
        if op.action == "move" and dest:
            dest_here = os.path.lexists(dest)
            if src_here and tmp and os.path.lexists(tmp):
                os.unlink(tmp)  # an unfinished copy; the original is intact
            if src_here and dest_here:
                same = os.path.samefile(src, dest)
                if not same and hash_file(dest) != op.content_hash:
                    raise OSError(f"both {src} and {dest} exist and differ; left both alone")
                if mode == "resume":
                    os.unlink(src)
                    outcome = "done"
                else:
                    os.unlink(dest)
                    outcome = "none"
                    out.status = "done"
                    out.reason = "interrupted half-way; the new copy was removed"
            elif src_here:
                outcome = "none"
            elif dest_here:
                outcome = "done"
            else:
                raise OSError(f"{src} is at neither its old nor its new path")
            entry.update(outcome=outcome, dest=dest)
        elif op.action == "trash":
            outcome = "none" if src_here else "done"
            te = None if src_here else find_trash_entry(src)
            entry.update(outcome=outcome, restorable=te is not None, **(te or {}))
        else:
            outcome = "none" if src_here else "done"
            entry.update(outcome=outcome)
    except Exception as e:
        entry.update(outcome="failed", error=_err(e))
        w.write(entry)
        out.status, out.reason = "failed", entry["error"]
        return out
    w.write(entry)
    if outcome == "done":
        state.results[seq] = dict(entry, type="done")
        if mode == "rollback":
            return None
        out.status, out.reason = "done", "finished from the journal after an interruption"
        return out
    state.begun.pop(seq, None)
    return out if out.status == "done" else None


def resume(journal: str, job: Job = NULL_JOB,
           trash: Callable[[str], None] = send_to_trash) -> Report:
    """Finish an interrupted (or cancelled) action: settle the half-done file, then do the
    files not reached, with the same checks as a fresh run. Holds the action lock."""
    with action_lock():
        return _resume(journal, job, trash)


def _resume(journal: str, job: Job, trash: Callable[[str], None]) -> Report:
    state = read_journal(journal)
    with JournalWriter(journal) as w:
        settled = [o for s in state.pending() if (o := _settle(state, s, "resume", w))]
        rest = execute(_plan_of(state), job, trash=trash, seqs=state.not_started(), _writer=w)
    rest.outcomes[:0] = settled
    rest.journal = journal
    return rest


def undo(journal: str | None = None, job: Job = NULL_JOB) -> Report:
    """Reverse the action in ``journal`` (default: the newest action that still has
    something to undo, so repeated undos walk back through the actions). On an interrupted
    journal this is the rollback: the half-done file is put back first. Moves are moved
    back; trashed files come back where the trash can be read (freedesktop); permanent
    deletes are reported as not restorable. Nothing is ever overwritten. Holds the action
    lock (see :func:`~.lock.action_lock`)."""
    with action_lock():
        return _undo(journal, job)


def _undo(journal: str | None, job: Job) -> Report:
    journal = journal or journal_to_undo()
    if journal is None:
        raise FileNotFoundError("nothing left to undo: no recorded action has files to "
                                "restore")
    state = read_journal(journal)
    report = Report("undo", journal=journal)
    with JournalWriter(journal) as w:
        report.outcomes += [o for s in state.pending() if (o := _settle(state, s, "rollback", w))]
        todo = [s for s in reversed(state.done()) if s not in state.undone]
        try:
            for i, seq in enumerate(todo):
                job.check()
                op = PlannedOp.from_dict(state.ops[seq])
                job.report(ProgressEvent("undo", i, len(todo), current=op.path))
                report.outcomes.append(_undo_one(state, op, w))
        except Cancelled:
            report.cancelled = True
        if not state.ended:
            w.write({"type": "end", "time": time.time(), "cancelled": True})
        w.write({"type": "undo-end", "time": time.time(), "cancelled": report.cancelled})
    job.report(ProgressEvent("done", len(report.outcomes), len(report.outcomes)))
    return report


def _undo_one(state: JournalState, op: PlannedOp, w: JournalWriter) -> Outcome:
    r = state.results[op.seq]
    out = Outcome(op.path, "failed", "undo", size=op.size, group_id=op.group_id)
    if op.action == "delete":
        out.status, out.reason = "skipped", "deleted permanently; cannot be restored"
        return out
    if op.action == "trash" and not (r.get("restorable") and r.get("trash_file")):
        out.status = "skipped"
        out.reason = "the trash on this platform cannot be restored by simdup; restore it " \
            "from the system trash"
        return out
    src = r.get("dest") if op.action == "move" else r.get("trash_file")
    out.dest = src  # where it was taken back from
    try:
        if not src or not os.path.lexists(src):
            if os.path.lexists(op.path) and hash_file(op.path) == op.content_hash:
                out.status, out.reason = "done", "already back (its undo entry was lost)"
                w.write({"type": "undone", "seq": op.seq, "time": time.time()})
                return out
            raise OSError(f"it is no longer at {src}")
        if os.path.lexists(op.path):
            out.status = "skipped"
            out.reason = f"something else is now at the original path; left it at {src}"
            return out
        h = hash_file(src)
        move_file(src, op.path, h)
        if op.action == "trash" and r.get("trash_info"):
            try:
                os.unlink(r["trash_info"])
            except FileNotFoundError:
                pass
        if op.action == "move":
            _prune_empty(os.path.dirname(src), state.start.get("move_to") or "")
    except Exception as e:
        out.reason = _err(e)
        w.write({"type": "undo-failed", "seq": op.seq, "error": out.reason})
        return out
    out.status = "done"
    if h != op.content_hash:
        out.reason = "restored, but its content had changed since the action"
    w.write({"type": "undone", "seq": op.seq, "time": time.time()}, sync=False)
    return out


def _prune_empty(folder: str, stop: str) -> None:
    """Remove folders the move created and left empty, up to (not including) ``stop``."""
    if not stop:
        return
    stop = os.path.abspath(stop)
    folder = os.path.abspath(folder)
    while folder.startswith(stop + os.sep):
        try:
            os.rmdir(folder)
        except OSError:
            return
        folder = os.path.dirname(folder)
