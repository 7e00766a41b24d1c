"""Warm rescan: files/s of a scan whose every file is already in the cache.

    python3 benchmarks/warm_rescan.py FOLDER [--rounds 3] [--cache FILE]

The first scan fills a fresh cache (timed too, as the cold figure); then each round times
`scan()` in this process (walk, stat, cache look-up: what a rescan costs; wall and this
process's CPU time, which a busy machine disturbs less) and, with
--group, the grouping of the records with the cache's pair table.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from simdup_gui.core.group.cluster import group_records  # noqa: E402
from simdup_gui.core.scan.pipeline import ScanOptions, scan  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cache", default=None)
    ap.add_argument("--group", action="store_true",
                    help="also time grouping the records (needs realistic text: a folder of "
                    "near-identical texts makes every pair a candidate)")
    args = ap.parse_args()
    cache = args.cache or os.path.join(tempfile.mkdtemp(prefix="simdup-warm-"), "c.sqlite")
    opts = ScanOptions(workers=2, cache_path=cache)
    t = time.perf_counter()
    first = scan([args.root], opts)
    cold = time.perf_counter() - t
    n = len(first.records)
    print(f"{n:,} files; first scan (fills the cache, {first.stats['cached']:,} were cached "
          f"already): {cold:.1f} s, {n / cold:,.0f} files/s")
    walls, cpus = [], []
    for _ in range(args.rounds):
        t = time.perf_counter()
        cpu = time.process_time()
        res = scan([args.root], opts)
        sec = time.perf_counter() - t
        cpu = time.process_time() - cpu
        walls.append(sec)
        cpus.append(cpu)
        assert res.stats["cached"] == n and res.stats["fingerprinted"] == 0, res.stats
        line = (f"  warm rescan {sec:.2f} s = {n / sec:,.0f} files/s "
                f"({cpu:.2f} CPU s = {n / cpu:,.0f} files per CPU second)")
        if args.group:
            t = time.perf_counter()
            groups, _ = group_records(res.records, 64, 16, cache_path=cache)
            line += f"; grouping {time.perf_counter() - t:.2f} s ({len(groups):,} groups)"
        print(line)
    if walls:
        cpus.sort()
        print(f"best of {len(walls)}: {min(walls):.2f} s = {n / min(walls):,.0f} files/s; "
              f"CPU min {cpus[0]:.2f} s, median {cpus[len(cpus) // 2]:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
