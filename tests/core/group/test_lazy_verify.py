"""Dense families cost what their groups need (issue 40, item 2): the stars measure only the
pairs they ask about, and the groups are those of measuring every doubtful pair first."""

from __future__ import annotations

import re

import pytest

from simdup_gui.core.group import measure
from simdup_gui.core.session import ReviewSettings, Session
from tests.core.group.test_templates import man_pages


def _scan(root, eager: bool, monkeypatch) -> Session:
    monkeypatch.setattr(measure, "EAGER_UP_TO", 4)  # the family is a dense one
    monkeypatch.setattr(measure, "RESOLVE_ALL", eager)
    s = Session([str(root)], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    return s


def _groups(s: Session):
    path = lambda i: s.records[i].path  # noqa: E731
    return sorted(
        (path(g.representative),
         tuple(sorted((path(m.index), m.similarity, m.measured, m.template, m.copy_set,
                       path(m.closest) if m.closest >= 0 else None, m.closest_similarity)
                      for m in g.members)))
        for g in s.groups)


def _measured(s: Session) -> int:
    return int(re.search(r"(\d+) measured from the files", s.index_plan).group(1))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_dense_family_measures_fewer_pairs_and_groups_alike(tmp_path, monkeypatch, seed):
    man_pages(tmp_path / "man", 40, seed=seed)  # 780 pairs, most near the threshold
    lazy = _scan(tmp_path, False, monkeypatch)
    lazy_groups, lazy_measured = _groups(lazy), _measured(lazy)
    eager = _scan(tmp_path, True, monkeypatch)
    assert lazy_groups == _groups(eager)
    assert lazy_groups  # the family is grouped
    assert lazy_measured < _measured(eager) / 2, (lazy_measured, _measured(eager))


def test_small_components_choose_references_by_measured_verdicts():
    """Below EAGER_UP_TO classes every doubtful pair is measured at once and references
    are chosen on the measured verdicts; in a dense family, on the estimates of the pairs in
    doubt. A-B is estimated 0.72 but measures 0.60, B-C estimated 0.68 measures 0.75."""
    import numpy as np

    from simdup_gui.core.group.edges import PairGraph
    from simdup_gui.core.group.stars import star_groups
    from simdup_gui.core.models import FileRecord

    recs = [FileRecord(f"/d/{n}.txt", 10, i, i, 1, "/d", "utf-8", i, 1, n, n)
            for i, n in enumerate("ABC")]
    pairs = np.array([(0, 1), (0, 2), (1, 2)], dtype=np.int64)
    exact_j = {0: 0.60, 2: 0.75}

    def graph(up_to: int) -> PairGraph:
        g = PairGraph(3, pairs, np.array([0.72, 0.90, 0.68]), np.zeros(3, dtype=bool),
                      np.array([True, False, True]), 0.70)

        def measure(rows):
            for r in rows.tolist():
                g.sim[r], g.exact[r] = exact_j[r], True
        g.measure_with(measure)
        g.resolve_small(up_to)
        return g

    def stars(up_to: int):
        return {"ABC"[g.representative]: {"ABC"[m.index] for m in g.members}
                for g in star_groups(recs, [[0], [1], [2]], graph(up_to), 64)}

    assert stars(64) == {"C": {"A", "B", "C"}}  # C has two verified near-duplicates
    assert stars(2) == {"A": {"A", "C"}}  # dense: A's two estimated ones; B then has none


def test_the_first_scores_of_every_class_are_those_counted_class_by_class():
    """stars._first_scores (the whole graph at once) gives each class the score the stars
    count from its own pairs: its copies and its near-duplicates' files, by decided verdicts
    or estimates (the first), and counting every pair in doubt (the second)."""
    import numpy as np

    from simdup_gui.core.group.edges import PairGraph
    from simdup_gui.core.group.stars import _first_scores

    rng = np.random.default_rng(4)
    n = 300
    pairs = np.unique(np.sort(rng.integers(0, n, (2000, 2)), axis=1), axis=0)
    pairs = pairs[pairs[:, 0] < pairs[:, 1]]
    m = len(pairs)
    g = PairGraph(n, pairs, rng.uniform(0.6, 1.0, m), np.zeros(m, dtype=bool),
                  rng.random(m) < 0.3, 0.7)
    g.decided[rng.random(len(g.pairs)) < 0.5] = True
    weight = rng.integers(1, 4, n)
    s1, s2 = _first_scores(g, weight)
    for c in range(n):
        nb, rows = g.neighbours(c)
        assert s1[c] == weight[c] - 1 + weight[nb[g.counts(rows)]].sum()
        assert s2[c] == weight[c] - 1 + weight[nb].sum()
