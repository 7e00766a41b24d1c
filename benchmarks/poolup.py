"""From a command's start to its pool up, with the fork server started by multiprocessing (a
new interpreter) and forked from the command (poolctx._fork_server), alternating:
``python benchmarks/poolup.py N [CHECKOUT]``.

Each run is a fresh interpreter doing what ``simdup scan`` does before its first chunk:
one BLAS thread, the fork server's early start (``prestart(fork=...)``), the command's own
imports meanwhile, then a pool of two workers made ready (``warm_worker``) and one task on
it. Prints, for each way, the minimum and median wall time to that point and the CPU time
of all its processes (the server and the workers too, to their end: this process is made
subreaper and waits for them). One unmeasured round first; the checkout's modules are
compiled to bytecode (coldscan.bytecode). Linux only.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coldscan  # noqa: E402

CODE = """
import sys, time
t = time.perf_counter()
import simdup_gui._blas
from simdup_gui.core.scan import poolctx
poolctx.prestart(fork=sys.argv[1] == "fork")
import simdup_gui.core.session, simdup_gui.cli.scan_cmd  # what the command imports meanwhile
from simdup_gui.core.scan.fingerprint import warm_worker
pool = poolctx.make_pool(2, warm_worker)
pool.map(abs, [1, 2])
print(time.perf_counter() - t)
pool.terminate(); pool.join(); poolctx.stop()
"""


def once(way: str, checkout: str) -> tuple[float, float]:
    before = coldscan._children_cpu()
    out = subprocess.run([sys.executable, "-c", CODE, way], capture_output=True, text=True,
                         cwd=checkout, env=coldscan.checkout_env(checkout), check=True)
    coldscan._reap_all()  # the server and the workers, reparented here
    return float(out.stdout.split()[0]), coldscan._children_cpu() - before


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    n = int(sys.argv[1])
    checkout = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else coldscan.REPO)
    if not coldscan._subreaper():
        raise SystemExit("needs Linux (prctl PR_SET_CHILD_SUBREAPER) to count the workers' CPU")
    coldscan.bytecode(checkout)
    runs: dict[str, list[tuple[float, float]]] = {"exec": [], "fork": []}
    for i in range(n + 1):
        for way in runs:
            r = once(way, checkout)
            if i:
                runs[way].append(r)
    for way, rs in runs.items():
        wall, cpu = [r[0] for r in rs], [r[1] for r in rs]
        print(f"{way}: pool up, wall min {min(wall):.3f} median {statistics.median(wall):.3f} s;"
              f" CPU of all its processes min {min(cpu):.3f} median {statistics.median(cpu):.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
