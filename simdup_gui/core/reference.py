"""Reference similarity for folders without labels: exact shingle Jaccard.

Each text is normalised (NFKC, case folded, whitespace removed) and cut into
character 5-grams, hashed to 64 bits (collisions ~ 2^-64: exact for our purpose).
Measuring every pair is O(N^2), so pairs are split in two:

- candidates: pairs found by MinHash LSH on the same shingles (16 bands of 3 rows:
  a pair at Jaccard 0.7 is a candidate with probability 0.999, at 0.5 with 0.88) and
  pairs within Hamming distance 32 of each other's 128-bit SimHash; all measured;
- every other pair: a uniform random sample is measured, and each sampled pair
  stands for (other pairs / sample size) pairs in the counts.

Small folders (<= ``CENSUS_PAIRS`` pairs) are measured completely.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from .features import normalise
from .job import NULL_JOB, Job
from .models import ProgressEvent
from .truth import PairTruth

SHINGLE = 5
BANDS, ROWS = 16, 3
SIMHASH_BITS, SIMHASH_DISTANCE = 128, 32
CENSUS_PAIRS = 20000
DEFAULT_SAMPLE = 3000
_WS = re.compile(r"\s+")
_C1, _C2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a good 64-bit bit mixer."""
    x = x ^ (x >> np.uint64(30))
    x = x * _C1
    x = x ^ (x >> np.uint64(27))
    x = x * _C2
    return x ^ (x >> np.uint64(31))


def shingles(text: str, n: int = SHINGLE) -> np.ndarray:
    """Sorted distinct 64-bit hashes of the character n-grams of the normalised text."""
    t = _WS.sub("", normalise(text))
    if not t:
        return np.zeros(0, dtype=np.uint64)
    cps = np.frombuffer(t.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    if len(cps) < n:
        cps = np.concatenate((cps, np.zeros(n - len(cps), dtype=np.uint64)))
    m = len(cps) - n + 1
    h = np.zeros(m, dtype=np.uint64)
    for j in range(n):
        h = _mix(h ^ cps[j : j + m])
    return np.unique(h)


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Exact Jaccard similarity of two sorted distinct shingle arrays."""
    if a.size == 0 and b.size == 0:
        return 1.0
    inter = np.intersect1d(a, b, assume_unique=True).size
    return inter / (a.size + b.size - inter)


def _minhash(sh: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    if sh.size == 0:
        return np.full(seeds.size, np.iinfo(np.uint64).max, dtype=np.uint64)
    return _mix(sh[:, None] ^ seeds[None, :]).min(axis=0)


def lsh_candidates(sets: Sequence[np.ndarray]) -> set[tuple[int, int]]:
    """Pairs sharing at least one MinHash band."""
    rng = np.random.default_rng(20240601)
    seeds = rng.integers(0, 2**63, size=BANDS * ROWS, dtype=np.uint64)
    sigs = np.stack([_minhash(s, seeds) for s in sets]) if sets else np.zeros((0, BANDS * ROWS))
    out: set[tuple[int, int]] = set()
    for band in range(BANDS):
        buckets: dict[bytes, list[int]] = defaultdict(list)
        rows = sigs[:, band * ROWS : (band + 1) * ROWS]
        for i in range(len(sets)):
            if sets[i].size:
                buckets[rows[i].tobytes()].append(i)
        for members in buckets.values():
            for x in range(len(members)):
                for y in range(x + 1, len(members)):
                    out.add((members[x], members[y]))
    return out


def simhash_candidates(fps: Sequence[int]) -> set[tuple[int, int]]:
    """Pairs within distance 32 at 128 bits (identical fingerprints included)."""
    from .index import all_pairs

    return all_pairs(list(fps), SIMHASH_BITS, SIMHASH_DISTANCE)


def reference_truth(names: list[str], texts: Sequence[str], threshold: float,
                    fingerprints: Sequence[int] | None = None, sample: int = DEFAULT_SAMPLE,
                    seed: int = 0, job: Job = NULL_JOB) -> PairTruth:
    """Label pairs duplicate when their shingle Jaccard is >= ``threshold``."""
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"threshold must be in (0, 1], not {threshold}")
    if sample < 1:
        raise ValueError(f"sample must be >= 1, not {sample}")
    if len(names) != len(texts):
        raise ValueError("one text per name")
    n = len(texts)
    sets = []
    for i, t in enumerate(texts):
        sets.append(shingles(t))
        if i % 50 == 0:
            job.check()
            job.report(ProgressEvent("reference", i, n))
    total = n * (n - 1) // 2
    rng = random.Random(seed)
    if total <= CENSUS_PAIRS:
        cand = [(i, j) for i in range(n) for j in range(i + 1, n)]
        others: list[tuple[int, int]] = []
        weight_other = 1.0
        sampling = (f"all {total} pairs measured exactly (character {SHINGLE}-gram Jaccard, "
                    f"duplicate at >= {threshold})")
    else:
        cset = lsh_candidates(sets)
        if fingerprints is not None:
            cset |= simhash_candidates(fingerprints)
        cand = sorted(cset)
        rest = total - len(cand)
        k = min(sample, rest)
        picked: set[tuple[int, int]] = set()
        while len(picked) < k:
            i, j = rng.randrange(n), rng.randrange(n)
            if i != j:
                p = (min(i, j), max(i, j))
                if p not in cset:
                    picked.add(p)
        others = sorted(picked)
        weight_other = rest / k if k else 0.0
        sampling = (f"{len(cand)} candidate pairs (MinHash LSH {BANDS}x{ROWS} on character "
                    f"{SHINGLE}-grams, and 128-bit SimHash distance <= {SIMHASH_DISTANCE}) "
                    f"measured exactly; of the other {rest} pairs a uniform random sample of "
                    f"{k} (seed {seed}) was measured, each standing for {weight_other:.1f} "
                    f"pairs; duplicate at Jaccard >= {threshold}")
    pairs = cand + others
    lab = np.zeros(len(pairs), dtype=np.int8)
    for x, (i, j) in enumerate(pairs):
        if x % 2000 == 0:
            job.check()
            job.report(ProgressEvent("reference", x, len(pairs)))
        lab[x] = 1 if jaccard(sets[i], sets[j]) >= threshold else 0
    weight = np.concatenate((np.ones(len(cand)), np.full(len(others), weight_other)))
    a = np.array([p[0] for p in pairs], dtype=np.int64)
    b = np.array([p[1] for p in pairs], dtype=np.int64)
    rule = (f"reference: duplicate when the exact Jaccard similarity of character "
            f"{SHINGLE}-gram sets of the normalised text is >= {threshold}, else not")
    return PairTruth(list(names), a, b, lab, weight, False, rule,
                     f"reference Jaccard >= {threshold}", sampling)
