"""What a near-duplicate is, measured: character 5-gram Jaccard of the normalised text.

One definition for the engine's verification, the accuracy lab, the tests and the README
(``shared/near-duplicate.md``):

1. decode the file (done by the caller; a BOM is not text);
2. NFKC, case folding, drop U+FEFF, U+200B, U+200C, U+200D, U+2060 and U+00AD, delete every
   whitespace character (deleted, not collapsed: a re-wrap of Chinese puts line breaks
   inside words, so every copy, re-encoding, CRLF change and re-wrap is exactly J = 1);
3. the SET of character 5-grams (a string shorter than 5 characters is one shingle, itself);
4. J = |A & B| / |A | B|. Near-duplicates at J >= 0.70 (the default, a user setting),
   different below 0.50, a grey zone between.

Shingles are hashed to 64 bits (five 21-bit code points packed into two words, then mixed:
collisions about n^2 / 2^65, nothing at the sizes we meet). A file keeps a *sketch*: the
``SKETCH_K`` smallest distinct 32-bit shingle hashes (a bottom-k sketch, 512 bytes), plus the
number of distinct shingles. Two sketches estimate J without the texts; a set of at most
``SKETCH_K`` shingles is held whole, so short texts are compared exactly.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

import numpy as np

SHINGLE = 5
SKETCH_K = 128
SKETCH_BYTES = 4 * SKETCH_K
SKETCH_NAME = f"j{SHINGLE}b{SKETCH_K}"  # in the cache key: changes when sketches could
EMPTY = np.uint32(0xFFFFFFFF)  # fills a sketch of a set with fewer than SKETCH_K shingles
DEFAULT_SIMILARITY = 0.70
DIFFERENT_BELOW = 0.50

_INVISIBLE = re.compile("[\ufeff\u200b\u200c\u200d\u2060\u00ad]")
_C1, _C2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S21, _S42 = np.uint64(21), np.uint64(42)


def drop_invisible(text: str) -> str:
    """``text`` without BOM, zero-width (non-)joiners, word joiner and soft hyphens."""
    return _INVISIBLE.sub("", text) if _INVISIBLE.search(text) else text


def solid(text: str) -> str:
    """``text`` with every whitespace character deleted (str.split's whitespace is re's \\s)."""
    return "".join(text.split())


def normalise(text: str) -> str:
    """The normalised string of the definition (NFKC, casefold, invisible and spaces gone)."""
    if not text.isascii():
        if not unicodedata.is_normalized("NFKC", text):  # a C quick check, often true
            text = unicodedata.normalize("NFKC", text)
        text = drop_invisible(text)
    return solid(text.casefold())


def sorted_unique(a: np.ndarray) -> np.ndarray:
    """np.unique for one flat array, by sort and compare (numpy 2's hash-based unique is
    several times slower on these arrays)."""
    a = np.sort(a)
    if len(a) < 2:
        return a
    keep = np.empty(len(a), dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a good 64-bit bit mixer (in place on a fresh array)."""
    x ^= x >> np.uint64(30)
    x *= _C1
    x ^= x >> np.uint64(27)
    x *= _C2
    x ^= x >> np.uint64(31)
    return x


def _codepoints(s: str) -> np.ndarray:
    return np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.uint64)


def gram_hashes(s: str) -> np.ndarray:
    """64-bit hashes of every character 5-gram of a normalised string, in order, repeats kept.

    A string shorter than five characters gives one hash, of itself (padded); an empty
    string gives none.
    """
    return points_gram_hashes(_codepoints(s) if s else np.zeros(0, dtype=np.uint64))


