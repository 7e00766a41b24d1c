"""Modules planted in the folder a scan is run from are never imported by its processes.

multiprocessing starts the fork server, its resource tracker and spawned workers with
``python -c``, which puts the working directory first on sys.path. A user who scans from a
folder another account can write to (a shared folder, downloads) ran what that account
planted there as ``multiprocessing`` or ``numpy``. These tests plant such modules, each of
which leaves a file behind when imported, and run real pools and a real scan there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
PLANTED = ("multiprocessing/__init__.py", "numpy.py", "numba.py", "simdup_gui/__init__.py",
           "rjieba.py")


def _plant(folder, marks) -> None:
    """Each planted module writes a file into ``marks`` when imported, then fails."""
    for name in PLANTED:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"import os\nopen(os.path.join({str(marks)!r}, {name.replace('/', '.')!r}"
                        " + '.' + str(os.getpid())), 'w').close()\n"
                        "raise ImportError('planted')\n", encoding="utf-8")


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONSAFEPATH", "PYTHONPATH")}
    env["PYTHONPATH"] = REPO  # (what the installed command finds, never the folder)
    return env


POOLS = textwrap.dedent("""
    import multiprocessing as mp, os, sys
    from simdup_gui.core.scan import poolctx

    def main():
        for ctx in (None, mp.get_context("spawn")):
            pool = poolctx.make_pool(2, ctx=ctx)
            try:
                for k in range(2):
                    pool.submit(os.getpid)
                got = []
                while len(got) < 2:
                    got += pool.wait(60)
                assert all(d.error is None for d in got), got
                print(sorted(d.value for d in got) == sorted(pool.pids()))
            finally:
                pool.end()
        print(os.environ.get("PYTHONSAFEPATH"))

    if __name__ == "__main__":
        main()
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server: Linux")
def test_pools_started_from_a_folder_with_planted_modules_import_none_of_them(tmp_path):
    """A fork server's pool and a spawned pool, started from a folder holding a planted
    ``multiprocessing`` package and ``numpy``, ``numba``, ``rjieba`` and ``simdup_gui``:
    both answer from their own workers, nothing planted was imported, and PYTHONSAFEPATH
    is not left set in the caller's environment."""
    marks, out = _run_planted(tmp_path, POOLS, timeout=300)
    assert marks == [], out and out.stderr[-2000:]
    assert out is not None and out.returncode == 0, out and out.stderr[-2000:]
    assert out.stdout.split() == ["True", "True", "None"]


@pytest.mark.parametrize("where", [
    ["--workers", "2"], pytest.param(["--scheduler", "local:1"], marks=pytest.mark.slow)])
def test_a_scan_run_from_a_folder_with_planted_modules_imports_none_of_them(tmp_path, where):
    """``simdup scan`` (as its installed script runs it) from a folder with planted
    modules, over enough text to use worker processes (this machine's, or a local Dask
    cluster's): the same groups as from elsewhere, and nothing planted was imported."""
    here, marks, data = tmp_path / "shared", tmp_path / "marks", tmp_path / "shared" / "data"
    data.mkdir(parents=True)
    marks.mkdir()
    _plant(here, marks)
    for k in range(6):  # 6 x 1 MB: past the size a scan fingerprints without its pool
        text = " ".join(f"t{k}x{i * 7919 % 1009}" for i in range(110_000))
        (data / f"f{k}.txt").write_text(text, encoding="utf-8")
        (data / f"f{k}-copy.txt").write_text(text + " edited", encoding="utf-8")
    script = tmp_path / "simdup.py"
    script.write_text("import sys\nfrom simdup_gui.cli import main\n"
                      "if __name__ == '__main__':\n    sys.exit(main())\n", encoding="utf-8")
    env = {**_env(), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, str(script), "scan", str(data), "--no-cache",
                            "--format", "json", *where], cwd=cwd, env=env,
                           capture_output=True, text=True, timeout=600)
            for cwd in (here, tmp_path)]
    assert sorted(os.listdir(marks)) == [], runs[0].stderr[-2000:]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr[-2000:]
    groups = [sorted(sorted(f["path"] for f in g["files"]) for g in json.loads(r.stdout)
                     ["groups"]) for r in runs]
    assert groups[0] == groups[1] and len(groups[0]) == 6


