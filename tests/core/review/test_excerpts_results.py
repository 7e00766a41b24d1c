"""Excerpts in a results file (issue 41, part 3): saved with paths, read back, and a bad
entry is a clear error."""

import json
import os

import pytest

from simdup_gui.core.review.export import load_results
from simdup_gui.core.review.schema import ResultsError
from simdup_gui.core.session import ReviewSettings, Session

from tests.excerpt_fixtures import excerpt_folder


@pytest.fixture
def saved(tmp_path):
    s = Session([str(excerpt_folder(tmp_path / "t"))], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    out = tmp_path / "r.json"
    s.save(str(out))
    return s, out


def by_path(records, excerpts):
    return sorted((records[e.part].path, records[e.whole].path, e.containment) for e in excerpts)


def test_excerpts_round_trip_with_paths(saved):
    s, out = saved
    data = json.loads(out.read_text())
    assert {"part", "whole", "containment"} == set(data["excerpts"][0])
    start = os.path.join(s.roots[0], "book start.txt")
    assert any(e["part"] == start for e in data["excerpts"])
    res = load_results(str(out))
    assert by_path(res.records, res.excerpts) == by_path(s.records, s.excerpts)
    loaded = Session()
    loaded.load(str(out), keep_groups=True)
    assert by_path(loaded.records, loaded.excerpts) == by_path(s.records, s.excerpts)
    assert by_path(loaded.records, loaded.results().excerpts) == by_path(s.records, s.excerpts)


@pytest.mark.parametrize("change, where", [
    (lambda e: e.update(containment=1.5), "excerpts[0].containment"),
    (lambda e: e.update(containment="93 %"), "excerpts[0].containment"),
    (lambda e: e.pop("containment"), "excerpts[0].containment: missing"),
    (lambda e: e.update(part="/nowhere/else.txt"), "excerpts[0].part"),
    (lambda e: e.update(whole="relative.txt"), "excerpts[0].whole"),
    (lambda e: e.update(whole=e["part"]), "excerpts[0].whole"),
])
def test_a_bad_excerpt_is_a_clear_error(saved, tmp_path, change, where):
    _, out = saved
    data = json.loads(out.read_text())
    change(data["excerpts"][0])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ResultsError, match=where.replace(".", r"\.").replace("[", r"\[")
                       .replace("]", r"\]")):
        load_results(str(bad))


def test_excerpts_that_are_not_a_list_are_refused(saved, tmp_path):
    _, out = saved
    data = json.loads(out.read_text())
    data["excerpts"] = {"part": "x"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ResultsError, match="excerpts"):
        load_results(str(bad))
