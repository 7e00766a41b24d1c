"""Our folders and files are only this user's, whatever the umask, and nothing of ours is
written through a link someone planted (issue 39, item 2); the ignore list is read safely
(item 5)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from simdup_gui.core import ourfiles
from simdup_gui.core.group import ignore
from tests.conftest import EN

ROOT = Path(__file__).resolve().parents[2]


def _mode(p) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


@pytest.mark.skipif(not hasattr(os, "umask") or sys.platform == "win32", reason="POSIX modes")
def test_under_umask_000_every_folder_of_ours_is_0700(tmp_path):
    """A scan and a hard-link action in a real process started with umask 000: the cache,
    numba's cache, the data folder, the journals and the held originals are 0700."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text(EN, encoding="utf-8")
    (src / "b.txt").write_text(EN, encoding="utf-8")
    home = tmp_path / "home"
    env = {**os.environ, "XDG_CACHE_HOME": str(home / "cache"),
           "XDG_DATA_HOME": str(home / "data"), "HOME": str(home)}
    env.pop("NUMBA_CACHE_DIR", None)
    env["SIMDUP_COMPILED"] = "0"  # (no compile here: the folder is made all the same)
    code = f"""
import os, sys
os.umask(0)
from simdup_gui.cli import main
from simdup_gui.core.scan.numba_cache import use_private_cache
use_private_cache()
r = {str(tmp_path / 'r.json')!r}
assert main(["scan", {str(src)!r}, "--format", "json", "-o", r, "--workers", "1"]) == 0
assert main(["apply", r, "--keep", "oldest", "--hardlink", "--yes"]) == 0
"""
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    cache, data = home / "cache" / "simdup", home / "data" / "simdup"
    folders = [cache, cache / "numba", data, data / "journals", data / "held",
               *(data / "held").iterdir()]
    assert len(folders) == 6
    assert {str(f): _mode(f) for f in folders} == {str(f): 0o700 for f in folders}
    assert _mode(data / "journal.key") == 0o600
    assert _mode(tmp_path / "r.json") & 0o022 == 0  # results: never writable by others


def test_a_folder_of_ours_open_to_others_is_closed_and_anothers_is_refused(tmp_path):
    d = tmp_path / "ours"
    d.mkdir()
    d.chmod(0o777)
    assert ourfiles.private_dir(str(d)) == str(d) and _mode(d) == 0o700
    link = tmp_path / "link"
    link.symlink_to(d)
    with pytest.raises(ourfiles.NotPrivate):
        ourfiles.private_dir(str(link))
    if os.getuid() == 0:
        other = tmp_path / "eves"
        other.mkdir()
        os.chown(other, 23456, 23456)
        with pytest.raises(ourfiles.NotPrivate):
            ourfiles.private_dir(str(other))


def test_a_link_planted_at_the_old_temporary_name_is_not_followed(tmp_path, monkeypatch):
    """The cached tables were written to ``<name>.<pid>.tmp``: a link planted there made a
    scan write a table into the user's own file. Temporary names are now made with O_EXCL."""
    from simdup_gui.core.scan import jiebadict

    import numpy as np

    precious = tmp_path / "precious.txt"
    precious.write_text("my notes\n", encoding="utf-8")
    source = tmp_path / "source.txt"
    source.write_text("x", encoding="utf-8")
    folder = Path(ourfiles.private_dir(ourfiles.cache_dir()))
    st = os.stat(source)
    name = folder / f"table-v1-{st.st_size}-{st.st_mtime_ns}"
    os.symlink(precious, f"{name}.{os.getpid()}.tmp")
    got = jiebadict.cached_arrays("table", 1, str(source), lambda: np.arange(5),
                                  lambda v: True)
    assert list(got) == [0, 1, 2, 3, 4]
    assert precious.read_text(encoding="utf-8") == "my notes\n"
    assert list(np.load(f"{name}.npy")) == [0, 1, 2, 3, 4]


def test_a_fifo_in_place_of_the_ignore_list_is_a_clear_error_not_a_hang(tmp_path):
    fifo = tmp_path / "ignore.json"
    os.mkfifo(fifo)
    with pytest.raises(ignore.IgnoreListError, match="not a regular file"):
        ignore.load(str(fifo))


def test_a_deeply_nested_ignore_list_is_a_clear_error(tmp_path):
    p = tmp_path / "ignore.json"
    p.write_text("[" * 200_000 + "]" * 200_000, encoding="ascii")
    with pytest.raises(ignore.IgnoreListError, match="nested too deeply"):
        ignore.load(str(p))


def test_a_name_that_is_not_utf8_is_ignored_and_saved_losslessly(tmp_path):
    name = os.fsdecode(b"/data/\xff\xfe-\xe7\xac\x94\xe8\xae\xb0.txt")  # a lone byte, then 笔记
    il = ignore.IgnoreList()
    il.files = {name}
    il.pairs = {ignore._pair(name, "/data/b.txt")}
    path = tmp_path / "ignore.json"
    ignore.save(il, str(path))
    back = ignore.load(str(path))
    assert back.files == {name} and back.pairs == il.pairs
    json.loads(path.read_text(encoding="ascii"))  # plain JSON


def test_a_planted_numba_config_does_not_move_the_compiled_code(tmp_path):
    """numba reads a .numba_config.yaml from the folder a scan starts in; one planted there
    (cache_dir: a folder of the attacker's) must not decide where compiled code is read."""
    pytest.importorskip("yaml")
    pytest.importorskip("numba")
    evil = tmp_path / "evil"
    evil.mkdir()
    (tmp_path / ".numba_config.yaml").write_text(f"cache_dir: {evil}\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    code = ("from simdup_gui.core.scan.numba_cache import use_private_cache\n"
            "print(use_private_cache())\nimport numba\nprint(numba.config.CACHE_DIR)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, text=True,
                         capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr
    ours, numba_dir = out.stdout.split()
    assert numba_dir == ours == str(tmp_path / "cache" / "simdup" / "numba")
    assert _mode(ours) == 0o700
