"""Issue 37, part 2: a file sits in one group only; a near-duplicate of a member of another
group is named there ("also similar to ..."), and a star of short texts does not join
members far from each other."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from simdup_gui.core.group import also, stars
from simdup_gui.core.group.edges import PairGraph
from simdup_gui.core.models import FileRecord
from simdup_gui.core.review.results import ResultsError, load_json, to_text
from simdup_gui.core.session import ReviewSettings, Session
from simdup_gui.core.textsim import jaccard, normalise, shingle_set


def _words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(5))
                    for _ in range(n))


def tiny_setup_cfgs(root, seed: int = 1) -> dict[str, str]:
    """Two families of tiny files (a, a2 and b, b2: J 0.99 inside a family, 0.45 across)
    and a file R that holds a bit of both (J 0.72 to each): R's star would join them."""
    rng = random.Random(seed)
    c, u, v = _words(rng, 9), _words(rng, 5), _words(rng, 5)
    texts = {"r": f"{u}\n{c}\n{v}\n", "a": f"{u}\n{c}\n", "b": f"{c}\n{v}\n"}
    texts["a2"] = texts["a"] + "x\n"
    texts["b2"] = "y" + texts["b"]
    paths = {}
    for name, text in texts.items():
        (root / name).mkdir(parents=True, exist_ok=True)
        (root / name / "setup.cfg").write_text(text, encoding="utf-8")
        paths[name] = str(root / name / "setup.cfg")
    sets = {k: shingle_set(normalise(t)) for k, t in texts.items()}
    assert all(len(s) < 128 for s in sets.values())  # whole sketches: exact J
    assert all(0.70 <= jaccard(sets["r"], sets[k]) < 0.75 for k in ("a", "a2", "b", "b2"))
    assert all(jaccard(sets[x], sets[y]) < 0.5 for x in ("a", "a2") for y in ("b", "b2"))
    return paths


def _session(root, **kw) -> Session:
    s = Session([str(root)], ReviewSettings(use_cache=False, workers=1, **kw))
    s.scan()
    return s


def _named(s: Session, paths: dict[str, str]) -> set[frozenset[str]]:
    name = {p: k for k, p in paths.items()}
    return {frozenset(name[s.records[m.index].path] for m in g.members) for g in s.groups}


def test_a_star_of_short_texts_does_not_join_members_far_from_each_other(tmp_path):
    paths = tiny_setup_cfgs(tmp_path)
    s = _session(tmp_path)
    assert _named(s, paths) == {frozenset({"r", "a", "a2"}), frozenset({"b", "b2"})}
    # the family that left is named beside the star it left: "also similar to r"
    notes = also.resolve(s.groups)
    named = {(s.records[n.member].path, s.records[n.other].path) for ns in notes for n in ns}
    assert (paths["b"], paths["r"]) in named and (paths["r"], paths["b"]) in named


def test_without_the_rule_the_star_joins_both_families(tmp_path, monkeypatch):
    """The test above is not vacuous: without the short-text rule R's star holds all five."""
    paths = tiny_setup_cfgs(tmp_path)
    monkeypatch.setattr(stars, "regroup_far", lambda records, members, graph, st, old: st)
    assert _named(_session(tmp_path), paths) == {frozenset(paths)}


def chain(root, n: int = 5, seed: int = 3) -> list[str]:
    """Versions v1 ~ v2 ~ ... ~ vn, each about 0.78 like its neighbours (v1 and v3: 0.6)."""
    rng = random.Random(seed)
    versions = [_words(rng, 600).split()]
    for _ in range(n - 1):
        w = list(versions[-1])
        for i in rng.sample(range(len(w)), 45):
            w[i] = _words(rng, 1)
        versions.append(w)
    root.mkdir(parents=True, exist_ok=True)
    out = []
    for i, w in enumerate(versions, 1):
        (root / f"v{i}.txt").write_text(" ".join(w), encoding="utf-8")
        out.append(str(root / f"v{i}.txt"))
    return out


