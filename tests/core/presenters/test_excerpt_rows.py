"""The Excerpts tab's rows, made one at a time when asked for (presenters/excerpts.py)."""

from simdup_gui.core.models import Excerpt, FileRecord
from simdup_gui.core.presenters.excerpts import ExcerptRow, ExcerptRows


def _records(n: int) -> list[FileRecord]:
    return [FileRecord(f"/r/f{i}.txt", 10, 1, i, 1, "/r", "utf-8", i, 10, "t", "c")
            for i in range(n)]


def test_rows_are_the_excerpts_of_records_there_are_with_their_paths():
    recs = _records(5)
    excerpts = [Excerpt(0, 1, 0.9), Excerpt(4, 2, 0.75), Excerpt(5, 1, 0.8),
                Excerpt(3, 7, 1.0), Excerpt(2, 3, 0.5)]
    rows = ExcerptRows(recs, excerpts)
    assert len(rows) == 3
    assert list(rows) == [ExcerptRow("/r/f0.txt", "/r/f1.txt", 0.9),
                          ExcerptRow("/r/f4.txt", "/r/f2.txt", 0.75),
                          ExcerptRow("/r/f2.txt", "/r/f3.txt", 0.5)]
    assert rows[-1] == rows[2] and rows[1:] == list(rows)[1:]
    assert rows[1].shown == "75 %"

