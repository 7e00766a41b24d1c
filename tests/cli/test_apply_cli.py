import io
import json
import os
import sys
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.review.export import save_results
from simdup_gui.core.act.fileops import hash_file

from tests.actions_helpers import make_corpus, tree_state


@pytest.fixture
def scanned(tmp_path):
    """A corpus and the JSON that `simdup scan --format json` wrote for it."""
    paths = make_corpus(tmp_path / "src")
    out = tmp_path / "results.json"
    assert main(["scan", str(tmp_path / "src"), "--format", "json", "-o", str(out),
                 "--no-cache", "--workers", "1"]) == 0
    return tmp_path, paths, str(out)


class FakeStdin(io.StringIO):
    def __init__(self, text: str, tty: bool) -> None:
        super().__init__(text)
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def test_dry_run_lists_each_file_and_touches_nothing(scanned, capsys):
    tmp, p, results = scanned
    before = tree_state(tmp / "src")
    assert main(["apply", results, "--keep", "oldest", "--delete", "--dry-run"]) == 0
    out = capsys.readouterr().out
    planned = "\n".join(x for x in out.splitlines() if x.startswith("planned"))
    assert out.count("planned  delete") == 3 and p["en_b"] in planned
    assert p["en_a"] not in planned and f"keeps {p['en_a']}" in out  # the oldest stays
    assert "dry run, nothing touched" in out
    assert tree_state(tmp / "src") == before


def test_without_yes_and_without_a_terminal_it_refuses_with_exit_2(scanned, capsys,
                                                                    monkeypatch):
    tmp, p, results = scanned
    before = tree_state(tmp / "src")
    monkeypatch.setattr(sys, "stdin", FakeStdin("y\n", tty=False))
    assert main(["apply", results, "--keep", "oldest", "--trash"]) == 2
    err = capsys.readouterr().err
    assert "refusing without --yes" in err and "3 files" in err
    assert tree_state(tmp / "src") == before


def test_on_a_terminal_it_asks_with_count_and_size_and_no_means_nothing(scanned, capsys,
                                                                         monkeypatch):
    tmp, p, results = scanned
    before = tree_state(tmp / "src")
    monkeypatch.setattr(sys, "stdin", FakeStdin("n\n", tty=True))
    assert main(["apply", results, "--keep", "newest", "--delete"]) == 0
    out = capsys.readouterr().out
    assert "Delete permanently: 3 files" in out and "nothing done" in out
    assert tree_state(tmp / "src") == before


def test_move_with_yes_then_undo_restores_every_byte(scanned, capsys):
    tmp, p, results = scanned
    before = tree_state(tmp / "src")
    journal = str(tmp / "j.jsonl")
    assert main(["apply", results, "--keep", "shortest-path", "--move-to", str(tmp / "dups"),
                 "--yes", "--journal", journal]) == 0
    out = capsys.readouterr().out
    assert "move: 3 done" in out and f"simdup undo {journal}" in out
    assert not os.path.exists(p["en_c"]) and os.path.exists(p["en_a"])
    assert main(["undo", journal]) == 0
    assert tree_state(tmp / "src") == before


def test_undo_without_argument_takes_the_last_journal(scanned, capsys):
    tmp, p, results = scanned
    h = hash_file(p["zh_gbk"])
    assert main(["apply", results, "--keep", "encoding", "--move-to", str(tmp / "dups"),
                 "--flat", "--yes"]) == 0
    assert not os.path.exists(p["zh_gbk"]) and os.path.exists(p["zh_utf8"])
    assert main(["undo"]) == 0
    assert hash_file(p["zh_gbk"]) == h


def test_undo_with_no_journal_yet_is_a_usage_error(capsys):
    assert main(["undo"]) == 2
    assert "no journal" in capsys.readouterr().err


