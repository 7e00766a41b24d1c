"""The LSH candidate step (lsh.py) on a Dask cluster, for collections too large for one
machine's candidate step.

Each worker takes a slice of the files' sketches, computes their band keys (the same
``minhashes`` and ``band_keys`` as the local path) and splits its (key, file) entries by key
into ``parts`` pieces; piece j of every slice goes to task j, which finds the files that
share a key (the shuffle: Dask moves the pieces between workers), keeps the pairs within the
loose SimHash distance, and returns them. The client gathers candidate pairs only (16 bytes
each), never sketches or texts. Their text similarity is then estimated on the workers too
(:func:`cluster_estimates`): each pair goes to the task that holds its first file's sketch,
takes that sketch along to the task that holds the second, and is estimated there; only the
estimates come back. The client measures the few pairs near the threshold from the files and
makes the star groups, as a local scan does.

The shuffle moves numpy arrays between Dask futures rather than rows of a dask.bag or
dask.dataframe: a bag holds a Python tuple per (band, file), 21 per file, and a dataframe
needs pandas; the arrays hold 16 bytes per entry. The candidate pairs equal the local LSH
path's (tests/core/group/test_distributed_grouping.py).
"""

from __future__ import annotations

import operator

import numpy as np

from .. import textsim
from ..textsim import estimate
from .lsh import band_keys, minhashes, pairs_of_equal_keys, unique_pairs

ROWS_PER_SLICE = 50_000  # files per key-making task


