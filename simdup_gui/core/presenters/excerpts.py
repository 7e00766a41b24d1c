"""The Excerpts tab's rows (issue 41, part 3): which text is inside which, and where the
diff of the two starts to match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..models import Excerpt, FileRecord
from ..review.results import percent
from ..review.textdiff import DiffRow


@dataclass(frozen=True, slots=True)
class ExcerptRow:
    part: str  # paths
    whole: str
    containment: float

    @property
    def shown(self) -> str:
        """The containment as users see it: "93 %"."""
        return percent(self.containment)


class ExcerptRows(Sequence[ExcerptRow]):
    """One row an excerpt that names records there are, with their paths; each row made
    when it is asked for (the tab asks for those on screen: making all 18,344 rows of the
    768 MB tree at once held the window's thread 19-40 ms after each scan,
    benchmarks/gui_stalls.py). The records are the list of now: a scan or a load replaces
    the session's list, never changes it, so the rows stay those of this list."""

    def __init__(self, records: Sequence[FileRecord], excerpts: Sequence[Excerpt]) -> None:
        n = len(records)
        self._records = records
        self._excerpts = [e for e in excerpts if e.part < n and e.whole < n]

    def __len__(self) -> int:
        return len(self._excerpts)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        e = self._excerpts[i]
        return ExcerptRow(self._records[e.part].path, self._records[e.whole].path,
                          e.containment)


def first_matching_row(rows: Sequence[DiffRow]) -> int:
    """The first row of a text diff where both sides hold the same line with some text (the
    matching part starts there); 0 when none does."""
    return next((n for n, r in enumerate(rows) if r.tag == "equal" and (r.left or "").strip()),
                0)
