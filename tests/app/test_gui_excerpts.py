"""The Excerpts tab (issue 41, part 3): the texts mostly inside a longer one, and both texts
shown from where they start to match."""

import os

import pytest

pytest.importorskip("PySide6")

from tests.app.conftest import scan  # noqa: E402
from tests.excerpt_fixtures import excerpt_folder  # noqa: E402


def test_the_excerpts_tab_lists_them_and_shows_the_matching_part(make, qtbot, tmp_path):
    root = excerpt_folder(tmp_path / "t")
    w = make([root])
    scan(qtbot, w)
    tab = w.excerpts_tab
    qtbot.waitUntil(lambda: tab.count() > 0, timeout=10_000)
    assert w.tabs.tabText(w.tabs.indexOf(tab)) == f"Excerpts ({tab.count()})"
    rows = [(os.path.basename(r.part), os.path.basename(r.whole), r.shown)
            for r in tab.model.rows]
    assert ("book start.txt", "book.txt", "100 %") in rows
    assert ("quote.txt", "letter.txt", "100 %") in rows
    assert not any("unrelated.txt" in r[:2] for r in rows)
    w.tabs.setCurrentIndex(w.tabs.indexOf(tab))
    n = rows.index(("quote.txt", "letter.txt", "100 %"))
    assert [tab.model.index(n, c).data() for c in range(2)] == [tab.model.rows[n].part,
                                                                tab.model.rows[n].whole]
    tab.table.setCurrentIndex(tab.model.index(n, 0))
    assert tab.textdiff.paths == (tab.model.rows[n].part, tab.model.rows[n].whole)
    # the letter quotes the paragraph after three of its own: the view starts at the quote
    quote = (root / "quote.txt").read_text()
    right = tab.textdiff.right
    top = right.cursorForPosition(right.viewport().rect().topLeft()).block().text()
    assert top.strip() and top.strip() in quote
    assert right.verticalScrollBar().value() > 0
    # never marked: a keep rule leaves the excerpt files that are in no group alone
    w.session.mark_keep("oldest")
    assert os.path.join(str(root), "quote.txt") not in w.session.marks


def test_the_excerpts_tab_speaks_chinese(make, qtbot, tmp_path):
    from tests.app.shown_texts import english, texts
    from tests.app.test_gui_chinese import shown_data

    w = make([excerpt_folder(tmp_path / "t")], language="zh_CN")
    scan(qtbot, w)
    tab = w.excerpts_tab
    qtbot.waitUntil(lambda: tab.count() > 0, timeout=10_000)
    assert w.tabs.tabText(w.tabs.indexOf(tab)) == f"摘录（{tab.count()}）"
    w.tabs.setCurrentIndex(w.tabs.indexOf(tab))
    tab.table.setCurrentIndex(tab.model.index(0, 0))
    shown = texts(w, skip=(w.textdiff.left, w.textdiff.right, tab.textdiff.left,
                           tab.textdiff.right))
    left = english(shown, shown_data(w))
    assert not left, left
    from PySide6.QtCore import Qt

    assert [tab.model.headerData(c, Qt.Orientation.Horizontal) for c in range(3)] == [
        "摘录", "所在文件", "包含比例"]


def test_the_excerpts_columns_are_fitted_when_the_tab_is_shown(make, qtbot, tmp_path):
    """A grouping with the tab not shown asks its model for no cell (fitting the columns to
    the rows of a large tree held the window); showing the tab fits them."""
    w = make([excerpt_folder(tmp_path / "t")])
    scan(qtbot, w)
    tab = w.excerpts_tab
    qtbot.waitUntil(lambda: tab.count() > 0, timeout=10_000)
    asked = []
    data = tab.model.data
    tab.model.data = lambda index, *role: (asked.append(index.row()), data(index, *role))[1]
    header = tab.table.horizontalHeader()
    header.resizeSection(0, 1)
    small = header.sectionSize(0)  # (its minimum)
    tab.refresh()
    assert not asked and header.sectionSize(0) == small
    w.tabs.setCurrentIndex(w.tabs.indexOf(tab))
    qtbot.waitUntil(lambda: header.sectionSize(0) > small, timeout=5_000)
    assert asked
    assert header.sectionSize(0) >= tab.table.sizeHintForColumn(0)