def test_prefer_folder_and_reference_decide_what_stays(scanned, capsys):
    tmp, p, results = scanned
    assert main(["apply", results, "--keep", "newest", "--prefer-folder", str(tmp / "src" / "bb"),
                 "--delete", "--dry-run", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    planned = {f["path"] for f in doc["files"]}
    assert p["en_b"] not in planned and p["zh_gbk"] not in planned
    assert main(["apply", results, "--keep", "newest", "--reference", str(tmp / "src" / "a"),
                 "--delete", "--dry-run", "--format", "json"]) == 0
    planned = {f["path"] for f in json.loads(capsys.readouterr().out)["files"]}
    assert planned == {p["en_b"], p["en_c"], p["zh_gbk"]}


def test_saved_marks_that_empty_a_group_are_refused_with_exit_2(scanned, capsys):
    tmp, p, results = scanned
    from simdup_gui.core.review.export import load_results

    res = load_results(results)
    res.marks = {p["en_a"], p["en_b"], p["en_c"]}
    save_results(res, str(tmp / "review.json"))
    before = tree_state(tmp / "src")
    assert main(["apply", str(tmp / "review.json"), "--delete", "--yes"]) == 2
    assert "all 3 files are marked" in capsys.readouterr().err
    assert tree_state(tmp / "src") == before


def test_a_failed_delete_exits_1_and_says_failed(scanned, capsys, monkeypatch):
    tmp, p, results = scanned
    real = os.unlink

    def deny(path, *a, **kw):
        if str(path) == p["en_b"]:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a, **kw)

    monkeypatch.setattr(os, "unlink", deny)
    assert main(["apply", results, "--keep", "oldest", "--delete", "--yes"]) == 1
    out = capsys.readouterr().out
    assert f"FAILED   delete {p['en_b']}" in out and "1 failed" in out
    assert os.path.exists(p["en_b"])


@pytest.mark.parametrize("argv, message", [
    (["--keep", "biggest", "--delete"], "invalid choice"),
    (["--keep", "oldest", "--delete", "--trash"], "not allowed with"),
    (["--keep", "oldest"], "one of the arguments"),
])
def test_bad_arguments_are_usage_errors(scanned, capsys, argv, message):
    tmp, p, results = scanned
    with pytest.raises(SystemExit) as e:
        main(["apply", results, *argv])
    assert e.value.code == 2 and message in capsys.readouterr().err


def test_flat_without_move_to_and_folder_rule_without_folder_exit_2(scanned, capsys):
    tmp, p, results = scanned
    assert main(["apply", results, "--keep", "oldest", "--delete", "--flat"]) == 2
    assert main(["apply", results, "--keep", "folder", "--delete", "--dry-run"]) == 2
    assert "preferred folder" in capsys.readouterr().err


# ---- file names that are not valid UTF-8 ---------------------------------------------------

@pytest.fixture
def bad_name_scan(tmp_path):
    """A folder with a file whose name is not valid UTF-8, and its `simdup scan` JSON."""
    if sys.platform in ("win32", "darwin"):
        pytest.skip("needs a file system that takes any bytes in a name")
    from tests.conftest import EN

    src = tmp_path / "src"
    src.mkdir()
    bad = os.path.join(os.fsdecode(bytes(src)), os.fsdecode(b"bad\xff\xfename.txt"))
    with open(bad, "w") as fh:
        fh.write(EN)
    good = str(src / "good.txt")
    with open(good, "w") as fh:
        fh.write(EN.replace("five", "six", 1))
    os.utime(good, ns=(1, 10**18))  # newer: --keep oldest keeps the bad name, marks good
    os.utime(bad, ns=(1, 10**17))
    out = tmp_path / "results.json"
    assert main(["scan", str(src), "--format", "json", "-o", str(out), "--no-cache",
                 "--workers", "1"]) == 0
    return tmp_path, bad, good, str(out)


def test_a_non_utf8_file_name_survives_scan_json_load_apply_and_undo(bad_name_scan, capsys):
    from simdup_gui.core.review.export import load_results

    tmp, bad, good, results = bad_name_scan
    res = load_results(results)
    assert {r.path for r in res.records} == {bad, good}
    before = tree_state(tmp / "src")
    # keep the good name: the bad one is the one acted on
    assert main(["apply", results, "--keep", "newest", "--move-to", str(tmp / "dups"),
                 "--dry-run"]) == 0
    assert "planned  move" in capsys.readouterr().out
    assert main(["apply", results, "--keep", "newest", "--move-to", str(tmp / "dups"),
                 "--dry-run", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [f["path"] for f in doc["files"]] == [bad]
    journal = str(tmp / "j.jsonl")
    assert main(["apply", results, "--keep", "newest", "--move-to", str(tmp / "dups"),
                 "--yes", "--journal", journal]) == 0
    assert not os.path.lexists(bad) and "move: 1 done" in capsys.readouterr().out
    assert main(["undo", journal]) == 0
    assert tree_state(tmp / "src") == before


def test_a_non_utf8_file_name_can_be_saved_and_exported(bad_name_scan):
    from simdup_gui.core.review.export import export_results, load_results, save_results

    tmp, bad, good, results = bad_name_scan
    res = load_results(results)
    res.marks = {bad}
    save_results(res, str(tmp / "review.json"))
    assert load_results(str(tmp / "review.json")).marks == {bad}
    for fmt in ("csv", "json", "html"):
        export_results(res, str(tmp / f"out.{fmt}"))
    assert b"bad\xff\xfename.txt" in (tmp / "out.csv").read_bytes()


def test_scan_csv_with_a_non_utf8_name_writes_its_bytes(bad_name_scan):
    tmp, bad, good, results = bad_name_scan
    out = tmp / "groups.csv"
    assert main(["scan", str(tmp / "src"), "--format", "csv", "-o", str(out), "--no-cache",
                 "--workers", "1"]) == 0
    assert b"bad\xff\xfename.txt" in out.read_bytes()


def test_a_failed_scan_output_leaves_the_existing_file_whole(scanned, capsys, monkeypatch):
    from simdup_gui.core.review import export

    tmp, p, results = scanned
    text = Path(results).read_bytes()

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export.os, "fsync", full)
    assert main(["scan", str(tmp / "src"), "--format", "csv", "-o", results, "--no-cache",
                 "--workers", "1"]) == 2
    assert "No space left" in capsys.readouterr().err
    assert Path(results).read_bytes() == text
    assert sorted(os.listdir(tmp)) == ["results.json", "src"]


# ---- journals, undo, --prefer-encoding ---------------------------------------------------

def test_reusing_a_journal_file_is_refused_with_exit_2(scanned, capsys):
    tmp, p, results = scanned
    journal = str(tmp / "j.jsonl")
    assert main(["apply", results, "--keep", "oldest", "--move-to", str(tmp / "dups"),
                 "--yes", "--journal", journal]) == 0
    text = Path(journal).read_bytes()
    capsys.readouterr()
    assert main(["apply", results, "--keep", "oldest", "--move-to", str(tmp / "dups2"),
                 "--yes", "--journal", journal]) == 2
    assert "already exists" in capsys.readouterr().err
    assert Path(journal).read_bytes() == text


def test_a_second_undo_takes_back_the_action_before(scanned, capsys):
    tmp, p, results = scanned
    before = tree_state(tmp / "src")
    from simdup_gui.core.review.export import load_results

    res = load_results(results)
    res.marks = {p["en_b"]}
    save_results(res, str(tmp / "a.json"))
    res.marks = {p["zh_gbk"]}
    save_results(res, str(tmp / "b.json"))
    for r in ("a.json", "b.json"):
        assert main(["apply", str(tmp / r), "--move-to", str(tmp / "dups"), "--yes"]) == 0
    assert main(["undo"]) == 0
    assert os.path.exists(p["zh_gbk"]) and not os.path.exists(p["en_b"])
    assert main(["undo"]) == 0
    assert tree_state(tmp / "src") == before
    capsys.readouterr()
    assert main(["undo"]) == 2
    assert "nothing left to undo" in capsys.readouterr().err


def test_prefer_encoding_with_a_plain_rule_prefers_that_encoding_then_the_rule(scanned,
                                                                                capsys):
    tmp, p, results = scanned
    assert main(["apply", results, "--keep", "oldest", "--delete", "--dry-run", "--format",
                 "json"]) == 0
    planned = {f["path"] for f in json.loads(capsys.readouterr().out)["files"]}
    assert p["zh_utf8"] in planned and p["zh_gbk"] not in planned  # the GBK copy is older
    assert main(["apply", results, "--keep", "oldest", "--prefer-encoding", "utf-8",
                 "--delete", "--dry-run", "--format", "json"]) == 0
    planned = {f["path"] for f in json.loads(capsys.readouterr().out)["files"]}
    assert p["zh_gbk"] in planned and p["zh_utf8"] not in planned
    assert p["en_a"] not in planned and p["en_b"] in planned  # same encoding: oldest kept


def test_prefer_encoding_is_documented_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["apply", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--prefer-encoding ENC" in text and "before any other --keep rule" in text


def test_a_linked_chain_whose_kept_copy_is_far_from_the_last_doc_is_refused(tmp_path, capsys):
    from tests.actions_helpers import write_chain

    docs = write_chain(tmp_path / "src")
    out = tmp_path / "results.json"
    assert main(["scan", str(tmp_path / "src"), "--format", "json", "-o", str(out),
                 "--no-cache", "--workers", "1", "--bits", "64", "-k", "8",
                 "--verify", "none"]) == 0
    assert [len(g["files"]) for g in json.loads(out.read_text())["groups"]] == [12]
    capsys.readouterr()
    # the keep rule keeps the chain's far ends too, so its plan goes through
    assert main(["apply", str(out), "--keep", "oldest", "--delete", "--dry-run"]) == 0
    capsys.readouterr()
    # marks made by hand on every doc but the first are refused
    d = json.loads(out.read_text())
    for f in d["groups"][0]["files"]:
        f["marked"] = f["path"] != docs[0]
    out.write_text(json.dumps(d))
    assert main(["apply", str(out), "--delete", "--dry-run"]) == 2
    captured = capsys.readouterr()
    assert "planned" not in captured.out
    assert docs[-1] in captured.err and f"most similar kept copy is {docs[0]}" in captured.err


def test_keep_rule_leaves_template_siblings_unless_told(tmp_path, capsys):
    """Issue 37: pages of one generator grouped by J are flagged in the text output; --keep
    marks one of each page and its backup only, and says what it left; with
    --include-templates it marks like before."""
    from tests.core.group.test_templates import man_pages

    pages = man_pages(tmp_path / "src" / "man", 12)
    for p in pages[:2]:
        b = tmp_path / "src" / "bak" / (Path(p).name + ".bak")
        b.parent.mkdir(exist_ok=True)
        b.write_text(Path(p).read_text(encoding="utf-8") + "\nagain\n", encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["scan", str(tmp_path / "src"), "-o", str(out), "--no-cache",
                 "--workers", "1"]) == 0
    assert main(["scan", str(tmp_path / "src"), "--no-cache", "--workers", "1"]) == 0
    assert "template: most of the text it shares" in capsys.readouterr().out
    before = tree_state(tmp_path / "src")
    assert main(["apply", str(out), "--keep", "oldest", "--delete", "--dry-run"]) == 0
    cap = capsys.readouterr()
    assert "share mostly template text" in cap.err and "--include-templates" in cap.err
    planned = [x for x in cap.out.splitlines() if x.startswith("planned")]
    assert len(planned) == 2, cap.out
    assert main(["apply", str(out), "--keep", "oldest", "--delete", "--dry-run",
                 "--include-templates"]) == 0
    assert len([x for x in capsys.readouterr().out.splitlines()
                if x.startswith("planned")]) > 2
    assert tree_state(tmp_path / "src") == before
