"""Holes an adversarial review found in act/trust.py, each fixed: a kept copy under a
folder another account owns, reached through a link eve controls, or writable through an
ACL; a results file reached through a link into an open folder."""

from __future__ import annotations

import os

import pytest

from simdup_gui.cli import main
from tests.actions_helpers import EVE, root_only  # noqa: E402
from tests.actions_helpers import scan_to_results as _scan  # noqa: E402
from tests.conftest import EN


@root_only
@pytest.mark.parametrize("mode", [0o1777, 0o755])
def test_kept_copy_under_a_folder_another_account_owns_is_refused(tmp_path, capsys, mode):
    """eve owns an ancestor of the kept copy's folder (a sticky drop folder of hers, or any
    folder of hers): she can rename the folder below it (sticky does not protect from the
    folder's owner) or chmod it 0700, so the kept copy is not out of her reach."""
    src = tmp_path / "src"
    drop = src / "evedrop"
    (drop / "alice").mkdir(parents=True)
    (src / "safe").mkdir()
    kept, mine = drop / "alice" / "a.txt", src / "safe" / "b.txt"
    kept.write_text(EN, encoding="utf-8")
    mine.write_text(EN, encoding="utf-8")
    os.chown(drop, EVE, EVE)
    os.chmod(drop, mode)
    results = _scan(tmp_path, src)
    assert main(["apply", results, "--prefer-folder", str(kept.parent), "--symlink",
                 "--yes"]) == 0
    out = capsys.readouterr().out
    # what eve can do afterwards (she owns evedrop): swap the folder the link goes through
    if os.path.islink(mine):
        os.rename(drop / "alice", drop / "moved")
        (drop / "alice").mkdir()
        (drop / "alice" / "a.txt").write_text("eve's text\n", encoding="utf-8")
        print("alice's b.txt now reads:", (src / "safe" / "b.txt").read_text())
    assert not os.path.islink(mine), out
    assert "another account" in out


def test_symlink_target_is_the_path_as_scanned_through_a_link_eve_controls(tmp_path, capsys):
    """The kept copy's real folders are fine (folder_problem walks the real path), but the
    new symbolic link stores the path as scanned, which goes through a link in a folder
    eve can write: she retargets that link later and the user's file shows her text."""
    real = tmp_path / "real" / "sub"
    real.mkdir(parents=True)
    (real / "a.txt").write_text(EN, encoding="utf-8")
    (real / "b.txt").write_text(EN, encoding="utf-8")
    pub = tmp_path / "pub"
    pub.mkdir()
    os.chmod(pub, 0o777)  # a shared folder eve can write
    os.symlink(real.parent, pub / "proj")
    results = _scan(tmp_path, pub / "proj" / "sub")
    assert main(["apply", results, "--keep", "oldest", "--symlink", "--yes"]) == 0
    links = {str(p): os.readlink(p) for p in (real / "a.txt", real / "b.txt")
             if os.path.islink(p)}
    assert not any(t.startswith(str(pub)) for t in links.values()), links

def _acl(*entries) -> bytes:
    import struct
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, p, i) for t, p, i in entries)


_ANY = 0xFFFFFFFF
# u::rw- u:eve:rw- g::r-- m::rw- o::r--  (ls shows -rw-rw-r--+, group = the owner's own)
EVE_RW_FILE = _acl((1, 6, _ANY), (2, 6, EVE), (4, 4, _ANY), (0x10, 6, _ANY), (0x20, 4, _ANY))
# u::rwx u:eve:rwx g::r-x m::rwx o::r-x
EVE_RWX_DIR = _acl((1, 7, _ANY), (2, 7, EVE), (4, 5, _ANY), (0x10, 7, _ANY), (0x20, 5, _ANY))


@root_only
@pytest.mark.parametrize("where", ["file", "folder"])
def test_kept_copy_eve_can_write_through_an_acl_is_refused(tmp_path, capsys, where):
    """A POSIX ACL entry for eve shows only as the group write bit (the ACL mask); with the
    owner's private group, others_can_write() calls that private."""
    src = tmp_path / "src"
    (src / "keep").mkdir(parents=True)
    (src / "mine").mkdir()
    kept, mine = src / "keep" / "a.txt", src / "mine" / "b.txt"
    kept.write_text(EN, encoding="utf-8")
    mine.write_text(EN, encoding="utf-8")
    if where == "file":
        os.setxattr(kept, "system.posix_acl_access", EVE_RW_FILE)
    else:
        os.setxattr(kept.parent, "system.posix_acl_access", EVE_RWX_DIR)
    results = _scan(tmp_path, src)
    assert main(["apply", results, "--prefer-folder", str(kept.parent), "--delete",
                 "--yes"]) == 0
    out = capsys.readouterr().out
    assert mine.exists(), out  # deleted on the word of a copy eve may rewrite or remove


@root_only
def test_results_file_reached_through_a_link_into_an_open_folder_is_refused(tmp_path):
    """results_file_problem checks the folder of the name given (abspath), not of the file
    it leads to: a link in the user's folder to a results file in a folder eve can write
    (no sticky bit: she can rename another file over it between the check and the load)
    passes, while the same file named directly is refused."""
    from simdup_gui.core.act.trust import results_file_problem

    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    target = shared / "r.json"
    target.write_text("{}", encoding="utf-8")
    os.chmod(target, 0o644)
    mine = tmp_path / "mine"
    mine.mkdir()
    link = mine / "r.json"
    os.symlink(target, link)
    assert results_file_problem(str(target)) is not None  # named directly: refused
    assert results_file_problem(str(link)) is not None
