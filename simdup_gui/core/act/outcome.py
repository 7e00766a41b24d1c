"""What an action did, file by file: each file's :class:`Outcome`, the whole
:class:`ActionReport` (apply, undo, resume; release extends it), and how a failure to write
the journal stops an action (:class:`JournalWriteError`, :func:`journal_write`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

STATUSES = ("done", "skipped", "failed", "planned")  # "planned": what a dry run would do


@dataclass
class Outcome:
    path: str
    status: str  # one of STATUSES
    action: str
    dest: str | None = None
    reason: str = ""  # why skipped, the error if failed, or a note (hard links, trash)
    size: int = 0
    group_id: int = -1
    restorable: bool | None = None  # trash: can undo bring it back?


@dataclass
class ActionReport:
    """Every file's outcome, in plan order."""

    action: str
    outcomes: list[Outcome] = field(default_factory=list)
    dry_run: bool = False
    cancelled: bool = False
    journal: str | None = None
    stopped: str = ""  # why the action stopped early (the journal could not be written)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    @property
    def exit_code(self) -> int:
        return 1 if self.failed or self.stopped else 0

    def summary(self) -> str:
        parts = [f"{self.count(s)} {s}" for s in STATUSES if self.count(s)]
        head = "dry run, nothing touched: " if self.dry_run else ""
        tail = "; cancelled" if self.cancelled else ""
        tail += f"; stopped: {self.stopped}" if self.stopped else ""
        return f"{self.action}: {head}{', '.join(parts) or 'nothing to do'}{tail}"

    def to_dict(self) -> dict:
        return {"action": self.action, "dry_run": self.dry_run, "cancelled": self.cancelled,
                "stopped": self.stopped, "journal": self.journal,
                "counts": {s: self.count(s) for s in STATUSES},
                "files": [asdict(o) for o in self.outcomes]}


class JournalWriteError(Exception):
    """The journal could not be written (disk full, I/O error): the action stops before
    the next file, since what it does could no longer be undone or resumed."""

    def __init__(self, err: OSError) -> None:
        self.err = err
        super().__init__(f"the journal could not be written ({error_text(err)})")


def journal_write(writer, entry: dict, sync: bool = True) -> None:
    """``writer.write(entry, sync)``; a failure is a JournalWriteError (the action stops)."""
    try:
        writer.write(entry, sync)
    except OSError as e:
        raise JournalWriteError(e) from e


def error_text(e: BaseException) -> str:
    """An error as one line for a file's outcome: the system's words and the file."""
    if isinstance(e, OSError) and e.strerror:
        return f"{e.strerror}" + (f": {e.filename}" if e.filename else "")
    return str(e) or type(e).__name__