def test_a_chain_of_versions_names_the_neighbour_in_the_other_group(tmp_path):
    """v1 ~ v2 ~ v3 ~ v4 ~ v5 in more than one group: the neighbouring versions that sit in
    two groups name each other, with their group and similarity (as the README says)."""
    files = chain(tmp_path / "c")
    s = _session(tmp_path)
    assert len(s.groups) >= 2
    group_of = {s.records[m.index].path: g.id for g in s.groups for m in g.members}
    notes = also.resolve(s.groups)
    seen = set()
    for g, ns in zip(s.groups, notes):
        for n in ns:
            a, b = s.records[n.member].path, s.records[n.other].path
            assert group_of[a] == g.id and group_of[b] == n.group != g.id
            assert n.similarity >= 0.70
            seen.add(frozenset((files.index(a), files.index(b))))
    neighbours_apart = {frozenset((i, i + 1)) for i in range(len(files) - 1)
                        if group_of[files[i]] != group_of[files[i + 1]]}
    assert neighbours_apart and neighbours_apart <= seen
    text = to_text(s.results())
    assert "also similar to " in text and " in group " in text
    # the results file keeps them, and an old results file without them still loads
    path = tmp_path / "r.json"
    s.save(str(path))
    back = load_json(path.read_text(encoding="utf-8"))
    assert [g.also for g in back.groups] == [g.also for g in s.groups]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert any("also_similar" in g for g in data["groups"])
    for g in data["groups"]:
        g.pop("also_similar", None)
    assert not any(g.also for g in load_json(json.dumps(data)).groups)


def _with_note(path) -> tuple[dict, dict]:
    data = json.loads(path.read_text(encoding="utf-8"))
    g = next(g for g in data["groups"] if g.get("also_similar"))
    return data, g["also_similar"][0]


@pytest.mark.parametrize("key, value, says", [
    ("similarity", 1.5, "also_similar[0].similarity: expected a number from 0 to 1"),
    ("similarity", None, "also_similar[0].similarity: expected a number"),
    ("file", "/nowhere/x.txt", "also_similar[0].file: expected a file of this group"),
    ("other", 7, "also_similar[0].other: expected a string"),
    ("other_group", 999, "also_similar[0].other_group: expected the id of the group"),
])
def test_a_bad_note_in_a_results_file_is_a_clear_error(tmp_path, key, value, says):
    chain(tmp_path / "c")
    s = _session(tmp_path)
    path = tmp_path / "r.json"
    s.save(str(path))
    data, note = _with_note(path)
    note[key] = value
    with pytest.raises(ResultsError) as e:
        load_json(json.dumps(data))
    assert says in str(e.value)
    data, note = _with_note(path)
    note["other"] = note["file"]  # a file of its own group
    with pytest.raises(ResultsError, match="expected a file of another group"):
        load_json(json.dumps(data))


def test_the_notes_are_bounded_in_a_dense_family():
    """Two groups of 40 files, every file near every file of the other group: each member
    keeps its PER_MEMBER best notes and each group PER_GROUP, the most similar first."""
    n = 40
    recs = [FileRecord(f"/d/{i}.txt", 10, i, i, 1, "/d", "utf-8", i, 1, str(i), str(i))
            for i in range(2 * n)]
    inside = [(0, i) for i in range(1, n)] + [(n, n + i) for i in range(1, n)]
    across = [(i, n + j) for i in range(n) for j in range(n)]
    pairs = np.array(inside + across, dtype=np.int64)
    rng = np.random.default_rng(1)
    sim = np.concatenate((np.full(len(inside), 0.9), rng.uniform(0.7, 0.8, len(across))))
    graph = PairGraph.known(2 * n, pairs, sim, np.ones(len(pairs), dtype=bool), 0.70)
    notes = also.collect({0: list(range(1, n)), n: list(range(n + 1, 2 * n))}, graph,
                         {i: i for i in range(2 * n)})
    assert set(notes) == {0, n}
    for r, ns in notes.items():
        assert len(ns) == also.PER_GROUP
        per = {}
        for a in ns:
            per[a.member] = per.get(a.member, 0) + 1
            assert (a.member < n) == (r == 0) and (a.other < n) != (r == 0)
        assert max(per.values()) <= also.PER_MEMBER
        assert [a.similarity for a in ns] == sorted((a.similarity for a in ns), reverse=True)


def test_files_said_not_to_be_duplicates_are_not_noted(tmp_path):
    from simdup_gui.core.group.ignore import IgnoreList, apply

    chain(tmp_path / "c")
    s = _session(tmp_path)
    notes = [n for ns in also.resolve(s.groups) for n in ns]
    assert notes
    n = notes[0]
    ignore = IgnoreList()
    ignore.add_pairs([(s.records[n.member].path, s.records[n.other].path)])
    after = apply(s.groups, s.records, ignore)
    left = {(x.member, x.other) for ns in also.resolve(after) for x in ns}
    assert (n.member, n.other) not in left and (n.other, n.member) not in left
