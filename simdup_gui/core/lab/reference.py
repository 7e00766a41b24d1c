"""Reference truth for folders without labels: the exact J of EVERY pair, no sampling.

J is the measured definition of ``shared/near-duplicate.md`` (:mod:`textsim`: normalised
text, the set of character 5-grams hashed to 64 bits, Jaccard). Pairs with J >= T are
duplicates, pairs with J < 0.50 are different, pairs between are a grey zone the scores leave
out (T below 0.50: no grey zone, the bound is T).

Measuring n(n-1)/2 pairs one by one is O(n^2) set intersections (200 million at 20,000
files). :func:`similar_pairs` is instead an exact all-pairs similarity join with prefix
filtering (Bayardo, Ma and Srikant, "Scaling up all pairs similarity search", WWW 2007;
the position filter is from PPJoin, Xiao et al. 2008), with L = 0.50:

1. one fixed total order of shingles, rarest first. The key of a shingle is its 64-bit hash
   with the top bits (its bucket, up to 2^24 of them) replaced by the bucket's rank in
   document frequency: a bijection, so intersections stay exact, and a bucket's frequency is
   an upper bound of each of its shingles', so boilerplate shared by thousands of files comes
   last in every file. The order decides only how many candidates there are; any fixed order
   gives the same, exact answer;
2. J >= L needs |A & B| >= ceil(L |A|), so such a pair shares a shingle among the first
   |A| - ceil(L |A|) + 1 of A's ordered set and among B's likewise (the *prefixes*). A pair
   sharing no prefix shingle is provably below L: it is counted as different without being
   measured. Prefix shingles whose bucket is in one file only cannot be shared and stay out;
3. an inverted index over the prefixes (numpy: entries sorted by key; inside a posting list
   files in size order). Each entry is paired with the later entries of its list whose file is
   at most 1/L times larger (size filter); the (pair, position) keys are sorted in blocks of
   at most ``EMIT_BLOCK`` (a file whose lists alone exceed a block is counted in a dense
   array of n), so memory stays bounded however long a posting list is. A pair's first key
   gives its first shared shingle, the number of its keys the shingles shared inside both
   prefixes;
4. bounds, each necessary for J >= L, i.e. |A & B| >= L (|A| + |B|) / (1 + L): the first
   shared shingle plus the rest of the smaller set after it; the shingles shared inside both
   prefixes plus the rest after whichever prefix ends first (in the order);
5. the candidates left are measured exactly. |A & B| is the count of (3) plus the shared
   shingles after the prefix that ends first, or the shared shingles of A from its first
   shared one on, whichever rest is shorter; the rest is looked up in the other set through a
   small hash table of it (binary search where two of its shingles share a slot). J = |A & B|
   / |A | B| as :func:`textsim.jaccard` computes it (the same float).

So every pair is either measured exactly or provably different. Two empty texts are J = 1
(as :func:`textsim.jaccard` says). Shingling runs on one process per core when there is
enough text (spawned processes, as the scan's).

Measured cost (this machine: 2 cores, numpy 2.4). 20,000 files, 78 MB of text, 37.6 million
shingles: 15,000 files of ``simdup synth --generate 2500`` (Chinese and English documents,
five variants each) and 5,000 different documents in 201 families sharing a header and a
footer (5 to 1,500 files a family, own part 20-600 words)::

    simdup eval ROOT --reference jaccard:0.7 --bits 64 --workers 2 --brief

    199,990,000 pairs; 21,851,727 candidate pairs from the prefix index, 265,084 measured
    exactly after the bounds, the other 199,724,916 provably below 0.5; 53,852 pairs at
    J >= 0.7, 157,830 grey. Truth in 33.2 s (6.4 s shingling on 2 processes, 26.9 s join);
    the join's peak numpy memory 1.0 GB (its 0.3 GB of shingle sets included); the whole
    eval (scan, texts, truth, scores) 1 min 27 s and 1.6 GB resident.

A harsher folder: 5,000 notes of 20-600 words that all end with the same 400-word notice,
and 15,000 other documents (39.8 million shingles): 3.86 million pairs really are at
J >= 0.5, 4.68 million candidates are measured, the join takes 206 s (1.0 GB peak). The cost
grows with the pairs near or above the bound, not with the n(n-1)/2 pairs.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..job import NULL_JOB, Job
from ..models import ProgressEvent
from ..textsim import DIFFERENT_BELOW, SHINGLE, jaccard, shingle_set
from .truth import PairTruth

BUCKET_BITS = 24
EMIT_BLOCK = 1 << 21  # (pair, shared prefix shingle) emissions per block
VERIFY_BLOCK = 1 << 23  # shingles gathered per verification block
SHINGLE_CHUNK = 256  # texts per task when shingling on several processes
PARALLEL_CHARS = 8_000_000  # less text than this is shingled in this process
DEFAULT_SAMPLE = 0  # kept for callers: nothing is sampled any more
_EPS = 1e-9

# thin aliases: the one definition lives in textsim
shingles = shingle_set
__all__ = ["SimilarPairs", "jaccard", "reference_truth", "shingle_sets", "shingles",
           "similar_pairs"]


@dataclass
class SimilarPairs:
    """Every pair (a < b) of ``n`` sets with J >= ``lower``, with its exact counts."""

    n: int
    lower: float
    a: np.ndarray  # int64
    b: np.ndarray
    inter: np.ndarray  # |A & B|
    union: np.ndarray  # |A | B| (0 for two empty sets: J = 1)
    candidates: int  # distinct pairs sharing a prefix shingle
    measured: int  # candidates left by the size and position filters, measured exactly
    seconds: float

    @property
    def j(self) -> np.ndarray:
        u = np.maximum(self.union, 1)
        return np.where(self.union > 0, self.inter / u, 1.0)

    @property
    def total(self) -> int:
        return self.n * (self.n - 1) // 2


def _shingle_chunk(texts: list[str]) -> list[np.ndarray]:
    return [shingle_set(t) for t in texts]


def shingle_sets(texts: Sequence[str], job: Job = NULL_JOB,
                 workers: int = 1) -> list[np.ndarray]:
    """:func:`textsim.shingle_set` of every text, with progress and cancel; on ``workers``
    processes (0: one per core) when there is enough text to pay for starting them."""
    n = len(texts)
    if workers <= 0:
        workers = os.cpu_count() or 1
    chunks = [list(texts[i:i + SHINGLE_CHUNK]) for i in range(0, n, SHINGLE_CHUNK)]
    workers = min(workers, len(chunks))
    out: list[np.ndarray] = []
    if workers <= 1 or sum(len(t) for t in texts) < PARALLEL_CHARS:
        for i, t in enumerate(texts):
            if i % 200 == 0:
                job.check()
                job.report(ProgressEvent("reference", i, n))
            out.append(shingle_set(t))
        return out
    job.check()
    from ..scan.poolctx import safe_path

    # its workers, and one it starts again when one dies, run python -c: held for the
    # pool's life, so that the working directory is never on their sys.path
    with safe_path():
        pool = mp.get_context("spawn").Pool(workers)  # spawn: safe under the app's threads
        try:
            for part in pool.imap(_shingle_chunk, chunks):
                out.extend(part)
                job.check()
                job.report(ProgressEvent("reference", len(out), n))
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
    return out


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenation of arange(s, s + l) for each (s, l)."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    first = np.cumsum(lengths) - lengths
    return np.repeat(starts - first, lengths) + np.arange(total, dtype=np.int64)


def similar_pairs(sets: list[np.ndarray], lower: float = DIFFERENT_BELOW,
                  job: Job = NULL_JOB, consume: bool = False) -> SimilarPairs:
    """Every pair of ``sets`` (sorted distinct uint64 shingle hashes) with J >= ``lower``.

    Exact: pairs not returned are below ``lower``. ``consume`` releases ``sets[i]`` as soon
    as it is copied (the caller's list then holds None), which halves the peak memory.
    The steps are those of the module's docstring.
    """
    if not 0.0 < lower <= 1.0:
        raise ValueError(f"lower bound must be in (0, 1], not {lower}")
    t0 = time.perf_counter()
    n = len(sets)
    orig_sizes = np.fromiter((s.size for s in sets), dtype=np.int64, count=n)
    # files in order of size (then index): the smaller file of a pair comes first
    by_size = np.argsort(orig_sizes, kind="stable")
    sizes = orig_sizes[by_size]
    # a pair with J >= lower shares its first common shingle inside the first
    # |x| - ceil(lower |x|) + 1 shingles of each file (its prefix)
    plen = np.clip(sizes - np.ceil(lower * sizes - _EPS).astype(np.int64) + 1, 0, sizes)
    flat, off, prefixes = _ordered_prefixes(sets, by_size, sizes, plen, job, consume)  # 1, 2
    index = _posting_lists(prefixes, sizes, lower)  # 3
    del prefixes
    found, candidates, measured, total_emit = _join(flat, off, sizes, plen, index, lower,
                                                    job)  # 4, 5
    del flat, index
    a, b, inter = _pairs_found(found, sizes, by_size)
    union = orig_sizes[a] + orig_sizes[b] - inter
    job.report(ProgressEvent("reference", total_emit, total_emit))
    return SimilarPairs(n, lower, a, b, inter, union, candidates, measured,
                        time.perf_counter() - t0)


@dataclass
class _Prefixes:
    """The prefix entries of every file, in file order: its file, its position in the
    file's ordered set, and its key (dropped once the entries are sorted by it)."""

    doc: np.ndarray
    pos: np.ndarray
    key: np.ndarray | None


@dataclass
class _Index:
    """The prefix entries as posting lists (sorted by key, files in size order inside a
    list), and what each entry is paired with."""

    doc: np.ndarray  # each entry's file, in file order (as _Prefixes)
    pos: np.ndarray  # its position in the file's ordered set
    s_doc: np.ndarray  # the files of the entries in key order
    qpos: np.ndarray  # each entry's place in key order
    emit: np.ndarray  # how many later entries of its posting list it is paired with
    ent_off: np.ndarray  # the first entry of each file
    doc_emit: np.ndarray  # the pairs each file's entries emit


def _ordered_prefixes(sets: list[np.ndarray], by_size: np.ndarray, sizes: np.ndarray,
                      plen: np.ndarray, job: Job, consume: bool
                      ) -> tuple[np.ndarray, np.ndarray, _Prefixes]:
    """Steps 1 and 2: every file's shingles as keys of one total order, rarest bucket first
    (``flat[off[r]:off[r + 1]]``, sorted, for the r-th file by size), and the entries of
    their prefixes (``plen``)."""
    n = len(sets)
    off = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(sizes, out=off[1:])
    # about one bucket per shingle, at most 2^BUCKET_BITS
    bits = min(BUCKET_BITS, max(8, int(off[-1]).bit_length()))
    shift = np.uint64(64 - bits)
    key_count, brank = _bucket_ranks(sets, bits, shift, job)
    flat = _ordered_keys(sets, by_size, off, brank, bits, job, consume)
    del brank
    return flat, off, _prefix_entries(flat, off, plen, key_count, shift)


def _bucket_ranks(sets: list[np.ndarray], bits: int, shift: np.uint64,
                  job: Job) -> tuple[np.ndarray, np.ndarray]:
    """(the document frequency of the bucket of each rank, each bucket's rank): buckets (the
    top ``bits`` bits of a hash) ranked rarest first."""
    n = len(sets)
    counts = np.zeros(1 << bits, dtype=np.int64)
    buf: list[np.ndarray] = []
    held = 0
    for i, s in enumerate(sets):
        buf.append((s >> shift).astype(np.intp))
        held += s.size
        if held >= 1 << 22 or i == n - 1:
            counts += np.bincount(np.concatenate(buf), minlength=1 << bits)
            buf, held = [], 0
        if i % 500 == 0:
            job.check()
    border = np.argsort(counts, kind="stable")
    key_count = counts[border].astype(np.int32)  # bucket frequency by the top bits of a key
    del counts
    brank = np.empty(1 << bits, dtype=np.uint32)
    brank[border] = np.arange(1 << bits, dtype=np.uint32)
    return key_count, brank


def _ordered_keys(sets: list[np.ndarray], by_size: np.ndarray, off: np.ndarray,
                  brank: np.ndarray, bits: int, job: Job, consume: bool) -> np.ndarray:
    """Every file's shingles as keys (the bucket's rank, then the hash's low bits), sorted,
    the files in size order one after the other."""
    n = len(sets)
    shift = np.uint64(64 - bits)
    low = np.uint64((1 << (64 - bits)) - 1)
    flat = np.empty(int(off[-1]), dtype=np.uint64)
    for r, i in enumerate(by_size.tolist()):
        s = sets[i]
        if s.size:
            k = (brank[(s >> shift).astype(np.intp)].astype(np.uint64) << shift) | (s & low)
            k.sort()
            flat[off[r]:off[r + 1]] = k
        if consume:
            sets[i] = None  # type: ignore[call-overload]
        if r % 500 == 0:
            job.check()
            job.report(ProgressEvent("reference", r, n))
    return flat


def _prefix_entries(flat: np.ndarray, off: np.ndarray, plen: np.ndarray,
                    key_count: np.ndarray, shift: np.uint64) -> _Prefixes:
    """Step 2: the prefix shingles of every file that can be shared (a shingle whose bucket
    is in one file only cannot be)."""
    n = len(plen)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for c0 in range(0, n, 2048):  # entries in chunks of files: bounded temporaries
        c1 = min(n, c0 + 2048)
        doc = np.repeat(np.arange(c0, c1, dtype=np.int32), plen[c0:c1])
        pos = _ranges(np.zeros(c1 - c0, dtype=np.int64), plen[c0:c1])
        key = flat[off[doc] + pos]
        keep = key_count[(key >> shift).astype(np.intp)] >= 2
        parts.append((doc[keep], pos[keep].astype(np.int32), key[keep]))
    return _Prefixes(np.concatenate([x[0] for x in parts]) if parts else np.zeros(0, np.int32),
                     np.concatenate([x[1] for x in parts]) if parts else np.zeros(0, np.int32),
                     np.concatenate([x[2] for x in parts]) if parts else np.zeros(0, np.uint64))


def _posting_lists(p: _Prefixes, sizes: np.ndarray, lower: float) -> _Index:
    """Step 3: the inverted index of the prefix entries ``p`` (their keys dropped from
    ``p`` once sorted): entries sorted by key, files in size order inside a posting list,
    and how many later entries of its list each entry is paired with."""
    n = len(sizes)
    m = p.key.size
    order = np.argsort(p.key, kind="stable")
    skey = p.key[order]
    p.key = None
    new = np.ones(m, dtype=bool)
    if m:
        np.not_equal(skey[1:], skey[:-1], out=new[1:])
    del skey
    gid = np.cumsum(new, dtype=np.int64)
    gid -= 1
    del new
    s_doc = p.doc[order]
    idx = np.int32 if m < 1 << 31 else np.int64
    qpos = np.empty(m, dtype=idx)
    qpos[order] = np.arange(m, dtype=idx)
    del order
    # an entry is paired with the later entries of its posting list whose file is at most
    # 1/lower times larger (size filter: the list is in size order, so they are a range)
    lim = np.searchsorted(sizes, np.floor(sizes / lower + _EPS), side="right")
    comp = gid * n + s_doc
    end = np.empty(m, dtype=idx)
    for c0 in range(0, m, 1 << 22):
        c1 = min(m, c0 + (1 << 22))
        end[c0:c1] = np.searchsorted(comp, gid[c0:c1] * n + lim[s_doc[c0:c1]], side="left")
    del comp, gid, lim
    emit = end[qpos]
    del end
    emit -= qpos
    emit -= 1
    emit = emit.astype(np.int32)  # at most n
    ecum = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(emit, out=ecum[1:])
    ent_off = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(p.doc, minlength=n), out=ent_off[1:])
    doc_emit = ecum[ent_off[1:]] - ecum[ent_off[:-1]]
    return _Index(p.doc, p.pos, s_doc, qpos, emit, ent_off, doc_emit)


