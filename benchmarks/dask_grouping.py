"""Where the cluster candidate step pays: the LSH band step (minhashes, band keys, pairs
within the loose distance) and the sketch estimates of those pairs, in this process against
the same steps on a Dask LocalCluster, same synthetic records (benchmarks/grouping.py), same
run.

    python3 benchmarks/dask_grouping.py [--n 100000 1000000] [--workers 2]

Prints seconds for each and the pairs found (they must be equal), and the client's peak
resident memory.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from grouping import peak_mb, synthetic  # noqa: E402

from simdup_gui.core.group.cluster import fingerprint_words  # noqa: E402
from simdup_gui.core.group.distributed import cluster_band_pairs, cluster_estimates  # noqa: E402,E501
from simdup_gui.core.group.index import as_words  # noqa: E402
from simdup_gui.core.group.lsh import band_pairs, minhashes  # noqa: E402
from simdup_gui.core.scan import kernels  # noqa: E402
from simdup_gui.core.textsim import estimate, sketch_array  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--distance", type=int, default=16)
    args = ap.parse_args()
    from distributed import Client, LocalCluster

    t = time.perf_counter()
    lc = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0")
    client = Client(lc)
    print(f"LocalCluster, {args.workers} workers, started in {time.perf_counter() - t:.1f} s")
    for n in args.n:
        recs = synthetic(n)
        sk = sketch_array((r.sketch for r in recs), len(recs))
        lo, hi = as_words(fingerprint_words(recs), 64)
        del recs
        t = time.perf_counter()
        local = band_pairs(minhashes(sk))
        d = (np.bitwise_count(lo[local[:, 0]] ^ lo[local[:, 1]]).astype(np.int16)
             + np.bitwise_count(hi[local[:, 0]] ^ hi[local[:, 1]]))
        local = local[d <= args.distance]
        t_local = time.perf_counter() - t
        t = time.perf_counter()
        remote = cluster_band_pairs(client, sk, lo, hi, args.distance)
        t_remote = time.perf_counter() - t
        same = np.array_equal(local, remote)
        print(f"{n:>9,} files: LSH step here {t_local:6.1f} s, on the cluster {t_remote:6.1f} s "
              f"(x{t_local / t_remote:.2f}); {len(local):,} pairs, equal: {same}; "
              f"client peak {peak_mb():,.0f} MB")
        kernels.settle()  # (here as on the workers: the compiled merge, where numba is)
        t = time.perf_counter()
        want = estimate(sk, local[:, 0], local[:, 1])
        t_local = time.perf_counter() - t
        t = time.perf_counter()
        got = cluster_estimates(client, sk, local)
        t_remote = time.perf_counter() - t
        same = all(np.array_equal(a, b) for a, b in zip(want, got))
        print(f"{'':>9s}        sketch estimates here {t_local:6.1f} s, on the cluster "
              f"{t_remote:6.1f} s; equal: {same}")
    client.close()
    lc.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
