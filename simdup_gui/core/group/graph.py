"""Pairs of indices as a graph: distinct pairs, connected components, an order that keeps
each component's pairs together, and plain union-find. Leaf of group/: numpy only."""

from __future__ import annotations

import numpy as np


def unique_pairs(pairs: np.ndarray) -> np.ndarray:
    """``np.unique(pairs, axis=0)`` for (n, 2) arrays of non-negative indices below 2**31:
    the same rows in the same order. np.unique by rows sorts them as one structured value
    each, holding the GIL throughout (70-140 ms for the LSH candidates of 100,000 files, a
    frozen window when grouping runs on a GUI's worker thread); here each row is one int64
    key, whose sort releases it."""
    if len(pairs) == 0 or int(pairs.max()) >= 1 << 31 or int(pairs.min()) < 0:
        return np.unique(pairs, axis=0)
    keys = np.sort((pairs[:, 0].astype(np.int64) << 32) | pairs[:, 1])
    keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    return np.stack((keys >> 32, keys & 0xFFFFFFFF), axis=1).astype(pairs.dtype)


RANK_BLOCK = 1 << 18  # sorted values numbered at once by unique_inverse


def unique_inverse(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(a, return_inverse=True)``: the same sorted values, and the inverse shaped
    like ``a``. numpy's numbers the sorted values in one cumsum, which holds the GIL: 35 ms
    of a frozen window for the template stage's sketch values of the 768 MB tree, grouped
    on the app's worker thread (benchmarks/gui_stalls.py). Here that goes a block at a
    time; the sort and the gathers release the GIL. The order, the ranks and the inverse
    are int32 where they fit (index_dtype): the template flags' unique values of the 768
    MB tree's 2.7 million sketch cells took 78 MB of them in intp, 46 MB so (a cold scan of
    that tree, the scan's process under tracemalloc: its peak 297 -> 286 MB)."""
    flat = a.ravel()
    idx = index_dtype(len(flat))
    perm = flat.argsort().astype(idx, copy=False)
    s = flat[perm]
    new = np.empty(len(s), dtype=bool)
    new[:1] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    rank = np.empty(len(s), dtype=idx)
    before = -1  # the rank of the last value of the blocks done
    for i in range(0, len(s), RANK_BLOCK):
        block = rank[i:i + RANK_BLOCK]
        np.cumsum(new[i:i + RANK_BLOCK], dtype=idx, out=block)
        block += before
        before = int(block[-1])
    inverse = np.empty(len(s), dtype=idx)
    inverse[perm] = rank
    del perm, rank
    return s[new], inverse.reshape(a.shape)


CODE_BLOCK = 1 << 20  # pairs coded or decoded at once (8 MB of temporaries)


def index_dtype(n: int):
    """The dtype of indices below ``n``: int32 when they fit (half of int64's bytes)."""
    return np.int32 if n <= 1 << 31 else np.int64


def sorted_codes(codes: np.ndarray) -> np.ndarray:
    """``codes`` (1-D int64, consumed: sorted in place) each once, ascending: the distinct
    values compacted to its front by blocks (no mask-selected copy of the whole)."""
    codes.sort()
    if len(codes) < 2:
        return codes
    kept = 1
    for s in range(1, len(codes), CODE_BLOCK):
        part = codes[s:s + CODE_BLOCK]
        new = part[part != codes[s - 1:s - 1 + len(part)]]
        codes[kept:kept + len(new)] = new  # kept <= s: never ahead of what is read
        kept += len(new)
    return codes[:kept]


class CodeSet:
    """Pair codes (a * n + b) gathered a part at a time, each kept once: the parts are
    folded (sorted, repeats dropped) when those not yet folded outnumber ``chunk`` and the
    folded ones, so repeats never pile up (lsh.band_pairs' bands, index._pairs_blocks'
    tables)."""

    def __init__(self, chunk: int) -> None:
        self.chunk = chunk
        self._have = np.zeros(0, dtype=np.int64)  # folded
        self._new: list[np.ndarray] = []  # not yet

    def add(self, codes: np.ndarray) -> None:
        self._new.append(codes)
        if sum(len(c) for c in self._new) > max(self.chunk, len(self._have)):
            # (a compact copy: the view of sorted_codes holds the whole array)
            self._have = sorted_codes(np.concatenate((self._have, *self._new))).copy()
            self._new = []

    def sorted(self) -> np.ndarray:
        """Every code added, each once, ascending; the set is left empty."""
        codes = np.concatenate((self._have, *self._new))
        self._have, self._new = np.zeros(0, dtype=np.int64), []
        return sorted_codes(codes)


def union_pairs(parts, n: int) -> np.ndarray:
    """The distinct rows of the (m, 2) pair arrays ``parts`` (indices below ``n``, a < b in
    each row), sorted by a then b: ``unique_pairs(np.concatenate(parts))``, as
    :func:`index_dtype` (8 bytes a pair below 2**31 nodes). Each pair is one int64 code
    a * n + b, sorted in place: on the 768 MB tree's 7.6 million candidate pairs,
    unique_pairs of the concatenation (its copies, sorted keys and int64 rows) peaked at
    532 MB of Python and numpy memory (tracemalloc, records included), this at 191 MB."""
    total = sum(len(p) for p in parts)
    codes = np.empty(total, dtype=np.int64)
    at = 0
    for p in parts:
        for s in range(0, len(p), CODE_BLOCK):
            blk = p[s:s + CODE_BLOCK]
            codes[at:at + len(blk)] = blk[:, 0].astype(np.int64) * n + blk[:, 1]
            at += len(blk)
    return pairs_of_codes(sorted_codes(codes), n)


def pairs_of_codes(codes: np.ndarray, n: int) -> np.ndarray:
    """(m, 2) rows (code // n, code % n) of :func:`index_dtype`, decoded by blocks."""
    out = np.empty((len(codes), 2), dtype=index_dtype(n))
    for s in range(0, len(codes), CODE_BLOCK):
        c = codes[s:s + CODE_BLOCK]
        out[s:s + len(c), 0] = c // n
        out[s:s + len(c), 1] = c % n
    return out


def star_labels(n: int, stars: dict[int, list[int]]) -> np.ndarray:
    """For ``n`` nodes, the reference of the star (reference -> members) each is in, -1 for
    none."""
    label = np.full(n, -1, dtype=np.int64)
    for r, ms in stars.items():
        label[[r, *ms]] = r
    return label


def components(n: int, pairs: np.ndarray) -> np.ndarray:
    """Connected components of ``n`` nodes joined by ``pairs``, vectorised.

    Returns for each node the smallest node of its component (isolated nodes are
    their own label). Label propagation with pointer jumping: a few numpy passes
    even for millions of pairs, no Python loop per node.
    """
    labels = np.arange(n, dtype=np.int64)
    if n == 0 or len(pairs) == 0:
        return labels
    a = np.ascontiguousarray(pairs[:, 0], dtype=np.int64)
    b = np.ascontiguousarray(pairs[:, 1], dtype=np.int64)
    while True:
        la, lb = labels[a], labels[b]
        m = np.minimum(la, lb)
        if not (la != lb).any():
            break
        np.minimum.at(labels, la, m)
        np.minimum.at(labels, lb, m)
        while True:  # pointer jumping: every node to its root
            nxt = labels[labels]
            if (nxt == labels).all():
                break
            labels = nxt
    return labels


def component_order(pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(an order of ``pairs`` (n, 2) that puts the pairs of each connected component of the
    graph they make together, by component then pair; each pair's component label, in the
    given order)."""
    if not len(pairs):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    nodes, inv = unique_inverse(pairs)
    comp = components(len(nodes), inv)[inv[:, 0]]
    return np.lexsort((pairs[:, 1], pairs[:, 0], comp)), comp


class UnionFind:
    """Plain union-find (kept for callers, the accuracy lab's; grouping uses
    :func:`components`)."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        p = self.parent
        while p[x] != x:
            p[x] = p[p[x]]
            x = p[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            if ra < rb:
                ra, rb = rb, ra
            self.parent[ra] = rb
