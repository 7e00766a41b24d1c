"""`simdup release [JOURNAL] [--all] [--dry-run] [--yes] [--format text|json]`: exit codes,
messages and confirmation, driving the Session."""

import json
import os
import sys
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.act import lock
from simdup_gui.core.act.journal import held_dir, last_journal
from simdup_gui.core.review.export import save_results

from tests.actions_helpers import T0, LockHolder, results_from_groups, write
from tests.cli.test_apply_cli import FakeStdin
from tests.cli.test_cli_drives_session import STEPS, imported_names
from tests.conftest import EN, OTHER


@pytest.fixture
def linked(tmp_path, capsys):
    """Two link actions done through the CLI: b.txt hard-linked to a.txt (the older),
    d.txt symlinked to c.txt (the newer). Returns (paths, [older journal, newer])."""
    root = tmp_path / "root"
    p = {"a": write(root / "a.txt", EN.encode(), T0 + 10**9),
         "b": write(root / "b.txt", EN.encode(), T0),
         "c": write(root / "c.txt", OTHER.encode(), T0 + 10**9),
         "d": write(root / "sub" / "d.txt", OTHER.encode(), T0)}
    journals = []
    for (keep, mark), kind in ((("a", "b"), "hardlink"), (("c", "d"), "symlink")):
        res = results_from_groups([[p[keep], p[mark]]], str(root))
        res.marks = {p[mark]}
        results = str(tmp_path / f"{kind}.json")
        save_results(res, results)
        assert main(["apply", results, f"--{kind}", "--yes"]) == 0  # journal: data folder
        journals.append(last_journal())
    capsys.readouterr()
    return p, journals


def held_files():
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(held_dir()) for f in fs)


def test_release_runs_no_engine_step_itself():
    names = imported_names(Path(__file__).resolve().parents[2] / "simdup_gui" / "cli"
                           / "release_cmd.py")
    assert "Session" in names and not names & (STEPS | {"release"}), names


