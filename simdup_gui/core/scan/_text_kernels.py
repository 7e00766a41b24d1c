"""Compiled kernels over a text's code points and its shingles (numba; through
:func:`kernels.impl`), bit-identical to the numpy path (textsim.py, unicode_tables.py):

- :func:`fold`: casefold(NFKC(text)) by a table, where that is exact
  (unicode_tables._FoldTable);
- :func:`prepare`: a chunk's invisible characters and whitespace dropped, its feature text
  and CJK count, in one pass (instead of a regex, two splits and numpy range tests);
- :func:`gram_hashes` and :func:`sketch_hashes` (:func:`sketch_sorted` for sorted hashes):
  the 5-gram hashes of the definition, their distinct count and the bottom-k sketch;
- :func:`intersect_count`: the intersection of two sorted shingle sets, for an exact J;
- :func:`estimate_pairs`: the bottom-k estimate of J of many pairs of sketches
  (textsim.estimate);
  :func:`distinct_hashes` and :func:`intersect_hashed`: the same without sorting (measuring
  a doubtful pair's files); :func:`hashed_table` and :func:`count_hashed`: one set looked
  up many times (a whole and its excerpts).
"""

from __future__ import annotations

import numpy as np

from ._njit import jit

_U0 = np.uint64(0)
_S1 = np.uint64(0xBF58476D1CE4E5B9)
_S2 = np.uint64(0x94D049BB133111EB)
_PAD = np.uint64(0x1FFFFF)


@jit
def _mix64(x):
    x ^= x >> np.uint64(30)
    x *= _S1
    x ^= x >> np.uint64(27)
    x *= _S2
    x ^= x >> np.uint64(31)
    return x


@jit
def gram_hashes(c):
    """textsim.gram_hashes of the code points ``c`` (uint32): one 64-bit hash per 5-gram,
    in order; fewer than five code points give one hash of them padded; none give none."""
    n = c.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    if n < 5:
        p = np.full(5, _PAD, dtype=np.uint64)
        for i in range(n):
            p[i] = np.uint64(c[i])
        hi = (p[0] << np.uint64(42)) | (p[1] << np.uint64(21)) | p[2]
        lo = (p[3] << np.uint64(21)) | p[4]
        out = np.empty(1, dtype=np.uint64)
        out[0] = _mix64(hi ^ _mix64(lo + _S1))
        return out
    m = n - 4
    out = np.empty(m, dtype=np.uint64)
    for i in range(m):
        hi = ((np.uint64(c[i]) << np.uint64(42)) | (np.uint64(c[i + 1]) << np.uint64(21))
              | np.uint64(c[i + 2]))
        lo = (np.uint64(c[i + 3]) << np.uint64(21)) | np.uint64(c[i + 4])
        out[i] = _mix64(hi ^ _mix64(lo + _S1))
    return out


@jit
def prepare(c, cls):
    """One pass over the code points ``c`` of a normalised (NFKC, casefolded) chunk, for
    FeatureBuilder.add: (the definition's string: ``textsim.solid(drop_invisible(text))``,
    the feature text of a chunk with little CJK: ``" ".join(ws_between_cjk().sub("",
    t).split())`` of ``t = drop_invisible(text)``, how many CJK ideographs the first holds,
    how many surrogates). ``cls`` classes the BMP (unicode_tables.char_classes): 1 whitespace
    (str.isspace, which is re's \\s), 2 invisible (textsim's), 4 CJK (unicode_tables.CJK_CLASS);
    above the BMP nothing is whitespace or invisible and U+20000-U+2FFFF is CJK."""
    n = c.shape[0]
    flat = np.empty(n, dtype=np.uint32)
    feat = np.empty(n, dtype=np.uint32)
    nf = 0
    nt = 0
    cjk = 0
    sur = 0
    pending = False  # whitespace since the last character kept (and one was kept)
    prev = False  # the last character kept is CJK
    for i in range(n):
        x = np.uint32(c[i])
        if x < 0x10000:
            k = cls[x]
        else:
            k = 4 if 0x20000 <= x <= 0x2FFFF else 0
        if k & 2:
            continue
        if k & 1:
            pending = nt > 0
            continue
        j = (k & 4) != 0
        if pending:
            if not (prev and j):  # a run between two CJK ideographs goes, others: a space
                feat[nt] = 32
                nt += 1
            pending = False
        feat[nt] = x
        nt += 1
        flat[nf] = x
        nf += 1
        if j:
            cjk += 1
        elif 0xD800 <= x <= 0xDFFF:
            sur += 1
        prev = j
    return flat[:nf], feat[:nt], cjk, sur


