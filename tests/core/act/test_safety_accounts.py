"""Safe among other accounts (issue 39, items 1 and 4): a results file, a kept copy or a
hard link that another account owns or can change never makes simdup act for it; a kept
copy edited after its check stops the delete or the link that relied on it.

The other accounts are real uids: files are given to them with chown (the suite runs as
root on CI). The acting process is this user's (its interpreter may live in a folder other
uids cannot enter, as /root here), which is what matters: simdup's checks look at owners
and modes, not at who runs it.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from simdup_gui.cli import main
from simdup_gui.core.act import actions
from simdup_gui.core.session import Session
from tests.actions_helpers import ALICE, BOB, EVE, root_only  # noqa: E402
from tests.actions_helpers import scan_to_results as _scan  # noqa: E402
from tests.conftest import EN


def _text(p) -> str:
    return p.read_text(encoding="utf-8")


@pytest.fixture
def shared(tmp_path):
    """alice's ~/.bashrc and the same text as eve's file in a world-writable folder."""
    src = tmp_path / "src"
    home, pub = src / "alice", src / "shared"
    home.mkdir(parents=True)
    pub.mkdir()
    pub.chmod(0o1777)
    mine, hers = home / ".bashrc", pub / "bashrc"
    mine.write_text(EN, encoding="utf-8")
    hers.write_text(EN, encoding="utf-8")
    return tmp_path, src, mine, hers


@root_only
@pytest.mark.parametrize("how", ["--symlink", "--hardlink", "--delete", "--trash"])
def test_a_kept_copy_another_account_owns_in_a_shared_folder_justifies_nothing(shared, how,
                                                                                capsys):
    tmp, src, mine, hers = shared
    os.chown(mine, ALICE, ALICE)
    os.chown(hers, EVE, EVE)
    results = _scan(tmp, src)
    assert main(["apply", results, "--prefer-folder", str(hers.parent), how, "--yes"]) == 0
    out = capsys.readouterr().out
    assert "belongs to another account" in out
    st = os.lstat(mine)
    assert stat.S_ISREG(st.st_mode) and st.st_nlink == 1 and _text(mine) == EN


@root_only
def test_a_kept_copy_in_a_world_writable_folder_is_refused_even_when_it_is_ours(shared,
                                                                                capsys):
    tmp, src, mine, hers = shared  # both ours; the folder of the kept copy is open to
    results = _scan(tmp, src)  # every account, so the copy is not relied on
    assert main(["apply", results, "--prefer-folder", str(hers.parent), "--delete",
                 "--yes"]) == 0
    assert "a folder other accounts can write" in capsys.readouterr().out
    assert _text(mine) == EN


@root_only
def test_a_folder_the_user_names_as_trusted_lifts_the_rule(shared, capsys):
    tmp, src, mine, hers = shared
    os.chown(hers, EVE, EVE)
    results = _scan(tmp, src)
    assert main(["apply", results, "--prefer-folder", str(hers.parent), "--symlink", "--yes",
                 "--trust-folder", str(hers.parent)]) == 0
    assert os.path.islink(mine) and os.readlink(mine) == str(hers)


@root_only
def test_a_results_file_of_another_account_is_refused(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text(EN, encoding="utf-8")
    (src / "b.txt").write_text(EN, encoding="utf-8")
    results = _scan(tmp_path, src)
    os.chown(results, EVE, EVE)
    assert main(["apply", results, "--keep", "oldest", "--delete", "--yes"]) == 2
    assert "belongs to another account" in capsys.readouterr().err
    assert _text(src / "a.txt") == EN and _text(src / "b.txt") == EN
    os.chown(results, 0, 0)
    os.chmod(results, 0o666)  # ours, but anyone could have rewritten it
    assert main(["apply", results, "--keep", "oldest", "--delete", "--yes"]) == 2
    assert "other accounts can write it" in capsys.readouterr().err
    assert _text(src / "a.txt") == EN and _text(src / "b.txt") == EN
    # the user's explicit word
    assert main(["apply", results, "--keep", "oldest", "--delete", "--yes",
                 "--trust-results"]) == 0
    assert sum(p.exists() for p in (src / "a.txt", src / "b.txt")) == 1


def test_results_scanned_under_the_whole_file_system_need_an_explicit_flag(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text(EN, encoding="utf-8")
    (src / "b.txt").write_text(EN, encoding="utf-8")
    results = _scan(tmp_path, src)
    with open(results, encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["settings"]["roots"] = ["/"]
    for g in doc["groups"]:
        for f in g["files"]:
            f["root"] = "/"
    with open(results, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
    assert main(["apply", results, "--keep", "oldest", "--delete", "--yes"]) == 2
    assert "whole file system or home folder" in capsys.readouterr().err
    assert _text(src / "a.txt") == EN and _text(src / "b.txt") == EN
    assert main(["apply", results, "--keep", "oldest", "--delete", "--yes",
                 "--allow-broad-roots"]) == 0
    assert sum(p.exists() for p in (src / "a.txt", src / "b.txt")) == 1


@root_only
def test_a_hard_link_never_joins_files_of_different_owners(tmp_path, capsys):
    src = tmp_path / "src"
    (src / "alice").mkdir(parents=True)
    (src / "bob").mkdir()
    a, b = src / "alice" / "report.txt", src / "bob" / "report.txt"
    a.write_text(EN, encoding="utf-8")
    b.write_text(EN, encoding="utf-8")
    os.chown(a, ALICE, ALICE)
    os.chown(b, BOB, BOB)
    results = _scan(tmp_path, src)
    assert main(["apply", results, "--prefer-folder", str(a.parent), "--hardlink",
                 "--yes"]) == 0
    assert "belongs to another account" in capsys.readouterr().out  # bob's, alice's kept
    assert os.stat(b).st_uid == BOB and os.stat(b).st_nlink == 1
    os.chown(b, ALICE, BOB)  # alice's file in another group: still not one file
    results = _scan(tmp_path, src)
    assert main(["apply", results, "--prefer-folder", str(a.parent), "--hardlink",
                 "--yes"]) == 0
    out = capsys.readouterr().out
    assert "differs in group" in out and "share every later edit" in out
    assert os.stat(b).st_gid == BOB and os.stat(b).st_nlink == 1
    os.chmod(b, 0o600)  # same owner, other mode: still not one file
    os.chown(b, ALICE, ALICE)
    results = _scan(tmp_path, src)
    assert main(["apply", results, "--prefer-folder", str(a.parent), "--hardlink",
                 "--yes"]) == 0
    assert "differs in permissions" in capsys.readouterr().out
    assert os.stat(b).st_nlink == 1


def _pair(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    keep, drop = src / "keep.txt", src / "drop.txt"
    keep.write_text(EN, encoding="utf-8")
    drop.write_text(EN, encoding="utf-8")
    s = Session()
    s.load(_scan(tmp_path, src), keep_groups=True)
    s.set_marks({str(drop)})
    return s, keep, drop


def test_a_delete_stops_when_the_kept_copy_is_edited_after_its_check(tmp_path, monkeypatch):
    s, keep, drop = _pair(tmp_path)
    real = actions.KeptChecker.usable

    def then_edited(self, op, st=None):
        got = real(self, op, st)
        keep.write_text("somebody rewrote this meanwhile\n", encoding="utf-8")
        return got

    monkeypatch.setattr(actions.KeptChecker, "usable", then_edited)
    rep = s.execute(s.plan("delete"))
    assert [o.status for o in rep.outcomes] == ["skipped"], rep.outcomes
    assert "changed" in rep.outcomes[0].reason
    assert _text(drop) == EN  # the text still exists somewhere


def test_a_hard_link_stops_when_the_kept_copy_is_edited_before_the_rename(tmp_path,
                                                                          monkeypatch):
    s, keep, drop = _pair(tmp_path)
    real = actions.duplicate_at

    def then_edited(*a, **k):
        got = real(*a, **k)
        with open(keep, "a", encoding="utf-8") as fh:  # same inode, new bytes
            fh.write("an edit through the kept name\n")
        return got

    monkeypatch.setattr(actions, "duplicate_at", then_edited)
    rep = s.execute(s.plan("hardlink"))
    assert [o.status for o in rep.outcomes] == ["skipped"], rep.outcomes
    assert "changed just now" in rep.outcomes[0].reason
    assert _text(drop) == EN and os.stat(drop).st_nlink == 1
    assert "an edit through the kept name" in _text(keep)  # the edit is not lost either


@root_only
def test_a_move_never_goes_into_another_accounts_folder_through_a_planted_link(tmp_path,
                                                                              capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text(EN, encoding="utf-8")
    (src / "b.txt").write_text(EN, encoding="utf-8")
    results = _scan(tmp_path, src)
    loot = tmp_path / "eveloot"
    loot.mkdir()
    os.chown(loot, EVE, EVE)
    loot.chmod(0o777)
    (tmp_path / "dups").symlink_to(loot)
    assert main(["apply", results, "--keep", "oldest", "--move-to", str(tmp_path / "dups"),
                 "--yes"]) == 0
    assert "another account" in capsys.readouterr().out
    assert os.listdir(loot) == [] and sorted(os.listdir(src)) == ["a.txt", "b.txt"]
