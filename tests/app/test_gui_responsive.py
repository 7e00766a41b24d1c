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


def test_groups_are_handed_to_the_view_in_chunks(qtbot, model, monkeypatch):
    monkeypatch.setattr(tree_models, "FETCH_ROWS", 100)
    recs, groups = records_and_groups(250)
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.set_data(recs, groups, 64)
    assert model.rowCount() == 100 and model.shown_group_count() == 250
    assert model.canFetchMore()
    model.fetchMore()
    assert model.rowCount() == 200
    model.fetch_to(249)
    assert model.rowCount() == 250 and not model.canFetchMore()


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
    idx = m.index(1, 0, m.index(5, 0))
    w.tree.setCurrentIndex(idx)
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


def test_a_sort_hands_back_groups_fetched_far_down_but_keeps_the_selection(qtbot, model,
                                                                          monkeypatch):
    monkeypatch.setattr(tree_models, "FETCH_ROWS", 100)
    recs, groups = records_and_groups(1000)
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.set_data(recs, groups, 64)
    model.fetch_to(799)  # scrolled far down
    kept = QPersistentModelIndex(model.index(1, 0, model.index(650, 0)))  # a selected file
    path = recs[kept.data(tree_models.RECORD_ROLE)].path
    with qtbot.waitSignal(model.rebuilt, timeout=30_000):
        model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
    assert kept.isValid() and recs[kept.data(tree_models.RECORD_ROLE)].path == path
    assert model.rowCount() == max(100, kept.parent().row() + 1) < 800
    assert model.canFetchMore()


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


def test_the_tree_lays_out_only_the_groups_handed_to_it(qtbot, monkeypatch, tmp_path):
    """QTreeView asks for one more chunk each time it lays out the top level, and its header
    would keep row 0 through a sort (maybe moved to the last row): neither grows the rows."""
    monkeypatch.setattr(tree_models, "REBUILD_IN_WORKER_ABOVE", 10)
    monkeypatch.setattr(tree_models, "FETCH_ROWS", 100)
    w = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                   language="en")
    qtbot.addWidget(w)
    w.show()
    recs, groups = records_and_groups(400)
    w.session.records, w.session.groups = recs, groups
    with qtbot.waitSignal(w.groupsChanged, timeout=30_000):
        w._show_groups()
    m = w.model
    w.tree.doItemsLayout()
    assert m.rowCount() == 100
    w.groups_view.expand_all()
    assert m.rowCount() == 100
    w.groups_view.collapse_all()  # expanded groups stay fetched where a sort takes them
    for column, order in [(COL_SIZE, Qt.SortOrder.AscendingOrder),
                          (COL_SIZE, Qt.SortOrder.DescendingOrder),
                          (COL_NAME, Qt.SortOrder.DescendingOrder)]:
        with qtbot.waitSignal(m.rebuilt, timeout=30_000):
            w.tree.sortByColumn(column, order)
        w.tree.doItemsLayout()
        assert m.rowCount() == 100
    w.tree.verticalScrollBar().setValue(w.tree.verticalScrollBar().maximum())
    assert m.rowCount() == 200  # scrolled to the end: the next chunk
