"""The action journal: JSON lines, each flushed and fsynced before the operation it announces.

Entries (``type``): ``start`` (the whole plan), ``begin`` (about to touch one file), then
``done`` / ``failed`` / ``skipped`` for it, ``end``; undo and recovery append ``undone``,
``undo-failed``, ``resolved`` and ``undo-end``. A reader rebuilds the state from the lines
it can parse, so a journal cut off mid-line is still usable.
"""

from __future__ import annotations

import errno
import json
import os
import time
import uuid
from dataclasses import dataclass, field

from .lock import data_dir

JOURNAL_VERSION = 1
JOURNAL_SUFFIX = ".jsonl"


def journal_dir() -> str:
    """Where journals live by default: ``<user data folder>/journals``."""
    return os.path.join(data_dir(), "journals")


def new_journal_path(folder: str | None = None) -> str:
    folder = folder or journal_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return os.path.join(folder, f"{stamp}-{uuid.uuid4().hex[:8]}{JOURNAL_SUFFIX}")


def list_journals(folder: str | None = None) -> list[str]:
    """Journals in ``folder``, oldest first (by modification time, then name)."""
    folder = folder or journal_dir()
    try:
        names = [n for n in os.listdir(folder) if n.endswith(JOURNAL_SUFFIX)]
    except FileNotFoundError:
        return []
    out = []
    for n in names:
        p = os.path.join(folder, n)
        try:
            out.append((os.stat(p).st_mtime_ns, p))
        except OSError:
            continue  # removed meanwhile
    return [p for _, p in sorted(out)]


def _readable(folder: str | None) -> list[JournalState]:
    """The journals that parse, oldest first by their start entry's time (then mtime)."""
    states = []
    for n, p in enumerate(list_journals(folder)):
        try:
            st = read_journal(p)
        except (OSError, ValueError):  # empty, cut before its start, not ours, bad bytes
            continue
        try:
            t = float(st.start.get("time", 0))
        except (TypeError, ValueError):
            t = 0.0
        states.append((t, n, st))
    return [st for _, _, st in sorted(states, key=lambda x: (x[0], x[1]))]


def last_journal(folder: str | None = None) -> str | None:
    """The newest readable journal (by the time its action started), or None."""
    states = _readable(folder)
    return states[-1].path if states else None


def journal_to_undo(folder: str | None = None) -> str | None:
    """What a plain "undo" takes back: the newest journal (by its start time) that still has
    something to undo (see :meth:`JournalState.undoable`). Journals that are empty,
    unreadable, fully undone or where every file was skipped are passed over."""
    for st in reversed(_readable(folder)):
        if st.undoable():
            return st.path
    return None


class JournalWriter:
    """Appends entries; by default each is on disk (flush + fsync) when :meth:`write` returns."""

    def __init__(self, path: str, new: bool = False) -> None:
        """Open ``path`` to append; with ``new`` it must not exist yet (FileExistsError), so
        a journal never holds two actions."""
        self.path = path
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        torn = False
        if new:
            try:
                self._fh = open(path, "x", encoding="utf-8")
            except FileExistsError:
                raise FileExistsError(
                    errno.EEXIST, "journal file already exists; give a new file name "
                    "(a journal holds one action, so it can be undone)", path) from None
            return
        if os.path.exists(path) and os.path.getsize(path):
            with open(path, "rb") as fh:
                fh.seek(-1, os.SEEK_END)
                torn = fh.read(1) != b"\n"
        self._fh = open(path, "a", encoding="utf-8")
        if torn:  # a crash cut the last line short: start ours on a fresh line
            self._fh.write("\n")

    def write(self, entry: dict, sync: bool = True) -> None:
        """Append ``entry``. ``sync=False`` (outcome entries) only flushes: losing one in a
        crash is harmless, since recovery re-derives a begun op's outcome from the disk."""
        # ASCII only: file names that are not valid UTF-8 (surrogate escapes) round-trip
        self._fh.write(json.dumps(entry, ensure_ascii=True) + "\n")
        self._fh.flush()
        if sync:
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()

    def discard(self) -> None:
        """Close and remove the journal (only for one that recorded nothing yet)."""
        self._fh.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class JournalState:
    """What a journal says happened, op by op (``seq`` is the plan position)."""

    path: str
    start: dict
    ops: list[dict]  # the planned ops from the start entry
    begun: dict[int, dict] = field(default_factory=dict)  # last begin entry per seq
    results: dict[int, dict] = field(default_factory=dict)  # done/failed/skipped per seq
    undone: dict[int, dict] = field(default_factory=dict)
    ended: bool = False
    undo_runs: int = 0  # undo-end entries: how often an undo has run on this journal
    torn_lines: int = 0

    @property
    def action(self) -> str:
        return str(self.start.get("action", ""))

    @property
    def interrupted(self) -> bool:
        """Cut off before its end entry (crash, power loss, kill)."""
        return not self.ended

    def pending(self) -> list[int]:
        """Ops that began but have no outcome: the file may be half-way."""
        return [s for s in sorted(self.begun) if s not in self.results]

    def not_started(self) -> list[int]:
        return [i for i in range(len(self.ops)) if i not in self.begun and i not in self.results]

    def done(self) -> list[int]:
        return [s for s, r in sorted(self.results.items()) if r.get("type") == "done"]

    def undoable(self) -> bool:
        """Is there still something for an undo to do here: a half-done op to roll back, a
        done move or restorable trash not undone yet, or (until the first undo has said so)
        done ops that cannot be restored (deletes)?"""
        if self.pending():
            return True
        left = [s for s in self.done() if s not in self.undone]
        if not left:
            return False
        if self.undo_runs == 0:
            return True
        for s in left:
            action = self.ops[s].get("action") if 0 <= s < len(self.ops) else None
            r = self.results[s]
            if action == "move" or (action == "trash" and r.get("restorable")):
                return True
        return False


def read_journal(path: str) -> JournalState:
    """Parse a journal; raises ValueError if it is not one."""
    start: dict | None = None
    state: JournalState | None = None
    torn = 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                e = json.loads(line)
            except json.JSONDecodeError:
                torn += 1
                continue
            if not isinstance(e, dict):
                torn += 1
                continue
            t = e.get("type")
            if t == "start":
                start = e
                state = JournalState(path, e, list(e.get("ops", [])))
                continue
            if state is None:
                continue
            seq = e.get("seq")
            if t == "begin":
                state.begun[seq] = e
            elif t in ("done", "failed", "skipped"):
                state.results[seq] = e
            elif t == "resolved":
                # recovery settled a half-done op: "none" means the file was never touched
                if e.get("outcome") == "none":
                    state.begun.pop(seq, None)
                else:
                    state.results[seq] = dict(e, type=e.get("outcome", "failed"))
            elif t == "undone":
                state.undone[seq] = e
            elif t == "end":
                state.ended = True
            elif t == "undo-end":
                state.undo_runs += 1
    if start is None or state is None:
        raise ValueError(f"{path} is not a simdup journal (no start entry)")
    if int(start.get("version", 0)) != JOURNAL_VERSION:
        raise ValueError(f"{path}: unsupported journal version {start.get('version')!r}")
    state.torn_lines = torn
    return state
