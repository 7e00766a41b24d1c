"""numpy's OpenBLAS starts a spinning thread per core at import; the scan's processes run in
parallel by processes and need none of them. Importing simdup_gui first keeps it to one
thread (an explicit setting of the user's stands). Fresh interpreters: this one imported
numpy long ago."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc")

_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_COUNT = ("import os, sys; print(len(os.listdir('/proc/self/task')), "
          "os.environ.get('OPENBLAS_NUM_THREADS'))")


def _run(code: str, **env: str) -> tuple[int, str]:
    base = {k: v for k, v in os.environ.items() if k not in _VARS}
    out = subprocess.run([sys.executable, "-c", code + "; " + _COUNT], env={**base, **env},
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), out[1]


def test_the_engine_imports_numpy_with_one_blas_thread():
    threads, setting = _run("import simdup_gui.core.scan.features, numpy")
    assert (threads, setting) == (1, "1")


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="OpenBLAS starts one thread on one core")
def test_without_it_numpy_starts_more():  # what the setting is for: the check above can fail
    threads, _ = _run("import numpy; numpy.ones((64, 64)) @ numpy.ones((64, 64))")
    assert threads > 1


def test_the_users_setting_stands():
    _, setting = _run("import simdup_gui, numpy", OPENBLAS_NUM_THREADS="2")
    assert setting == "2"