@jit
def fold(c, stable, start, size, buf):
    """``casefold(NFKC(text))`` of the code points ``c`` of a text, character by character
    through unicode_tables._FoldTable (``buf[start[x] : start[x] + size[x]]`` for code point
    ``x``; one entry past the table's end stands for every code point above it); None when
    a character is not ``stable`` (it may combine with its neighbours: NFKC of the whole
    text is needed)."""
    n = c.shape[0]
    top = stable.shape[0] - 1
    total = 0
    for i in range(n):
        x = min(np.int64(c[i]), top)
        if not stable[x]:
            return None
        total += size[x]
    out = np.empty(total, dtype=np.uint32)
    k = 0
    for i in range(n):
        x = min(np.int64(c[i]), top)
        a = start[x]
        for t in range(size[x]):
            out[k] = buf[a + t]
            k += 1
    return out


@jit
def intersect_count(a, b):
    """|a & b| of two sorted arrays of distinct values (textsim.intersection_size): one
    merge, its steps without branches."""
    na = a.shape[0]
    nb = b.shape[0]
    i = 0
    j = 0
    c = 0
    while i < na and j < nb:
        x = a[i]
        y = b[j]
        c += x == y
        i += x <= y
        j += y <= x
    return c


@jit
def estimate_pairs(sk, a, b, empty, est, whole):
    """textsim.estimate into ``est`` and ``whole``: for each pair (a[p], b[p]) of rows of the
    sketches ``sk`` (each row sorted, ``empty`` filling a sketch that is not full), one merge
    of the two rows over the k smallest distinct values of their union; a value is in both
    when it occurs twice or more in the two rows (as in the numpy path's sorted union)."""
    k = sk.shape[1]
    for p in range(a.shape[0]):
        x = sk[a[p]]
        y = sk[b[p]]
        i = 0
        j = 0
        union = 0
        both = 0
        while union < k:
            u = x[i] if i < k else empty
            w = y[j] if j < k else empty
            v = u if u < w else w
            if v == empty:
                break
            seen = 0
            while i < k and x[i] == v:
                i += 1
                seen += 1
            while j < k and y[j] == v:
                j += 1
                seen += 1
            union += 1
            both += seen >= 2
        est[p] = both / union if union > 0 else 1.0
        whole[p] = x[k - 1] == empty and y[k - 1] == empty


@jit
def _bottom_tops(h, k):
    """The ``k`` smallest distinct high halves of the sorted hashes ``h`` (a value 0xFFFFFFFF
    folded onto 0xFFFFFFFE after the halves are told apart), padded with 0xFFFFFFFF, and how
    many were found."""
    out = np.full(k, np.uint32(0xFFFFFFFF), dtype=np.uint32)
    got = 0
    last = np.uint64(0)
    for i in range(h.shape[0]):
        if got == k:
            break
        top = h[i] >> np.uint64(32)
        if got == 0 or top != last:
            last = top
            out[got] = np.uint32(min(top, np.uint64(0xFFFFFFFE)))
            got += 1
    return out, got


@jit
def sketch_sorted(h, k):
    """textsim.make_sketch of the sorted 64-bit hashes ``h`` (repeats allowed): the ``k``
    smallest distinct high 32-bit halves (a value 0xFFFFFFFF folded onto 0xFFFFFFFE) padded
    with 0xFFFFFFFF, and the number of distinct 64-bit hashes."""
    out, _ = _bottom_tops(h, k)  # (a repeat has its neighbour's high half: skipped there)
    distinct = 0
    for i in range(h.shape[0]):
        if i == 0 or h[i] != h[i - 1]:
            distinct += 1
    return out, distinct


SKETCH_HASHED_MAX = 1 << 17  # hashes: above, sorted in place instead (the table and the
# distinct values take 24-40 bytes a hash: 3 MB here; a 750,000-hash file of the 100 MB mix
# added 22 MB to its worker's peak at 1 << 20)


