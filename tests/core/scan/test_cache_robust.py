"""The fingerprint cache never crashes a scan: odd names, bad rows, read-only or broken files.

The read-only cases run as root too: root writes through file modes, so the cache's
``os.access`` check is made to say "not writable" for the cache's folder (the SQLite side is
real: the cache then opens the file with ``mode=ro`` and SQLite itself refuses writes).
"""

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from simdup_gui.core.models import FileRecord
from simdup_gui.core.scan.cache import SCHEMA_VERSION, FingerprintCache
from simdup_gui.core.scan.pipeline import ScanOptions, scan
from simdup_gui.core.scan.walk import WalkOptions

from tests.conftest import EN, OTHER, ZH

REPO = Path(__file__).resolve().parents[3]

# Runs the CLI with os.access saying "not writable" for one file or folder and what is under
# it (argv[1]): the answer a non-root user gets from a file or folder without write permission.
DENY_WRITE = """
import os, sys
deny = os.path.abspath(sys.argv.pop(1)) + os.sep
real = os.access
def access(path, mode, *a, **k):
    if mode & os.W_OK and (os.path.abspath(os.fsdecode(path)) + os.sep).startswith(deny):
        return False
    return real(path, mode, *a, **k)
os.access = access
from simdup_gui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def options(cache):
    return ScanOptions(walk=WalkOptions(), workers=1, use_cache=True, cache_path=str(cache))


def write_files(root):
    root.mkdir(exist_ok=True)
    (root / "zh.txt").write_text(ZH, encoding="utf-8")
    (root / "en.txt").write_text(EN, encoding="utf-8")
    (root / "bin.dat").write_bytes(b"\x00\x01\x02binary\x00" * 100)


def dicts(res):
    return [r.to_dict() for r in res.records]


def cli(*argv, deny=None, cwd=None):
    if deny is None:
        cmd = [sys.executable, "-m", "simdup_gui.cli", *argv]
    else:
        cmd = [sys.executable, "-c", DENY_WRITE, str(deny), *argv]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(cmd, capture_output=True, env=env, cwd=cwd or REPO, timeout=300)


def warning_lines(stderr: bytes) -> list[str]:
    return [ln for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]


# --- names that are not UTF-8 ------------------------------------------------------------

def test_non_utf8_file_name_is_cached_and_read_back(tmp_path):
    d = tmp_path / "d"
    write_files(d)
    name = os.fsencode(str(d)) + b"/caf\xe9 \xff.txt"  # Latin-1 bytes, not UTF-8
    try:
        with open(name, "wb") as fh:
            fh.write(OTHER.encode("utf-8"))
    except OSError:
        pytest.skip("this file system does not take names that are not UTF-8")
    cache = tmp_path / "c.sqlite"
    first = scan([str(d)], options(cache))
    second = scan([str(d)], options(cache))
    odd = os.fsdecode(name)
    assert odd in [r.path for r in first.records]
    assert first.stats["fingerprinted"] == 3 and not first.problems[1:]
    assert second.stats["fingerprinted"] == 0 and second.stats["cached"] == 4
    assert dicts(first) == dicts(second)
    assert [p.kind for p in second.problems] == ["binary"]


def test_every_str_path_round_trips_even_lone_surrogates(tmp_path):
    c = FingerprintCache(str(tmp_path / "c.sqlite"))
    paths = ["/x/plain", "/x/caf\udce9", "/x/\ud800odd", "/x/中文", "/x/caf\u00e9"]
    recs = [FileRecord(p, 10, 5, i, 1, "/x", "utf-8", i, 3, "ab", "cd")
            for i, p in enumerate(paths)]
    c.store("v", recs)
    got = c.lookup("v", [(r.path, 10, 5, r.inode, 1, "/x") for r in recs])
    assert sorted(got) == sorted(paths)
    assert all(got[r.path] == r for r in recs)
    assert c.warning is None
    c.close()


def test_inode_beyond_signed_64_bits_is_stored(tmp_path):
    c = FingerprintCache(str(tmp_path / "c.sqlite"))
    big = (1 << 64) - 5  # some file systems hand out unsigned 64-bit inode numbers
    r = FileRecord("/x/a", 1 << 40, -3, big, 1, "/x", "utf-8", 7, 3, "ab", "cd")
    c.store("v", [r])
    assert c.lookup("v", [("/x/a", 1 << 40, -3, big, 1, "/x")]) == {"/x/a": r}
    assert c.lookup("v", [("/x/a", 1 << 40, -3, big - 1, 1, "/x")]) == {}
    c.close()


# --- bad rows ----------------------------------------------------------------------------

BAD_RECORD_VALUES = [
    ("fingerprint", "not bytes"), ("fingerprint", None), ("fingerprint", b"\x01\x02"),
    ("fingerprint", 12345), ("sketch", "text"), ("sketch", b"1234567"), ("sketch", 5),
    ("encoding", None), ("encoding", b"\xff"), ("features", "many"), ("features", None),
    ("text_hash", None), ("text_hash", b"\x01"), ("content_hash", b"\x00"),
    ("content_hash", None), ("bad_bytes", "x"), ("newline", 3), ("newline", "??"),
    ("low_confidence", "yes"), ("low_confidence", 7), ("chars", -1), ("chars", 1.5),
    ("shingles", "x"), ("mtime_ns", "x"), ("size", None), ("inode", b"\x01"),
]


@pytest.mark.parametrize("column,value", BAD_RECORD_VALUES,
                         ids=[f"{c}={v!r}" for c, v in BAD_RECORD_VALUES])
def test_a_bad_record_row_is_a_miss_and_is_rewritten(tmp_path, column, value):
    write_files(tmp_path / "d")
    cache = tmp_path / "c.sqlite"
    first = scan([str(tmp_path / "d")], options(cache))
    db = sqlite3.connect(cache)
    n = db.execute(f"UPDATE files SET {column}=? WHERE problem_kind IS NULL", (value,)).rowcount
    db.commit()
    db.close()
    assert n == 2
    second = scan([str(tmp_path / "d")], options(cache))
    assert second.stats["fingerprinted"] == 2 and second.stats["cached"] == 1
    assert dicts(second) == dicts(first)
    assert [p.kind for p in second.problems] == ["binary"]  # and no warning: rows are data
    db = sqlite3.connect(cache)
    kinds = db.execute("SELECT typeof(fingerprint), length(fingerprint), typeof(sketch) "
                       "FROM files WHERE problem_kind IS NULL").fetchall()
    db.close()
    assert kinds == [("blob", 16, "blob")] * 2  # rewritten with good data
    third = scan([str(tmp_path / "d")], options(cache))
    assert third.stats["cached"] == 3 and dicts(third) == dicts(first)


@pytest.mark.parametrize("column,value", [("problem_kind", "weird"), ("problem_kind", 3),
                                          ("problem_reason", None), ("problem_reason", b"x")])
def test_a_bad_problem_row_is_a_miss_and_is_rewritten(tmp_path, column, value):
    write_files(tmp_path / "d")
    cache = tmp_path / "c.sqlite"
    scan([str(tmp_path / "d")], options(cache))
    db = sqlite3.connect(cache)
    n = db.execute(f"UPDATE files SET {column}=? WHERE problem_kind IS NOT NULL", (value,)).rowcount
    db.commit()
    db.close()
    assert n == 1
    second = scan([str(tmp_path / "d")], options(cache))
    assert second.stats["cached"] == 2
    assert [(p.kind, type(p.reason)) for p in second.problems] == [("binary", str)]
    third = scan([str(tmp_path / "d")], options(cache))
    assert third.stats["cached"] == 3


def test_rows_with_text_that_is_not_utf8_are_misses(tmp_path):
    write_files(tmp_path / "d")
    cache = tmp_path / "c.sqlite"
    first = scan([str(tmp_path / "d")], options(cache))
    db = sqlite3.connect(cache)
    db.execute("UPDATE files SET encoding=CAST(X'FFFE' AS TEXT) WHERE problem_kind IS NULL")
    db.commit()
    db.close()
    second = scan([str(tmp_path / "d")], options(cache))
    assert second.stats["fingerprinted"] == 2 and dicts(second) == dicts(first)


def test_bad_pair_rows_are_misses_and_are_rewritten(tmp_path):
    path = str(tmp_path / "c.sqlite")
    c = FingerprintCache(path)
    c.close()
    db = sqlite3.connect(path)
    bad = [("a1", "b1", "x"), ("a2", "b2", 1.5), ("a3", "b3", -0.25), ("a4", "b4", b"\x00"),
           ("a5", "b5", "0.5 or so")]
    db.executemany("INSERT INTO pairs (a, b, j) VALUES (?, ?, ?)", bad)
    db.execute("INSERT INTO pairs (a, b, j) VALUES ('a6', 'b6', CAST(X'FF' AS TEXT))")
    db.commit()
    db.close()
    c = FingerprintCache(path)
    keys = [(a, b) for a, b, _ in bad] + [("a6", "b6")]
    assert [c.get_pair(a, b) for a, b in keys] == [None] * len(keys)
    for i, (a, b) in enumerate(keys):
        c.put_pair(a, b, i / 10)
    c.flush()
    assert [c.get_pair(a, b) for a, b in keys] == [i / 10 for i in range(len(keys))]
    assert c.warning is None
    c.close()


@pytest.mark.parametrize("bad", [1.5, -0.25, float("nan"), float("inf")])
def test_a_pair_put_outside_0_to_1_is_a_miss_before_and_after_its_write(tmp_path, bad):
    """A value put that a read would refuse (a bad row is a miss) is a miss while it waits
    to be written too, and it costs the other pairs written with it nothing."""
    path = str(tmp_path / "c.sqlite")
    c = FingerprintCache(path)
    c.put_pair("a1", "b1", 0.5)
    c.put_pair("a2", "b2", bad)
    c.put_pair("a3", "b3", 0.75)
    assert [c.get_pair("a1", "b1"), c.get_pair("a2", "b2")] == [0.5, None]
    c.close()
    assert c.warning is None
    c = FingerprintCache(path)
    try:
        assert [c.get_pair(f"a{i}", f"b{i}") for i in (1, 2, 3)] == [0.5, None, 0.75]
    finally:
        c.close()

# --- caches that cannot be written -------------------------------------------------------

def test_a_write_refused_by_sqlite_is_one_warning_not_an_error(tmp_path):
    c = FingerprintCache(str(tmp_path / "c.sqlite"))
    c.db.execute("PRAGMA query_only=ON")  # SQLite refuses every write, even for root
    r = FileRecord("/x/a", 10, 5, 7, 1, "/x", "utf-8", 42, 3, "ab", "cd")
    c.store("v", [r])
    c.store("v", [r])
    c.put_pair("ab", "cd", 0.5)
    c.close()
    probs = c.report()
    assert len(probs) == 1 and probs[0].kind == "cache" and "write" in probs[0].reason
    assert c.report() == probs  # the same one warning, not a second


def test_read_only_cache_is_read_and_left_alone(tmp_path, monkeypatch):
    write_files(tmp_path / "d")
    cache = tmp_path / "cdir" / "c.sqlite"
    first = scan([str(tmp_path / "d")], options(cache))
    before = cache.read_bytes()
    real = os.access
    cdir = str(tmp_path / "cdir")
    monkeypatch.setattr(os, "access", lambda p, m, *a, **k: False if (
        m & os.W_OK and os.path.abspath(p).startswith(cdir)) else real(p, m, *a, **k))
    (tmp_path / "d" / "new.txt").write_text(OTHER, encoding="utf-8")
    second = scan([str(tmp_path / "d")], options(cache))
    assert second.stats["cached"] == 3 and second.stats["fingerprinted"] == 1
    assert [r.to_dict() for r in second.records if not r.path.endswith("new.txt")] == dicts(first)
    cache_probs = [p for p in second.problems if p.kind == "cache"]
    assert len(cache_probs) == 1 and "read-only" in cache_probs[0].reason
    assert cache.read_bytes() == before and not (tmp_path / "cdir" / "c.sqlite.broken").exists()
    c = FingerprintCache(str(cache))
    assert c.count() == 3 and not c.writable and c.warning
    c.close()


def _read_only(path: Path):
    mode = path.stat().st_mode
    path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    return mode


@pytest.mark.parametrize("what", ["file", "folder"])
def test_cli_scan_and_info_on_a_read_only_cache(tmp_path, what):
    write_files(tmp_path / "d")
    cdir = tmp_path / "cdir"
    cdir.mkdir()
    cache = cdir / "c.sqlite"
    r = cli("scan", str(tmp_path / "d"), "--cache", str(cache), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["stats"]["fingerprinted"] == 2
    before = cache.read_bytes()
    target = cache if what == "file" else cdir
    mode = _read_only(target)
    try:
        r = cli("scan", str(tmp_path / "d"), "--cache", str(cache), "--format", "json",
                deny=target)
        assert r.returncode == 0, r.stderr
        lines = warning_lines(r.stderr)
        assert len(lines) == 1 and "warning" in lines[0] and "read-only" in lines[0], lines
        out = json.loads(r.stdout)
        assert out["stats"]["cached"] == 3 and out["stats"]["fingerprinted"] == 0
        assert len(out["groups"]) == 0
        r = cli("cache", "info", "--cache", str(cache), deny=target)
        assert r.returncode == 0, r.stderr
        assert "3 cached fingerprints" in r.stdout.decode() and "read-only" in r.stdout.decode()
        assert len(warning_lines(r.stderr)) <= 1
        r = cli("cache", "clear", "--cache", str(cache), deny=target)
        assert r.returncode == 1 and b"Traceback" not in r.stderr
    finally:
        target.chmod(mode)
    assert cache.read_bytes() == before
    assert sorted(p.name for p in cdir.iterdir()) == ["c.sqlite"]


def test_cli_scan_with_a_cache_that_cannot_be_created(tmp_path):
    write_files(tmp_path / "d")
    (tmp_path / "plain").write_text("a file, not a folder")
    cache = tmp_path / "plain" / "c.sqlite"  # unwritable for root too
    r = cli("scan", str(tmp_path / "d"), "--cache", str(cache), "--format", "json")
    assert r.returncode == 0, r.stderr
    lines = warning_lines(r.stderr)
    assert len(lines) == 1 and "warning" in lines[0], lines
    assert json.loads(r.stdout)["stats"]["fingerprinted"] == 2
    r = cli("cache", "info", "--cache", str(cache))
    assert r.returncode == 0 and b"Traceback" not in r.stderr, r.stderr
    assert str(cache) in r.stdout.decode()


def test_cli_scan_with_a_folder_as_the_cache_path(tmp_path):
    write_files(tmp_path / "d")
    cache = tmp_path / "cachedir"
    cache.mkdir()
    (cache / "keep.txt").write_text("mine")
    r = cli("scan", str(tmp_path / "d"), "--cache", str(cache), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert len(warning_lines(r.stderr)) == 1
    assert (cache / "keep.txt").read_text() == "mine"  # never moved aside
    assert not (tmp_path / "cachedir.broken").exists()


# --- corrupt caches ----------------------------------------------------------------------

def _healthy_cache_of(tmp_path, n=300):
    d = tmp_path / "many"
    d.mkdir()
    for i in range(n):
        (d / f"f{i}.txt").write_text(f"{i} {EN[i:]}", encoding="utf-8")
    cache = tmp_path / "c.sqlite"
    scan([str(d)], options(cache))
    return d, cache


def _garbage(tmp_path):
    (tmp_path / "c.sqlite").write_bytes(b"\x00garbage, not a database\xff" * 300)


def _truncated(tmp_path):
    _, cache = _healthy_cache_of(tmp_path)
    data = cache.read_bytes()
    assert len(data) > 50_000
    cache.write_bytes(data[: len(data) // 3])


def _wrong_columns(tmp_path):
    db = sqlite3.connect(tmp_path / "c.sqlite")
    db.execute("CREATE TABLE files (path TEXT, something TEXT)")
    db.execute("CREATE TABLE pairs (a TEXT, b TEXT, j REAL)")
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    db.commit()
    db.close()


def _sqlite_header_then_garbage(tmp_path):
    (tmp_path / "c.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 8000)


@pytest.mark.parametrize("make", [_garbage, _truncated, _wrong_columns,
                                  _sqlite_header_then_garbage])
def test_cli_scan_with_a_corrupt_cache_warns_once_and_rebuilds(tmp_path, make):
    make(tmp_path)
    write_files(tmp_path / "d")
    cache = tmp_path / "c.sqlite"
    r = cli("scan", str(tmp_path / "d"), "--cache", str(cache), "--format", "json")
    assert r.returncode == 0, r.stderr
    lines = warning_lines(r.stderr)
    assert len(lines) == 1 and "warning" in lines[0], lines
    assert json.loads(r.stdout)["stats"]["fingerprinted"] == 2
    assert (tmp_path / "c.sqlite.broken").exists()
    r = cli("scan", str(tmp_path / "d"), "--cache", str(cache), "--format", "json")
    assert r.returncode == 0 and warning_lines(r.stderr) == []
    assert json.loads(r.stdout)["stats"]["cached"] == 3
    r = cli("cache", "info", "--cache", str(cache))
    assert r.returncode == 0 and b"3 cached fingerprints" in r.stdout


def test_corrupt_cache_in_a_read_only_folder_is_ignored(tmp_path, monkeypatch):
    write_files(tmp_path / "d")
    cdir = tmp_path / "cdir"
    cdir.mkdir()
    cache = cdir / "c.sqlite"
    cache.write_bytes(b"not a database" * 100)
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, m, *a, **k: False if (
        m & os.W_OK and os.path.abspath(p).startswith(str(cdir))) else real(p, m, *a, **k))
    res = scan([str(tmp_path / "d")], options(cache))
    assert res.stats["fingerprinted"] == 2
    assert [p.kind for p in res.problems if p.kind == "cache"] == ["cache"]
    assert cache.read_bytes() == b"not a database" * 100


def test_cache_of_an_older_schema_is_dropped_quietly(tmp_path):
    cache = tmp_path / "c.sqlite"
    db = sqlite3.connect(cache)
    db.execute("CREATE TABLE files (path TEXT NOT NULL, version TEXT NOT NULL, size INTEGER, "
               "PRIMARY KEY (path, version))")
    db.execute("CREATE TABLE pairs (a TEXT NOT NULL, b TEXT NOT NULL, j REAL NOT NULL, "
               "PRIMARY KEY (a, b))")
    db.execute("INSERT INTO files VALUES ('/x', 'v', 3)")
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION - 1}")
    db.commit()
    db.close()
    write_files(tmp_path / "d")
    first = scan([str(tmp_path / "d")], options(cache))
    assert [p.kind for p in first.problems] == ["binary"]  # an upgrade is no warning
    assert not (tmp_path / "c.sqlite.broken").exists()
    assert scan([str(tmp_path / "d")], options(cache)).stats["cached"] == 3
