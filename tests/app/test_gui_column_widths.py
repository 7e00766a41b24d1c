"""The groups table's column widths (issue 38, item 10): fitted from the content, the Folder
column takes the room left, the widths do not jump between scans, a user's drag is kept
(across scans and runs), "Reset column widths" in the header's menu, and a header saved
with 9 columns (before Closest) restores sensibly."""

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, Qt  # noqa: E402
from PySide6.QtGui import QStandardItemModel  # noqa: E402
from PySide6.QtWidgets import QTableView  # noqa: E402

from simdup_gui.app import options as opt  # noqa: E402
from simdup_gui.app.column_widths import FOLDER_MIN, SAMPLES  # noqa: E402
from simdup_gui.core.presenters.tree import (  # noqa: E402
    COL_CLOSEST,
    COL_FOLDER,
    COL_MODIFIED,
    COL_NAME,
    COL_SIZE,
    COLUMNS,
)
from tests.app.conftest import scan, two_pairs  # noqa: E402
from tests.conftest import EN  # noqa: E402


@pytest.fixture
def src(tmp_path):
    src = two_pairs(tmp_path / "src")
    (src / "a report with a long name that the name column shows whole.txt").write_text(
        EN.replace("five", "seven", 1))
    return src


def widths(w):
    return [w.tree.columnWidth(c) for c in range(COLUMNS)]


def shown(w):
    return [c for c in range(COLUMNS) if not w.tree.isColumnHidden(c)]


def assert_sensible(w):
    tree, header = w.tree, w.tree.header()
    for col in shown(w):
        assert tree.columnWidth(col) >= header.sectionSizeHint(col), col  # titles whole
        if col in SAMPLES:  # e.g. "999.9 MB": a size further down is not cut
            assert tree.columnWidth(col) >= tree.fontMetrics().horizontalAdvance(SAMPLES[col])
        if col != COL_FOLDER:
            assert tree.columnWidth(col) >= tree.sizeHintForColumn(col) or col == COL_NAME
    assert tree.columnWidth(COL_FOLDER) >= FOLDER_MIN  # never "/t…"
    total = sum(tree.columnWidth(c) for c in shown(w))
    assert total >= tree.viewport().width()  # the folder takes the room left: no gap


def drag_edge(qtbot, w, col, by):
    """Drag the right edge of column ``col``'s title by ``by`` pixels, as a user does."""
    header = w.tree.header()
    x = header.sectionViewportPosition(col) + header.sectionSize(col) - 1
    y = header.height() // 2
    vp = header.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=QPoint(x, y))
    qtbot.mouseMove(vp, QPoint(x + by // 2, y))
    qtbot.mouseMove(vp, QPoint(x + by, y))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(x + by, y))


@pytest.mark.parametrize("size", [(1400, 900), (1000, 700)])
def test_widths_are_fitted_and_the_folder_takes_the_room_left(qtbot, make, src, size):
    w = make([src])
    w.resize(*size)
    scan(qtbot, w)
    assert_sensible(w)
    w.resize(size[0] + 200, size[1])  # a wider window: the folder gets the new room
    qtbot.waitUntil(lambda: sum(widths(w)) >= w.tree.viewport().width())
    assert_sensible(w)


def test_widths_do_not_jump_between_scans(qtbot, make, src):
    w = make([src])
    scan(qtbot, w)
    before = widths(w)
    (src / "a report with a long name that the name column shows whole.txt").rename(
        src / "b.txt")
    scan(qtbot, w)
    assert w.tree.columnWidth(COL_NAME) == before[COL_NAME]  # not narrowed to "b.txt"
    assert [widths(w)[c] for c in range(COLUMNS) if c != COL_FOLDER] == [
        before[c] for c in range(COLUMNS) if c != COL_FOLDER]


def test_a_users_drag_is_kept_across_scans_and_runs(qtbot, make, src):
    w = make([src])
    scan(qtbot, w)
    fitted = w.tree.columnWidth(COL_SIZE)
    drag_edge(qtbot, w, COL_SIZE, 60)
    dragged = w.tree.columnWidth(COL_SIZE)
    assert dragged >= fitted + 40
    scan(qtbot, w)
    assert w.tree.columnWidth(COL_SIZE) == dragged
    assert w.tree.columnWidth(COL_FOLDER) >= FOLDER_MIN
    w.close()
    w2 = make([src])
    assert w2.tree.columnWidth(COL_SIZE) == dragged  # the user's, restored
    scan(qtbot, w2)
    assert w2.tree.columnWidth(COL_SIZE) == dragged
    assert w2.tree.columnWidth(COL_MODIFIED) >= w2.tree.sizeHintForColumn(COL_MODIFIED)


def test_reset_column_widths_is_in_the_header_menu(qtbot, make, src):
    w = make([src])
    scan(qtbot, w)
    fitted = widths(w)
    drag_edge(qtbot, w, COL_SIZE, 80)
    assert w.tree.columnWidth(COL_SIZE) > fitted[COL_SIZE]
    menu = w.results_ui.review.columns.menu()
    reset = [a for a in menu.actions() if a.text() == "Reset column widths"]
    assert len(reset) == 1
    reset[0].trigger()
    assert w.tree.columnWidth(COL_SIZE) == fitted[COL_SIZE]
    assert w.groups_view.widths.user == {}
    w.close()
    assert make([src]).groups_view.widths.user == {}  # nothing of the drag is saved
    w3 = make([src])
    w3.set_language("zh_CN")
    assert [a.text() for a in w3.results_ui.review.columns.menu().actions()][-1] == "重置列宽"


def test_a_header_saved_with_nine_columns_restores_sensibly(qtbot, make, src, settings):
    """A header state from before the Closest column, with bad widths in it ("Siz",
    "Modifie", a folder of 20 px), as the app saved them: the widths nobody chose are
    fitted again; the sort is kept."""
    model = QStandardItemModel(1, 9)
    old = QTableView()
    old.setModel(model)
    header = old.horizontalHeader()
    for col in range(9):
        header.resizeSection(col, 30)
    header.resizeSection(COL_FOLDER, 20)
    header.setSortIndicator(COL_SIZE, Qt.SortOrder.DescendingOrder)
    opt.Preferences(settings).set(opt.TREE_HEADER, header.saveState())
    w = make([src])
    scan(qtbot, w)
    assert_sensible(w)
    assert w.tree.columnWidth(COL_CLOSEST) >= w.tree.header().sectionSizeHint(COL_CLOSEST)
    assert w.tree.header().sortIndicatorSection() == COL_SIZE


def test_bad_saved_widths_are_ignored(qtbot, make, src, settings):
    opt.Preferences(settings).set(opt.COLUMN_WIDTHS, '{"size": "wide", "name": 99999, "x": 5')
    w = make([src])
    assert w.groups_view.widths.user == {}
    opt.Preferences(settings).set(opt.COLUMN_WIDTHS, '{"size": 123, "folder": 50, "nope": 7}')
    w2 = make([src])
    assert w2.groups_view.widths.user == {COL_SIZE: 123}
    assert w2.tree.columnWidth(COL_SIZE) == 123
