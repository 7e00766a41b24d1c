"""The command line's fork server forked from its own process (poolctx._fork_server), not
started as a new interpreter: it holds none of the caller's other descriptors, never
writes the caller's buffered output again, ends when the caller dies, is not forked from a
process with threads, and gives the same records as a server multiprocessing starts. Each
case runs in a fresh interpreter: a fork needs a process with one thread."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import EN, ZH, signal_in_mask

pytestmark = pytest.mark.skipif(
    not os.path.isdir("/proc/self/fd") or "forkserver" not in mp.get_all_start_methods(),
    reason="needs Linux's /proc and a fork server")

_HEAD = """
import json, os, sys
import simdup_gui._blas  # as the command line does: numpy then starts no BLAS thread
from multiprocessing import forkserver, resource_tracker
from simdup_gui.core.scan import poolctx

def server():
    return forkserver._forkserver._forkserver_pid

def forked(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as a, open("/proc/self/cmdline", "rb") as b:
        return a.read() == b.read()

def blocked(pid, sig):
    from tests.conftest import signal_in_mask
    return signal_in_mask(pid, "SigBlk", sig)
"""


def _run(code: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # stdout buffered
    return subprocess.run([sys.executable, "-c", _HEAD + code, *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def _links(pid: int) -> dict[int, str]:
    out = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            out[int(fd)] = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            pass
    return out


def test_the_server_is_a_fork_that_holds_none_of_the_callers_descriptors(tmp_path):
    """Open in the caller when it forks: a file and the resource tracker's pipe. The server
    keeps only its socket, its "alive" pipe and what it opens itself (as a server that
    multiprocessing starts through exec does), and takes no Ctrl-C."""
    (tmp_path / "held.txt").write_text("x")
    r = _run("""
stray = os.open(sys.argv[1], os.O_RDONLY)
assert poolctx.prestart(fork=True)
pid = server()
pool = poolctx.make_pool(1)
assert pool.map(abs, [-3, 4]) == [3, 4]   # warmed up: it forks workers
links = {int(f): os.readlink(f"/proc/{pid}/fd/{f}") for f in os.listdir(f"/proc/{pid}/fd")}
tracker = os.readlink(f"/proc/self/fd/{resource_tracker._resource_tracker._fd}")
mine = os.readlink(f"/proc/self/fd/{stray}")
print(json.dumps({"forked": forked(pid), "links": list(links.values()), "tracker": tracker,
                  "sigint_blocked": blocked(pid, 2), "mine": mine}))
pool.terminate(); pool.join(); poolctx.stop()
""", str(tmp_path / "held.txt"))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["forked"]
    assert out["mine"].endswith("held.txt")
    assert not any(link.endswith("held.txt") for link in out["links"]), out["links"]
    assert out["tracker"] not in out["links"]
    assert any(link.startswith("socket:") for link in out["links"])
    assert out["sigint_blocked"]


def test_output_buffered_before_the_fork_is_written_once():
    """stdout to a pipe is block-buffered: a line not yet flushed when the server is forked
    would sit in the server's copy of the buffer, and in every worker's, and come out again
    when a worker flushes its own output."""
    r = _run("""
import functools
sys.stdout.write("before the fork\\n")   # buffered, not flushed
assert poolctx.prestart(fork=True) and forked(server())
pool = poolctx.make_pool(2)
pool.map(functools.partial(print, flush=True), ["from a worker"] * 4)
pool.terminate(); pool.join(); poolctx.stop()
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("before the fork") == 1, r.stdout
    assert r.stdout.count("from a worker") == 4, r.stdout


def test_no_fork_from_a_process_with_threads():
    """A thread (the app's, Qt's, OpenBLAS's) may hold a lock that a fork would copy held:
    multiprocessing then starts its own server, as without the request."""
    r = _run("""
import threading
stop = threading.Event()
threading.Thread(target=stop.wait, daemon=True).start()
assert poolctx.prestart(fork=True)
pid = server()
pool = poolctx.make_pool(1)
assert pool.map(abs, [-1]) == [1]  # the server is up (and its command line its own)
with open(f"/proc/{pid}/cmdline", "rb") as fh:
    cmd = fh.read()
print(json.dumps({"forked": forked(pid), "multiprocessing": b"forkserver" in cmd}))
pool.terminate(); pool.join(); stop.set(); poolctx.stop()
""")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"forked": False, "multiprocessing": True}


