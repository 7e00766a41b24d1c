"""Large results stay usable: rows built on the pool, handed to the view in chunks, a big
results file read on the pool. Behaviour only; nothing here times anything."""

import os

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QPersistentModelIndex, QSettings, Qt, QThreadPool  # noqa: E402
from PySide6.QtTest import QAbstractItemModelTester  # noqa: E402

from simdup_gui.app import files_ui, tree_models  # noqa: E402
from simdup_gui.app.tree_models import GroupTreeModel  # noqa: E402
from simdup_gui.app.window import MainWindow  # noqa: E402
from simdup_gui.core.models import FileRecord, Group, Member  # noqa: E402
from simdup_gui.core.presenters.tree import COL_NAME, COL_SIZE  # noqa: E402
from simdup_gui.core.session import Session  # noqa: E402


def records_and_groups(n_groups: int, per: int = 2):
    recs, groups = [], []
    for g in range(n_groups):
        members = []
        for j in range(per):
            i = len(recs)
            recs.append(FileRecord(f"/d/g{g:05d}_{j}.txt", 10 + (g * 7919 + j) % 1000, 1, i, 1,
                                   "/d", "utf-8", i, 50, "t", "c"))
            members.append(Member(i, j, False, 1.0 if j == 0 else 0.9))
        groups.append(Group(g + 1, members[0].index, members))
    return recs, groups


@pytest.fixture
def model(qtbot):
    pool = QThreadPool()
    m = GroupTreeModel(Session(), pool=pool)
    yield m
    pool.waitForDone(10_000)


def names(m: GroupTreeModel) -> list[str]:
    return [os.path.basename(m.records[members[0].index].path) for _, members in m.rows]


def test_sorting_a_large_result_runs_on_the_pool_and_orders_the_groups(qtbot, model,
                                                                      monkeypatch):
    monkeypatch.setattr(tree_models, "REBUILD_IN_WORKER_ABOVE", 10)
    recs, groups = records_and_groups(300)
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.set_data(recs, groups, 64)
    before = names(model)
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
        assert model.busy() and names(model) == before  # the old rows meanwhile
    sizes = [sum(recs[x.index].size for x in members) for _, members in model.rows]
    assert sizes == sorted(sizes, reverse=True)
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.sort(COL_NAME, Qt.SortOrder.AscendingOrder)
    assert names(model) == sorted(before)
    assert not model.busy()


def test_filter_on_the_pool_shows_only_matching_groups(qtbot, model, monkeypatch):
    monkeypatch.setattr(tree_models, "REBUILD_IN_WORKER_ABOVE", 10)
    recs, groups = records_and_groups(300)
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.set_data(recs, groups, 64)
    done = []
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.set_filter("G0012", then=lambda: done.append(model.rowCount()))
    assert names(model) == [f"g0012{d}_0.txt" for d in range(10)]
    assert done == [10]


def test_a_newer_change_supersedes_one_under_way(qtbot, model, monkeypatch):
    monkeypatch.setattr(tree_models, "REBUILD_IN_WORKER_ABOVE", 10)
    recs, groups = records_and_groups(300)
    model.set_data(recs, groups, 64)
    model.set_filter("g001")
    model.set_filter("g0020")
    qtbot.waitUntil(lambda: not model.busy(), timeout=30_000)
    assert names(model) == [f"g0020{d}_0.txt" for d in range(10)]


def flat_paths(m: GroupTreeModel) -> list[str | None]:
    """Each flat row: None for a group row, the path of a file row."""
    out = []
    for r in range(m.rowCount()):
        rec = m.index(r, 0).data(tree_models.RECORD_ROLE)
        out.append(None if rec < 0 else m.records[rec].path)
    return out


