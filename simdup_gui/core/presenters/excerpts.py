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


def excerpt_rows(records: Sequence[FileRecord], excerpts: Sequence[Excerpt]) -> list[ExcerptRow]:
    """One row an excerpt, with the paths of the records it names (taken now: the records
    may change before the tab is shown again)."""
    return [ExcerptRow(records[e.part].path, records[e.whole].path, e.containment)
            for e in excerpts if max(e.part, e.whole) < len(records)]


def first_matching_row(rows: Sequence[DiffRow]) -> int:
    """The first row of a text diff where both sides hold the same line with some text (the
    matching part starts there); 0 when none does."""
    return next((n for n, r in enumerate(rows) if r.tag == "equal" and (r.left or "").strip()),
                0)
