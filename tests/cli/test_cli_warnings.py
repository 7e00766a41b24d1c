"""CLI rough edges of issue 13: the chance-match warning (item 7) and a dry run that names
what each group keeps and the total size (item 8)."""

import json

from simdup_gui.cli import main
from simdup_gui.cli.scan_cmd import chance_warning

from tests.actions_helpers import make_corpus


def test_warning_when_chance_matches_per_file_exceed_one():
    assert chance_warning(250, 16, 5, "none") is not None  # the 250 man pages
    assert "grouped as duplicates" in chance_warning(250, 16, 5, "none")
    assert "rejects them" in chance_warning(2000, 16, 3, "sketch")
    assert chance_warning(250, 64, 16, "sketch") is None
    assert chance_warning(1_000_000, 128, 26, "sketch") is None
    assert chance_warning(1, 16, 16, "none") is None  # one file has nothing to match


def test_scan_prints_the_warning_once_on_stderr_and_keeps_stdout_clean(tmp_path, capsys):
    make_corpus(tmp_path / "src")
    for i in range(60):  # enough unrelated files that 16 bits at k=5 expects chance matches
        (tmp_path / "src" / f"noise{i}.txt").write_text(f"unrelated text number {i} " * 30 +
                                                       "abcdefghij"[i % 10] * (i + 5))
    assert main(["scan", str(tmp_path / "src"), "--bits", "16", "--distance", "5",
                 "--no-cache", "--workers", "1", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert err.count("simdup scan: warning: at 16 bits and distance 5") == 1
    json.loads(out)  # the warning never lands in the JSON
    assert main(["scan", str(tmp_path / "src"), "--no-cache", "--workers", "1"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_dry_run_names_the_kept_file_of_each_group_and_the_total(tmp_path, capsys):
    make_corpus(tmp_path / "src")
    out = tmp_path / "r.json"
    assert main(["scan", str(tmp_path / "src"), "--format", "json", "-o", str(out),
                 "--no-cache", "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["apply", str(out), "--keep", "oldest", "--delete", "--dry-run"]) == 0
    text = capsys.readouterr().out
    res = json.loads(out.read_text(encoding="utf-8"))
    assert text.count(": keeps ") == len(res["groups"])
    planned = [line for line in text.splitlines() if line.startswith("planned")]
    assert planned and text.strip().splitlines()[-1].startswith(
        f"would delete permanently: {len(planned)} files, ")
    for g in res["groups"]:  # the kept file is a member of its group and is not planned
        line = next(x for x in text.splitlines() if x.startswith(f"group {g['id']}: keeps "))
        kept = line.split(": keeps ", 1)[1].rsplit("; ", 1)[0]
        assert kept in {f["path"] for f in g["files"]}
        assert all(kept not in p for p in planned)


def test_a_scan_of_more_files_than_the_cluster_threshold_notes_the_dask_path(
        tmp_path, capsys, monkeypatch):
    """Issue 40, item 4: above candidates.CLUSTER_ABOVE files (a million) without a
    scheduler, the scan notes on stderr what grouping them here takes and the Dask path
    (the threshold lowered here to the corpus's size)."""
    from simdup_gui.core.group import candidates

    make_corpus(tmp_path / "src")
    monkeypatch.setattr(candidates, "CLUSTER_ABOVE", 3)
    assert main(["scan", str(tmp_path / "src"), "--no-cache", "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert err.count("simdup scan: note: ") == 1
    assert "more than a million" in err and "Dask scheduler" in err
    monkeypatch.setattr(candidates, "CLUSTER_ABOVE", 1_000_000)
    assert main(["scan", str(tmp_path / "src"), "--no-cache", "--workers", "1"]) == 0
    assert "note:" not in capsys.readouterr().err
