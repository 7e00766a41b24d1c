"""The flat rows of the groups table, without Qt."""

import numpy as np

from simdup_gui.core.presenters.flat import FlatRows


def rows_of(flat: FlatRows) -> list[tuple[int, int]]:
    return [flat.locate(r) for r in range(flat.total)]


def test_expanding_puts_a_groups_files_right_below_it_and_collapsing_removes_them():
    flat = FlatRows()
    flat.lay_out(np.array([2, 0, 1]), np.array([3, 2, 4]), n_groups=3)
    assert rows_of(flat) == [(0, -1), (1, -1), (2, -1)]
    flat.set_open(1, True)
    assert rows_of(flat) == [(0, -1), (1, -1), (1, 0), (1, 1), (2, -1)]
    assert flat.files_range(1) == (2, 2) and flat.flat_of(2) == 4 and flat.flat_of(1, 1) == 3
    flat.set_open(0, True)
    assert rows_of(flat) == [(0, -1), (0, 0), (0, 1), (0, 2), (1, -1), (1, 0), (1, 1), (2, -1)]
    flat.set_open(1, False)
    assert rows_of(flat) == [(0, -1), (0, 0), (0, 1), (0, 2), (1, -1), (2, -1)]
    assert flat.open_groups() == {2} and not flat.all_open()


def test_all_at_once_and_expansion_kept_by_group_through_a_reorder():
    flat = FlatRows()
    flat.lay_out(np.array([0, 1, 2]), np.array([1, 2, 3]), n_groups=3)
    assert flat.differs(None, True)
    flat.set_open_rows(None, True)
    assert flat.total == 3 + 6 and flat.all_open() and not flat.differs(None, True)
    flat.set_open_rows([0, 2], False)
    assert flat.open_groups() == {1} and flat.total == 3 + 2
    flat.lay_out(np.array([1, 2, 0]), np.array([2, 3, 1]), n_groups=3)  # a sort
    assert rows_of(flat) == [(0, -1), (0, 0), (0, 1), (1, -1), (2, -1)]
    flat.lay_out(np.array([1, 2, 0]), np.array([2, 3, 1]), n_groups=3, keep=False)
    assert flat.total == 3 and flat.open_groups() == set()
    flat.lay_out(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), n_groups=0)
    assert flat.total == 0 and not flat.all_open() and not flat.differs(None, True)


def test_records_at_gives_the_files_of_flat_rows_and_leaves_groups_out():
    from types import SimpleNamespace

    from simdup_gui.core.presenters.flat import records_at

    f = FlatRows()
    sizes = np.array([2, 3, 1])
    f.lay_out(np.array([0, 1, 2]), sizes, 3)
    f.set_open(1, True)  # rows: g0, g1, f1.0, f1.1, f1.2, g2
    rows = [(gi, [SimpleNamespace(index=10 * gi + c) for c in range(n)])
            for gi, n in enumerate(sizes.tolist())]
    assert records_at(f, rows, np.arange(f.total)) == [10, 11, 12]
    assert records_at(f, rows, [0, 3, 99, -1]) == [11]
    f.set_open(0, True)  # g0, f0.0, f0.1, g1, ...
    assert records_at(f, rows, [1, 2, 3, 4]) == [0, 1, 10]
