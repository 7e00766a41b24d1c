"""Throughput of a cold scan on a Dask cluster against the local process pool, same corpus,
same run, alternating.

    python3 benchmarks/dask_scan.py CORPUS [--rounds 3]

CORPUS is any folder (for example the one `python3 benchmarks/devcorpus.py /tmp/devcorpus`
builds). Each round times, in turn: the local pool with 1 and 2 processes, and a Dask
LocalCluster with 1 and 2 worker processes (started before the clock, as a standing cluster
would be; its start-up is printed apart). The scan is `scan(..., use_cache=False)`: walk,
decode, features, fingerprints and sketches, whole corpus; records are checked equal.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from simdup_gui.core.scan.pipeline import ScanOptions, scan  # noqa: E402


def timed(root: str, opts: ScanOptions) -> tuple[float, list]:
    t = time.perf_counter()
    res = scan([root], opts)
    return time.perf_counter() - t, res.records


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from distributed import Client, LocalCluster

    clusters = {}
    for n in (1, 2):
        t = time.perf_counter()
        lc = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          dashboard_address=":0")
        Client(lc).close()
        clusters[n] = lc
        print(f"LocalCluster with {n} workers started in {time.perf_counter() - t:.1f} s")
    runs = {"local pool, 1 process": ScanOptions(workers=1, use_cache=False),
            "local pool, 2 processes": ScanOptions(workers=2, use_cache=False)}
    for n, lc in clusters.items():
        runs[f"dask, {n} worker{'s' if n > 1 else ''}"] = ScanOptions(
            use_cache=False, scheduler=lc.scheduler_address)
    times: dict[str, list[float]] = {k: [] for k in runs}
    reference = None
    for _ in range(args.rounds):
        for name, opts in runs.items():
            sec, records = timed(args.root, opts)
            times[name].append(sec)
            dicts = [r.to_dict() for r in records]
            if reference is None:
                reference = dicts
            elif dicts != reference:
                print(f"records differ in {name}!")
                return 1
    n_files = len(reference or [])
    mb = sum(r["size"] for r in reference or []) / 1e6
    print(f"{n_files} files, {mb:.1f} MB, {args.rounds} rounds, records identical in every run")
    base = statistics.median(times["local pool, 2 processes"])
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"  {name:<24s} median {med:6.2f} s (range {min(ts):.2f}-{max(ts):.2f})  "
              f"{n_files / med:7.0f} files/s  {mb / med:5.2f} MB/s  "
              f"x{base / med:.2f} of the local 2-process pool")
    for lc in clusters.values():
        lc.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
