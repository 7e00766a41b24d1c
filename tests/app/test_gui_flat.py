"""The groups as a flat table: group rows and, below each expanded group, its files. What a
user does with the tree they had: the indicator, double clicks, the arrow keys, the check
boxes, and what a sort or a regroup keeps (pytest-qt, offscreen)."""

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPoint, QSettings, Qt  # noqa: E402
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem  # noqa: E402

from simdup_gui.app.tree_models import RECORD_ROLE  # noqa: E402
from simdup_gui.app.window import MainWindow  # noqa: E402
from tests.app.test_gui_responsive import records_and_groups  # noqa: E402


@pytest.fixture
def win(qtbot, tmp_path):
    """A window showing 300 groups of three files (collapsed: more than EXPAND_UP_TO)."""
    w = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                   language="en")
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    recs, groups = records_and_groups(300, per=3)
    w.session.records, w.session.groups = recs, groups
    with qtbot.waitSignal(w.groupsChanged, timeout=30_000):
        w._show_groups()
    w.activateWindow()
    w.tree.setFocus()
    qtbot.waitUntil(w.tree.hasFocus)
    return w


def path_of(w, index):
    rec = index.data(RECORD_ROLE)
    return None if rec is None or rec < 0 else w.records[rec].path


def files_of(w, row):
    return [w.records[x.index].path for x in w.model.rows[row][1]]


def test_group_rows_are_bold_files_checkable_and_indented(qtbot, win):
    w, m = win, win.model
    w.groups_view.expand_all()
    group, file = m.group_index(0), m.file_index(0, 0)
    assert group.data(Qt.ItemDataRole.FontRole).bold()
    assert group.data(Qt.ItemDataRole.CheckStateRole) is None
    assert file.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert file.flags() & Qt.ItemFlag.ItemIsUserCheckable
    assert not group.flags() & Qt.ItemFlag.ItemIsUserCheckable
    d = w.groups_view.delegate
    assert d._indent(file)[0] == 2 * d._indent(group)[0] > 0  # files below their group
    plain = QStyledItemDelegate.sizeHint(d, QStyleOptionViewItem(), file).width()
    assert d.sizeHint(QStyleOptionViewItem(), file).width() == plain + d._indent(file)[0]


def test_the_indicator_and_a_double_click_toggle_a_group(qtbot, win):
    w, m, tree = win, win.model, win.tree
    rect = tree.visualRect(m.group_index(1))
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.left() + 8, rect.center().y()))
    assert m.is_expanded(1) and m.rowCount() == 303
    assert [path_of(w, m.index(r, 0)) for r in range(2, 5)] == files_of(w, 1)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.left() + 8, rect.center().y()))
    assert not m.is_expanded(1) and m.rowCount() == 300
    rect = tree.visualRect(m.group_index(2, 1))  # a double click anywhere on the row
    qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert m.is_expanded(2)
    qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert not m.is_expanded(2)


def test_clicking_a_check_box_marks_the_file(qtbot, win):
    w, m, tree = win, win.model, win.tree
    w.groups_view.show_file(0, 1)
    idx = m.file_index(0, 1)
    opt = QStyleOptionViewItem()
    tree.initViewItemOption(opt)
    opt.rect = tree.visualRect(idx).adjusted(w.groups_view.delegate._indent(idx)[0], 0, 0, 0)
    w.groups_view.delegate.initStyleOption(opt, idx)
    check = tree.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, opt,
                                        tree)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=check.center())
    assert m.marks == {files_of(w, 0)[1]}
    assert idx.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked


def test_right_expands_and_enters_left_leaves_and_collapses(qtbot, win):
    w, m, tree = win, win.model, win.tree
    tree.setCurrentIndex(m.group_index(3))
    qtbot.keyClick(tree, Qt.Key.Key_Right)
    assert m.is_expanded(3) and tree.currentIndex() == m.group_index(3)
    qtbot.keyClick(tree, Qt.Key.Key_Right)  # expanded: to its first file
    assert path_of(w, tree.currentIndex()) == files_of(w, 3)[0]
    qtbot.keyClick(tree, Qt.Key.Key_Down)
    assert path_of(w, tree.currentIndex()) == files_of(w, 3)[1]
    qtbot.keyClick(tree, Qt.Key.Key_Left)  # a file: to its group
    assert tree.currentIndex() == m.group_index(3) and m.is_expanded(3)
    qtbot.keyClick(tree, Qt.Key.Key_Left)  # the group: collapsed
    assert not m.is_expanded(3) and tree.currentIndex() == m.group_index(3)
    qtbot.keyClick(tree, Qt.Key.Key_Return)  # Enter on a group toggles it
    assert m.is_expanded(3)
    qtbot.keyClick(tree, Qt.Key.Key_End)
    assert tree.currentIndex().row() == m.rowCount() - 1
    qtbot.keyClick(tree, Qt.Key.Key_Home)
    assert tree.currentIndex().row() == 0


def test_collapsing_the_group_of_the_current_file_makes_the_group_current(qtbot, win):
    w, m, tree = win, win.model, win.tree
    w.groups_view.show_file(4, 2)
    tree.collapse(m.group_index(4))
    assert tree.currentIndex().isValid() and m.group_row(tree.currentIndex()) == 4
    assert m.is_group(tree.currentIndex())
    w.groups_view.show_file(4, 1)
    w.groups_view.collapse_all()
    assert m.rowCount() == 300 and tree.currentIndex() == m.group_index(4)


def test_space_marks_the_selected_files_and_the_current_row_is_compared(qtbot, win):
    w, m, tree = win, win.model, win.tree
    w.groups_view.show_file(7, 1)
    assert w.bitdiff.diff is not None
    assert w.groups_view.selected_records() == [m.rows[7][1][1].index]
    qtbot.keyClick(tree, Qt.Key.Key_Space)
    assert m.marks == {files_of(w, 7)[1]}


def test_marks_selection_current_and_expansion_survive_a_sort_and_a_regroup(qtbot, win):
    w, m, tree = win, win.model, win.tree
    w.groups_view.show_file(10, 2)
    path = files_of(w, 10)[2]
    w.groups_view.show_file(250, 0)  # a second group expanded, far down
    other = files_of(w, 250)[0]
    m.setData(m.file_index(250, 1), Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    marked = files_of(w, 250)[1]
    tree.setCurrentIndex(m.file_index(10, 2))
    tree.selectionModel().select(m.file_index(250, 0), tree.selectionModel().SelectionFlag.Select
                                 | tree.selectionModel().SelectionFlag.Rows)
    expanded = {m.rows[10][0], m.rows[250][0]}

    def check():
        assert m.expanded_groups() == expanded and m.rowCount() == 306
        assert path_of(w, tree.currentIndex()) == path
        assert {w.records[i].path for i in w.groups_view.selected_records()} == {path, other}
        assert m.marks == {marked}
        row = m.positions.of_path[marked]
        assert m.file_index(*row).data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
        for gi in expanded:  # each expanded group: exactly its files below it
            row = m.positions.row_of_group[gi]
            first = m.group_index(row).row()
            assert [path_of(w, m.index(first + 1 + c, 0)) for c in range(3)] == \
                files_of(w, row)
            assert path_of(w, m.index(first + 4, 0)) is None

    check()
    with qtbot.waitSignal(m.rebuilt, timeout=30_000):
        tree.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    check()
    with qtbot.waitSignal(w.groupsChanged, timeout=30_000):
        w._show_groups()  # a regroup (same groups): the view state is kept by path
    check()