def test_expanding_a_group_puts_exactly_its_files_right_below_it(qtbot, model):
    recs, groups = records_and_groups(6, per=3)
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    model.set_data(recs, groups, 64)
    assert model.rowCount() == 6 and flat_paths(model) == [None] * 6  # all collapsed
    inserted = []
    model.rowsInserted.connect(lambda _p, first, last: inserted.append((first, last)))
    model.set_expanded(2, True)
    files = [recs[x.index].path for x in model.rows[2][1]]
    assert inserted == [(3, 5)]
    assert flat_paths(model) == [None, None, None, *files, None, None, None]
    assert [model.file_index(2, c).row() for c in range(3)] == [3, 4, 5]
    assert model.group_index(3).row() == 6 and model.group_row(model.index(4, 0)) == 2
    assert model.group_at(model.index(5, 0)) is groups[2]
    model.set_expanded(0, True)  # the rows of the later group move down
    assert flat_paths(model)[5:10] == [None, *files, None]
    removed = []
    model.rowsRemoved.connect(lambda _p, first, last: removed.append((first, last)))
    model.set_expanded(2, False)
    assert removed == [(6, 8)] and model.rowCount() == 9
    assert not model.file_index(2, 0).isValid()
    model.set_all_expanded(True)
    assert flat_paths(model) == [p for _, members in model.rows
                                 for p in (None, *(recs[x.index].path for x in members))]
    model.set_all_expanded(False)
    assert model.rowCount() == 6


def test_a_sort_keeps_expanded_groups_selection_and_marks(qtbot, model, monkeypatch):
    monkeypatch.setattr(tree_models, "REBUILD_IN_WORKER_ABOVE", 10)
    recs, groups = records_and_groups(1000)
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.set_data(recs, groups, 64)
    model.set_expanded_rows([3, 650, 900])
    kept = QPersistentModelIndex(model.file_index(650, 1))  # a selected file, far down
    group = QPersistentModelIndex(model.group_index(900))
    path = recs[kept.data(tree_models.RECORD_ROLE)].path
    assert model.setData(kept.sibling(kept.row(), 0), Qt.CheckState.Checked,
                         Qt.ItemDataRole.CheckStateRole)
    expanded = {model.rows[r][0] for r in (3, 650, 900)}
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
    assert kept.isValid() and recs[kept.data(tree_models.RECORD_ROLE)].path == path
    assert kept.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert model.marks == {path}
    assert model.group_at(group) is groups[900] and model.is_group(group)
    assert model.expanded_groups() == expanded
    row = model.group_row(kept)
    assert model.rows[row][0] in expanded and model.group_index(row).row() < kept.row()
    assert model.rowCount() == 1000 + 6


def test_sorting_keeps_the_selected_file_selected(qtbot, monkeypatch, tmp_path):
    monkeypatch.setattr(tree_models, "REBUILD_IN_WORKER_ABOVE", 10)
    w = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                   language="en")
    qtbot.addWidget(w)
    recs, groups = records_and_groups(300)
    w.session.records, w.session.groups = recs, groups
    with qtbot.waitSignal(w.groupsChanged, timeout=30_000):
        w._show_groups()
    m = w.model
    idx = w.groups_view.show_file(5, 1)
    path = m.records[idx.data(tree_models.RECORD_ROLE)].path
    with qtbot.waitSignal(m.rebuilt, timeout=30_000):
        w.tree.sortByColumn(COL_SIZE, Qt.SortOrder.AscendingOrder)
    cur = w.tree.currentIndex()
    assert cur.isValid() and m.records[cur.data(tree_models.RECORD_ROLE)].path == path


def test_a_large_results_file_is_loaded_on_the_pool(qtbot, monkeypatch, tmp_path):
    monkeypatch.setattr(files_ui, "LOAD_IN_WORKER_ABOVE", 0)
    src = tmp_path / "src"
    src.mkdir()
    text = "the same words in both files, long enough to be compared as text. " * 20
    for name in ("a.txt", "b.txt"):
        (src / name).write_text(text, encoding="utf-8")
    w = MainWindow(roots=[str(src)], settings=QSettings(str(tmp_path / "s.ini"),
                                                        QSettings.Format.IniFormat),
                   language="en")
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.scanFinished, timeout=60_000):
        w.start_scan()
    qtbot.waitUntil(lambda: not w.is_scanning(), timeout=10_000)
    saved = tmp_path / "results.json"
    w.actions.save_to(str(saved))
    w.session.records, w.session.groups = [], []
    with qtbot.waitSignal(w.groupsChanged, timeout=30_000):
        w.actions.load_from(str(saved))
        assert w.actions.loading()  # returned at once; read on the pool
        w.start_scan()  # refused while loading
        assert not w.is_scanning()
    assert not w.actions.loading()
    assert len(w.records) == 2 and len(w.session.groups) == 1


_derive = tree_models.derive


