"""numpy's OpenBLAS starts a spinning thread per core at import; the scan's processes run in
parallel by processes and need none of them. The command line and the fork server ask for
one thread (simdup_gui._blas) before they import numpy, unless the user set a number; the
package itself leaves a library user's process alone. Fresh interpreters: this one
imported numpy long ago."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc")

_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_COUNT = ("import os, sys; print(len(os.listdir('/proc/self/task')), "
          "os.environ.get('OPENBLAS_NUM_THREADS'))")
_MANY = (os.cpu_count() or 1) >= 2  # OpenBLAS starts one thread on one core


def _run(code: str, **env: str) -> tuple[int, str]:
    base = {k: v for k, v in os.environ.items() if k not in _VARS}
    out = subprocess.run([sys.executable, "-c", code + "; " + _COUNT], env={**base, **env},
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), out[1]


def test_the_command_line_imports_numpy_with_one_blas_thread():
    threads, setting = _run("import simdup_gui.cli, simdup_gui.core.scan.features, numpy")
    assert (threads, setting) == (1, "1")
    assert _run("import simdup_gui.cli", OPENBLAS_NUM_THREADS="")[1] == "1"  # empty: unset


@pytest.mark.skipif(not _MANY, reason="one core")
def test_a_library_user_keeps_numpys_threads():  # and the check above can fail
    threads, setting = _run("import simdup_gui.core.scan.features, numpy; "
                            "numpy.ones((64, 64)) @ numpy.ones((64, 64))")
    assert threads > 1 and setting == "None"


def test_the_users_setting_stands():
    _, setting = _run("import simdup_gui.cli, numpy", OPENBLAS_NUM_THREADS="2")
    assert setting == "2"


_FORKSERVER = """
import os, time
from multiprocessing import forkserver
from simdup_gui.core.scan import poolctx
poolctx.pool_context()  # the preload: simdup_gui._blas, then the warm-up
# the server alone, no process forked from it (that would end OpenBLAS's threads): no public
# call does that, so this test reaches into multiprocessing as it does for the server's pid
forkserver.ensure_running()
pid = forkserver._forkserver._forkserver_pid
# its threads while it warms up, until its CPU time stops growing (OpenBLAS ends its
# threads before a fork, so no pool may fork from it meanwhile; until then they stay)
most, cpu, still, t0 = 0, -1, time.monotonic(), time.monotonic()
while time.monotonic() - t0 < 120:
    threads = len(os.listdir(f"/proc/{pid}/task"))
    most = max(most, threads)
    with open(f"/proc/{pid}/stat") as fh:
        now = sum(map(int, fh.read().rsplit(")", 1)[1].split()[11:13]))
    if now != cpu:
        cpu, still = now, time.monotonic()
    elif time.monotonic() - still > 1.0:
        break
    time.sleep(0.01)
print(threads, most <= 2, os.environ.get("OPENBLAS_NUM_THREADS"))
"""


@pytest.mark.skipif(not _MANY, reason="one core")
def test_the_fork_server_has_one_blas_thread_whoever_starts_it():
    """The app starts it without touching its own environment: the server asks for one
    thread itself, before its warm-up imports numpy. Warmed up, it has one thread (BLAS
    threads would stay until a fork); meanwhile at most one more, the warm-up's own
    (warm.py loads the tables on a thread while it imports numba, and waits for it)."""
    base = {k: v for k, v in os.environ.items() if k not in _VARS}
    out = subprocess.run([sys.executable, "-c", _FORKSERVER], env=base, capture_output=True,
                         text=True, check=True, timeout=600).stdout.split()
    assert out == ["1", "True", "None"]
