"""Exact near-neighbour search over fingerprints by the pigeonhole principle.

Split f bits into B > k blocks. Two fingerprints within Hamming distance k agree
exactly on at least B - k blocks, so every such pair shares the key of at least
one of the C(B, k) combinations of B - k blocks. Per combination: compute the key
of every fingerprint, sort once (numpy), and take the runs of equal keys as
candidates; verify each candidate with a popcount. Nothing that brute force would
find is missed. Identical fingerprints are folded first, so thousands of copies of
one file cost one entry, not a quadratic bucket.

When k is so large that no block split beats a plain scan, a vectorised chunked
scan is used instead, and the plan says so.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from ..models import ALLOWED_BITS
from ..validate import one_of
from .graph import CodeSet

_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)
# Rough per-unit costs (seconds) measured on a 2-core machine; only their ratios matter.
_COST_TABLE_ELEM = 150e-9  # build, sort and scan one key table, per entry (measured at 1e5)
_COST_CANDIDATE = 70e-9  # generate + verify one candidate pair
_COST_SCAN_PAIR = 5e-9  # measured: 26 s for 100,000 fingerprints
_COST_PROBE_ELEM = 70e-9  # one bucket look-up per fingerprint per probe (measured at 1e5)
_MAX_PROBE_BUCKET_BITS = 24
_MAX_TABLES = 3000
_BATCH_CANDIDATES = 1 << 22


@dataclass(slots=True)
class IndexPlan:
    strategy: str  # "blocks", "scan" or "exact" (k = 0)
    bits: int
    distance: int
    blocks: int = 0
    tables: int = 0
    key_bits: int = 0
    unique: int = 0
    candidates: int = 0
    pairs: int = 0
    reason: str = ""

    def describe(self) -> str:
        if self.strategy == "blocks":
            return (f"block index: {self.blocks} blocks, {self.tables} tables keyed on "
                    f"{self.key_bits} bits, {self.candidates} candidates, {self.pairs} pairs")
        if self.strategy == "probe":
            return (f"multi-probe block index: {self.blocks} blocks, each pair has a block "
                    f"within {self.distance // self.blocks} bits; {self.tables} bucket look-ups "
                    f"per fingerprint, {self.candidates} candidates, {self.pairs} pairs")
        if self.strategy == "scan":
            return (f"vectorised scan of {self.unique} fingerprints ({self.reason}), "
                    f"{self.pairs} pairs")
        return f"exact matches only (k=0), {self.unique} distinct fingerprints"


def chance_matches(n: int, bits: int, distance: int) -> float:
    """Expected random matches per file among ``n`` files: (N-1) * sum_{i<=k} C(f, i) / 2^f
    (unrelated texts have fingerprints that differ like random bits)."""
    ball = sum(math.comb(bits, i) for i in range(min(distance, bits) + 1))
    return max(0, n - 1) * ball / 2.0**bits


def validate(bits: int, distance: int) -> None:
    one_of("bits", bits, ALLOWED_BITS)
    if not 0 <= distance <= bits:
        raise ValueError(f"distance must be between 0 and {bits}, not {distance}")


def as_words(fps, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Python ints (or (lo, hi) arrays) masked to ``bits``, as two uint64 arrays."""
    if isinstance(fps, tuple):
        lo, hi = (np.asarray(a, dtype=np.uint64) for a in fps)
    else:
        n = len(fps)
        lo = np.fromiter((int(f) & 0xFFFFFFFFFFFFFFFF for f in fps), dtype=np.uint64, count=n)
        hi = np.fromiter(((int(f) >> 64) & 0xFFFFFFFFFFFFFFFF for f in fps), dtype=np.uint64,
                         count=n)
    if bits < 64:
        lo = lo & np.uint64((1 << bits) - 1)
    if bits <= 64:
        hi = np.zeros_like(hi)
    return lo, hi


def block_bounds(bits: int, blocks: int) -> list[tuple[int, int]]:
    """(start, width) of ``blocks`` near-equal blocks covering ``bits`` bits."""
    base, extra = divmod(bits, blocks)
    out, start = [], 0
    for i in range(blocks):
        w = base + (1 if i < extra else 0)
        out.append((start, w))
        start += w
    return out


