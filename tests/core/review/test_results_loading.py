"""Loading a results file in a child process gives what loading it here gives: the same
Results, or the same error (type and message), never a traceback from the child; and the
quick nesting check answers as the character-by-character reading it replaced."""

import json
import multiprocessing
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.core.job import Cancelled, Job
from simdup_gui.core.models import FileRecord, Group, Member, Problem
from simdup_gui.core.review import process_load
from simdup_gui.core.review.export import load_results, save_results
from simdup_gui.core.review.process_load import load_results_in_process
from simdup_gui.core.review import results as results_mod
from simdup_gui.core.review.results import Results, dumps_json, escape_surrogates, iter_json
from simdup_gui.core.review.schema import MAX_DEPTH, _depth_ok
from simdup_gui.core.textsim import SKETCH_BYTES


def depth_ok_char_by_char(text: str, limit: int = MAX_DEPTH) -> bool:
    """The check as it was first written: one character at a time."""
    depth = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet='[]{}"\\ a\n\udce9', max_size=60), st.integers(0, 4))
def test_the_nesting_check_answers_as_reading_a_character_at_a_time(text, limit):
    assert _depth_ok(text, limit) == depth_ok_char_by_char(text, limit)


@pytest.mark.parametrize("text", ['"' + '\\"[' * 50_000, '"' * 100_001 + "[" * 20,
                                  '{"a\\\\": ' + "[" * 13 + "]" * 13 + "}", "[" * 12 + '"\\'])
def test_the_nesting_check_on_unended_strings_and_escapes(text):
    assert _depth_ok(text) == depth_ok_char_by_char(text)


def rich_results(n: int = 23) -> Results:
    """Records (one named with a byte that is not UTF-8), groups across message boundaries,
    unknown similarities, problems and marks."""
    records = []
    for i in range(n):
        name = f"f{i:03d}.txt" if i != 5 else "caf\udce9.txt"
        records.append(FileRecord(f"/data/d{i % 4}/{name}", 100 + i, 1_700_000_000_000_000_000 + i,
                                  i, 1, "/data", "utf-8" if i % 3 else "gb18030",
                                  (i * 0x9E3779B97F4A7C15) % (1 << 128), 40 + i, f"{i:016x}",
                                  f"{i * 7:016x}", i % 2, "LF", i % 5 == 0, 1000 + i,
                                  bytes([i]) * SKETCH_BYTES if i % 4 else b"", 30 + i))
    groups, at = [], 0
    for gid, size in enumerate((4, 2, 7, 3, 2), 1):
        members = [Member(at + j, j, j == 0, None if j == 2 else 1.0 - j / 100, j % 2 == 0)
                   for j in range(size)]
        groups.append(Group(gid, at, members))
        at += size
    problems = [Problem(f"/data/bad{i}.txt", f"cannot decode ({i} bytes)", "error")
                for i in range(7)]
    marks = {records[1].path, records[5].path, records[9].path}
    settings_ = {"bits": 128, "distance": 20, "similarity": 0.7, "roots": ["/data"],
                 "grouping": "linked", "verify": "sketch", "features": "words", "index": "x"}
    return Results(records, groups, problems, settings_, {"files": n, "seconds": 1.5}, marks)


def test_a_file_loaded_in_a_process_equals_the_file_loaded_here(tmp_path):
    path = str(tmp_path / "results.json")
    save_results(rich_results(), path)
    here = load_results(path)
    assert len(here.records) == 23 and len(here.groups) == 5 and here.marks
    for chunk in (3, 5_000):  # many messages, one message of each kind
        apart = load_results_in_process(path, chunk=chunk)
        assert apart == here
        assert [g.id for g in apart.groups] == [g.id for g in here.groups]
    assert not multiprocessing.active_children()


