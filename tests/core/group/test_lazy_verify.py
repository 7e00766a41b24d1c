"""Dense families cost what their groups need (issue 40, item 2): the stars measure only the
pairs they ask about, and the groups are those of measuring every doubtful pair first."""

from __future__ import annotations

import re

import pytest

from simdup_gui.core.group import measure
from simdup_gui.core.session import ReviewSettings, Session
from tests.core.group.test_templates import man_pages


def _scan(root, eager: bool, monkeypatch) -> Session:
    monkeypatch.setattr(measure, "EAGER_UP_TO", 10**9 if eager else 4)
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