def _dead(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except OSError:
        return True


def test_the_server_ends_when_its_caller_dies():
    """The caller dies without a word (killed): its end of the "alive" pipe closes, and the
    server (whose copy of that end was closed in the fork) leaves, its workers too."""
    r = _run("""
assert poolctx.prestart(fork=True)
pid = server()
pool = poolctx.make_pool(2)
assert pool.map(abs, [-1, -2]) == [1, 2]
print(json.dumps({"forked": forked(pid), "server": pid,
                  "workers": [p.pid for p in pool._pool]}), flush=True)
os.kill(os.getpid(), 9)
""", timeout=300)  # (a server that never ends holds the output pipe: then this raises)
    assert r.returncode == -signal.SIGKILL, r.stderr
    out = json.loads(r.stdout)
    assert out["forked"]
    pids = [out["server"], *out["workers"]]
    deadline = time.monotonic() + 120  # a hang guard, not a measure of speed
    while not all(map(_dead, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(map(_dead, pids)), [p for p in pids if not _dead(p)]


def test_records_from_a_forked_server_equal_those_from_a_started_one(tmp_path):
    """The same scan (Chinese, English, GBK, UTF-16) on the pool, once with the server
    forked from the scanning process and once started by multiprocessing: the same
    records, field for field."""
    root = tmp_path / "files"
    root.mkdir()
    for i in range(12):
        (root / f"zh{i}.txt").write_text(ZH * (3 + i) + f" 第{i}版", encoding="utf-8")
        (root / f"en{i}.txt").write_text(EN * (2 + i) + f" edition {i}", encoding="utf-8")
    (root / "gbk.txt").write_bytes((ZH * 4).encode("gbk"))
    (root / "utf16.txt").write_bytes((EN * 3 + ZH).encode("utf-16"))
    code = """
from simdup_gui.core.scan import pipeline
from simdup_gui.core.scan.pipeline import ScanOptions, scan
pipeline.IN_PROCESS_BELOW = 0   # a pooled scan, however small
fork = sys.argv[2] == "fork"
assert poolctx.prestart(fork=fork)
res = scan([sys.argv[1]], ScanOptions(use_cache=False, workers=2))
was_forked = forked(server())  # (after the scan: a started server has its own by then)
recs = sorted((r.path, r.encoding, r.fingerprint, r.sketch.hex(), r.text_hash, r.content_hash,
               r.features, r.chars, r.shingles) for r in res.records)
print(json.dumps({"forked": was_forked, "records": recs, "problems": len(res.problems)}))
poolctx.stop()
"""
    a = _run(code, str(root), "fork")
    b = _run(code, str(root), "start")
    assert a.returncode == 0, a.stderr
    assert b.returncode == 0, b.stderr
    fa, fb = json.loads(a.stdout), json.loads(b.stdout)
    assert fa["forked"] and not fb["forked"]
    assert len(fa["records"]) == 26 and fa["problems"] == 0
    assert fa["records"] == fb["records"]


def _lock_held(_: int) -> bool:
    """In a pool worker: whether the fork server's lock is held (a worker that started a
    server of its own would wait on it for ever)."""
    from multiprocessing import forkserver

    return forkserver._forkserver._lock.locked()


def _caught(pid: int, sig: int) -> bool:
    return signal_in_mask(pid, "SigCgt", sig)


def test_the_fork_leaves_behind_the_callers_lock_handlers_and_high_descriptors(tmp_path):
    """What the fork copies that a new interpreter would not have: the fork server's lock
    (held by the caller while it forks), the caller's Python signal handlers (here one for
    SIGTERM), a descriptor above the limit on open files (not reached by counting up to
    that limit)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2050:
        pytest.skip("needs a limit on open files above 2048")
    (tmp_path / "high.txt").write_text("x")
    r = _run("""
import resource, signal
from tests.core.scan.test_forked_server import _caught, _lock_held
signal.signal(signal.SIGTERM, lambda *a: None)
high = os.open(sys.argv[1], os.O_RDONLY)
os.dup2(high, 2049)
os.close(high)
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))   # 2049 stays open, above it
assert poolctx.prestart(fork=True)
pid = server()
pool = poolctx.make_pool(2)
held = pool.map(_lock_held, range(4))
links = [os.readlink(f"/proc/{pid}/fd/{f}") for f in os.listdir(f"/proc/{pid}/fd")]
print(json.dumps({"forked": forked(pid), "held": held, "links": links,
                  "term": _caught(pid, signal.SIGTERM), "mine": _caught(os.getpid(), 15)}))
pool.terminate(); pool.join(); poolctx.stop()
""", str(tmp_path / "high.txt"))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["forked"] and out["mine"]
    assert out["held"] == [False] * 4
    assert not out["term"]
    assert not any(link.endswith("high.txt") for link in out["links"]), out["links"]


def test_an_interrupted_import_before_the_fork_reaches_the_caller():
    """numpy's import, cut short by a Ctrl-C, raises an ImportError in its place (the
    command line then says "interrupted"): prestart lets it through rather than taking it
    for a server that could not start, after which the command would import numpy again."""
    r = _run("""
import importlib
def cut_short(name, *a):
    raise ImportError("numpy's import was interrupted")
poolctx.importlib.import_module = cut_short
try:
    poolctx.prestart(fork=True)
except ImportError as e:
    print(json.dumps({"raised": str(e), "server": server()}))
""")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"raised": "numpy's import was interrupted", "server": None}