def _extract(lo: np.ndarray, hi: np.ndarray, start: int, width: int) -> np.ndarray:
    mask = np.uint64((1 << width) - 1) if width < 64 else _M64
    if start + width <= 64:
        return (lo >> np.uint64(start)) & mask
    if start >= 64:
        return (hi >> np.uint64(start - 64)) & mask
    low_w = 64 - start
    low = lo >> np.uint64(start)
    high = hi << np.uint64(low_w)
    return (low | high) & mask


def _popcount(lo_a, hi_a, lo_b, hi_b) -> np.ndarray:
    return np.bitwise_count(lo_a ^ lo_b).astype(np.int16) + np.bitwise_count(hi_a ^ hi_b)


MAX_CANDIDATES = 40_000_000  # candidate pairs held at once (16 bytes each): about 640 MB
SCAN_BLOCK = 1 << 20  # fingerprint pairs compared at once (a few bytes each, 8 MB temporaries)
_SAMPLE = 3000


def safe_distance(fps, bits: int, distance: int, limit: int = MAX_CANDIDATES,
                  seed: int = 0) -> tuple[int, float]:
    """The largest k <= ``distance`` whose expected number of candidate pairs among these
    fingerprints stays within ``limit``, and the expected number at ``distance``. Estimated from the pair
    distances of a random sample: a folder of different texts that share one small
    vocabulary (logs, forms) can put every fingerprint within k of every other, and all
    pairs of a million files do not fit in memory."""
    lo, hi = as_words(fps, bits)
    n = len(lo)
    total = n * (n - 1) / 2
    if total <= limit:
        return distance, total
    rng = np.random.default_rng(seed)
    pick = rng.choice(n, size=min(n, _SAMPLE), replace=False)
    sl, sh = lo[pick], hi[pick]
    m = len(pick)
    counts = np.zeros(bits + 1, dtype=np.int64)
    rows = max(1, SCAN_BLOCK // m)  # rows of the upper triangle at a time: bounded memory
    for i in range(0, m - 1, rows):
        end = min(m - 1, i + rows)
        d = _popcount(sl[i:end, None], sh[i:end, None], sl[None, i + 1 :], sh[None, i + 1 :])
        upper = np.arange(i + 1, m)[None, :] > np.arange(i, end)[:, None]
        counts += np.bincount(d[upper], minlength=bits + 1)
    counts = counts.cumsum()
    share = counts / max(1, m * (m - 1) // 2)
    at_distance = float(share[distance] * total)
    for k in range(distance, -1, -1):
        if share[k] * total <= limit:
            return k, at_distance
    return 0, at_distance


def plan(n: int, bits: int, distance: int) -> IndexPlan:
    """Choose the number of blocks for (bits, distance) at n distinct fingerprints."""
    validate(bits, distance)
    if distance == 0:
        return IndexPlan("exact", bits, distance, unique=n)
    pairs_total = n * (n - 1) / 2
    best = IndexPlan("scan", bits, distance, unique=n,
                     reason=f"k={distance} is too large at {bits} bits for blocks to beat a scan")
    best_cost = pairs_total * _COST_SCAN_PAIR
    if n < 2000:
        best.reason = "few fingerprints: a scan is cheapest"
    for blocks in range(distance + 1, bits + 1):
        tables = math.comb(blocks, distance)
        if tables > _MAX_TABLES:
            break
        key_bits = min(64 - _idx_bits(max(n, 2)), (blocks - distance) * (bits // blocks))
        expected = tables * pairs_total / 2.0**key_bits
        cost = tables * n * _COST_TABLE_ELEM + expected * _COST_CANDIDATE
        if cost < best_cost:
            best_cost = cost
            best = IndexPlan("blocks", bits, distance, blocks, tables, key_bits, unique=n)
    for blocks in range(2, min(bits, distance + 1) + 1):
        radius = distance // blocks
        width = bits // blocks
        if radius == 0 or bits - width * (blocks - 1) > _MAX_PROBE_BUCKET_BITS:
            continue
        probes = sum(math.comb(bits - width * (blocks - 1), i) for i in range(radius + 1))
        lookups = blocks * probes
        expected = lookups * pairs_total / 2.0**width
        cost = lookups * n * _COST_PROBE_ELEM + expected * _COST_CANDIDATE
        if cost < best_cost:
            best_cost = cost
            best = IndexPlan("probe", bits, distance, blocks, lookups, width, unique=n)
    return best


def _idx_bits(n: int) -> int:
    return max(1, (n - 1).bit_length())


def _sorted_order(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Indices that sort (hi, lo) ascending.

    Fast path: pack the top bits of the leading word with the index into one uint64
    and sort that (numpy's SIMD sort, several times faster than argsort/lexsort);
    when two entries tie on the packed bits the full sort decides instead.
    """
    n = len(lo)
    ib = _idx_bits(n)
    idx = np.arange(n, dtype=np.uint64)
    wide = bool(hi.any())
    lead = hi if wide else lo
    if ib < 64:
        top = (lead >> np.uint64(ib)) << np.uint64(ib)
        packed = np.sort(top | idx)
        order = (packed & np.uint64((1 << ib) - 1)).astype(np.int64)
        ks = packed >> np.uint64(ib)
        if not (ks[1:] == ks[:-1]).any():
            return order
    if wide:
        return np.lexsort((lo, hi))
    return np.argsort(lo)


def _unique(lo: np.ndarray, hi: np.ndarray):
    """Distinct fingerprints (sorted by value), and for each input its index among them."""
    n = len(lo)
    if n == 0:
        return lo, hi, np.zeros(0, dtype=np.int64)
    order = _sorted_order(lo, hi)
    slo, shi = lo[order], hi[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(slo[1:], slo[:-1], out=new[1:])
    new[1:] |= shi[1:] != shi[:-1]
    if new.all():
        inverse = np.empty(n, dtype=np.int64)
        inverse[order] = np.arange(n, dtype=np.int64)
        return slo, shi, inverse
    ids_sorted = np.cumsum(new) - 1
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = ids_sorted
    return slo[new], shi[new], inverse


def run_pair_chunks(starts: np.ndarray, lengths: np.ndarray, chunk: int):
    """:func:`_run_pairs` of the runs a few at a time: (a, b) position arrays holding about
    ``chunk`` pairs (one run at least), so every pair of many runs is never held at once
    (lsh.py's band buckets, short.py's posting lists)."""
    cum = np.cumsum(lengths * (lengths - 1) // 2)
    lo = 0
    while lo < len(starts):
        base = int(cum[lo - 1]) if lo else 0
        hi = max(lo + 1, int(np.searchsorted(cum, base + chunk, side="right")))
        yield _run_pairs(starts[lo:hi], lengths[lo:hi])
        lo = hi


def _run_pairs(starts: np.ndarray, lengths: np.ndarray):
    """All (a, b) position pairs within each run of a sorted table (vectorised)."""
    total = int(lengths.sum())
    offs = np.repeat(np.cumsum(lengths) - lengths, lengths)
    t = np.arange(total, dtype=np.int64) - offs
    pos = np.repeat(starts, lengths) + t
    c = np.repeat(lengths, lengths) - 1 - t
    first = np.repeat(pos, c)
    coffs = np.repeat(np.cumsum(c) - c, c)
    second = first + 1 + (np.arange(first.size, dtype=np.int64) - coffs)
    return first, second


def _combo_key(blocks_vals, bounds, combo, key_bits: int) -> np.ndarray:
    """The blocks of ``combo`` side by side, cut to ``key_bits`` bits (a cut key only
    adds candidates, never loses one: equal full keys have equal cut keys)."""
    key = None
    shift = 0
    for b in combo:
        if shift >= key_bits:
            break
        part = blocks_vals[b]
        w = bounds[b][1]
        if shift + w > key_bits:
            part = part & np.uint64((1 << (key_bits - shift)) - 1)
        part = part << np.uint64(shift) if shift else part.copy()
        key = part if key is None else (key | part)
        shift += w
    return key


DENSE_RUN = 64  # a run of more files (a dense family of near-copies): anchored, see below
ANCHORS = 8


def anchor_pairs(start: np.ndarray, length: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """For runs (``start``, ``length``) of ``ids`` (each run in the order its anchors are
    chosen by): each file paired with the run's first ANCHORS files (those before it), not
    with every other file. Whole scans of benchmarks/tiny_tree.py's 100,000 tiny files in
    200 families of 500, LSH band buckets anchored: warm 88.0 -> 60.9 s and main RSS peak
    1,744 -> 1,236 MB, cold 121.4 -> 102.2 s and 1,848 -> 1,318 MB. The same groups on the
    held-out halves of docs/accuracy.md with LSH forced; on the 768 MB tree 632 of 5,025
    groups (dense families of generated man pages) change members, 45,494 -> 45,450 files
    grouped. The tight SimHash source anchored too (near_pairs dense): warm rescan of that
    tiny tree 70.4 -> 38.8 CPU s and 1,172 -> 779 MB with this session's other grouping
    changes (docs/performance.md), warm grouping alone 56.7 -> 36.5 s under cProfile."""
    parts = [np.zeros((0, 2), dtype=np.int64)]
    for j in range(ANCHORS):
        rest = np.maximum(length - j - 1, 0)  # the files after anchor j in its run
        anchor = np.repeat(start + j, rest)
        offs = np.repeat(np.cumsum(rest) - rest, rest)
        other = anchor + 1 + (np.arange(int(rest.sum()), dtype=np.int64) - offs)
        parts.append(np.stack((ids[anchor], ids[other]), axis=1))
    return np.concatenate(parts)


def _runs(key: np.ndarray, shift) -> tuple[np.ndarray, np.ndarray]:
    """(start, length) of the runs of two or more entries whose ``key >> shift`` is equal
    (``key`` sorted)."""
    same = np.flatnonzero((key[1:] >> shift) == (key[:-1] >> shift))
    if same.size == 0:
        return same, same
    # runs of equal keys: consecutive positions in ``same`` extend one run
    first = np.ones(same.size, dtype=bool)
    first[1:] = same[1:] != same[:-1] + 1
    return same[first], np.bincount(np.cumsum(first) - 1) + 1


def _pairs_blocks(lo, hi, p: IndexPlan, dense: bool = False) -> np.ndarray:
    """Every pair within ``p.distance`` by the block index (module doc); ``dense``: a run
    of more than DENSE_RUN equal keys gives only its :func:`anchor_pairs` (by index: the
    caller orders the fingerprints), so a family of n near-copies costs about ANCHORS * n
    pairs a table, not n^2 / 2."""
    bounds = block_bounds(p.bits, p.blocks)
    blocks_vals = [_extract(lo, hi, s, w) for s, w in bounds]
    ib = _idx_bits(len(lo))
    idx = np.arange(len(lo), dtype=np.uint64)
    low_mask, shift_ib = np.uint64((1 << ib) - 1), np.uint64(ib)
    found = CodeSet(_BATCH_CANDIDATES)  # (anchored runs repeat pairs across tables)
    p.candidates = 0

    def keep(a, b, combo, skipped):
        p.candidates += a.size
        ok = _popcount(lo[a], hi[a], lo[b], hi[b]) <= p.distance
        a, b = a[ok], b[ok]
        for j in combo:  # keys may be truncated: check the blocks themselves
            same_j = blocks_vals[j][a] == blocks_vals[j][b]
            a, b = a[same_j], b[same_j]
        for j in skipped:
            diff_j = blocks_vals[j][a] != blocks_vals[j][b]
            a, b = a[diff_j], b[diff_j]
        found.add(np.minimum(a, b) * len(lo) + np.maximum(a, b))

    for combo in itertools.combinations(range(p.blocks), p.blocks - p.distance):
        # A pair is kept only under its canonical combination, the first B-k blocks (by
        # index) on which it agrees; then no pair comes out twice (anchored runs aside)
        skipped = [j for j in range(combo[-1]) if j not in combo]
        # one uint64 per entry: key in the high bits, index in the low bits; sorting
        # it sorts by key (numpy's SIMD sort: much faster than argsort)
        key = _combo_key(blocks_vals, bounds, combo, 64 - ib) << shift_ib
        key |= idx
        key.sort()
        starts, lengths = _runs(key, shift_ib)
        if dense and starts.size:  # a family, not a run of unrelated fingerprints that
            # share a narrow key by chance (16 bits, a million texts: 61 a run on average)
            chance = len(lo) / 2.0 ** min(64 - ib, sum(bounds[j][1] for j in combo))
            big = lengths > max(DENSE_RUN, 8 * chance)
            ab = anchor_pairs(starts[big], lengths[big], np.arange(len(key)))
            keep((key[ab[:, 0]] & low_mask).astype(np.int64),
                 (key[ab[:, 1]] & low_mask).astype(np.int64), combo, [])
            starts, lengths = starts[~big], lengths[~big]
        for pa, pb in run_pair_chunks(starts, lengths, _BATCH_CANDIDATES):
            keep((key[pa] & low_mask).astype(np.int64), (key[pb] & low_mask).astype(np.int64),
                 combo, skipped)
    codes = found.sorted()
    return np.stack((codes // len(lo), codes % len(lo)), axis=1)


def _masks(width: int, radius: int) -> np.ndarray:
    out = [0]
    for r in range(1, radius + 1):
        out.extend(sum(1 << b for b in c) for c in itertools.combinations(range(width), r))
    return np.asarray(out, dtype=np.uint64)


def _pairs_probe(lo, hi, p: IndexPlan) -> np.ndarray:
    """Generalised pigeonhole: split into B blocks; a pair within k has some block within
    r = k // B bits. For each block, look up every value within r bits of each fingerprint's
    block in a bucket table. A pair is kept only under the first block that is within r, so
    each pair is produced once, with no de-duplication pass."""
    n = len(lo)
    radius = p.distance // p.blocks
    bounds = block_bounds(p.bits, p.blocks)
    vals = [_extract(lo, hi, s_, w) for s_, w in bounds]
    found: list[np.ndarray] = []
    candidates = 0
    ids = np.arange(n, dtype=np.int64)
    for b, (_, width) in enumerate(bounds):
        v = vals[b]
        order = np.argsort(v, kind="stable")
        counts_all = np.bincount(v.astype(np.int64), minlength=1 << width)
        starts_all = np.concatenate(([0], np.cumsum(counts_all)[:-1]))
        for m in _masks(width, radius).tolist():
            q = (v ^ np.uint64(m)).astype(np.int64)
            cnt = counts_all[q]
            total = int(cnt.sum())
            if total == 0:
                continue
            xs = np.repeat(ids, cnt)
            offs = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            ys = order[np.repeat(starts_all[q], cnt) + offs]
            keep = xs < ys
            xs, ys = xs[keep], ys[keep]
            candidates += xs.size
            d = _popcount(lo[xs], hi[xs], lo[ys], hi[ys])
            ok = d <= p.distance
            for prev in range(b):  # canonical block: the first one within the radius
                if not ok.any():
                    break
                ok &= np.bitwise_count(vals[prev][xs] ^ vals[prev][ys]) > radius
            if ok.any():
                found.append(np.stack((xs[ok], ys[ok]), axis=1))
    p.candidates = candidates
    if not found:
        return np.zeros((0, 2), dtype=np.int64)
    return np.concatenate(found)


def _pairs_scan(lo, hi, distance: int) -> np.ndarray:
    """Every pair within ``distance`` by a chunked upper-triangle scan (no Python loop per pair)."""
    n = len(lo)
    out: list[np.ndarray] = []
    wide = bool(hi.any())
    rows_per = max(1, SCAN_BLOCK // max(1, n))
    for i in range(0, n - 1, rows_per):
        end = min(n - 1, i + rows_per)
        d = np.bitwise_count(lo[i:end, None] ^ lo[None, i + 1 :])
        if wide:
            d += np.bitwise_count(hi[i:end, None] ^ hi[None, i + 1 :])
        flat = np.flatnonzero(d <= distance)
        if flat.size:
            a, c = np.divmod(flat, n - 1 - i)
            keep = c >= a  # column i+1+c lies right of row i+a
            out.append(np.stack((a[keep] + i, c[keep] + i + 1), axis=1))
    if not out:
        return np.zeros((0, 2), dtype=np.int64)
    return np.concatenate(out).astype(np.int64)


@dataclass(slots=True)
class NearPairs:
    """Pairs among distinct fingerprints, plus how inputs map onto them."""

    inverse: np.ndarray  # input index -> distinct fingerprint id
    pairs: np.ndarray  # (m, 2) distinct ids, a < b, distance <= k (and > 0 unless dense)
    plan: IndexPlan
    lo: np.ndarray  # distinct fingerprints
    hi: np.ndarray


def near_pairs(fps, bits: int, distance: int, force: str | None = None,
               dense: bool = False) -> NearPairs:
    """Find every pair of distinct fingerprints within ``distance``.

    ``fps`` is a sequence of 128-bit ints (masked to ``bits`` here) or a (lo, hi)
    pair of uint64 arrays. ``force`` ("blocks", "probe" or "scan") overrides the plan, for tests.
    ``dense``: with the block index, identical fingerprints are not folded (each input is
    its own entry: distinct texts with one fingerprint) and a dense family's pairs are only
    those with its first ANCHORS inputs (:func:`_pairs_blocks`), not every pair.
    """
    validate(bits, distance)
    lo, hi = as_words(fps, bits)
    ulo, uhi, inverse = _unique(lo, hi)
    p = plan(len(ulo), bits, distance)
    if force == "scan" and distance > 0:
        p = IndexPlan("scan", bits, distance, unique=len(ulo), reason="forced")
    elif force == "blocks" and distance > 0 and p.strategy != "blocks":
        blocks = distance + 1
        p = IndexPlan("blocks", bits, distance, blocks, math.comb(blocks, distance),
                      min(64, bits // blocks), unique=len(ulo))
    elif force == "probe" and distance > 0:
        for blocks in range(2, bits + 1):
            w_max = bits - (bits // blocks) * (blocks - 1)
            n_masks = sum(math.comb(w_max, i) for i in range(distance // blocks + 1))
            if w_max <= _MAX_PROBE_BUCKET_BITS and n_masks <= 3000:
                break
        p = IndexPlan("probe", bits, distance, blocks, blocks * n_masks, bits // blocks,
                      unique=len(ulo))
    if p.strategy == "exact" or len(ulo) < 2:
        pairs = np.zeros((0, 2), dtype=np.int64)
    elif p.strategy == "blocks" and dense and force is None:  # each input its own entry
        p = plan(len(lo), bits, distance)
        if p.strategy == "blocks":
            p.pairs = len(pairs := _pairs_blocks(lo, hi, p, dense=True))
            return NearPairs(np.arange(len(lo)), pairs, p, lo, hi)
        return near_pairs((lo, hi), bits, distance)
    elif p.strategy == "blocks":
        pairs = _pairs_blocks(ulo, uhi, p)
    elif p.strategy == "probe":
        pairs = _pairs_probe(ulo, uhi, p)
    else:
        pairs = _pairs_scan(ulo, uhi, distance)
    p.pairs = len(pairs)
    return NearPairs(inverse, pairs, p, ulo, uhi)


def all_pairs(fps, bits: int, distance: int, force: str | None = None) -> set[tuple[int, int]]:
    """Every input pair (i < j) within ``distance``, identical fingerprints included."""
    np_ = near_pairs(fps, bits, distance, force)
    members: dict[int, list[int]] = {}
    for i, u in enumerate(np_.inverse.tolist()):
        members.setdefault(u, []).append(i)
    out: set[tuple[int, int]] = set()
    for group in members.values():
        out.update(itertools.combinations(group, 2))
    for a, b in np_.pairs.tolist():
        for i in members[a]:
            for j in members[b]:
                out.add((min(i, j), max(i, j)))
    return out


def brute_force_pairs(fps, bits: int, distance: int) -> set[tuple[int, int]]:
    """The oracle: compare every pair (numpy, O(n^2))."""
    lo, hi = as_words(fps, bits)
    d = _popcount(lo[:, None], hi[:, None], lo[None, :], hi[None, :])
    a, b = np.nonzero(np.triu(d <= distance, 1))
    return set(zip(a.tolist(), b.tolist()))
