"""Showing new groups: the table painted once, the columns fitted as before (also when the
rows fitted to are all collapsed groups), the Problems tab's columns fitted when shown."""

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QEvent, QObject  # noqa: E402

from simdup_gui.app.column_widths import ColumnWidths  # noqa: E402
from simdup_gui.app.groups_view import EXPAND_UP_TO  # noqa: E402
from simdup_gui.core.models import FileRecord, Group, Member, Problem  # noqa: E402
from simdup_gui.core.presenters.tree import COL_FOLDER, COLUMNS  # noqa: E402
from simdup_gui.core.scan.pipeline import ScanResult  # noqa: E402


def records_and_groups(n_groups):
    """``n_groups`` groups of two files; the second file of each a near copy of the first
    whose similarity text ("97% = · template") is wider than the column's sample."""
    recs, groups = [], []
    for g in range(n_groups):
        a, b = 2 * g, 2 * g + 1
        for i in (a, b):
            recs.append(FileRecord(f"/r/d{g}/file {i} with a longer name.txt", 1000 + i, 1, i,
                                   1, "/r", "windows-1252", i, 10, "t", "c", sketch=b"s",
                                   shingles=50))
        groups.append(Group(g + 1, a, [Member(a, 0, True, 1.0),
                                       Member(b, 3, True, 0.97, True, template=5)]))
    return recs, groups


def show(qtbot, w, n_groups):
    recs, groups = records_and_groups(n_groups)
    w.session.records = recs
    done = []
    w.model.set_data(recs, groups, 64, then=lambda: (
        w.groups_view.shown_groups_changed(len(groups)), done.append(1)))
    qtbot.waitUntil(lambda: bool(done))


class Paints(QObject):
    def __init__(self, widget):
        super().__init__(widget)
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 - Qt API
        self.count += event.type() == QEvent.Type.Paint
        return False


def test_new_groups_are_painted_once(qtbot, make):
    w = make([])
    qtbot.wait(100)  # the empty window painted
    paints = Paints(w.tree.viewport())
    show(qtbot, w, EXPAND_UP_TO + 50)  # collapsed: the table scrolls, the widths are fitted
    qtbot.wait(300)
    assert w.tree.verticalScrollBar().isVisible()
    assert paints.count == 1


def fitted(w):
    return [w.tree.columnWidth(c) for c in range(COLUMNS) if c != COL_FOLDER]


@pytest.mark.parametrize("expanded", [False, True])
def test_columns_fit_as_when_every_column_asks_the_rows(qtbot, make, monkeypatch, expanded):
    w = make([])
    show(qtbot, w, EXPAND_UP_TO + 50)
    if expanded:  # a file row on screen: the file columns fit their texts
        w.tree.expand(w.model.group_index(0))
    widths = w.groups_view.widths
    assert widths._only_group_rows_sampled() is not expanded
    widths.reset()
    quick = fitted(w)
    monkeypatch.setattr(ColumnWidths, "_only_group_rows_sampled", lambda self: False)
    for col in range(COLUMNS):  # start from other widths: the fit must set each again
        w.tree.setColumnWidth(col, 30)
    widths.reset()
    assert fitted(w) == quick


def test_problems_columns_fit_when_the_tab_is_shown(qtbot, make):
    w = make([])
    problems = [Problem(f"/r/a folder with a long name/file {i}.txt", "permission denied",
                        "unreadable") for i in range(3)]
    w._on_scanned(ScanResult([], problems, {"files": 0}))
    view = w.problems_view
    assert w.problems_model.rowCount() == 3 and view.fit_pending  # the tab is not shown
    w.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: not view.fit_pending)
    for col in range(2):  # (the last column stretches)
        want = max(view.sizeHintForColumn(col), view.horizontalHeader().sectionSizeHint(col))
        assert view.columnWidth(col) == want
    # the last column still reaches the table's right edge (fitted on show, it kept its
    # fitted width: the header ended in the middle of the tab)
    assert view.horizontalHeader().length() >= view.viewport().width()
    w._on_scanned(ScanResult([], problems[:1], {"files": 0}))  # shown: fitted at once
    assert not view.fit_pending
    assert view.horizontalHeader().length() >= view.viewport().width()
