"""Issue 38, item 12, in the CLI: a write error names its file once, "undo with" only after
something was done, and a hard-link dry run counts the files it would replace."""

import pytest

from simdup_gui.cli import main

from tests.actions_helpers import make_corpus
from tests.conftest import EN


@pytest.fixture
def scanned(tmp_path):
    paths = make_corpus(tmp_path / "src")
    (tmp_path / "src" / "dd").mkdir()
    (tmp_path / "src" / "dd" / "report.txt").write_text(EN)  # byte-identical to a/report.txt
    paths["en_d"] = str(tmp_path / "src" / "dd" / "report.txt")
    out = tmp_path / "results.json"
    assert main(["scan", str(tmp_path / "src"), "-o", str(out), "--no-cache",
                 "--workers", "1"]) == 0
    return paths, str(out)


def test_a_write_error_names_the_file_once(tmp_path, capsys):
    make_corpus(tmp_path / "src")
    target = tmp_path / "missing" / "results.json"
    assert main(["scan", str(tmp_path / "src"), "-o", str(target), "--no-cache",
                 "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert f"cannot write {target}: No such file or directory" in err
    assert err.count("cannot write") == 1 and err.count(str(target)) == 1


def test_no_undo_hint_when_nothing_was_done(scanned, capsys):
    p, results = scanned
    for name in ("en_b", "en_c", "en_d", "zh_utf8"):  # every file --keep oldest marks
        with open(p[name], "a", encoding="utf-8") as fh:
            fh.write("changed after the scan\n")
    capsys.readouterr()
    assert main(["apply", results, "--keep", "oldest", "--delete", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "delete: 4 skipped" in out
    assert "undo with" not in out


def test_undo_hint_when_something_was_done(scanned, capsys):
    _, results = scanned
    capsys.readouterr()
    assert main(["apply", results, "--keep", "oldest", "--delete", "--yes"]) == 0
    assert "undo with: simdup undo" in capsys.readouterr().out


def test_a_hard_link_dry_run_counts_only_the_copies_it_replaces(scanned, capsys):
    p, results = scanned
    capsys.readouterr()
    assert main(["apply", results, "--keep", "shortest-path", "--hardlink", "--dry-run"]) == 0
    out = capsys.readouterr().out
    # four files marked, one byte-identical to its kept copy: one planned, three skipped
    assert "1 skipped" not in out and "3 skipped, 1 planned" in out
    assert "would replace with hard links: 1 file, " in out
    group = next(line for line in out.splitlines() if p["en_a"] in line.split(";")[0])
    assert "1 file to replace by hard links" in group
    assert "2 near duplicates left as they are" in group