def _slice_keys(sk: np.ndarray, offset: int, parts: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Band keys of a slice of sketches, split by key into ``parts`` (keys, file ids)."""
    keys, full = band_keys(minhashes(sk))
    ids = np.broadcast_to(np.arange(offset, offset + len(sk), dtype=np.int64)[:, None],
                          keys.shape)
    k, i = keys[full], ids[full]
    dest = (k % np.uint64(parts)).astype(np.int64)
    order = np.argsort(dest, kind="stable")
    k, i, dest = k[order], i[order], dest[order]
    bounds = np.searchsorted(dest, np.arange(parts + 1))
    return [(k[bounds[j]:bounds[j + 1]], i[bounds[j]:bounds[j + 1]]) for j in range(parts)]


def _part_pairs(pieces: list[tuple[np.ndarray, np.ndarray]], lo: np.ndarray, hi: np.ndarray,
                distance: int, n: int) -> np.ndarray:
    """Pairs of files that share a band key in this part, within ``distance`` bits."""
    key = np.concatenate([p[0] for p in pieces]) if pieces else np.zeros(0, np.uint64)
    ids = np.concatenate([p[1] for p in pieces]) if pieces else np.zeros(0, np.int64)
    def within(p: np.ndarray) -> np.ndarray:
        return (np.bitwise_count(lo[p[:, 0]] ^ lo[p[:, 1]]).astype(np.int16)
                + np.bitwise_count(hi[p[:, 0]] ^ hi[p[:, 1]])) <= distance
    return unique_pairs(pairs_of_equal_keys(key, ids, within), n)


def cluster_band_pairs(client, sketches: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                       distance: int, parts: int | None = None) -> np.ndarray:
    """(m, 2) pairs (a < b, each once) of rows of ``sketches`` that share an LSH band and are
    within ``distance`` bits by their fingerprint words ``lo``/``hi``: what
    ``band_pairs(minhashes(sketches))`` filtered by distance gives, computed on the cluster
    behind ``client``."""
    n = len(sketches)
    if n < 2:
        return np.zeros((0, 2), dtype=np.int64)
    threads = max(1, sum(w.get("nthreads", 1)
                         for w in client.scheduler_info().get("workers", {}).values()))
    parts = parts or max(1, min(256, 2 * threads))
    # hash=False: keys of their own, so a second call never meets data this one releases
    [lo_f, hi_f] = client.scatter([lo, hi], broadcast=True, hash=False)
    data, slices = [lo_f, hi_f], []
    for s in range(0, n, ROWS_PER_SLICE):
        [sk_f] = client.scatter([np.ascontiguousarray(sketches[s : s + ROWS_PER_SLICE])],
                                hash=False)
        data.append(sk_f)  # held until the end: a released input is lost data
        slices.append(client.submit(_slice_keys, sk_f, s, parts, pure=False))
    pieces = [[client.submit(operator.getitem, f, j, pure=False) for j in range(parts)]
              for f in slices]
    results = [client.submit(_part_pairs, [row[j] for row in pieces], lo_f, hi_f, distance, n,
                             pure=False) for j in range(parts)]
    try:
        found = client.gather(results)
    finally:
        client.cancel(slices + [p for row in pieces for p in row] + results + data)
    return unique_pairs(np.concatenate(found), n) if found else np.zeros((0, 2), np.int64)


def _by_slice(pairs: tuple, col: int, n_slices: int, rows: int,
              extra: np.ndarray | None = None) -> list:
    """Split (positions, pairs, extra rows) by the slice that holds each pair's file in
    column ``col``."""
    pos, pairs = pairs
    dest = pairs[:, col] // rows
    out = []
    for s in range(n_slices):
        m = dest == s
        out.append(((pos[m], pairs[m]), None if extra is None else extra[m]))
    return out


def _attach_first(sk: np.ndarray, offset: int, pieces: list, n_slices: int, rows: int
                  ) -> list:
    """Pairs whose first file is in this slice, with that file's sketch, split by the slice
    of the second file."""
    pos = np.concatenate([p[0][0] for p in pieces])
    pairs = np.concatenate([p[0][1] for p in pieces]).reshape(-1, 2)
    ska = sk[pairs[:, 0] - offset]
    return _by_slice((pos, pairs), 1, n_slices, rows, ska)


def _estimate_second(sk: np.ndarray, offset: int, pieces: list
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions, estimates, held whole) of the pairs whose second file is in this slice."""
    pos = np.concatenate([p[0][0] for p in pieces])
    pairs = np.concatenate([p[0][1] for p in pieces]).reshape(-1, 2)
    ska = np.concatenate([p[1] for p in pieces]).reshape(-1, sk.shape[1])
    skb = sk[pairs[:, 1] - offset]
    m = len(pairs)
    if m >= textsim.COMPILED_FROM:  # a Dask worker, like the scan's: the compiled merge
        from ..scan import kernels

        kernels.settle()  # (loaded, or compiled when first used on a new host)
    idx = np.arange(m, dtype=np.int64)
    est, whole = estimate(np.concatenate((ska, skb)), idx, idx + m)
    return pos, est, whole


def cluster_estimates(client, sketches: np.ndarray, pairs: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """textsim.estimate(sketches, pairs[:, 0], pairs[:, 1]) computed on the cluster: the
    sketches stay in slices on the workers; each pair travels with its first sketch to the
    second's slice (two hash-partitioned exchanges between Dask futures)."""
    m = len(pairs)
    if not m:
        return np.zeros(0), np.zeros(0, dtype=bool)
    n, rows = len(sketches), ROWS_PER_SLICE  # passed on: workers import their own module
    n_slices = (n + rows - 1) // rows
    sk_f = [client.scatter([np.ascontiguousarray(sketches[s : s + rows])], hash=False)[0]
            for s in range(0, n, rows)]
    chunk = 1 << 20
    data, tasks = list(sk_f), []
    firsts = []  # per pair chunk: its pieces by first slice
    for c in range(0, m, chunk):
        [pf] = client.scatter([(np.arange(c, min(m, c + chunk), dtype=np.int64),
                                np.ascontiguousarray(pairs[c : c + chunk]))], hash=False)
        data.append(pf)
        split = client.submit(_by_slice, pf, 0, n_slices, rows, pure=False)
        tasks.append(split)
        firsts.append([client.submit(operator.getitem, split, s, pure=False)
                       for s in range(n_slices)])
    seconds = []
    for s in range(n_slices):
        att = client.submit(_attach_first, sk_f[s], s * rows, [row[s] for row in firsts],
                            n_slices, rows, pure=False)
        tasks.append(att)
        seconds.append([client.submit(operator.getitem, att, t, pure=False)
                        for t in range(n_slices)])
    results = [client.submit(_estimate_second, sk_f[t], t * rows,
                             [row[t] for row in seconds], pure=False) for t in range(n_slices)]
    try:
        parts = client.gather(results)
    finally:
        client.cancel(tasks + [f for row in firsts + seconds for f in row] + results + data)
    est = np.zeros(m)
    whole = np.zeros(m, dtype=bool)
    for pos, e, w in parts:
        est[pos], whole[pos] = e, w
    return est, whole
