"""Holes an adversarial review of the day's code found (catalogs, the kept session), each
fixed: the engine deleted for good a last copy that only a catalog vouches for when the plan
did not come from plan_action (a journal of the morning's version, resumed); a FIFO in place
of the kept session (or any results file) hung the app's start; two catalogs of one name,
read at once, shared their files' keys."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simdup_gui.core.act.actions import Plan, execute
from simdup_gui.core.act.marking import KeepRule
from simdup_gui.core.act.recovery import resume
from simdup_gui.core.job import Job
from simdup_gui.core.review import catalog as cat
from simdup_gui.core.session import ReviewSettings, Session
from tests.actions_helpers import REPO, T0, child_env, write
from tests.conftest import EN, ZH


def _settings() -> ReviewSettings:
    return ReviewSettings(use_cache=False, workers=1)


def _catalogued_note(tmp_path: Path, name: str = "backup", sub: str = "") -> str:
    """A catalog of a drive holding the Chinese note (the drive then unplugged)."""
    drive = tmp_path / f"drive{sub}"
    write(drive / "zh.txt", ZH.encode("utf-8"), T0)
    write(drive / "report.txt", EN.encode(), T0)
    s = Session([str(drive)], _settings())
    s.scan()
    folder = tmp_path / f"cats{sub}"
    folder.mkdir()
    out = str(folder / f"{name}.simcat")
    s.save_catalog(out)
    shutil.rmtree(drive)
    return out


def _last_copy_plan(tmp_path: Path) -> tuple[Plan, str]:
    """The note's only copy here, marked on the catalog's word and planned for the trash
    (what --last-copies allows), then turned into a permanent delete: what a journal of
    the version before c35a60e holds, or a plan made without plan_action."""
    catalog = _catalogued_note(tmp_path)
    note = write(tmp_path / "here" / "notes.txt", ZH.encode("utf-8"), T0 + 10**9)
    s = Session([str(tmp_path / "here")], _settings())
    s.compare_with_catalog(catalog)
    s.scan()
    s.mark_keep(KeepRule("catalog", last_copy=True))
    assert s.marks == {note}
    plan = s.plan("trash", catalog_copies=True)
    assert [(op.path, op.catalog, op.kept) for op in plan.ops] == [(note, "backup", [])]
    ops = [dataclasses.replace(op, action="delete") for op in plan.ops]
    return dataclasses.replace(plan, action="delete", ops=ops), note


def test_the_engine_never_deletes_for_good_a_last_copy_on_a_catalogs_word(tmp_path):
    plan, note = _last_copy_plan(tmp_path)
    rep = execute(plan, journal=str(tmp_path / "j.jsonl"))
    assert os.path.exists(note), rep.outcomes
    assert rep.count("done") == 0 and "deleted permanently" in rep.outcomes[0].reason


def test_resuming_a_journal_of_such_a_delete_leaves_the_last_copy(tmp_path):
    """A delete journaled (signed, this user's) with the op, then cancelled before the file:
    resume runs it through execute with the journal's ops."""
    plan, note = _last_copy_plan(tmp_path)
    journal = str(tmp_path / "j.jsonl")
    job = Job()
    job.cancel()
    assert execute(plan, job, journal=journal).cancelled
    rep = resume(journal)
    assert os.path.exists(note), rep.outcomes
    assert rep.count("done") == 0


def test_two_catalogs_of_one_name_never_share_keys(tmp_path):
    """Both read before either was added (the app reads on a worker, with the names taken
    when the read began; a results file loaded meanwhile brings its own)."""
    a = _catalogued_note(tmp_path, "backup", "1")
    b = _catalogued_note(tmp_path, "backup", "2")
    s = Session([str(tmp_path / "here")], _settings())
    ca, cb = cat.read_catalog(a, []), cat.read_catalog(b, [])
    s.add_catalog(ca)
    try:
        s.add_catalog(cb)
    except cat.CatalogError as e:
        assert "backup" in str(e)
    names = [c.name for c in s.catalogs]
    assert len(names) == len(set(names)), names
    paths = [r.path for r in s.records]
    assert len(paths) == len(set(paths)), paths


def test_a_fifo_in_place_of_the_kept_session_is_a_note_not_a_hang(tmp_path):
    """A FIFO at session.json (or at any results file simdup checks): the check opened it
    for reading and waited for a writer forever, before any check could say no."""
    fifo = tmp_path / "session.json"
    os.mkfifo(fifo)
    code = ("import sys\n"
            "from simdup_gui.core.act.trust import results_file_problem, read_own_results\n"
            "print(results_file_problem(sys.argv[1]))\n"
            "try:\n"
            "    read_own_results(sys.argv[1])\n"
            "except (ValueError, OSError) as e:\n"
            "    print('refused:', e)\n")
    try:
        p = subprocess.run([sys.executable, "-c", code, str(fifo)], cwd=REPO, env=child_env(),
                           capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("checking a FIFO hung")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "regular file" in lines[0] and lines[1].startswith("refused:"), p.stdout