def test_release_with_yes_frees_the_newest_then_the_older_then_nothing(linked, capsys):
    p, (older, newer) = linked
    assert len(held_files()) == 2
    assert main(["release", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "release: 1 done" in out and f"journal: {newer}" in out and "freed" in out
    assert p["d"] in out and "held original:" in out
    assert len(held_files()) == 1 and os.readlink(p["d"]) == p["c"]
    assert main(["release", "--yes"]) == 0
    assert f"journal: {older}" in capsys.readouterr().out and held_files() == []
    assert os.path.samefile(p["a"], p["b"])
    assert main(["release", "--yes"]) == 0
    assert capsys.readouterr().out.startswith("release: nothing to do")
    assert main(["release", older, "--yes"]) == 0  # named again: nothing to do
    assert "release: nothing to do" in capsys.readouterr().out


def test_all_releases_every_link_action_and_json_counts_the_bytes(linked, capsys):
    p, journals = linked
    assert main(["release", "--all", "--yes", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["journal"] for r in doc["journals"]] == journals[::-1]
    assert doc["bytes_freed"] == len(EN.encode()) + len(OTHER.encode()) and not doc["refused"]
    assert [f["status"] for r in doc["journals"] for f in r["files"]] == ["done", "done"]
    assert held_files() == []


def test_dry_run_says_what_would_be_freed_and_touches_nothing(linked, capsys):
    p, (older, newer) = linked
    before = {h: Path(h).read_bytes() for h in held_files()}
    journal_text = Path(older).read_bytes()
    assert main(["release", older, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "planned  release" in out and "dry run, nothing touched: 1 planned" in out
    assert "would free" in out
    assert main(["release", "--all", "--dry-run", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["dry_run"] and [r["counts"]["planned"] for r in doc["journals"]] == [1, 1]
    assert {h: Path(h).read_bytes() for h in held_files()} == before
    assert Path(older).read_bytes() == journal_text


def test_without_yes_and_without_a_terminal_it_refuses_with_exit_2(linked, capsys,
                                                                    monkeypatch):
    p, journals = linked
    monkeypatch.setattr(sys, "stdin", FakeStdin("y\n", tty=False))
    assert main(["release"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simdup release: error: Release 1 held original (")
    assert "refusing without --yes" in err and len(held_files()) == 2


def test_on_a_terminal_it_asks_and_no_means_nothing(linked, capsys, monkeypatch):
    p, journals = linked
    monkeypatch.setattr(sys, "stdin", FakeStdin("n\n", tty=True))
    assert main(["release", "--all"]) == 0
    out = capsys.readouterr().out
    assert "Release 2 held originals" in out and "of 2 actions" in out and "nothing done" in out
    assert len(held_files()) == 2
    monkeypatch.setattr(sys, "stdin", FakeStdin("y\n", tty=True))
    assert main(["release", "--all"]) == 0
    assert held_files() == []


def test_a_kept_copy_that_changed_is_skipped_with_exit_0(linked, capsys):
    p, (older, newer) = linked
    with open(p["c"], "ab") as fh:
        fh.write(b"edited after the action\n")
    assert main(["release", newer, "--yes"]) == 0
    out = capsys.readouterr().out
    assert "skipped  release" in out and "the kept copy changed since" in out
    assert len(held_files()) == 2


def test_errors_exit_2_with_a_message_and_no_traceback(linked, tmp_path, capsys):
    p, (older, newer) = linked
    assert main(["release", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such journal" in capsys.readouterr().err
    assert main(["release", older, "--all"]) == 2
    assert "not both" in capsys.readouterr().err
    lines = Path(older).read_text().splitlines(keepends=True)
    Path(older).write_text("".join(lines[:-1]))  # cut off before its end: interrupted
    for args, msg in (([older, "--yes"], "was interrupted: finish it with `simdup resume"),
                      ([older, "--dry-run"], "was interrupted")):
        assert main(["release", *args]) == 2
        err = capsys.readouterr().err
        assert err.startswith("simdup release: error: ") and msg in err
        assert "Traceback" not in err
    Path(newer).write_text(Path(newer).read_text().replace('"symlink"', '"hardlink"', 1))
    assert main(["release", newer, "--yes"]) == 2
    assert "refusing journal" in capsys.readouterr().err
    assert len(held_files()) == 2
    res = results_from_groups([[p["a"], p["b"]]], str(tmp_path / "root"))
    res.marks = {p["b"]}
    save_results(res, str(tmp_path / "m.json"))
    move = str(tmp_path / "move.jsonl")
    assert main(["apply", str(tmp_path / "m.json"), "--move-to", str(tmp_path / "dups"),
                 "--yes", "--journal", move]) == 0
    capsys.readouterr()
    assert main(["release", move, "--yes"]) == 2
    assert "a move action" in capsys.readouterr().err


def test_all_leaves_an_interrupted_action_alone_and_exits_1(linked, capsys):
    p, (older, newer) = linked
    lines = Path(older).read_text().splitlines(keepends=True)
    Path(older).write_text("".join(lines[:-1]))
    assert main(["release", "--all", "--yes"]) == 1
    captured = capsys.readouterr()
    assert f"journal: {newer}" in captured.out and "1 action, freed" in captured.out
    assert "not released: the action in " + older in captured.err
    assert len(held_files()) == 1


def test_while_another_action_runs_it_refuses(linked, capsys, monkeypatch):
    p, journals = linked
    monkeypatch.setattr(lock, "WAIT_SECONDS", 0.2)
    with LockHolder() as holder:
        assert main(["release", "--yes"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"simdup release: error: another simdup action is running "
                              f"(pid {holder.pid})")
    assert len(held_files()) == 2


def test_nothing_to_release_is_not_an_error(capsys):
    assert main(["release"]) == 0
    assert capsys.readouterr().out.startswith("release: nothing to do")
    assert main(["release", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["files"] == []