def _good(tmp_path) -> dict:
    path = tmp_path / "good.json"
    save_results(rich_results(), str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def _bad_size(tmp_path):
    d = _good(tmp_path)
    d["records"][1]["size"] = "12"
    return json.dumps(d)


def _outside(tmp_path):
    d = _good(tmp_path)
    d["records"][3]["path"] = "/etc/passwd"
    return json.dumps(d)


BAD = {
    "not JSON": lambda tmp: "{",
    "nested too deep": lambda tmp: "[" * 100 + "]" * 100,
    "a list at the top": lambda tmp: "[]",
    "a size as text": _bad_size,
    "a path outside the roots": _outside,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_an_invalid_file_gives_the_same_error_in_a_process(tmp_path, name):
    path = tmp_path / "bad.json"
    path.write_text(BAD[name](tmp_path), encoding="utf-8")
    with pytest.raises(ValueError) as here:
        load_results(str(path))
    with pytest.raises(ValueError) as apart:
        load_results_in_process(str(path))
    assert type(apart.value) is type(here.value)
    assert str(apart.value) == str(here.value)
    assert "Traceback" not in str(apart.value)


def test_a_missing_file_gives_the_same_os_error_in_a_process(tmp_path):
    path = str(tmp_path / "gone.json")
    with pytest.raises(OSError) as here:
        load_results(path)
    with pytest.raises(OSError) as apart:
        load_results_in_process(path)
    assert type(apart.value) is type(here.value)
    assert (apart.value.errno, apart.value.filename) == (here.value.errno, here.value.filename)


def test_cancelling_stops_the_child(tmp_path):
    path = str(tmp_path / "results.json")
    save_results(rich_results(), path)
    job = Job()
    job.cancel()
    with pytest.raises(Cancelled):
        load_results_in_process(path, job=job)
    assert not multiprocessing.active_children()


def test_a_child_that_dies_is_an_os_error_naming_the_file():
    class Ended:
        def poll(self, timeout):
            return True

        def recv(self):
            raise EOFError

    class Child:
        exitcode = -9

        def join(self, timeout=None):
            pass

    with pytest.raises(OSError, match=r"cannot load /r\.json: the process reading it stopped "
                                      r"without an answer \(exit code -9\)"):
        process_load._receive(Ended(), Child(), "/r.json", Job())


def test_a_child_error_that_cannot_travel_comes_back_as_text():
    class Odd(Exception):
        def __reduce__(self):
            raise TypeError("not picklable")

    try:
        raise Odd("strange")
    except Odd as e:
        back = process_load._portable(e)
    assert isinstance(back, RuntimeError)
    assert "Odd: strange" in str(back) and "Traceback" in str(back)
    assert os.path.basename(__file__) in str(back)


def _reference(res: Results, include_ungrouped: bool):
    """The results as one json.dumps of their values wrote them, parsed back."""
    values = {"version": results_mod.RESULTS_VERSION, "settings": res.settings,
              "stats": res.stats,
              "groups": [results_mod._group_entry(res, g, res.bits) for g in res.groups],
              "problems": [p.to_dict() for p in res.problems]}
    if include_ungrouped:
        values["records"] = [r.to_dict() for r in res.records]
    return json.loads(escape_surrogates(json.dumps(values, ensure_ascii=False, indent=1)))


@pytest.mark.parametrize("piece", [1, 7, 100, 1 << 16])
@pytest.mark.parametrize("include_ungrouped", [False, True])
def test_json_written_in_pieces_holds_what_one_dump_held(monkeypatch, piece, include_ungrouped):
    res = rich_results()
    monkeypatch.setattr(results_mod, "JSON_PIECE", piece)
    pieces = list(iter_json(res, include_ungrouped))
    text = "".join(pieces)
    assert json.loads(text) == _reference(res, include_ungrouped)
    if piece == 7:
        assert len(pieces) > 15
    assert all("\udce9" not in p for p in pieces)  # the name's odd byte escaped in every piece
    assert json.loads(text)["groups"][1]["files"][1]["path"] == "/data/d1/caf\udce9.txt"
    # one line per file, problem and record: grep finds a file with every field of it
    lines = text.splitlines()
    for r in res.records[:18]:  # the grouped ones
        line = next(x for x in lines if json.dumps(r.path, ensure_ascii=False)[1:-1]
                    .replace("\udce9", "\\udce9") in x and '"marked"' in x)
        assert json.loads(line.strip().rstrip(","))["size"] == r.size
    assert sum('"reason"' in x for x in lines) == len(res.problems)


@pytest.mark.parametrize("groups, problems", [(False, False), (True, False), (False, True)])
def test_empty_lists_are_written_as_json(groups, problems):
    res = rich_results()
    res.groups = res.groups if groups else []
    res.problems = res.problems if problems else []
    for inc in (False, True):
        assert json.loads(dumps_json(res, inc)) == _reference(res, inc)


def test_json_pieces_are_made_as_they_are_written(monkeypatch):
    """The first piece is out before most files' entries exist: a results file of 100,000
    files never holds every entry (or the whole text) in memory at once."""
    res = rich_results(200)
    res.groups = [Group(g, 4 * g, [Member(4 * g + j, j, j == 0, 1.0, False) for j in range(4)])
                  for g in range(50)]
    made = []
    real = results_mod._file_entry
    monkeypatch.setattr(results_mod, "_file_entry", lambda *a: made.append(1) or real(*a))
    monkeypatch.setattr(results_mod, "JSON_PIECE", 2_000)
    pieces = iter_json(res, include_ungrouped=True)
    next(pieces)
    assert 0 < len(made) < 50
    rest = list(pieces)
    assert len(made) == 200 and rest


def test_a_saved_file_is_written_in_pieces_and_loads_back(tmp_path, monkeypatch):
    monkeypatch.setattr(results_mod, "JSON_PIECE", 64)
    path = str(tmp_path / "r.json")
    res = rich_results()
    save_results(res, path)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert json.loads(text) == _reference(res, True)
    back = load_results(path)
    assert [r.path for r in back.records] == [r.path for r in res.records]
    assert back.marks == res.marks