def _join(flat: np.ndarray, off: np.ndarray, sizes: np.ndarray, plen: np.ndarray, ix: _Index,
          lower: float, job: Job) -> tuple[tuple[list, list, list], int, int, int]:
    """Steps 4 and 5, in blocks of files whose entries emit at most about ``EMIT_BLOCK``
    pairs: (the pairs found, as lists of arrays (a, b, |A & B|); the candidates; the
    candidates measured; the emissions in all)."""
    n = len(sizes)
    total_emit = int(ix.doc_emit.sum())
    pbits = max(1, int(plen.max(initial=1)).bit_length())
    block_docs = max(1, (1 << (62 - pbits)) // max(n, 1))  # keys fit in int64
    found: tuple[list, list, list] = ([], [], [])
    candidates = measured = 0
    done = 0
    d0 = 0
    cum = np.cumsum(ix.doc_emit)
    while d0 < n:
        job.check()
        job.report(ProgressEvent("reference", done, total_emit))
        base = int(cum[d0 - 1]) if d0 else 0
        d1 = max(int(np.searchsorted(cum, base + EMIT_BLOCK, side="right")), d0 + 1)
        d1 = min(d1, d0 + block_docs)
        done += int(cum[d1 - 1]) - base
        if d1 == d0 + 1 and ix.doc_emit[d0] > EMIT_BLOCK:
            block = _dense_block(ix, d0, n, job)
        else:
            block = _sparse_block(ix, d0, d1, n, pbits)
        if block is not None:
            candidates += block[0].size
            measured += _measure(flat, off, sizes, plen, *block, lower, found)
        d0 = d1
    return found, candidates, measured, total_emit


def _dense_block(ix: _Index, d0: int, n: int, job: Job
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(A, B, C, PA) of the file ``d0`` with long posting lists: its partners B counted in a
    dense array of n (C: the shingles shared inside both prefixes, PA: the position in A of
    the first one)."""
    e0, e1 = int(ix.ent_off[d0]), int(ix.ent_off[d0 + 1])
    per = np.zeros(n, dtype=np.int64)
    first_pos = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    ecum = np.cumsum(ix.emit[e0:e1])
    x0 = 0
    while x0 < e1 - e0:
        xb = int(ecum[x0 - 1]) if x0 else 0
        x1 = max(int(np.searchsorted(ecum, xb + EMIT_BLOCK, side="right")), x0 + 1)
        cnt = ix.emit[e0 + x0:e0 + x1]
        part = ix.s_doc[_ranges(ix.qpos[e0 + x0:e0 + x1] + 1, cnt)]
        per += np.bincount(part, minlength=n)
        np.minimum.at(first_pos, part, np.repeat(ix.pos[e0 + x0:e0 + x1], cnt))
        x0 = x1
        job.check()
    B = np.flatnonzero(per)
    C, PA = per[B], first_pos[B]
    A = np.full(B.size, d0, dtype=np.int64)
    return A, B, C, PA


def _sparse_block(ix: _Index, d0: int, d1: int, n: int, pbits: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """(A, B, C, PA) of the files ``d0:d1`` (as :func:`_dense_block`), or None when they
    emit no pair. The (pair, position in A of the shared shingle) keys are sorted: a pair's
    first key holds its first shared shingle, the count of its keys the shingles shared
    inside both prefixes."""
    e0, e1 = int(ix.ent_off[d0]), int(ix.ent_off[d1])
    cnt = ix.emit[e0:e1]
    if not cnt.any():
        return None
    key = np.repeat(ix.doc[e0:e1] - d0, cnt).astype(np.int64)
    key *= n
    key += ix.s_doc[_ranges(ix.qpos[e0:e1] + 1, cnt)]
    key <<= pbits
    key |= np.repeat(ix.pos[e0:e1], cnt)
    key.sort()
    pair = key >> pbits
    first = np.ones(pair.size, dtype=bool)
    np.not_equal(pair[1:], pair[:-1], out=first[1:])
    at = np.flatnonzero(first)
    C = np.diff(np.append(at, pair.size))
    PA = key[at] & ((1 << pbits) - 1)
    pair = pair[at]
    return pair // n + d0, pair % n, C, PA


def _measure(flat: np.ndarray, off: np.ndarray, sizes: np.ndarray, plen: np.ndarray,
             A: np.ndarray, B: np.ndarray, C: np.ndarray, PA: np.ndarray, lower: float,
             found: tuple[list, list, list]) -> int:
    """Steps 4 and 5 for the candidate pairs (A[i], B[i]): the bounds, then the pairs left
    measured exactly, those at ``lower`` or above appended to ``found``. Returns how many
    were measured."""
    sa, sb = sizes[A], sizes[B]
    need = lower * (sa + sb) / (1 + lower) - _EPS  # |A & B| needed for J >= lower
    ok = lower * sb <= sa + _EPS  # size filter (sa <= sb)
    # a shared shingle not counted in C lies after the end of A's prefix or of B's:
    # at most the rest of the one that ends first
    pa, pb = plen[A], plen[B]
    a_first = flat[off[A] + pa - 1] <= flat[off[B] + pb - 1]
    ok &= C + np.where(a_first, sa - pa, sb - pb) >= need
    ok &= sa - PA >= need  # the first shared shingle and A's rest after it
    A, B, PA, C, a_first = A[ok], B[ok], PA[ok], C[ok], a_first[ok]
    # |A & B| = C + the shared shingles after the prefix that ends first (X's rest),
    # or = the shared shingles of A from PA on: look up the shorter rest in the other
    X = np.where(a_first, A, B)
    Y = np.where(a_first, B, A)
    xs = plen[X]
    tail_first = sizes[X] - xs < sizes[A] - PA
    X = np.where(tail_first, X, A)
    Y = np.where(tail_first, Y, B)
    xs = np.where(tail_first, xs, PA)
    add = np.where(tail_first, C, 0)
    for sel, inter in _verify(flat, off, X, xs, Y):
        inter += add[sel]
        a, b = A[sel], B[sel]
        good = inter / (sizes[a] + sizes[b] - inter) >= lower
        found[0].append(a[good])
        found[1].append(b[good])
        found[2].append(inter[good])
    return A.size


def _pairs_found(found: tuple[list, list, list], sizes: np.ndarray, by_size: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, b, |A & B|) of the pairs ``found`` (files by size rank) and of the pairs of empty
    texts (equal: textsim.jaccard), as input indices a < b, sorted."""
    out_a, out_b, out_i = found
    empty = np.flatnonzero(sizes == 0)
    if empty.size > 1:  # two empty texts are equal (textsim.jaccard)
        ia, ib = np.triu_indices(empty.size, 1)
        out_a.append(empty[ia])
        out_b.append(empty[ib])
        out_i.append(np.zeros(ia.size, dtype=np.int64))
    if not out_a:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, np.int64)
    a = by_size[np.concatenate(out_a)]
    b = by_size[np.concatenate(out_b)]
    inter = np.concatenate(out_i).astype(np.int64)
    a, b = np.minimum(a, b), np.maximum(a, b)
    o = np.lexsort((b, a))
    return a[o], b[o], inter[o]


def _verify(flat: np.ndarray, off: np.ndarray, X: np.ndarray, xs: np.ndarray,
            Y: np.ndarray):
    """Yield (selection, |X[xs:] & Y|) for blocks of the pairs (X[i], Y[i]).

    Pairs are grouped by Y; Y's shingles go into a small open hash table (slot: low bits of
    the key, which are hash bits), so each of X's shingles is looked up by one gather; the
    few shingles that land on a slot two of Y's shingles share are looked up by binary
    search.
    """
    o = np.argsort(Y, kind="stable")
    ln = (off[X + 1] - off[X] - xs)[o]
    cum = np.cumsum(ln)
    s0 = 0
    while s0 < o.size:
        base = int(cum[s0 - 1]) if s0 else 0
        s1 = max(int(np.searchsorted(cum, base + VERIFY_BLOCK, side="right")), s0 + 1)
        sel = o[s0:s1]
        y_of, la = Y[sel], ln[s0:s1]
        vals = flat[_ranges(off[X[sel]] + xs[sel], la)]
        hit = np.zeros(vals.size, dtype=bool)
        seg = np.zeros(la.size + 1, dtype=np.int64)
        np.cumsum(la, out=seg[1:])
        run = np.flatnonzero(np.diff(y_of, prepend=-1))
        run_end = np.append(run[1:], y_of.size)
        for r0, r1 in zip(run.tolist(), run_end.tolist()):
            y = int(y_of[r0])
            lo, hi = int(seg[r0]), int(seg[r1])
            hit[lo:hi] = _member(vals[lo:hi], flat[off[y]:off[y + 1]])
        c = np.zeros(hit.size + 1, dtype=np.int64)
        np.cumsum(hit, out=c[1:])
        yield sel, c[seg[1:]] - c[seg[:-1]]
        s0 = s1


def _member(v: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Which of ``v`` are in the sorted distinct keys ``ys`` (exact)."""
    if v.size < 64 or ys.size < 16:
        p = np.searchsorted(ys, v)
        np.minimum(p, max(ys.size - 1, 0), out=p)
        return ys[p] == v if ys.size else np.zeros(v.size, dtype=bool)
    bits = max(10, (4 * ys.size).bit_length())
    mask = np.uint64((1 << bits) - 1)
    table = np.arange(1 << bits, dtype=np.uint64)
    table ^= np.uint64(1)  # an empty slot holds a key no shingle of that slot has
    slot = (ys & mask).astype(np.intp)
    table[slot] = ys
    hit = table[(v & mask).astype(np.intp)] == v
    ss = np.sort(slot)
    shared = ss[1:][ss[1:] == ss[:-1]]
    if shared.size:  # slots two of Y's shingles fell on: binary search there
        crowded = np.zeros(1 << bits, dtype=bool)
        crowded[shared] = True
        redo = np.flatnonzero(crowded[(v & mask).astype(np.intp)])
        p = np.searchsorted(ys, v[redo])
        np.minimum(p, ys.size - 1, out=p)
        hit[redo] = ys[p] == v[redo]
    return hit


def reference_truth(names: list[str], texts: Sequence[str], threshold: float,
                    fingerprints: Sequence[int] | None = None, sample: int = DEFAULT_SAMPLE,
                    seed: int = 0, job: Job = NULL_JOB, workers: int = 0) -> PairTruth:
    """Exact truth of every pair: duplicate at J >= ``threshold``, not below 0.50 (or below
    ``threshold`` if that is lower), grey zone between (label -1, left out of the scores).

    The truth is closed-world: it lists the duplicate and grey pairs; every other pair is
    provably different. ``fingerprints``, ``sample`` and ``seed`` are ignored (nothing is
    sampled); they stay for callers. ``workers``: processes for shingling (0: one per core).
    """
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"threshold must be in (0, 1], not {threshold}")
    if len(names) != len(texts):
        raise ValueError("one text per name")
    t0 = time.perf_counter()
    sets = shingle_sets(texts, job, workers)
    t_sh = time.perf_counter() - t0
    lower = min(DIFFERENT_BELOW, threshold)
    sp = similar_pairs(sets, lower, job, consume=True)
    j = sp.j
    label = np.where(j >= threshold, 1, -1).astype(np.int8)
    npos = int((label == 1).sum())
    grey = int((label == -1).sum())
    total = sp.total
    grey_txt = (f"{grey} grey-zone pairs ({lower} <= J < {threshold}) left out of the scores"
                if lower < threshold else "no grey zone")
    sampling = (f"exact, no sampling: all {total} pairs of {sp.n} files; prefix filtering at "
                f"J >= {lower} gave {sp.candidates} candidate pairs, {sp.measured} candidate "
                f"pairs measured exactly after the size and position filters; the other "
                f"{total - sp.measured} pairs are provably below {lower} (different); "
                f"{npos} duplicate pairs, {grey_txt}; {time.perf_counter() - t0:.1f} s "
                f"({t_sh:.1f} s shingling, {sp.seconds:.1f} s join)")
    rule = (f"reference: duplicate when the exact Jaccard similarity J of the character "
            f"{SHINGLE}-gram sets of the normalised texts (shared/near-duplicate.md) is >= "
            f"{threshold}; different when J < {lower}"
            + (f"; {lower} <= J < {threshold} is a grey zone left out of the scores"
               if lower < threshold else ""))
    return PairTruth(list(names), sp.a, sp.b, label, np.ones(label.size), True, rule,
                     f"reference Jaccard >= {threshold}", sampling)
