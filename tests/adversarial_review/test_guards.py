"""Adversarial review, regression guards (pass on the current code): trusted-folder prefix
tricks, broad-root spellings, a kept copy swapped for a link to another account's file, a
results file naming one file twice, links planted at our file names."""

from __future__ import annotations

import json
import os
import stat

import pytest

from simdup_gui.cli import main
from simdup_gui.core import ourfiles
from simdup_gui.core.act.trust import _trusted, broad_roots, kept_copy_problem
from tests.actions_helpers import EVE, root_only  # noqa: E402
from tests.actions_helpers import scan_to_results as _scan  # noqa: E402
from tests.conftest import EN


def test_a_trusted_folder_does_not_trust_its_namesake_siblings(tmp_path):
    t = str(tmp_path / "trust")
    assert _trusted(str(tmp_path / "trust" / "a.txt"), [t])
    assert _trusted(str(tmp_path / "trust" / "a.txt"), [t + "/"])
    for other in ("trust-evil/a.txt", "trustx/a.txt", "trus/a.txt"):
        assert not _trusted(str(tmp_path / other), [t])
    assert not _trusted(str(tmp_path / "trust"), [t])  # the folder itself is no file in it


@root_only
def test_trusting_a_folder_never_trusts_the_folder_next_to_it(tmp_path):
    trust, evil = tmp_path / "trust", tmp_path / "trust-evil"
    evil.mkdir()
    kept = evil / "a.txt"
    kept.write_text(EN, encoding="utf-8")
    os.chown(kept, EVE, EVE)
    st = os.stat(kept)
    assert kept_copy_problem(str(kept), st, None, [str(trust)]) is not None
    assert kept_copy_problem(str(kept), st, None, [str(evil)]) is None


def test_every_spelling_of_the_root_or_the_home_folder_is_broad(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "sub").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    os.symlink("/", tmp_path / "to-root")
    os.symlink(home, tmp_path / "to-home")
    for r in ("/", "//", "///", "/.", "/..", str(tmp_path / "to-root"), str(home),
              str(home) + "/", str(home) + "/.", str(home / "sub" / ".."),
              str(tmp_path / "to-home"), "/" + str(home)):
        assert broad_roots([r]) == [r], r
    assert broad_roots([str(home / "sub"), str(tmp_path)]) == []


@root_only
def test_a_kept_copy_swapped_for_a_link_to_another_accounts_file_is_not_used(tmp_path,
                                                                               capsys):
    """After the scan, the kept copy's name becomes a symbolic link to eve's identical file
    (same size and text; os.stat on the name would see eve's): not used."""
    src = tmp_path / "src"
    (src / "keep").mkdir(parents=True)
    (src / "mine").mkdir()
    kept, mine = src / "keep" / "a.txt", src / "mine" / "b.txt"
    kept.write_text(EN, encoding="utf-8")
    mine.write_text(EN, encoding="utf-8")
    results = _scan(tmp_path, src)
    eves = tmp_path / "eve.txt"
    eves.write_text(EN, encoding="utf-8")
    os.chown(eves, EVE, EVE)
    st = os.stat(kept)
    os.utime(eves, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.unlink(kept)
    os.symlink(eves, kept)
    for how in ("--delete", "--symlink", "--hardlink"):
        assert main(["apply", results, "--prefer-folder", str(kept.parent), how,
                     "--yes"]) == 0
        capsys.readouterr()
        st = os.lstat(mine)
        assert stat.S_ISREG(st.st_mode) and st.st_nlink == 1
        assert mine.read_text(encoding="utf-8") == EN


def test_a_results_file_naming_one_file_twice_loses_nothing(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text(EN, encoding="utf-8")
    (src / "b.txt").write_text(EN, encoding="utf-8")
    results = _scan(tmp_path, src)
    with open(results, encoding="utf-8") as fh:
        doc = json.load(fh)
    g = doc["groups"][0]
    a = next(f for f in g["files"] if f["path"].endswith("a.txt"))
    g["files"] = [a, dict(a)]  # a.txt twice, b.txt gone: a.txt would be its own copy
    with open(results, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
    os.chmod(results, 0o600)
    for keep in ("oldest", "newest", "shortest-path"):
        main(["apply", results, "--keep", keep, "--delete", "--yes"])
        capsys.readouterr()
        assert (src / "a.txt").read_text(encoding="utf-8") == EN


def test_write_private_replaces_a_planted_link_and_never_writes_through_it(tmp_path):
    folder = tmp_path / "ours"
    folder.mkdir(mode=0o700)
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's text\n", encoding="utf-8")
    os.symlink(victim, folder / "table.npy")
    ourfiles.write_private(str(folder / "table.npy"), lambda fh: fh.write(b"table"))
    assert victim.read_text(encoding="utf-8") == "the user's text\n"
    st = os.lstat(folder / "table.npy")
    assert stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600
    assert sorted(os.listdir(folder)) == ["table.npy"]  # no temporary file left


def test_private_dir_refuses_a_link_in_its_place_and_a_file_in_the_way(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    os.symlink(target, tmp_path / "link")
    with pytest.raises(ourfiles.NotPrivate):
        ourfiles.private_dir(str(tmp_path / "link"))
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(ourfiles.NotPrivate):
        ourfiles.private_dir(str(tmp_path / "file"))
    with pytest.raises(OSError):
        ourfiles.private_dir(str(tmp_path / "file" / "sub"))
    assert stat.S_IMODE(os.stat(target).st_mode) != 0 and (tmp_path / "file").read_text() == "x"
