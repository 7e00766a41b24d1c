"""`simdup apply --keep-path GLOB` and the reference the user chose, saved with the results
(issue 38, item 7)."""

import json
from pathlib import Path

from simdup_gui.cli import main
from simdup_gui.core.session import ReviewSettings, Session

from tests.actions_helpers import make_corpus
from tests.cli.test_apply_cli import scanned  # noqa: F401 - the scanned corpus fixture


def planned(capsys) -> set[str]:
    return {f["path"] for f in json.loads(capsys.readouterr().out)["files"]}


def test_keep_path_keeps_the_matching_files_and_marks_the_rest_of_their_group(scanned, capsys):
    tmp, p, results = scanned
    dry = ["--delete", "--dry-run", "--format", "json"]
    assert main(["apply", results, "--keep-path", "*/ccc/*", *dry]) == 0
    assert planned(capsys) == {p["en_a"], p["en_b"]}  # the zh group has no match: untouched
    assert main(["apply", results, "--keep-path", "*/ccc/*", "--keep", "newest", *dry]) == 0
    assert planned(capsys) == {p["en_a"], p["en_b"], p["zh_gbk"]}  # the rule for the rest
    assert main(["apply", results, "--keep-path", "zh-gbk.txt", *dry]) == 0  # a file name
    assert planned(capsys) == {p["zh_utf8"]}


def test_keep_path_matching_nothing_marks_nothing(scanned, capsys):
    _, _, results = scanned
    assert main(["apply", results, "--keep-path", "*/nowhere/*", "--delete", "--dry-run"]) == 0
    assert "nothing to do" in capsys.readouterr().out


def test_reference_folder_is_the_reference_option(scanned, capsys):
    tmp, p, results = scanned
    assert main(["apply", results, "--keep", "newest", "--reference-folder",
                 str(tmp / "src" / "a"), "--delete", "--dry-run", "--format", "json"]) == 0
    assert planned(capsys) == {p["en_b"], p["en_c"], p["zh_gbk"]}


def test_a_reference_chosen_in_a_review_is_kept_by_apply(tmp_path, capsys):
    p = make_corpus(tmp_path / "src")
    s = Session([str(tmp_path / "src")], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    change = s.make_reference(p["en_b"])
    assert change.left == []
    results = str(tmp_path / "chosen.json")
    s.save(results)
    doc = json.loads(Path(results).read_text(encoding="utf-8"))
    assert [g["reference"] for g in doc["groups"] if g.get("reference_chosen")] == [p["en_b"]]
    # newest would keep ccc/deep/report.txt; the chosen reference is kept instead
    assert main(["apply", results, "--keep", "newest", "--delete", "--dry-run", "--format",
                 "json"]) == 0
    assert planned(capsys) == {p["en_a"], p["en_c"], p["zh_gbk"]}
