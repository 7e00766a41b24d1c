"""The fork server's warm-up alone, for two or more checkouts, alternating:
``python benchmarks/warmup.py N CHECKOUT...``.

Each round runs, once per checkout, a fresh interpreter that imports
``simdup_gui.core.scan.warm`` with the compiled kernels on: numpy, the engine, numba, the
tables, the kernels loaded from numba's cache. That is what a scan's fork server does before
the first worker can start (poolctx). Prints each checkout's minimum and median wall and
CPU seconds and its peak resident memory (what the workers forked from the server start
with). Each checkout's modules are compiled to bytecode first, and one unmeasured round
runs before the others (numba's cache of a checkout it has not seen is compiled then).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coldscan  # noqa: E402

CODE = ("import resource, time; t = time.perf_counter(); import simdup_gui.core.scan.warm; "
        "r = resource.getrusage(resource.RUSAGE_SELF); "
        "print(time.perf_counter() - t, r.ru_utime + r.ru_stime, r.ru_maxrss)")


def once(checkout: str) -> tuple[float, float, int]:
    env = {**coldscan.checkout_env(checkout), "SIMDUP_COMPILED": "1"}
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                         env=env, cwd=checkout, check=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2])


def main() -> int:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    n, dirs = int(sys.argv[1]), [os.path.abspath(d) for d in sys.argv[2:]]
    for d in dirs:
        coldscan.bytecode(d)
        once(d)
    res: dict[str, list[tuple[float, float, int]]] = {d: [] for d in dirs}
    for _ in range(n):
        for d in dirs:
            res[d].append(once(d))
    for d, v in res.items():
        wall = [a for a, _, _ in v]
        cpu = [b for _, b, _ in v]
        rss = [c for _, _, c in v]
        print(f"{d}: warm-up wall min {min(wall):.3f} median {statistics.median(wall):.3f} s; "
              f"CPU min {min(cpu):.3f} median {statistics.median(cpu):.3f} s; "
              f"peak RSS {min(rss) >> 10}-{max(rss) >> 10} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