@jit
def _slot(table, mask, x):
    """Where the hash ``x`` (not 0) is in the open-addressing ``table`` (0: empty; ``mask``:
    its size - 1), or the empty slot where it would go: a hash is uniform already, so its
    low bits are its first slot; then the next ones."""
    j = x & mask
    y = table[j]
    while y != x and y != _U0:
        j = (j + np.uint64(1)) & mask
        y = table[j]
    return j


@jit
def _distinct(h, table, uniq):
    """The distinct values of the 64-bit hashes ``h`` into ``uniq`` (first seen first),
    through ``table`` (zeros, a power of two at least twice ``h``'s length, :func:`_slot`;
    a hash 0 is kept apart); their number."""
    mask = np.uint64(table.shape[0] - 1)
    distinct = 0
    zero = False
    for i in range(h.shape[0]):
        x = h[i]
        if x == _U0:
            if not zero:
                zero = True
                uniq[distinct] = x
                distinct += 1
            continue
        j = _slot(table, mask, x)
        if table[j] == _U0:
            table[j] = x
            uniq[distinct] = x
            distinct += 1
    return distinct


@jit
def _table_size(n):
    size = 16
    while size < 2 * n:
        size <<= 1
    return size


@jit
def distinct_hashes(h):
    """The distinct values of the 64-bit hashes ``h``, in the order first seen: a shingle
    set for :func:`intersect_hashed` (textsim.jaccard_distinct), without the sort."""
    uniq = np.empty(h.shape[0], dtype=np.uint64)
    n = _distinct(h, np.zeros(_table_size(h.shape[0]), dtype=np.uint64), uniq)
    return uniq[:n].copy()


@jit
def intersect_hashed(a, b):
    """|a & b| of two arrays of distinct 64-bit hashes in any order: the smaller one in an
    open-addressing table, the larger looked up in it."""
    if a.shape[0] > b.shape[0]:
        a, b = b, a
    if a.shape[0] == 0:
        return 0
    table, zero = hashed_table(a)
    return count_hashed(table, zero, b)


@jit
def hashed_table(a):
    """(table, zero): the distinct 64-bit hashes ``a`` (any order) in an open-addressing
    table (:func:`_slot`), and whether 0 (kept apart) is one of them; made once, many sets
    can be looked up in it (:func:`count_hashed`)."""
    table = np.zeros(_table_size(a.shape[0]), dtype=np.uint64)
    mask = np.uint64(table.shape[0] - 1)
    zero = False
    for i in range(a.shape[0]):
        x = a[i]
        if x == _U0:
            zero = True
            continue
        table[_slot(table, mask, x)] = x
    return table, zero


@jit
def count_hashed(table, zero, b):
    """How many of the distinct 64-bit hashes ``b`` (any order) are in the set of
    :func:`hashed_table` (``table``, ``zero``)."""
    mask = np.uint64(table.shape[0] - 1)
    c = 0
    for i in range(b.shape[0]):
        x = b[i]
        if x == _U0:
            c += zero
            continue
        c += table[_slot(table, mask, x)] == x
    return c


@jit
def sketch_hashes(h, k):
    """``sketch_sorted(np.sort(h), k)`` without sorting ``h`` (64-bit hashes, repeats
    allowed, in any order): the distinct hashes are counted through an open-addressing table
    (:func:`_distinct`), and only those whose high half is under a bound that about 3k of
    them pass are sorted; all of them when fewer than k distinct halves are under it. 7
    times faster than the sort on 4,600 hashes (numpy's quicksort of uint64 takes 20-25 ns
    a value on the machine measured, an AMD EPYC)."""
    n = h.shape[0]
    table = np.zeros(_table_size(n), dtype=np.uint64)
    uniq = np.empty(n, dtype=np.uint64)
    distinct = _distinct(h, table, uniq)
    if distinct > 3 * k:
        bound = np.uint64((3 * k * 0x100000000) // distinct)
        c = 0
        for i in range(distinct):  # into the table, which is no longer needed
            if (uniq[i] >> np.uint64(32)) < bound:
                table[c] = uniq[i]
                c += 1
        out, got = _bottom_tops(np.sort(table[:c]), k)
        if got == k:
            return out, distinct
    out, got = _bottom_tops(np.sort(uniq[:distinct]), k)
    return out, distinct
