"""Adversarial cases of `simdup release` found in review: the kept side that is the held
original itself, a holding folder that is a link, an edit of the kept copy while the release
is journaled, honest undo wording afterwards, and `--all` on a terminal."""

import importlib
import os
import sys
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.act.actions import bind_scan_identity, execute, plan_action
from simdup_gui.core.act.journal import held_dir, last_journal
from simdup_gui.core.act.recovery import undo
from simdup_gui.core.act.release import release
from simdup_gui.core.review.export import save_results
from simdup_gui.core.review.results import Results
from simdup_gui.core.models import Group, Member

from tests.actions_helpers import T0, record_for, results_from_groups, write
from tests.cli.test_apply_cli import FakeStdin
from tests.conftest import EN, OTHER

release_mod = importlib.import_module("simdup_gui.core.act.release")


def held_files():
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(held_dir()) for f in fs)


def link(res, marks, kind):
    rep = execute(bind_scan_identity(plan_action(res, set(marks), kind), res))
    assert [o.status for o in rep.outcomes] == ["done"] * len(marks), rep.outcomes
    return rep.journal


def two_roots(tmp_path):
    """R1/f.txt (marked) and R2/f.txt (kept, older): one group over two scan roots."""
    r1, r2 = tmp_path / "R1", tmp_path / "R2"
    kept = write(r2 / "f.txt", EN.encode(), T0)
    dup = write(r1 / "f.txt", EN.encode(), T0 + 10**9)
    records = [record_for(kept, str(r2)), record_for(dup, str(r1))]
    res = Results(records, [Group(0, 0, [Member(0, 0, False), Member(1, 0, False)])], [],
                  {"bits": 64, "distance": 10}, {})
    return r1, r2, kept, dup, res


def test_kept_copy_that_resolves_to_the_held_original_itself_is_not_released(tmp_path):
    """Symlink action, kept copy in a second scan root. The kept folder is later
    a symbolic link into held/<jid>/0 (the kept copy was deleted; the path to it now
    resolves to the held original). Release hashes the held original against itself,
    'finds' its bytes at the kept side and deletes the only copy: R1/f.txt dangles."""
    r1, r2, kept, dup, res = two_roots(tmp_path)
    journal = link(res, [dup], "symlink")
    (held,) = held_files()
    os.unlink(kept)
    os.rmdir(r2)
    os.symlink(os.path.dirname(held), r2)  # R2/f.txt is now the held original itself
    rep = release(journal)
    assert os.path.exists(held), rep.outcomes  # the only copy of EN must stay
    assert Path(dup).read_bytes() == EN.encode()


def test_all_on_a_terminal_still_names_an_interrupted_action_and_exits_1(tmp_path, capsys,
                                                                          monkeypatch):
    """`release --all` answered 'y' on a terminal drops the journals the preview
    refused: they are not named and the exit code is 0 (with --yes: named, exit 1)."""
    root = tmp_path / "root"
    p = {"a": write(root / "a.txt", EN.encode(), T0 + 10**9),
         "b": write(root / "b.txt", EN.encode(), T0),
         "c": write(root / "c.txt", OTHER.encode(), T0 + 10**9),
         "d": write(root / "d.txt", OTHER.encode(), T0)}
    journals = []
    for keep, mark in (("a", "b"), ("c", "d")):
        res = results_from_groups([[p[keep], p[mark]]], str(root))
        res.marks = {p[mark]}
        save_results(res, str(tmp_path / f"{mark}.json"))
        assert main(["apply", str(tmp_path / f"{mark}.json"), "--hardlink", "--yes"]) == 0
        journals.append(last_journal())
    older = journals[0]
    lines = Path(older).read_text().splitlines(keepends=True)
    Path(older).write_text("".join(lines[:-1]))  # interrupted
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", FakeStdin("y\n", tty=True))
    code = main(["release", "--all"])
    err = capsys.readouterr().err
    assert "not released: the action in " + older in err
    assert code == 1


@pytest.mark.parametrize("change", ["deleted", "edited"])
def test_undo_after_release_does_not_claim_the_kept_copy_has_bytes_it_no_longer_has(
        tmp_path, change):
    """After a release, undo says 'the link stays, and the kept copy has its
    bytes' without looking: also when the kept copy was deleted (the link dangles) or
    edited since."""
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0)
    b = write(root / "sub" / "b.txt", EN.encode(), T0 + 10**9)
    res = results_from_groups([[a, b]], str(root))
    journal = link(res, [b], "symlink")
    assert [o.status for o in release(journal).outcomes] == ["done"]
    if change == "deleted":
        os.unlink(a)
    else:
        Path(a).write_text("edited after the release\n")
    rep = undo(journal)
    (o,) = rep.outcomes
    assert "the kept copy has its bytes" not in o.reason, o.reason


def test_release_does_not_delete_outside_the_data_folder_through_a_linked_held_folder(
        tmp_path):
    """<data>/simdup/held itself is opened following a symbolic link (only the
    parts below it are opened with O_NOFOLLOW), so when held/ is a link to a folder of the
    user's, release deletes files there and prunes its folders (README: 'goes through
    held/ opened without following links'). Bytes are checked first, so nothing is lost;
    it is the 'nothing outside held/<jid>/ is deleted' rule that does not hold."""
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0)
    b = write(root / "sub" / "b.txt", EN.encode(), T0 + 10**9)
    res = results_from_groups([[a, b]], str(root))
    journal = link(res, [b], "hardlink")
    mine = tmp_path / "mine"
    os.rename(held_dir(), mine)
    os.symlink(mine, held_dir())
    before = sorted(str(p) for p in mine.rglob("*"))
    with pytest.raises(release_mod.ReleaseRefused, match="symbolic link"):
        release(journal)
    assert sorted(str(p) for p in mine.rglob("*")) == before


def test_an_edit_of_the_kept_copy_during_the_release_write_keeps_the_held_original(
        tmp_path, monkeypatch):
    """The kept side is hashed, then the 'released' entry is written and
    fsynced, then the held original is unlinked with no second look at the kept side. An
    editor saving the kept copy in place inside that window (a hard link: both names) loses
    the old bytes. A re-stat of the kept side (dev, ino, size, mtime_ns, ctime_ns) just
    before the unlink would narrow the window to the unlink itself."""
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0)
    b = write(root / "sub" / "b.txt", EN.encode(), T0 + 10**9)
    res = results_from_groups([[a, b]], str(root))
    journal = link(res, [b], "hardlink")
    real_jw = release_mod.journal_write

    def jw(writer, entry, *args, **kw):
        real_jw(writer, entry, *args, **kw)
        if entry.get("type") == "released":  # the user saves an edit during the fsync
            with open(a, "r+b") as fh:
                fh.write(b"EDITED")

    monkeypatch.setattr(release_mod, "journal_write", jw)
    release(journal)
    assert held_files(), "the held original (the only copy of the old bytes) was deleted"
