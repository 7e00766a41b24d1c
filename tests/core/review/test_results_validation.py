"""Results files are untrusted input (issue 10, items 4 and 6): a malformed or forged one ends
in one clear error line and exit 2, never a traceback, and nothing on disk changes."""

import copy
import json
import os
import shutil

import pytest

from simdup_gui.cli import main
from simdup_gui.core.review.results import load_json
from simdup_gui.core.review.schema import ResultsError

from tests.actions_helpers import make_corpus, tree_state


@pytest.fixture
def scanned(tmp_path):
    make_corpus(tmp_path / "src")
    out = tmp_path / "results.json"
    assert main(["scan", str(tmp_path / "src"), "--format", "json", "-o", str(out),
                 "--no-cache", "--workers", "1"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["groups"], "the corpus must give at least one group"
    return tmp_path, data


def _f(d, gi=0, fi=0):
    return d["groups"][gi]["files"][fi]


def _set(path, value):
    def mutate(d):
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
    return mutate


def _del(*path):
    def mutate(d):
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        del obj[path[-1]]
    return mutate


def _root(d):
    return d["settings"]["roots"][0]


MUTATIONS = {
    "top is a list": lambda d: [d],
    "no version": _del("version"),
    "version 2": _set(["version"], 2),
    "settings not an object": _set(["settings"], [1, 2]),
    "bits 10**6": _set(["settings", "bits"], 10**6),
    "bits as text": _set(["settings", "bits"], "64"),
    "negative distance": _set(["settings", "distance"], -1),
    "similarity 5": _set(["settings", "similarity"], 5),
    "roots not a list": _set(["settings", "roots"], "/"),
    "relative root": _set(["settings", "roots"], ["src"]),
    "groups not a list": _set(["groups"], {"a": 1}),
    "group not an object": _set(["groups", 0], 7),
    "group id missing": _del("groups", 0, "id"),
    "files missing": _del("groups", 0, "files"),
    "path null": _set(["groups", 0, "files", 0, "path"], None),
    "size null": _set(["groups", 0, "files", 0, "size"], None),
    "size 10**30": _set(["groups", 0, "files", 0, "size"], 10**30),
    "size as text": _set(["groups", 0, "files", 0, "size"], "12"),
    "negative inode": _set(["groups", 0, "files", 0, "inode"], -5),
    "no time at all": lambda d: (_f(d).pop("mtime_ns"), _f(d).pop("mtime")),
    "fingerprint not hex": lambda d: (_f(d).pop("fingerprint128"),
                                      _f(d).__setitem__("fingerprint", "zz")),
    "fingerprint of a million bits": _set(["groups", 0, "files", 0, "fingerprint128"],
                                          "f" * 250_000),
    "similarity as text": _set(["groups", 0, "files", 0, "similarity"], "high"),
    "similarity NaN": _set(["groups", 0, "files", 0, "similarity"], float("nan")),
    "marked as text": _set(["groups", 0, "files", 0, "marked"], "yes"),
    "encoding of 10,000 characters": _set(["groups", 0, "files", 0, "encoding"], "x" * 10_000),
    "relative path": _set(["groups", 0, "files", 0, "path"], "a.txt"),
    "path with ..": lambda d: _f(d).__setitem__(
        "path", _root(d) + "/../" + os.path.basename(_root(d)) + "/x.txt"),
    "path outside the roots": _set(["groups", 0, "files", 0, "path"], "/etc/hostname"),
    "root not a scanned root": _set(["groups", 0, "files", 0, "root"], "/"),
    "same path in two groups": lambda d: d["groups"].append(copy.deepcopy(d["groups"][0])
                                                            | {"id": 999}),
    "problem not an object": _set(["problems"], ["oops"]),
    "closest outside the group": _set(["groups", 0, "files", 0, "closest"], "/etc/hostname"),
    "closest is itself": lambda d: _f(d).__setitem__("closest", _f(d)["path"]),
    "closest similarity 3": _set(["groups", 0, "files", 0, "closest_similarity"], 3),
    "template count negative": _set(["groups", 0, "files", 0, "template_documents"], -1),
    "copy set as text": _set(["groups", 0, "files", 0, "copy_set"], "a"),
}


def _write(tmp, data) -> str:
    p = tmp / "bad.json"
    p.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_a_malformed_results_file_is_one_clear_error_and_exit_2(scanned, capsys, name):
    tmp, data = scanned
    bad = copy.deepcopy(data)
    out = MUTATIONS[name](bad)
    if isinstance(out, list):  # the mutation replaced the whole document
        bad = out
    before = tree_state(tmp / "src")
    assert main(["apply", _write(tmp, bad), "--keep", "oldest", "--delete", "--yes"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simdup apply: error: cannot read "), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert tree_state(tmp / "src") == before


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "{", "", "null",
                                  '{"version": 1, "groups": ' + "[" * 5000 + "]" * 5000 + "}"],
                         ids=["100k brackets", "cut short", "empty", "null", "deep groups"])
def test_garbage_and_deep_nesting_are_refused_without_recursion(tmp_path, capsys, text):
    p = tmp_path / "bad.json"
    p.write_text(text, encoding="utf-8")
    assert main(["apply", str(p), "--keep", "oldest", "--delete", "--yes"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simdup apply: error: cannot read ") and "Traceback" not in err


def test_a_binary_results_file_is_refused(tmp_path, capsys):
    p = tmp_path / "bad.json"
    p.write_bytes(os.urandom(4096))
    assert main(["apply", str(p), "--keep", "oldest", "--delete", "--yes"]) == 2
    assert capsys.readouterr().err.startswith("simdup apply: error: cannot read ")


def test_the_message_says_where_the_bad_value_is(scanned):
    _, data = scanned
    _f(data)["size"] = None
    with pytest.raises(ResultsError, match=r"groups\[0\]\.files\[0\]\.size: expected a whole "
                                           r"number from 0 to \d+, got null"):
        load_json(json.dumps(data))


def test_a_valid_file_loads_unchanged(scanned):
    _, data = scanned
    res = load_json(json.dumps(data))
    assert [len(g.members) for g in res.groups] == [len(g["files"]) for g in data["groups"]]
    assert all(r.root == _root(data) for r in res.records)


def test_a_kept_copy_outside_the_roots_under_a_forged_fingerprint_is_refused(scanned, capsys):
    """The audit's case: a hand-edited file adds /etc/hostname (well, a file outside the root
    with the same claims) as the 'copy' the real file is deleted for."""
    tmp, data = scanned
    outside = tmp / "elsewhere"
    outside.mkdir()
    g = data["groups"][0]
    victim = g["files"][0]
    decoy = outside / "decoy.txt"
    shutil.copyfile(victim["path"], decoy)  # even a true copy outside the roots is refused
    forged = dict(g["files"][1], path=str(decoy), root=str(outside), marked=False,
                  representative=True)
    data["groups"] = [{"id": 1, "exact": False, "reference": str(decoy),
                       "files": [forged, dict(victim, representative=False, marked=True)]}]
    before = tree_state(tmp / "src")
    assert main(["apply", _write(tmp, data), "--delete", "--yes"]) == 2
    err = capsys.readouterr().err
    assert "not one of the scanned roots" in err or "not under" in err
    assert tree_state(tmp / "src") == before


def test_forged_similarity_inside_the_roots_is_measured_again(scanned, tmp_path, capsys):
    """Two different files inside the root, claimed as a 100 % group with equal
    fingerprints: the similarity is measured from the files before acting, so the marked
    one stays."""
    tmp, data = scanned
    root = _root(data)
    a, b = os.path.join(root, "forged_a.txt"), os.path.join(root, "forged_b.txt")
    with open(a, "w", encoding="utf-8") as fh:
        fh.write("The lighthouse keeper climbed the stairs every night. " * 20)
    with open(b, "w", encoding="utf-8") as fh:
        fh.write("完全不同的一篇文章，讲的是做饭和天气，与灯塔毫无关系。" * 20)
    from simdup_gui.core.act.fileops import hash_file

    def entry(p, rep, marked):
        st = os.stat(p)
        return {"path": p, "root": root, "size": st.st_size, "mtime_ns": st.st_mtime_ns,
                "mtime": st.st_mtime, "inode": st.st_ino, "encoding": "utf-8",
                "fingerprint": "0" * 16, "fingerprint128": "0" * 32, "distance": 0,
                "similarity": 1.0, "similarity_measured": True, "exact": True,
                "content_hash": hash_file(p), "text_hash": "ab" * 16,
                "representative": rep, "marked": marked}
    data["groups"] = [{"id": 1, "exact": True, "reference": a,
                       "files": [entry(a, True, False), entry(b, False, True)]}]
    data.pop("records", None)
    assert main(["apply", _write(tmp, data), "--delete", "--yes"]) in (1, 2)
    capsys.readouterr()
    assert os.path.exists(b) and os.path.exists(a)
