"""Holes an adversarial review found in ourfiles and the numba cache, each fixed: the ignore
list saved first under umask 000, a private folder under a folder another account can swap,
a NUMBA_CACHE_DIR open to others."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _mode(p) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_saving_the_ignore_list_first_under_umask_000_makes_no_open_folder(tmp_path):
    """The app's first act is often "Ignore": ignore.save makes the data folder (and
    ~/.local, ~/.local/share) with os.makedirs, so under umask 000 they are 0777 until an
    action later closes the data folder (never ~/.local)."""
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    for k in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "NUMBA_CACHE_DIR"):
        env.pop(k, None)
    code = """
import os
os.umask(0)
from simdup_gui.core.group import ignore
ignore.save(ignore.IgnoreList(files={"/x"}), ignore.default_path())
print(ignore.default_path())
"""
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    path = Path(out.stdout.strip())
    folders = [home / ".local", home / ".local" / "share", path.parent]
    assert {str(f): _mode(f) & 0o022 for f in folders} == {str(f): 0 for f in folders}


EVE = 23456


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs chown")
def test_private_dir_refuses_a_place_another_account_can_swap(tmp_path):
    """private_dir checks only the last folder: under a parent eve owns (or may write, no
    sticky bit) the 0700 folder it returns can be renamed away and replaced by hers (a
    numba cache of eve's: pickled index files, code run by the next kernel load)."""
    from simdup_gui.core import ourfiles

    parent = tmp_path / "xdg-cache"
    parent.mkdir()
    os.chown(parent, EVE, EVE)
    os.chmod(parent, 0o777)
    with pytest.raises(ourfiles.NotPrivate):
        ourfiles.private_dir(str(parent / "simdup" / "numba"))


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs chown")
def test_a_numba_cache_dir_from_the_environment_open_to_others_is_not_used(tmp_path,
                                                                          monkeypatch):
    """NUMBA_CACHE_DIR=/tmp/numba_cache (common advice for read-only installs and
    containers) is kept unchecked; numba unpickles the .nbi index files it finds there, so
    whoever can write that folder runs code in every scan's workers."""
    from simdup_gui.core.scan import numba_cache

    shared = tmp_path / "numba_cache"
    shared.mkdir()
    os.chown(shared, EVE, EVE)
    os.chmod(shared, 0o777)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(shared))
    assert numba_cache.use_private_cache() != str(shared)
