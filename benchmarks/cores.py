"""How many cores a cold scan keeps busy, step by step: where a core waits.

    python3 benchmarks/cores.py ROOT [--interval 0.5] [--repo CHECKOUT]

Runs ``python3 -m simdup_gui.cli scan ROOT --no-cache --format json -o TMP --phase-times``
(from CHECKOUT, default this one) and reads the CPU time of each of its processes from
/proc (``stat``, the scan and every descendant: fork server, workers) every ``--interval``
seconds. Prints, for each interval, the cores busy in all and per process, with the phases
(the scan's ``simdup: phase`` lines) where they begin; then each phase's wall time and mean
cores busy, and the stretches in which at most one core was busy. Linux only. Nothing is
asserted; docs/performance.md quotes it with the command.
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (/proc/PID/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except OSError:
            pass
    return out


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` so far (None: gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--interval", type=float, default=0.5)
    ap.add_argument("--repo", default=os.path.dirname(HERE))
    args = ap.parse_args()
    out = os.path.join(tempfile.mkdtemp(prefix="simdup-cores-"), "r.json")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(args.repo))
    cmd = [sys.executable, "-m", "simdup_gui.cli", "scan", args.root, "--no-cache",
           "--format", "json", "-o", out, "--phase-times"]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env, cwd=args.repo)
    phases: list[tuple[float, str]] = []

    def read_phases() -> None:
        for line in proc.stderr:
            if line.startswith("simdup: phase "):
                phases.append((time.monotonic() - t0, line.split()[2]))

    reader = threading.Thread(target=read_phases, daemon=True)
    reader.start()
    seen: dict[int, float] = {}
    samples: list[tuple[float, dict[int, float]]] = []
    while proc.poll() is None:
        for pid in descendants(proc.pid):
            c = cpu_seconds(pid)
            if c is not None:
                seen[pid] = c
        samples.append((time.monotonic() - t0, dict(seen)))
        time.sleep(args.interval)
    reader.join(5)
    rows = []  # (end time, cores in all, {pid: cores})
    for (ta, a), (tb, b) in itertools.pairwise(samples):
        per = {p: (b[p] - a.get(p, 0.0)) / (tb - ta) for p in b if b[p] > a.get(p, 0.0)}
        rows.append((tb, sum(per.values()), per))
    at = 0
    for t, total, per in rows:
        while at < len(phases) and phases[at][0] <= t:
            print(f"--- {phases[at][1]} at {phases[at][0]:.1f} s")
            at += 1
        print(f"{t:7.1f} s  cores {total:4.2f}  " +
              " ".join(f"{p}:{v:.2f}" for p, v in sorted(per.items())))
    print(f"\nexit {proc.returncode}, {rows[-1][0] if rows else 0:.1f} s")
    bounds = phases + [(rows[-1][0] if rows else 0.0, "end")]
    for (ta, name), (tb, _) in itertools.pairwise(bounds):
        inside = [c for t, c, _ in rows if ta < t <= tb]
        if inside:
            print(f"{name:12s} {tb - ta:6.1f} s  mean cores {sum(inside) / len(inside):.2f}")
    lone, start = 0.0, None
    for (_, total, _), prev in zip(rows, [0.0, *[r[0] for r in rows]], strict=False):
        if total <= 1.1:
            start = prev if start is None else start
        elif start is not None:
            print(f"at most one core busy: {start:.1f}-{prev:.1f} s")
            lone += prev - start
            start = None
    print(f"at most one core busy in all: {lone:.1f} s")
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())