def points_gram_hashes(c: np.ndarray) -> np.ndarray:
    """:func:`gram_hashes` of the string whose code points (uint64) are ``c``."""
    if not len(c):
        return np.zeros(0, dtype=np.uint64)
    if len(c) < SHINGLE:
        # one shingle, itself: pad with a value no code point has, so "ab" != "ab\x00"
        c = np.concatenate((c, np.full(SHINGLE - len(c), 0x1FFFFF, dtype=np.uint64)))
    m = len(c) - SHINGLE + 1
    hi = (c[:m] << _S42) | (c[1 : m + 1] << _S21) | c[2 : m + 2]
    lo = (c[3 : m + 3] << _S21) | c[4 : m + 4]
    return mix64(hi ^ mix64(lo + _C1))


def shingle_set(text: str) -> np.ndarray:
    """Sorted distinct shingle hashes of a raw (decoded) text."""
    return sorted_unique(gram_hashes(normalise(text)))


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Exact J of two sorted distinct shingle arrays (two empty texts are equal: 1.0)."""
    if a.size == 0 and b.size == 0:
        return 1.0
    return (inter := intersection_size(a, b)) / (a.size + b.size - inter)


def intersection_size(a: np.ndarray, b: np.ndarray) -> int:
    """|a & b| of two sorted distinct arrays: the smaller one looked up in the larger
    (binary search; np.intersect1d sorts both again)."""
    small, big = (a, b) if a.size <= b.size else (b, a)
    if small.size == 0:
        return 0
    from .scan import kernels

    if kernels.active() and a.dtype == b.dtype == np.uint64:  # one merge, compiled
        return int(kernels.impl().intersect_count(a, b))
    return _sorted_intersection(small, big)


def _sorted_intersection(a: np.ndarray, b: np.ndarray) -> int:
    """|a & b| of two sorted distinct arrays, by binary search of the smaller in the larger
    (numpy: no kernel to load)."""
    small, big = (a, b) if a.size <= b.size else (b, a)
    if small.size == 0:
        return 0
    at = np.searchsorted(big, small)
    at[at == big.size] = big.size - 1
    return int(np.count_nonzero(big[at] == small))


def jaccard_distinct(a: np.ndarray, b: np.ndarray) -> float:
    """:func:`jaccard` of two distinct shingle arrays in any order
    (``shingles.distinct_shingles``: unsorted only where the compiled kernels made them)."""
    if a.size == 0 and b.size == 0:
        return 1.0
    inter = intersection_distinct(a, b)
    return inter / (a.size + b.size - inter)


WHOLE_TABLE_MAX = 1 << 20  # shingles of a whole put in a table (at most 16 MB, one at a time)


def whole_lookup(whole: np.ndarray) -> tuple:
    """A whole's distinct shingle array (as :func:`jaccard_distinct` takes them) made ready
    to look many parts up in (:func:`containment_in`): in an open-addressing table where the
    compiled kernels are on and it has at most WHOLE_TABLE_MAX shingles, sorted otherwise
    (the 768 MB tree's 5,017 pairs with a whole above SKETCH_HASHED_MAX took 6.6 s of CPU
    sorted and searched). :func:`intersection_distinct` made a table of the smaller set, the
    part, and went through the whole's for each part: on that tree the excerpts' 97,452
    doubtful pairs took 22.2 s of CPU that way, 3.9 s with each whole's table made once
    (2.2 s) and their parts looked up in it (1.7 s). A cold scan of that tree, this and
    excerpts._measure_order together: 111.2 -> 98.6 CPU s of the process tree (medians of
    three runs each, alternating, benchmarks/largetree.py; the same 5,094 groups)."""
    from .scan import kernels

    if kernels.active() and whole.dtype == np.uint64 and whole.size <= WHOLE_TABLE_MAX:
        return kernels.impl().hashed_table(whole)
    return np.sort(whole), None


def containment_in(part: np.ndarray, lookup: tuple) -> float:
    """|part & whole| / |part| of a distinct shingle array ``part`` in a whole made ready by
    :func:`whole_lookup` (an empty part: 1.0). In a sorted whole, the part's shingles are
    searched sorted: the searches then go through the whole in order (2.3 times faster on
    the 768 MB tree's pairs than unsorted)."""
    return count_in(part, lookup) / part.size if part.size else 1.0


def count_in(part: np.ndarray, lookup: tuple) -> int:
    """How many of the distinct values ``part`` (uint64) are in a set made ready by
    :func:`whole_lookup`."""
    table, zero = lookup
    if zero is not None:  # the kernels' table
        from .scan import kernels

        return int(kernels.impl().count_hashed(table, zero, part))
    if not table.size or not part.size:
        return 0
    part = np.sort(part)
    at = np.minimum(np.searchsorted(table, part), table.size - 1)
    return int(np.count_nonzero(table[at] == part))


def intersection_distinct(a: np.ndarray, b: np.ndarray) -> int:
    """|a & b| of two distinct shingle arrays (see :func:`jaccard_distinct`)."""
    from .scan import kernels

    if (kernels.loaded() and a.dtype == b.dtype == np.uint64
            and min(a.size, b.size) <= kernels.impl().SKETCH_HASHED_MAX):
        inter = int(kernels.impl().intersect_hashed(a, b))
    else:  # no kernels in this process, or two sets too large for a table (which is made
        # for at most SKETCH_HASHED_MAX hashes): both came sorted
        inter = _sorted_intersection(a, b)
    return inter


def text_similarity(a: str, b: str) -> float:
    """J of two raw texts, by the definition."""
    return jaccard(shingle_set(a), shingle_set(b))


class ShingleBuilder:
    """Shingles of a text that arrives in chunks (a 5-gram may straddle two chunks).

    ``add`` takes text already NFKC-normalised and case-folded (the feature pipeline's);
    invisible characters and whitespace are removed here.
    """

    def __init__(self) -> None:
        self._parts: list[np.ndarray] = []
        self._tail = ""
        self._short = ""  # the whole text while it is shorter than one shingle
        self.chars = 0

    def add(self, folded: str) -> None:
        self.add_clean(solid(folded if folded.isascii() else drop_invisible(folded)))

    def add_clean(self, s: str) -> None:
        """Add text already normalised by the definition (no invisible chars, no spaces)."""
        if not s:
            return
        self.chars += len(s)
        s = self._tail + s
        if self.chars < SHINGLE:
            self._tail = self._short = s
            return
        self._parts.append(gram_hashes(s))
        self._tail = s[-(SHINGLE - 1):]

    def hashes(self) -> np.ndarray:
        """Sorted distinct shingle hashes of everything added."""
        if self.chars < SHINGLE:
            return sorted_unique(gram_hashes(self._short))
        if len(self._parts) == 1:
            return sorted_unique(self._parts[0])
        return sorted_unique(np.concatenate(self._parts))

    def sketch(self) -> tuple[bytes, int]:
        """(bottom-k sketch as bytes, number of distinct shingles)."""
        return make_sketch(self.hashes())


def make_sketch(hashes: np.ndarray) -> tuple[bytes, int]:
    """The ``SKETCH_K`` smallest distinct 32-bit values of a shingle set (sorted distinct
    hashes, as shingle_set gives), as little-endian uint32 bytes, padded with 0xFFFFFFFF;
    and the number of distinct shingles."""
    # the high halves of sorted 64-bit values are sorted: distinct ones by compare
    v = sorted_unique((hashes >> np.uint64(32)).astype(np.uint32))
    # 0xFFFFFFFF marks padding; a real hash of that value is folded onto its neighbour
    v = np.minimum(v, np.uint32(0xFFFFFFFE))
    out = np.full(SKETCH_K, EMPTY, dtype="<u4")
    n = min(SKETCH_K, len(v))
    out[:n] = v[:n]
    return out.tobytes(), int(len(hashes))


def sketch_array(sketches: Iterable[bytes], n: int) -> np.ndarray:
    """(n, SKETCH_K) uint32 array of sketches; a missing sketch (b"") is all padding."""
    arr = np.full((n, SKETCH_K), EMPTY, dtype=np.uint32)
    for i, s in enumerate(sketches):
        if len(s) == SKETCH_BYTES:
            arr[i] = np.frombuffer(s, dtype="<u4")
    return arr


PAIR_BLOCK = 1 << 12  # pairs estimated at once: about 6 MB of temporaries
# From this many pairs, :func:`estimate` runs the compiled merge (scan/_text_kernels.py) in
# a process whose kernels are loaded: the scan's workers, a Dask worker, or a grouping of
# many candidate pairs (measure.py loads them from COMPILED_PAIRS). Grouping the 100,000
# tiny files of benchmarks/tiny_tree.py (warm, 11 million candidate pairs): estimates 37.8
# -> 19.1 s, the whole grouping 136.8 -> 125.8 s (SIMDUP_COMPILED=0 against the default,
# under cProfile)
COMPILED_FROM = 4096


def union_sample(A: np.ndarray, B: np.ndarray,
                 empty=EMPTY) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For rows of sketches ``A`` and ``B``: their values sorted together (C), which of
    them are the k smallest distinct values of the union (the bottom-k estimator's
    sample), and which are followed by the same value (so in both sketches). ``empty``:
    what fills a sketch that is not full (sketches whose values carry a payload in their
    low bits, templates.py, fill with another value)."""
    C = np.sort(np.concatenate((A, B), axis=1), axis=1)
    same_next = np.zeros(C.shape, dtype=bool)
    same_next[:, :-1] = C[:, 1:] == C[:, :-1]
    first = np.ones(C.shape, dtype=bool)
    first[:, 1:] = ~same_next[:, :-1]
    first &= C != empty
    in_union = first & (np.cumsum(first, axis=1, dtype=np.int16) <= SKETCH_K)
    return C, in_union, same_next


def _rows_sorted(sk: np.ndarray) -> bool:
    """Every row of ``sk`` in ascending order (the compiled merge's premise; sketches read
    from a cache or a results file are not trusted to be)."""
    return bool(np.all(sk[:, 1:] >= sk[:, :-1])) if sk.shape[1] > 1 else True


def estimate(sk: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Estimated J of the pairs (a[i], b[i]) from the sketches ``sk`` (see sketch_array).

    Bottom-k estimator: of the k smallest values of the union of both sketches, the share
    present in both. Returns (estimate, exact) where ``exact`` is True when both sets were
    held whole (at most SKETCH_K shingles each): then the estimate is the exact J.
    Compiled where the kernels are loaded (COMPILED_FROM), never loading them: numba costs
    a process 55-90 MB.
    """
    n = len(a)
    est = np.zeros(n, dtype=np.float64)
    whole = np.zeros(n, dtype=bool)
    if n >= COMPILED_FROM:
        from .scan import kernels

        if kernels.loaded() and kernels.allowed() and _rows_sorted(sk):
            kernels.impl().estimate_pairs(np.ascontiguousarray(sk, dtype=np.uint32),
                                          np.ascontiguousarray(a, dtype=np.int64),
                                          np.ascontiguousarray(b, dtype=np.int64), EMPTY,
                                          est, whole)
            return est, whole
    for s in range(0, n, PAIR_BLOCK):
        ia, ib = a[s : s + PAIR_BLOCK], b[s : s + PAIR_BLOCK]
        A, B = sk[ia], sk[ib]
        _, in_union, same_next = union_sample(A, B)
        union = in_union.sum(axis=1)
        both = (in_union & same_next).sum(axis=1)
        est[s : s + PAIR_BLOCK] = np.where(union > 0, both / np.maximum(union, 1), 1.0)
        whole[s : s + PAIR_BLOCK] = (A[:, -1] == EMPTY) & (B[:, -1] == EMPTY)
    return est, whole
