"""Grouping at scale, with verification, at the shipped defaults; and the recall of the linear
candidate source against the loose-distance scan on a real corpus.

    python benchmarks/grouping.py --n 100000 1000000          # synthetic records, timed
    python benchmarks/grouping.py --corpus /tmp/devcorpus      # recall on real files
    python benchmarks/grouping.py --measure /tmp/mix400        # pairs read from the files

Synthetic records: half are originals (random 128-bit fingerprint, a bottom-128 sketch of a
random set of 300-20,000 shingles), half near copies of a random original (0-24 fingerprint
bits flipped, 50-100 % of the shingles kept and as many new ones added), as FileRecords, so
the timing is the whole of ``build_groups`` (index, candidate classes, sketch verification,
star groups) without reading files (no measurer). Memory: the process's peak resident size.

``--corpus``: scans the folder (no cache), then finds candidates both ways at each default
distance — every pair within k (the index's plan, a quadratic scan there) and the linear
source (SimHash within a tight k plus sketch LSH within k) — and verifies both at 0.7 from the
sketches; recall = verified pairs of the linear source / verified pairs of the scan.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402

from simdup_gui.core.defaults import DEFAULT_DISTANCE  # noqa: E402
from simdup_gui.core.models import FileRecord  # noqa: E402
from simdup_gui.core.textsim import EMPTY, SKETCH_K  # noqa: E402


def peak_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def bottom_k(rng, sizes: np.ndarray) -> np.ndarray:
    """(n, SKETCH_K) bottom-k sketches of random sets of ``sizes`` distinct 32-bit values:
    order statistics as cumulative exponential gaps."""
    out = np.empty((len(sizes), SKETCH_K), dtype=np.uint32)
    for s in range(0, len(sizes), 1 << 15):  # in slices: float64 gaps of a million rows are 1 GB
        sz = sizes[s : s + (1 << 15)]
        gaps = rng.exponential(1.0, (len(sz), SKETCH_K)) * (2.0**32 / sz[:, None])
        v = np.minimum(np.cumsum(gaps, axis=1), 2.0**32 - 2).astype(np.uint32)
        v[np.arange(SKETCH_K)[None, :] >= sz[:, None]] = EMPTY
        out[s : s + len(sz)] = v
    return out


def synthetic(n: int, seed: int = 7) -> list[FileRecord]:
    rng = np.random.default_rng(seed)
    m = n // 2
    sizes = rng.integers(300, 20_000, m).astype(np.float64)
    sk = bottom_k(rng, sizes)
    lo = rng.integers(0, 2**64, n, dtype=np.uint64)
    hi = rng.integers(0, 2**64, n, dtype=np.uint64)
    src = rng.integers(0, m, n - m)
    lo[m:], hi[m:] = lo[src], hi[src]
    flips = rng.integers(0, 25, n - m)
    for j in range(24):
        rows = np.flatnonzero(flips > j) + m
        pos = rng.integers(0, 64, rows.size).astype(np.uint64)
        lo[rows] ^= np.uint64(1) << pos
        pos = rng.integers(0, 64, rows.size).astype(np.uint64)
        hi[rows] ^= np.uint64(1) << pos
    keep = rng.uniform(0.5, 1.0, n - m)
    new = bottom_k(rng, sizes[src] * (1 - keep) + 1)  # the added shingles' own sketch
    base = sk[src].copy()
    base[rng.random(base.shape) > keep[:, None]] = EMPTY
    both = np.empty_like(base)
    for s in range(0, len(base), 1 << 15):
        both[s : s + (1 << 15)] = np.sort(np.concatenate(
            (base[s : s + (1 << 15)], new[s : s + (1 << 15)]), axis=1), axis=1)[:, :SKETCH_K]
    del base, new
    sketches = np.concatenate((sk, both))
    del sk, both
    shingles = np.concatenate((sizes, sizes[src])).astype(np.int64)
    recs = []
    raw = sketches.astype("<u4").tobytes()
    del sketches
    th = rng.integers(0, 2**63, n).tolist()
    lo_l, hi_l = lo.tolist(), hi.tolist()
    sh = shingles.tolist()
    for i in range(n):
        recs.append(FileRecord(f"/data/f{i // 1000:04d}/doc{i:07d}.txt", 6000, i, i, 1,
                               "/data", "utf-8", lo_l[i] | (hi_l[i] << 64), 500,
                               f"{th[i]:016x}", f"{th[i]:016x}", 0, "LF", False, 3000,
                               raw[i * 4 * SKETCH_K : (i + 1) * 4 * SKETCH_K], sh[i]))
    return recs


def timed(ns: list[int]) -> None:
    from simdup_gui.core.group.cluster import build_groups

    for n in ns:
        t = time.perf_counter()
        recs = synthetic(n)
        print(f"{n:,} synthetic records built in {time.perf_counter() - t:.1f} s "
              f"(peak {peak_mb():,.0f} MB so far)", flush=True)
        for bits in (64, 128):
            k = DEFAULT_DISTANCE[bits]
            t = time.perf_counter()
            groups, desc = build_groups(recs, bits, k)
            dt = time.perf_counter() - t
            print(f"  {bits} bits k={k}: {dt:.1f} s, {len(groups):,} groups; peak {peak_mb():,.0f} "
                  f"MB resident; {desc}", flush=True)
        del recs


def recall(corpus: str) -> None:
    from simdup_gui.core.group.candidates import candidate_pairs
    from simdup_gui.core.group.classes import fingerprint_words, text_classes as _classes
    from simdup_gui.core.group.measure import VerifyStats, verified_pairs
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    recs = scan([corpus], ScanOptions(use_cache=False)).records
    fps = fingerprint_words(recs)
    cls, members = _classes(recs)
    first = np.fromiter((m[0] for m in members), dtype=np.int64, count=len(members))
    print(f"{corpus}: {len(recs):,} files, {len(members):,} distinct texts")
    for bits in (64, 128):
        k = DEFAULT_DISTANCE[bits]
        out = {}
        for source in ("scan", "lsh"):
            t = time.perf_counter()
            cp, desc = candidate_pairs(recs, bits, k, fps, cls, members, first, source)
            pairs, _, _ = verified_pairs(recs, cp, first, 0.7, None, VerifyStats())
            out[source] = (set(map(tuple, cp.tolist())), set(map(tuple, pairs.tolist())),
                           time.perf_counter() - t, desc)
        cs, vs, ts, _ = out["scan"]
        cl, vl, tl, desc = out["lsh"]
        print(f"  {bits} bits k={k}: scan {len(cs):,} candidates, {len(vs):,} verified "
              f"({ts:.2f} s); linear {len(cl):,} candidates ({len(cl - cs)} not in the scan's), "
              f"{len(vl):,} verified ({tl:.2f} s); recall of verified pairs "
              f"{len(vl & vs):,}/{len(vs):,} = {len(vl & vs) / max(1, len(vs)):.4f}\n"
              f"    {desc}", flush=True)


def measured(root: str, workers: list[int]) -> None:
    """Grouping with the doubtful pairs measured from the files, as `simdup scan` does: the
    folder scanned once (no cache), then build_groups at the defaults with a Measurer on
    ``workers`` processes; the files read, against the distinct files of those pairs."""
    from simdup_gui.core.group import verify
    from simdup_gui.core.group.cluster import build_groups
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    t = time.perf_counter()
    records = scan([root], ScanOptions(use_cache=False, workers=2)).records
    print(f"{root}: {len(records):,} records ({time.perf_counter() - t:.0f} s to scan)",
          flush=True)
    for w in workers:
        m = verify.Measurer(records, workers=w)
        files: set[int] = set()
        real = m.prefetch if w > 1 else None
        if real is not None:
            def watch(pairs, *a, _files=files, _real=real, **k):
                _files.update(x for p in pairs for x in p)
                _real(pairs, *a, **k)
            m.prefetch = watch
        t = time.perf_counter()
        try:
            groups, plan = build_groups(records, 64, DEFAULT_DISTANCE[64], measure=m)
        finally:
            m.close()
        took = time.perf_counter() - t
        distinct = f" ({len(files):,} distinct)" if files else ""
        print(f"  {w} process{'es' if w > 1 else ''}: {took:.2f} s, {m.read:,} files read"
              f"{distinct}, {len(groups):,} groups; {plan.split('; ')[-1]}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, nargs="*", default=[])
    ap.add_argument("--corpus")
    ap.add_argument("--measure", metavar="FOLDER",
                    help="group a scanned folder with the doubtful pairs read from its files")
    ap.add_argument("--workers", type=int, nargs="*", default=[2, 1])
    ap.add_argument("--scan-only", action="store_true",
                    help="timed runs without the linear source (the loose-distance scan)")
    args = ap.parse_args()
    if args.scan_only:
        from simdup_gui.core.group import candidates

        candidates.LSH_ABOVE = 1 << 62
    if args.corpus:
        recall(args.corpus)
    if args.measure:
        measured(args.measure, args.workers)
    if args.n:
        timed(args.n)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