def _run_planted(tmp_path, source: str, timeout: float = 120, args=()):
    """Run ``source`` (a script kept outside the folder) from a folder with planted
    modules; the marks left behind, and the run (None when it had to be stopped)."""
    here, marks = tmp_path / "shared", tmp_path / "marks"
    here.mkdir()
    marks.mkdir()
    _plant(here, marks)
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(source), encoding="utf-8")
    try:
        out = subprocess.run([sys.executable, str(script), *args], cwd=here, env=_env(),
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:  # (a spawn Pool whose workers die starts others forever)
        out = None
    return sorted(os.listdir(marks)), out


LOAD = """
    import os
    from simdup_gui.core.review.export import save_results
    from simdup_gui.core.review.process_load import load_results_in_process
    from simdup_gui.core.review.results import Results

    if __name__ == "__main__":
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "r.json")
        save_results(Results([], [], [], {}), path)
        res = load_results_in_process(path)
        print(len(res.records), os.environ.get("PYTHONSAFEPATH"))
"""


def test_results_loaded_in_a_child_process_import_nothing_planted(tmp_path):
    """The app's File > Open results (a file over 512 KB) loads it in a spawned child
    (review.process_load): started from a folder with planted modules, nothing planted is
    imported, by the child or the resource tracker it starts."""
    marks, out = _run_planted(tmp_path, LOAD)
    assert marks == [], out and out.stderr[-2000:]
    assert out is not None and out.returncode == 0, out and out.stderr[-2000:]
    assert out.stdout.split() == ["0", "None"]


LAB = """
    import os
    from simdup_gui.core.lab import reference

    if __name__ == "__main__":
        reference.PARALLEL_CHARS = 0  # the pool even for a little text
        reference.SHINGLE_CHUNK = 2
        sets = reference.shingle_sets([f"text {k} " * 50 for k in range(8)], workers=2)
        print(len(sets), os.environ.get("PYTHONSAFEPATH"))
"""


def test_the_labs_shingling_pool_imports_nothing_planted(tmp_path):
    """The accuracy lab's spawn Pool (lab.reference.shingle_sets, also simdup synth):
    started from a folder with planted modules, nothing planted is imported."""
    marks, out = _run_planted(tmp_path, LAB, timeout=90)
    assert marks == [], out and out.stderr[-2000:]
    assert out is not None and out.returncode == 0, out and out.stderr[-2000:]
    assert out.stdout.split() == ["8", "None"]


DASK = """
    import os, signal, subprocess, sys, time
    from simdup_gui.core.scan.distributed import Cluster

    def kids():
        found = {}
        for p in subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True,
                                text=True).stdout.split():
            try:
                found[int(p)] = open(f"/proc/{p}/cmdline").read()
            except OSError:
                pass
        return found

    if __name__ == "__main__":
        held = Cluster("local:1")  # as a scan with --scheduler local:1 makes it
        cluster = held.cluster
        first = kids()
        if sys.argv[1] == "tracker":  # died (killed, out of memory) before the worker did
            for p, c in first.items():
                if "resource_tracker" in c:
                    os.kill(p, signal.SIGKILL)
            time.sleep(0.5)
        for p, c in first.items():
            if "spawn_main" in c:
                os.kill(p, signal.SIGKILL)
        for _ in range(60):  # the nanny starts another worker
            time.sleep(1)
            if any("spawn_main" in c and p not in first for p, c in kids().items()) \\
                    and len(cluster.scheduler_info["workers"]) == 1:
                break
        time.sleep(1)
        workers, during = len(cluster.scheduler_info["workers"]), os.environ.get("PYTHONSAFEPATH")
        held.close()
        print(workers, during, os.environ.get("PYTHONSAFEPATH"))
"""


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pgrep, /proc")
@pytest.mark.parametrize("dead", ["worker", "tracker"])
def test_a_local_dask_worker_started_again_imports_nothing_planted(tmp_path, dead):
    """A local Dask cluster's worker killed: its nanny starts another (and, when the
    resource tracker died before, the nanny's queues start another tracker): nothing
    planted in the folder is imported; PYTHONSAFEPATH is held while the cluster runs and
    not left set once it is closed."""
    pytest.importorskip("distributed")
    marks, out = _run_planted(tmp_path, DASK, timeout=180, args=[dead])
    assert marks == [], out and out.stderr[-2000:]
    assert out is not None and out.returncode == 0, out and out.stderr[-2000:]
    assert out.stdout.split() == ["1", "1", "None"]
