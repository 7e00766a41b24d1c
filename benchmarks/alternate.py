"""Cold scans of one folder by two or more checkouts, alternating, for a before/after that the
machine's drifting speed does not decide: ``python benchmarks/alternate.py ROOT N CHECKOUT...``
(for example ``. /tmp/worktree-of-an-older-commit``). Each round runs every checkout once
(coldscan.time_simdup: the whole ``simdup scan ROOT --no-cache --workers 2`` process, its
workers' CPU included); the summary gives each checkout's minimum and median wall and CPU
seconds. Each checkout's modules are compiled to bytecode first (coldscan.bytecode), and it
scans once unmeasured, with a cache folder of its own (coldscan.checkout_env). Linux only
(coldscan's child subreaper)."""

from __future__ import annotations

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coldscan  # noqa: E402


def main() -> int:
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    root, n, dirs = sys.argv[1], int(sys.argv[2]), [os.path.abspath(d) for d in sys.argv[3:]]
    if not coldscan._subreaper():
        raise SystemExit("needs Linux (prctl PR_SET_CHILD_SUBREAPER) to count the workers' CPU")
    for d in dirs:
        coldscan.bytecode(d)
        coldscan.time_simdup(root, 2, d)  # unmeasured: the checkout's caches (checkout_env)
    res: dict[str, list[tuple[float, float]]] = {d: [] for d in dirs}
    for i in range(n):
        for d in dirs:
            r = coldscan.time_simdup(root, 2, d)
            res[d].append((r["seconds"], r["cpu"]))
            print(f"{i} {d}: {r['seconds']:.3f} s {r['cpu']:.2f} CPU s", flush=True)
    for d, v in res.items():
        wall = [a for a, _ in v]
        cpu = [b for _, b in v]
        print(f"{d}: wall min {min(wall):.3f} median {statistics.median(wall):.3f} s; "
              f"CPU min {min(cpu):.2f} median {statistics.median(cpu):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
