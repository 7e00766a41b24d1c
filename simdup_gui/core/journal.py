"""The action journal: JSON lines, each flushed and fsynced before the operation it announces.

Entries (``type``): ``start`` (the whole plan), ``begin`` (about to touch one file), then
``done`` / ``failed`` / ``skipped`` for it, ``end``; undo and recovery append ``undone``,
``undo-failed``, ``resolved`` and ``undo-end``. A reader rebuilds the state from the lines
it can parse, so a journal cut off mid-line is still usable.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass, field

JOURNAL_VERSION = 1
JOURNAL_SUFFIX = ".jsonl"


def journal_dir() -> str:
    """Where journals live by default: ``<user data folder>/journals``."""
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("simdup", appauthor=False), "journals")


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
    paths = [os.path.join(folder, n) for n in names]
    return sorted(paths, key=lambda p: (os.stat(p).st_mtime_ns, p))


def last_journal(folder: str | None = None) -> str | None:
    js = list_journals(folder)
    return js[-1] if js else None


class JournalWriter:
    """Appends entries; by default each is on disk (flush + fsync) when :meth:`write` returns."""

    def __init__(self, path: str) -> None:
        self.path = path
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        torn = False
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
        self._fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._fh.flush()
        if sync:
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()

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
    if start is None or state is None:
        raise ValueError(f"{path} is not a simdup journal (no start entry)")
    if int(start.get("version", 0)) != JOURNAL_VERSION:
        raise ValueError(f"{path}: unsupported journal version {start.get('version')!r}")
    state.torn_lines = torn
    return state
