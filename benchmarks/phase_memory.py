"""The scan's main-process memory by phase: one cold `simdup scan TREE --no-cache
--phase-times` of this checkout, its RSS (and the process tree's summed PSS) sampled every
0.5 s and set against the phases the scan prints on stderr. Shows which step holds the peak,
and each process's PSS at the process tree's summed peak (main, fork server, workers).

    python3 benchmarks/phase_memory.py TREE [--interval 0.5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import coldscan  # noqa: E402 - tree(), pss_kb()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree")
    ap.add_argument("--interval", type=float, default=0.5)
    ap.add_argument("--out", default=os.path.join(os.path.expanduser("~"), "phase_memory.json"))
    a = ap.parse_args()
    cmd = [sys.executable, "-m", "simdup_gui.cli", "scan", a.tree, "--no-cache", "--format",
           "json", "-o", a.out, "--phase-times"]
    t0 = time.time()
    repo = os.path.dirname(HERE)  # its modules first on the path: the workers' too (the
    # fork server does not look in the working folder, poolctx.safe_path)
    p = subprocess.Popen(cmd, cwd=repo, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "PYTHONPATH": repo})
    phases: list[tuple[float, str]] = []

    def read() -> None:
        for line in p.stderr:
            if line.startswith("simdup: phase "):
                _, _, name, t = line.split()
                phases.append((float(t) - t0, name))

    threading.Thread(target=read, daemon=True).start()
    samples = []
    widest: tuple[float, float, list] = (0.0, 0.0, [])  # (time, summed PSS, each process's)
    while p.poll() is None:
        rss = coldscan.pss_kb(p.pid)[1] / 1024
        each = [(x, coldscan.pss_kb(x)[0] / 1024) for x in coldscan.tree(p.pid)]
        pss = sum(m for _, m in each)
        # (named now: by the end they have ended)
        samples.append((time.time() - t0, rss, pss, [(_name(x), m) for x, m in each]))
        if pss > widest[1]:
            widest = (samples[-1][0], pss, samples[-1][3])
        time.sleep(a.interval)
    time.sleep(0.2)
    bounds = phases + [(float("inf"), "")]
    for (start, name), (end, _) in zip(bounds, bounds[1:]):
        inside = [s for s in samples if start <= s[0] < end]
        peak = max((s[1] for s in inside), default=0.0)
        tree = max((s[2] for s in inside), default=0.0)
        print(f"{start:8.1f} s  {name:12s} main RSS max {peak:7.0f} MB, "
              f"process tree PSS max {tree:7.0f} MB")
        if inside:  # who holds the phase's peak
            print("              " + ", ".join(
                f"{who.split()[-1] if who.endswith(('simdup', 'tracker')) else 'f.s./worker'} "
                f"{m:.0f}" for who, m in max(inside, key=lambda s: s[2])[3] if m >= 1))
    if samples:
        top = max(samples, key=lambda s: s[1])
        print(f"main RSS peak {top[1]:.0f} MB at {top[0]:.1f} s; process tree PSS peak "
              f"{max(s[2] for s in samples):.0f} MB; exit {p.returncode}")
        print(f"at the process tree's peak ({widest[0]:.1f} s), PSS by process: "
              + ", ".join(f"{name} {m:.0f} MB" for name, m in widest[2]))
    return 0 if p.returncode in (0, 1) else p.returncode


def _name(pid: int) -> str:
    """The scan's (``simdup``), multiprocessing's fork server, resource tracker, a worker."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            cmd = fh.read().decode(errors="replace")
    except OSError:
        return f"{pid} (ended)"
    for mark, name in (("forkserver", "fork server or a worker"),
                       ("resource_tracker", "resource tracker"), ("simdup_gui.cli", "simdup")):
        if mark in cmd:
            return f"{pid} {name}"
    return str(pid)


if __name__ == "__main__":
    raise SystemExit(main())
