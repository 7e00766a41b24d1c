"""The groups as the rows of a flat table: each group's own row, then (when the group is
expanded) one row per file. Qt-free; ``app/tree_models.py`` wraps it in a table model.

Where each group row starts is a numpy array, the cumulative sum of the rows each group
occupies, so that expanding or collapsing one group or all of them is a few vectorised
operations over the groups, and finding the group and file of a flat row is one binary
search: no Python loop over rows or files.
"""

from __future__ import annotations

import copy

import numpy as np

from .tree import GroupRows

_NONE = (-1, 0, -1)


class Positions:
    """Where each group and file of a :class:`GroupRows` is shown, built with its rows (on
    the worker) so that a sort, a selection or a repaint of marks needs no loop over rows."""

    def __init__(self, view: GroupRows) -> None:
        self.rows = view.rows  # the rows these positions are of
        self.row_of_group = {gi: row for row, (gi, _) in enumerate(view.rows)}
        recs = view.records
        self.of_path = {recs[m.index].path: (row, child) for row, (_, members)
                        in enumerate(view.rows) for child, m in enumerate(members)}
        n = len(view.rows)
        self.group_ids = np.fromiter((gi for gi, _ in view.rows), dtype=np.int64, count=n)
        self.sizes = np.fromiter((len(m) for _, m in view.rows), dtype=np.int64, count=n)


def derive(base: GroupRows, changes: dict, *, job=None) -> tuple[GroupRows, Positions]:
    """A copy of ``base`` with ``changes`` (attributes of GroupRows) and its rows rebuilt;
    reads, never changes, ``base``: safe on a worker thread."""
    view = copy.copy(base)
    for name, value in changes.items():
        setattr(view, name, value)
    view.rebuild()
    return view, Positions(view)


def settings_of(view: GroupRows) -> dict:
    return {k: v for k, v in vars(view).items() if k != "rows"}


def same_settings(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        a[k] is b[k] or (isinstance(a[k], (str, int, float)) and a[k] == b[k]) for k in a)


class FlatRows:
    """The flat rows of groups shown in some order (``group_ids``: each shown group's position
    in the result's groups; ``sizes``: the files each shows). Expansion is kept by group
    position, so it outlives a re-order of the same groups."""

    def __init__(self) -> None:
        self.open = np.zeros(0, dtype=bool)  # by position in the result's groups
        self.group_ids = np.zeros(0, dtype=np.int64)
        self.sizes = np.zeros(0, dtype=np.int64)
        self.starts = np.zeros(0, dtype=np.int64)  # flat row of each group row
        self.total = 0
        self._last = _NONE  # (flat row, group row, child) of the last look-up

    def lay_out(self, group_ids: np.ndarray, sizes: np.ndarray, n_groups: int,
                keep: bool = True) -> None:
        """Rows for these groups; ``keep`` False (or other groups) collapses every group."""
        if not keep or len(self.open) != n_groups:
            self.open = np.zeros(n_groups, dtype=bool)
        self.group_ids, self.sizes = group_ids, sizes
        self.relayout()

    def relayout(self) -> None:
        """The starts again, from ``open`` (after a change of several groups)."""
        gi = self.group_ids
        occupied = (1 + self.sizes * self.open[gi]) if len(gi) else np.zeros(0, dtype=np.int64)
        ends = np.cumsum(occupied, dtype=np.int64)
        self.starts = ends - occupied
        self.total = int(ends[-1]) if len(ends) else 0
        self._last = _NONE

    def locate(self, flat: int) -> tuple[int, int]:
        """(group row, child) of a flat row; child -1 for the group's own row."""
        last = self._last
        if last[0] == flat:
            return last[1], last[2]
        row = int(np.searchsorted(self.starts, flat, side="right")) - 1
        child = flat - int(self.starts[row]) - 1
        self._last = (flat, row, child)
        return row, child

    def locate_many(self, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`locate` of many flat rows at once: (group rows, children)."""
        rows = np.searchsorted(self.starts, flat, side="right") - 1
        return rows, flat - self.starts[rows] - 1

    def flat_of(self, row: int, child: int = -1) -> int:
        """The flat row of group row ``row`` (child -1) or of its file ``child``."""
        return int(self.starts[row]) + 1 + child

    def is_open(self, row: int) -> bool:
        return bool(self.open[self.group_ids[row]])

    def open_groups(self) -> set[int]:
        return set(np.flatnonzero(self.open).tolist())

    def all_open(self) -> bool:
        gi = self.group_ids
        return bool(len(gi)) and bool(self.open[gi].all())

    def files_range(self, row: int) -> tuple[int, int]:
        """(first flat row, count) of the files of group row ``row`` when it is expanded."""
        return int(self.starts[row]) + 1, int(self.sizes[row])

    def set_open(self, row: int, on: bool) -> None:
        """Expand or collapse one group: the rows below move by its files."""
        gi = self.group_ids[row]
        if bool(self.open[gi]) == on:
            return
        self.open[gi] = on
        k = int(self.sizes[row])
        self.starts[row + 1:] += k if on else -k
        self.total += k if on else -k
        self._last = _NONE

    def differs(self, rows, on: bool) -> bool:
        """Whether setting these group rows (None: all) to ``on`` changes anything."""
        gi = self.group_ids if rows is None else self.group_ids[np.asarray(rows, dtype=np.int64)]
        return bool(len(gi)) and not bool((self.open[gi] == on).all())

    def set_open_rows(self, rows, on: bool) -> None:
        """Expand or collapse several groups (None: all of the result's) at once."""
        if rows is None:
            self.open[:] = on
        else:
            self.open[self.group_ids[np.asarray(rows, dtype=np.int64)]] = on
        self.relayout()


def records_at(flat: FlatRows, rows, flat_rows) -> list[int]:
    """The record indexes of the file rows among ``flat_rows`` (an int array; group rows
    left out), ``rows`` the shown groups' (position, members): one binary search for them
    all, no Python call per group row."""
    flat_rows = np.asarray(flat_rows, dtype=np.int64)
    flat_rows = flat_rows[(flat_rows >= 0) & (flat_rows < flat.total)]
    at, child = flat.locate_many(flat_rows)
    files = child >= 0
    return [rows[r][1][c].index for r, c in zip(at[files].tolist(), child[files].tolist())]