def test_asking_for_the_same_sort_twice_rebuilds_the_rows_once(qtbot, model, monkeypatch):
    """QTreeView.sortByColumn asks the model to sort twice; the second ask is the first."""
    monkeypatch.setattr(tree_models, "REBUILD_IN_WORKER_ABOVE", 10)
    recs, groups = records_and_groups(300)
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.set_data(recs, groups, 64)
    built = []

    def derive(*args, **kwargs):
        built.append(1)
        return _derive(*args, **kwargs)

    monkeypatch.setattr(tree_models, "derive", derive)
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
        model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
    qtbot.waitUntil(lambda: not model.busy(), timeout=30_000)
    assert len(built) == 1
    model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)  # as shown already: nothing to do
    assert not model.busy() and len(built) == 1


def test_collection_is_paused_while_bulk_data_is_built_and_frozen_after():
    import gc
    import threading

    from simdup_gui.app import heap

    seen = []
    both_in = threading.Barrier(2)

    @heap.building
    def build(*, job=None):
        both_in.wait(10)  # the other builder is inside too
        seen.append(gc.isenabled())
        both_in.wait(10)
        return [object() for _ in range(100)]

    frozen = gc.get_freeze_count()
    try:
        t = threading.Thread(target=build)
        t.start()
        built = build(job=None)
        t.join()
        assert seen == [False, False] and gc.isenabled()
        assert len(built) == 100 and gc.get_freeze_count() >= frozen + 100
        gc.disable()  # a collector switched off by someone else stays off
        build_alone = heap.building(lambda: gc.isenabled())
        assert build_alone() is False and not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_a_bad_large_results_file_is_one_clear_error_and_nothing_changes(qtbot, monkeypatch,
                                                                         tmp_path):
    monkeypatch.setattr(files_ui, "LOAD_IN_WORKER_ABOVE", 0)
    shown = []
    monkeypatch.setattr(files_ui, "show_error", lambda _w, title, e: shown.append((title, e)))
    w = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                   language="en")
    qtbot.addWidget(w)
    recs, groups = records_and_groups(3)
    w.session.records, w.session.groups = recs, groups
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "records": [' + "[" * 50 + "]" * 50 + "]}", encoding="utf-8")
    w.actions.load_from(str(bad))
    assert w.actions.loading()  # read in a child process, waited for on the pool
    qtbot.waitUntil(lambda: not w.actions.loading(), timeout=60_000)
    assert [(t, type(e).__name__, str(e)) for t, e in shown] == [
        ("Cannot load", "ResultsError",
         "nested more than 12 levels deep: not a simdup results file")]
    assert w.session.records is recs and w.session.groups is groups


class Counted(GroupTreeModel):
    """The model, counting the Python calls the view makes and the rows they are about."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.calls = 0
        self.asked_rows: set[int] = set()

    def reset_counts(self) -> None:
        self.calls, self.asked_rows = 0, set()

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        self.calls += 1
        self.asked_rows.add(index.row())
        return super().data(index, role)

    def flags(self, index):
        self.calls += 1
        self.asked_rows.add(index.row())
        return super().flags(index)

    def rowCount(self, *parent):  # noqa: N802 - Qt API
        self.calls += 1
        return super().rowCount(*parent)

    def columnCount(self, *parent):  # noqa: N802 - Qt API
        self.calls += 1
        return super().columnCount(*parent)

    def headerData(self, *args):  # noqa: N802 - Qt API
        self.calls += 1
        return super().headerData(*args)


def window_showing(qtbot, tmp_path, n: int):
    """A shown main window (1200 x 800) over ``n`` synthetic groups; (window, records)."""
    w = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                   language="en")
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    recs, groups = records_and_groups(n)
    w.session.records, w.session.groups = recs, groups
    with qtbot.waitSignal(w.groupsChanged, timeout=60_000):
        w._show_groups()
    return w, recs

def test_scrolling_to_the_end_and_expanding_all_ask_only_for_the_rows_shown(
        qtbot, monkeypatch, tmp_path):
    """The table view lays out no rows: whatever the groups, it asks the model about the
    rows it paints (a few dozen), not about every row as a tree view did."""
    from simdup_gui.app import window

    monkeypatch.setattr(window, "GroupTreeModel", Counted)
    w, _ = window_showing(qtbot, tmp_path, 20_000)
    m, tree = w.model, w.tree
    assert isinstance(m, Counted) and m.rowCount() == 20_000
    shown = tree.viewport().height() // tree.verticalHeader().defaultSectionSize() + 2
    budget = 4 * shown  # rows the view may ask about: those shown, and a margin

    def last_row_shown() -> bool:
        return tree.rowAt(tree.viewport().height() - 2) == m.rowCount() - 1 or (
            tree.visualRect(m.index(m.rowCount() - 1, 0)).bottom()
            <= tree.viewport().height() and tree.rowAt(0) > 0)

    qtbot.wait(50)
    m.reset_counts()
    for _ in range(20):  # until the last row is shown
        tree.scrollToBottom()
        qtbot.wait(10)
        if last_row_shown():
            break
    assert last_row_shown()
    assert 0 < len(m.asked_rows) <= budget and m.calls < 60 * budget
    assert min(m.asked_rows) >= m.rowCount() - budget

    m.reset_counts()
    w.groups_view.expand_all()
    qtbot.wait(50)
    assert m.rowCount() == 60_000
    assert len(m.asked_rows) <= budget and m.calls < 60 * budget
    m.reset_counts()
    for _ in range(20):
        tree.scrollToBottom()
        qtbot.wait(10)
        if last_row_shown():
            break
    assert last_row_shown() and len(m.asked_rows) <= budget

    m.reset_counts()
    with qtbot.waitSignal(m.rebuilt, timeout=60_000):
        tree.sortByColumn(COL_SIZE, Qt.SortOrder.DescendingOrder)
    qtbot.wait(50)
    assert len(m.asked_rows) <= budget and m.calls < 60 * budget

    # Select all, the titles repainted (switching tabs), the selection read back: the
    # column titles' own (empty) selection model and the ranges keep it to the rows shown
    m.reset_counts()
    tree.selectAll()
    qtbot.wait(50)
    w.tabs.setCurrentIndex(1)
    w.tabs.setCurrentIndex(0)
    tree.header().viewport().repaint()
    qtbot.wait(50)
    assert len(m.asked_rows) <= budget and m.calls < 120 * budget  # three repaints of the rows
    m.reset_counts()
    picked = w.groups_view.selected_records()
    assert len(picked) == 40_000 and len(set(picked)) == 40_000  # every file, once
    assert m.calls < budget


def test_a_selection_of_every_row_survives_sorts_and_expansion_as_one_range(
        qtbot, monkeypatch, tmp_path):
    """Select all, then Expand all, a sort, Collapse all: every row stays selected, as one
    range, and the model is never asked to move a persistent index per row (Qt keeps one
    for each selected row through a layout change: 0.3-1 s at 100,000 rows)."""
    from simdup_gui.app import groups_table

    monkeypatch.setattr(groups_table, "WHOLE_SELECTION_ABOVE", 10)
    w, recs = window_showing(qtbot, tmp_path, 300)
    m, tree = w.model, w.tree
    moved = []
    real = m.changePersistentIndexList
    monkeypatch.setattr(m, "changePersistentIndexList", lambda a, b: moved.append(len(a))
                        or real(a, b))

    def whole() -> bool:
        sel = tree.selectionModel().selection()
        return len(sel) == 1 and sel[0].top() == 0 and sel[0].bottom() == m.rowCount() - 1
    tree.selectAll()
    for step in (w.groups_view.expand_all,
                 lambda: tree.sortByColumn(COL_SIZE, Qt.SortOrder.DescendingOrder),
                 w.groups_view.collapse_all):
        step()
        qtbot.waitUntil(lambda: not m.busy(), timeout=30_000)
        assert whole()
    assert m.rowCount() == 300 and len(w.groups_view.selected_records()) == 0
    assert moved and max(moved) <= 4  # the current index, not one per selected row
    w.groups_view.expand_all()
    assert whole() and len(w.groups_view.selected_records()) == len(recs)


def test_the_window_takes_pythons_lock_back_from_busy_threads_within_a_millisecond(
        qtbot, tmp_path):
    """A busy background thread (a scan's grouping) hands Python's lock to the window's
    thread after 1 ms, not the default 5 ms (workers.share_the_interpreter; measured on a
    768 MB tree: the worst stall of a cold scan 104-124 -> 42-57 ms); a smaller interval
    set before is kept."""
    import sys

    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        w = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                       language="en")
        qtbot.addWidget(w)
        assert sys.getswitchinterval() <= 0.001
        sys.setswitchinterval(0.0005)
        qtbot.addWidget(MainWindow(settings=QSettings(str(tmp_path / "t.ini"),
                                                      QSettings.Format.IniFormat), language="en"))
        assert sys.getswitchinterval() == pytest.approx(0.0005)
    finally:
        sys.setswitchinterval(before)
