"""Item 9 of issue 10: the disk fills up while the journal is written. The action stops
before the next file, reports every file (done / not done / not reached), and never ends
in a traceback; the journal stays usable for resume and undo."""

import errno
import os
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.act import journal as jmod
from simdup_gui.core.act.actions import execute, plan_action
from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.act.journal import read_journal

from tests.actions_helpers import T0, results_from_groups, tree_state, write
from tests.conftest import EN


def full_at(monkeypatch, kind: str, nth: int = 1, torn: bool = False):
    """Make the ``nth`` journal write of an entry of type ``kind`` fail with ENOSPC (with
    ``torn``, after half the line reached the file, as a real full disk can)."""
    real = jmod.JournalWriter.write
    seen = {"n": 0}

    def write(self, entry, sync=True):
        if entry.get("type") == kind:
            seen["n"] += 1
            if seen["n"] == nth:
                if torn:
                    os.write(self._fd, b'{"type": "' + kind.encode() + b'", "se')
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, entry, sync)

    monkeypatch.setattr(jmod.JournalWriter, "write", write)


@pytest.fixture
def three(tmp_path):
    """One group: keep.txt and three marked near-duplicates d0..d2, saved as a review."""
    from simdup_gui.core.review.export import save_results

    root = tmp_path / "root"
    keep = write(root / "keep.txt", EN.encode(), T0)
    dups = [write(root / f"d{i}.txt", EN.replace("five", f"{i + 6}", 1).encode(), T0)
            for i in range(3)]
    res = results_from_groups([[keep, *dups]], str(root))
    res.marks = set(dups)
    review = tmp_path / "review.json"
    save_results(res, str(review))
    return tmp_path, root, keep, dups, res, str(review)


@pytest.mark.parametrize("torn", [False, True])
def test_apply_stops_before_the_next_file_and_reports_each_one(three, capsys, monkeypatch,
                                                               torn):
    tmp, root, keep, dups, res, review = three
    journal = str(tmp / "j.jsonl")
    with monkeypatch.context() as m:
        full_at(m, "begin", nth=2, torn=torn)
        code = main(["apply", review, "--delete", "--yes", "--journal", journal])
    cap = capsys.readouterr()
    assert code == 1 and "Traceback" not in cap.err
    lines = [line for line in cap.out.splitlines() if " delete " in line]
    assert len(lines) == 3  # every file has its line
    assert lines[0].startswith("done") and dups[0] in lines[0]
    assert lines[1].startswith("skipped") and "not done: the journal could not be written " \
        "(No space left on device)" in lines[1]
    assert lines[2].startswith("skipped") and "not reached" in lines[2]
    assert "stopped" in cap.out  # the summary says it stopped
    assert cap.err.startswith("simdup apply: error: the journal could not be written (No "
                              "space left on device); stopped before the next file")
    assert not os.path.exists(dups[0]) and os.path.exists(dups[1]) and os.path.exists(dups[2])
    # space again: resume finishes from the same journal (a torn line is passed over)
    assert main(["resume", journal]) == 0
    assert not any(os.path.exists(d) for d in dups) and os.path.exists(keep)
    assert read_journal(journal).torn_lines == (1 if torn else 0)


def test_a_move_whose_done_entry_cannot_be_written_is_reported_done(three, monkeypatch):
    tmp, root, keep, dups, res, review = three
    before = tree_state(root)
    with monkeypatch.context() as m:
        full_at(m, "done", nth=1)
        rep = execute(plan_action(res, set(dups), "move", move_to=str(tmp / "dups")),
                      journal=str(tmp / "j.jsonl"))
    assert [o.status for o in rep.outcomes] == ["done", "skipped", "skipped"]
    assert "journal entry could not be written" in rep.outcomes[0].reason
    assert rep.stopped and rep.exit_code == 1
    moved = str(tmp / "dups" / "d0.txt")
    assert hash_file(moved) == before[dups[0]] and not os.path.exists(dups[0])
    # the journal has the begin entry, so undo (a rollback) still brings it back
    back = main(["undo", str(tmp / "j.jsonl")])
    assert back == 0 and tree_state(root) == before


def test_a_journal_that_cannot_be_started_means_nothing_done_and_exit_2(three, capsys,
                                                                       monkeypatch):
    tmp, root, keep, dups, res, review = three
    before = tree_state(root)
    full_at(monkeypatch, "start")
    journal = tmp / "j.jsonl"
    assert main(["apply", review, "--delete", "--yes", "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simdup apply: error: cannot write the journal, so nothing was "
                          "done: No space left on device") and "Traceback" not in err
    assert tree_state(root) == before and not journal.exists()


def test_undo_stops_too_when_the_journal_fills_the_disk(three, capsys, monkeypatch):
    tmp, root, keep, dups, res, review = three
    before = tree_state(root)
    journal = str(tmp / "j.jsonl")
    assert main(["apply", review, "--move-to", str(tmp / "dups"), "--yes", "--journal",
                 journal]) == 0
    capsys.readouterr()
    with monkeypatch.context() as m:
        full_at(m, "undone", nth=2)
        assert main(["undo", journal]) == 1
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err and "simdup undo: error: the journal could not be " \
        "written" in cap.err
    assert cap.out.count("done     undo") == 2  # the second came back; its entry is missing
    assert main(["undo", journal]) == 0
    assert tree_state(root) == before
    assert "already back" in capsys.readouterr().out


def test_the_end_entry_alone_failing_is_reported(three, monkeypatch):
    tmp, root, keep, dups, res, review = three
    full_at(monkeypatch, "end")
    rep = execute(plan_action(res, set(dups), "delete"), journal=str(tmp / "j.jsonl"))
    assert rep.count("done") == 3 and "end could not be written" in rep.stopped
    assert Path(tmp / "j.jsonl").exists()
