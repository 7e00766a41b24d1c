"""Compiled kernels over tokens (numba; through :func:`kernels.impl`), bit-identical to the
numpy path (vocab.py, features.py, simhash.py):

- :func:`token_ids`: the tokens of a chunk, joined by 0x1F into one UTF-8 buffer, get their
  ids from an open-addressing table keyed by each token's 128-bit mmh3 (the hash the
  vocabulary keeps anyway); tokens never seen are appended and reported to Python, which
  works out their word test and IDF once.
- :func:`cut_ids`: jieba's cut of a slice of text (rjieba's tokens, over jiebadict's trie of
  its dictionary) straight to those ids: a dictionary word or a BMP character by a slot of
  the vocabulary, a short ASCII token by a small cache, other tokens through the table of
  :func:`token_ids`; no Python string is made of a token seen before, nor of a new one
  (:func:`new_tokens` gives the vocabulary their bytes, word test and IDF).
- :func:`fingerprint`: word counts, word-pair counts, weights ``(1 + log c) * idf`` (log from
  the same table of ``math.log`` values the numpy path uses), pair hashes (the mmh3 of the
  two words' hashes), and the 128-bit SimHash in exact integer sums.
"""

from __future__ import annotations

import numpy as np

from ._njit import inline, jit

_U0 = np.uint64(0)
_M8 = np.uint64(0xFF)
_C1 = np.uint64(0x87C37B91114253D5)
_C2 = np.uint64(0x4CF5AD432745937F)
_F1 = np.uint64(0xFF51AFD7ED558CCD)
_F2 = np.uint64(0xC4CEB9FE1A85EC53)
_N1 = np.uint64(0x52DCE729)
_N2 = np.uint64(0x38495AB5)
_FIVE = np.uint64(5)


@inline
def _rotl(x, r):
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


@inline
def _fmix(k):
    k ^= k >> np.uint64(33)
    k *= _F1
    k ^= k >> np.uint64(33)
    k *= _F2
    k ^= k >> np.uint64(33)
    return k


@inline
def _word(buf, p, n):
    """Little-endian uint64 of buf[p:p+n] (n <= 8)."""
    k = _U0
    for i in range(n):
        k |= np.uint64(buf[p + i]) << np.uint64(8 * i)
    return k


@inline
def _mmh3_block(h1, h2, k1, k2):
    """One 16-byte block (words k1, k2) of MurmurHash3_x64_128 into its state (h1, h2)."""
    k1 *= _C1
    k1 = _rotl(k1, 31)
    k1 *= _C2
    h1 ^= k1
    h1 = _rotl(h1, 27)
    h1 += h2
    h1 = h1 * _FIVE + _N1
    k2 *= _C2
    k2 = _rotl(k2, 33)
    k2 *= _C1
    h2 ^= k2
    h2 = _rotl(h2, 31)
    h2 += h1
    h2 = h2 * _FIVE + _N2
    return h1, h2


@inline
def _mmh3_final(h1, h2, n):
    """MurmurHash3_x64_128's finalisation of the state (h1, h2) after ``n`` bytes."""
    ln = np.uint64(n)
    h1 ^= ln
    h2 ^= ln
    h1 += h2
    h2 += h1
    h1 = _fmix(h1)
    h2 = _fmix(h2)
    h1 += h2
    h2 += h1
    return h1, h2


@inline
def mmh3_128(buf, p, n):
    """MurmurHash3_x64_128, seed 0, of buf[p:p+n]: (h1, h2) as mmh3.hash_bytes gives them
    little-endian."""
    h1 = _U0
    h2 = _U0
    nblocks = n >> 4
    for j in range(nblocks):
        q = p + 16 * j
        h1, h2 = _mmh3_block(h1, h2, _word(buf, q, 8), _word(buf, q + 8, 8))
    tail = n & 15
    q = p + 16 * nblocks
    if tail > 8:
        k2 = _word(buf, q + 8, tail - 8)
        k2 *= _C2
        k2 = _rotl(k2, 33)
        k2 *= _C1
        h2 ^= k2
    if tail > 0:
        k1 = _word(buf, q, min(tail, 8))
        k1 *= _C1
        k1 = _rotl(k1, 31)
        k1 *= _C2
        h1 ^= k1
    return _mmh3_final(h1, h2, n)


@jit
def _find(keys, vals, h1, h2):
    """The slot of the vocabulary table holding the hash (h1, h2), or the empty slot where
    it would go (the table is never full)."""
    mask = np.uint64(vals.shape[0] - 1)
    slot = np.int64(h1 & mask)
    while vals[slot] >= 0 and not (keys[slot, 0] == h1 and keys[slot, 1] == h2):
        slot = np.int64((np.uint64(slot) + np.uint64(1)) & mask)
    return slot


@jit
def _insert(keys, vals, slot, h1, h2, v, new_hash, new):
    """Put id ``v`` of a new token with hash (h1, h2) in the empty ``slot``; note its hash
    as the ``new``-th new one. Returns ``v``."""
    keys[slot, 0] = h1
    keys[slot, 1] = h2
    vals[slot] = v
    new_hash[new, 0] = h1
    new_hash[new, 1] = h2
    return v


@jit
def token_ids(data, pos, tok, keys, vals, n_vocab, ids, new_index, new_hash, ends):
    """Ids of the 0x1F-separated tokens of ``data`` from byte ``pos`` (token number ``tok``).

    ``ends``: empty, or the end offset of each token, for tokens that hold 0x1F themselves.

    ``keys`` (cap, 2) uint64 and ``vals`` (cap,) int32 (-1: empty) are the open-addressing
    table, cap a power of two; a token not in it gets id ``n_vocab + k`` (k-th new one), its
    token number goes to ``new_index[k]`` and its hash to ``new_hash[k]``. Stops before the
    table would be more than half full or ``new_index`` is full. Returns (pos, tok, new):
    where it stopped (``tok == len(ids)`` when done) and how many tokens were new.
    """
    limit = min(vals.shape[0] // 2 - n_vocab, new_index.shape[0])
    n = data.shape[0]
    new = 0
    n_tok = ids.shape[0]
    split = ends.shape[0] == 0
    while tok < n_tok:
        if split:
            q = pos
            while q < n and data[q] != 0x1F:
                q += 1
        else:
            q = ends[tok]
        h1, h2 = mmh3_128(data, pos, q - pos)
        slot = _find(keys, vals, h1, h2)
        v = vals[slot]
        if v < 0:
            if new >= limit:
                return pos, tok, new
            v = _insert(keys, vals, slot, h1, h2, n_vocab + new, new_hash, new)
            new_index[new] = tok
            new += 1
        ids[tok] = v
        tok += 1
        pos = q + 1
    return pos, tok, new


@jit
def _is_han(x):
    """jieba-rs's class of characters cut with the dictionary (its RE_HAN_DEFAULT): CJK
    ideographs (the unified blocks and extensions, the compatibility ones) and
    ``[a-zA-Z0-9+#&._%-]``."""
    if x < 0x80:
        return ((0x61 <= x <= 0x7A) or (0x41 <= x <= 0x5A) or (0x30 <= x <= 0x39) or x == 0x2B
                or x == 0x23 or x == 0x26 or x == 0x2E or x == 0x5F or x == 0x25 or x == 0x2D)
    return ((0x4E00 <= x <= 0x9FFF) or (0x3400 <= x <= 0x4DBF) or (0xF900 <= x <= 0xFAFF)
            or (0x20000 <= x <= 0x2A6DF) or (0x2A700 <= x <= 0x2EBEF)
            or (0x2F800 <= x <= 0x2FA1F))


@jit
def _is_alnum(x):
    return (0x61 <= x <= 0x7A) or (0x41 <= x <= 0x5A) or (0x30 <= x <= 0x39)


@jit
def _utf8(c, s, e, out):
    """The UTF-8 bytes of the code points ``c[s:e]`` (no surrogates) into ``out`` (at least
    4 bytes a code point); returns how many."""
    k = 0
    for i in range(s, e):
        x = np.uint32(c[i])
        if x < 0x80:
            out[k] = x
            k += 1
        elif x < 0x800:
            out[k] = 0xC0 | (x >> 6)
            out[k + 1] = 0x80 | (x & 0x3F)
            k += 2
        elif x < 0x10000:
            out[k] = 0xE0 | (x >> 12)
            out[k + 1] = 0x80 | ((x >> 6) & 0x3F)
            out[k + 2] = 0x80 | (x & 0x3F)
            k += 3
        else:
            out[k] = 0xF0 | (x >> 18)
            out[k + 1] = 0x80 | ((x >> 12) & 0x3F)
            out[k + 2] = 0x80 | ((x >> 6) & 0x3F)
            out[k + 3] = 0x80 | (x & 0x3F)
            k += 4
    return k


_PAIR_MUL = np.uint64(0x9E3779B97F4A7C15)


@jit
def pair_shift(pairs):
    """The shift that turns a product into a bit of the filter ``pairs`` (jiebadict's
    pair_filter: 8 * len(pairs) bits, a power of two)."""
    bits = 3
    m = pairs.shape[0]
    while m > 1:
        m >>= 1
        bits += 1
    return np.uint64(64 - bits)


@inline
def _may_pair(pairs, shift, x, y):
    """Whether some dictionary word may start with the characters x, y: their bit of the
    filter (never clear for a word's first two characters; set for about 4 % of others)."""
    h = (((np.uint64(x) << np.uint64(21)) | np.uint64(y)) * _PAIR_MUL) >> shift
    return (pairs[np.int64(h >> np.uint64(3))] >> np.uint8(h & np.uint64(7))) & np.uint8(1)


@inline
def _route(c, a, b, root, first, label, word, logp, log1, pairs, shift, prob, end, rec):
    """jieba-rs's best route through the dictionary block ``c[a:b]``, right to left: from
    each character the step of greatest ``ln(freq) - ln(total) + prob[step's end]`` (the
    longer step on a tie), or one character at ``log1`` when no word starts there. Leaves
    the step's end in ``end[i]`` and its record (or -1) in ``rec[i]``.

    ``pairs``, ``shift``: the filter of words' first two characters. Where it says no word
    starts with c[i] c[i+1] the search of c[i]'s children (a binary search over up to
    11,772 of them, 93 on average here) is skipped: most positions of Chinese text (70 %
    on the mix) start no word of two characters, and that search was most of the walk
    (61 -> 39 ns a character)."""
    prob[b] = 0.0
    for i in range(b - 1, a - 1, -1):
        best = 0.0
        best_end = -1
        best_rec = -1
        x = c[i]
        node = root[x] if x < root.shape[0] else 0
        j = i + 1  # node spells c[i:j]
        while node:
            r = word[node]
            if r >= 0:
                p = logp[r] + prob[j]
                if best_end < 0 or p >= best:  # ends only grow: on a tie the longer wins
                    best = p
                    best_end = j
                    best_rec = r
            if j >= b or (j == i + 1 and not _may_pair(pairs, shift, x, c[j])):
                break
            # the child labelled c[j] (children sorted by label): a binary search whose steps
            # are selects, not branches (half of them would be mispredicted)
            lo = first[node]
            count = first[node + 1] - lo
            want = c[j]
            while count > 1:
                half = count >> 1
                lo = lo + half if label[lo + half] <= want else lo
                count -= half
            node = lo if count == 1 and label[lo] == want else 0
            j += 1
        if best_end < 0:
            best = log1 + prob[i + 1]
            best_end = i + 1
        prob[i] = best
        end[i] = best_end
        rec[i] = best_rec


@jit
def _may_join(c, a, b, root, first, label, pairs, shift):
    """Whether a dictionary word of two or more characters may start in the block ``c[a:b]``:
    some character has a trie node with a child for the character after it. The child
    search is _route's, written out again: a shared inlined helper made the cut 13 % slower
    (17.4 against 15.2 ns per ASCII character), a regular call too. The filter of words'
    first two characters (``pairs``, as in _route) is asked first: jieba's dictionary has
    words that begin with most ASCII letters, but few with two (the cut of the mix, replayed:
    0.326 -> 0.315 s)."""
    for i in range(a, b - 1):
        x = c[i]
        node = root[x] if x < root.shape[0] else 0
        if node and _may_pair(pairs, shift, x, c[i + 1]):
            lo = first[node]
            count = first[node + 1] - lo
            want = c[i + 1]
            while count > 1:
                half = count >> 1
                lo = lo + half if label[lo + half] <= want else lo
                count -= half
            if count == 1 and label[lo] == want:
                return True
    return False


@jit
def _token_miss(c, s, e, r, one, ak, q, wslot, cslot, akey, aval, keys, vals, n_vocab, new,
                new_span, new_hash, buf):
    """The vocabulary id of the token ``c[s:e]`` that none of cut_ids' slots knew (``one``: a
    BMP character, ``r``: its dictionary record or -1, ``ak``: its ASCII key, 0 if none,
    ``q``: that key's cache slot), through the table keyed by the mmh3 of its UTF-8 bytes
    (``buf``: scratch for them); when it is not there either it is added as the ``new``-th
    new token (id ``n_vocab + new``, its span and hash noted). The slot that should have
    known it is filled. Returns (id, whether it was new).

    A call of its own, not inlined into cut_ids: numba's inlining of a helper that takes
    arrays and calls functions with them left a reference count update of each array, twice,
    on every token (measured: 45 of the 50 ns a space took)."""
    n = _utf8(c, s, e, buf)
    h1, h2 = mmh3_128(buf, 0, n)
    slot = _find(keys, vals, h1, h2)
    v = vals[slot]
    added = v < 0
    if added:
        v = _insert(keys, vals, slot, h1, h2, n_vocab + new, new_hash, new)
        new_span[new, 0] = s
        new_span[new, 1] = e
    if one:
        cslot[c[s]] = v
    elif r >= 0:
        wslot[r] = v
    elif ak != _U0:
        akey[q] = ak
        aval[q] = v
    return v, added


@inline
def _ascii_key(c, s, e):
    """The characters ``c[s:e]`` packed into a uint64, one byte each: exact for tokens of
    one to eight ASCII characters other than NUL; 0 for every other token."""
    if e - s > 8:
        return _U0
    k = _U0
    for i in range(s, e):
        x = np.uint64(c[i])
        if x == _U0 or x >= np.uint64(0x80):
            return _U0
        k = (k << np.uint64(8)) | x
    return k


@jit
def cut_ids(c, pos, tok, root, first, label, word, logp, log1, pairs, wslot, cslot, akey, aval,
            keys, vals, n_vocab, ids, new_span, new_hash):
    """jieba-rs's cut without HMM (``rjieba.cut(text, False)``) of the code points ``c`` from
    ``pos`` on, as vocabulary ids from token number ``tok`` on.

    Two passes. The cut: dictionary blocks (``_is_han``) follow the best route (``_route``),
    a run of one-character ASCII letters and digits on it joined into one token; every
    other character is a token, ``\r\n`` one together. Trie arrays and the filter ``pairs``
    of words' first two characters: jiebadict.py. Then
    the ids: a token's id comes from ``cslot[code point]`` (one BMP character),
    ``wslot[record]`` (a dictionary word), ``akey``/``aval`` (one to eight ASCII
    characters packed into a uint64 key, exact: a direct-mapped cache that spares most
    words of English text the mmh3 and a probe of the large table) or, when none knows it,
    _token_miss (the table of token_ids, keyed by the mmh3 of its UTF-8 bytes), the slots
    filled as tokens are met; a new token is handled as in token_ids, its character span
    going to ``new_span[k]``. Stops before the table would be more than half full or
    ``new_span`` is full, at the start of a token (a cut of the rest of the text starts
    the same tokens: the route from a position depends only on what follows it). Returns
    (pos, tok, new): where it stopped (``pos == len(c)`` when done), the tokens so far and
    how many were new.

    The lookups are written here, not in an inlined helper: numba's inlining of a helper
    that takes arrays and calls functions with them left a reference count update of each
    array, twice, on every token (45 of the 50 ns a space took; a regular call does not).
    """
    n = c.shape[0]
    shift = pair_shift(pairs)
    limit = min(vals.shape[0] // 2 - n_vocab, new_span.shape[0])
    new = 0
    buf = np.empty(4 * n + 4, dtype=np.uint8)
    prob = np.empty(n + 1, dtype=np.float64)
    end = np.empty(n + 1, dtype=np.int64)
    rec = np.empty(n + 1, dtype=np.int32)
    ts = np.empty(n - pos + 1, dtype=np.int64)  # the tokens: start, end, record or -1
    te = np.empty(n - pos + 1, dtype=np.int64)
    tr = np.empty(n - pos + 1, dtype=np.int32)
    m = 0
    p = pos
    while p < n:
        b = p
        while b < n and _is_han(c[b]):
            b += 1
        if b == p:  # a character outside the blocks
            e = p + 2 if c[p] == 13 and p + 1 < n and c[p + 1] == 10 else p + 1
            ts[m] = p
            te[m] = e
            tr[m] = -1
            m += 1
            p = e
            continue
        if not _may_join(c, p, b, root, first, label, pairs, shift):
            # no word of two or more characters can start in the block (most ASCII text:
            # jieba's dictionary has few words with ASCII in them), so every step of the
            # route is one character: a run of ASCII letters and digits is one token, every
            # other character another
            x = p
            while x < b:
                y = x + 1
                if _is_alnum(c[x]):
                    while y < b and _is_alnum(c[y]):
                        y += 1
                ts[m] = x
                te[m] = y
                tr[m] = -1
                m += 1
                x = y
            p = b
            continue
        _route(c, p, b, root, first, label, word, logp, log1, pairs, shift, prob, end, rec)
        x = p
        left = -1  # start of the run of one-character ASCII alphanumeric steps
        while x <= b:
            y = end[x] if x < b else b
            if x < b and y - x == 1 and _is_alnum(c[x]):
                if left < 0:
                    left = x
                x = y
                continue
            if left >= 0:
                ts[m] = left
                te[m] = x
                tr[m] = rec[left] if x - left == 1 else -1
                m += 1
                left = -1
            if x == b:
                break
            ts[m] = x
            te[m] = y
            tr[m] = rec[x]
            m += 1
            x = y
        p = b
    for k in range(m):  # their ids
        s = ts[k]
        e = te[k]
        r = tr[k]
        if new >= limit:
            return s, tok, new
        one = e - s == 1 and c[s] < cslot.shape[0]
        ak = _U0
        q = 0
        if one:
            v = cslot[c[s]]
        elif r >= 0:
            v = wslot[r]
        else:
            v = -1
            ak = _ascii_key(c, s, e)
            if ak != _U0:
                q = np.int64(_mix64(ak) & np.uint64(akey.shape[0] - 1))
                if akey[q] == ak:
                    v = aval[q]
        if v < 0:
            v, added = _token_miss(c, s, e, r, one, ak, q, wslot, cslot, akey, aval, keys, vals,
                                   n_vocab, new, new_span, new_hash, buf)
            new += added
        ids[tok] = v
        tok += 1
    return n, tok, new


@jit
def _sorted_has(keys, x):
    """Index of ``x`` in the sorted ``keys``, or -1."""
    lo = 0
    hi = keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < keys.shape[0] and keys[lo] == x else -1


@jit
def new_tokens(c, span, keys, cls, buf, at, start, blen, word, idf, idf_keys, idf_vals,
               median, stop_keys, numbers, en_word, check):
    """What the vocabulary keeps of the new tokens ``c[span[k, 0]:span[k, 1]]`` that
    cut_ids reported (``keys``: the low 64 bits of their mmh3), as vocab.Vocab._register
    works it out from their strings: each one's UTF-8 bytes and a 0x1F byte into ``buf``
    from ``at`` on (``start[k]``, ``blen[k]``); ``word[k]``: its first character has
    unicode_tables.token_classes' 8; ``idf[k]`` (idf.idf_of_new): 0 for a non-word; a
    word with a CJK character (4) that of the sorted ``idf_keys`` whose key it has, else
    ``median``; all digits (16) ``numbers``; else ``en_word``. Tokens whose answer needs
    their string go to ``check`` for the caller: a character above the BMP, a key among
    the English stop words' ``stop_keys``, a CJK word when ``idf_keys`` is empty. Returns
    (where the bytes end, how many are in ``check``)."""
    nc = 0
    for k in range(span.shape[0]):
        s = span[k, 0]
        e = span[k, 1]
        m = _utf8(c, s, e, buf[at:])
        start[k] = at
        blen[k] = m
        at += m
        buf[at] = 0x1F
        at += 1
        astral = False
        cjk = False
        digits = e > s
        for i in range(s, e):
            x = np.uint32(c[i])
            if x >= 0x10000:
                astral = True
                break
            f = cls[x]
            if f & 4:
                cjk = True
            if not (f & 16):
                digits = False
        is_word = (not astral) and (cls[np.uint32(c[s])] & 8) != 0
        word[k] = is_word
        idf[k] = 0.0
        if astral or (is_word and cjk and idf_keys.shape[0] == 0):
            check[nc] = k
            nc += 1
        elif is_word and cjk:
            j = _sorted_has(idf_keys, keys[k])
            idf[k] = idf_vals[j] if j >= 0 else median
        elif is_word and digits:
            idf[k] = numbers
        elif is_word:
            idf[k] = en_word
            if _sorted_has(stop_keys, keys[k]) >= 0:
                check[nc] = k
                nc += 1
    return at, nc


@jit
def rehash(keys, vals, new_keys, new_vals):
    """Move every entry of one table into an empty larger one."""
    mask = np.uint64(new_vals.shape[0] - 1)
    for s in range(vals.shape[0]):
        v = vals[s]
        if v < 0:
            continue
        h1 = keys[s, 0]
        slot = np.int64(h1 & mask)
        while new_vals[slot] >= 0:
            slot = np.int64((np.uint64(slot) + np.uint64(1)) & mask)
        new_keys[slot, 0] = h1
        new_keys[slot, 1] = keys[s, 1]
        new_vals[slot] = v


@inline
def mmh3_pair(a1, a2, b1, b2):
    """A word pair's feature hash: MurmurHash3_x64_128 (seed 0) of the 32 bytes of its two
    words' hashes (a1, a2) and (b1, b2), little-endian, as simhash.pair_hash gives it. From
    the hashes at hand, not the words' bytes gathered again: 0.26 -> 0.15 s for the 25 MB
    mix's 2.9 million distinct pairs."""
    h1, h2 = _mmh3_block(_U0, _U0, a1, a2)
    h1, h2 = _mmh3_block(h1, h2, b1, b2)
    return _mmh3_final(h1, h2, 32)


@jit
def _add(tbl, h1, h2, w):
    for b in range(8):
        tbl[b, np.int64((h1 >> np.uint64(8 * b)) & _M8)] += w
        tbl[8 + b, np.int64((h2 >> np.uint64(8 * b)) & _M8)] += w


@jit
def fingerprint(ids, idf, hashes, logt, counts, pairs):
    """The 128-bit SimHash of a file's word ids, as simhash128_hashed(*hashed_features()).
    A word pair's hash is :func:`mmh3_pair` of its words' hashes (rows of ``hashes``).

    ``counts``: an all-zero int32 scratch array at least as long as the vocabulary (left
    all zero). ``pairs``: add word pairs (the ``shingles`` mode). Returns (low 64 bits,
    high 64 bits, number of features, status): status 1 when a count is beyond ``logt``,
    2 when the weights are too large for exact sums; then the fingerprint is not valid.
    """
    n = ids.shape[0]
    touched = np.empty(n, dtype=np.int32)
    nt = 0
    for i in range(n):
        a = ids[i]
        if counts[a] == 0:
            touched[nt] = a
            nt += 1
        counts[a] += 1
    tbl = np.zeros((16, 256), dtype=np.int64)
    wsum = 0
    wabs = 0
    status = 0
    n_log = logt.shape[0]
    for j in range(nt):
        a = touched[j]
        c = counts[a]
        counts[a] = 0
        if c >= n_log:
            status = 1
            continue
        w = np.int64(np.rint((1.0 + logt[c]) * idf[a] * 1024.0))
        _add(tbl, hashes[a, 0], hashes[a, 1], w)
        wsum += w
        wabs += abs(w)
    nf = nt
    if pairs and n > 1:
        cap = 1
        while cap < 2 * n:
            cap *= 2
        pmask = cap - 1
        pkeys = np.full(cap, -1, dtype=np.int64)
        pcnt = np.zeros(cap, dtype=np.int32)
        for i in range(n - 1):
            code = (np.int64(ids[i]) << 32) | np.int64(ids[i + 1])
            slot = ((code * np.int64(-7046029254386353131)) >> 20) & pmask
            while True:
                k = pkeys[slot]
                if k == code:
                    pcnt[slot] += 1
                    break
                if k < 0:
                    pkeys[slot] = code
                    pcnt[slot] = 1
                    break
                slot = (slot + 1) & pmask
        for s in range(cap):
            code = pkeys[s]
            if code < 0:
                continue
            nf += 1
            c = pcnt[s]
            if c >= n_log:
                status = 1
                continue
            a = code >> 32
            b = code & 0xFFFFFFFF
            w = np.int64(np.rint((1.0 + logt[c]) * 0.5 * (idf[a] + idf[b]) * 1024.0))
            h1, h2 = mmh3_pair(hashes[a, 0], hashes[a, 1], hashes[b, 0], hashes[b, 1])
            _add(tbl, h1, h2, w)
            wsum += w
            wabs += abs(w)
    if wabs >= (1 << 52):
        status = 2
    lo = _U0
    hi = _U0
    f = np.empty(256, dtype=np.int64)
    for byte in range(16):
        # bit sh's total (the weights of the byte values with bit sh set), sh = 7 down to
        # 0, by folding the byte's table in halves: the high half sums to bit 7's total,
        # the two halves added are the table of the low seven bits, and so on (448 adds a
        # byte, not 2,048 tests: 4.5 -> 2.2 us a file)
        for v in range(256):
            f[v] = tbl[byte, v]
        size = 256
        for sh in range(7, -1, -1):
            half = size >> 1
            total = 0
            for v in range(half):
                total += f[half + v]
                f[v] += f[half + v]
            size = half
            if 2 * total - wsum > 0:
                bit = 8 * byte + sh
                if bit < 64:
                    lo |= np.uint64(1) << np.uint64(bit)
                else:
                    hi |= np.uint64(1) << np.uint64(bit - 64)
    return lo, hi, nf, status


_S1 = np.uint64(0xBF58476D1CE4E5B9)
_S2 = np.uint64(0x94D049BB133111EB)


@jit
def _mix64(x):
    """splitmix64's finaliser, for cut_ids' cache of short ASCII tokens. The same as
    _text_kernels._mix64 (and textsim.mix64), kept here: numba's cache would not see a
    change of a kernel of another file (_njit)."""
    x ^= x >> np.uint64(30)
    x *= _S1
    x ^= x >> np.uint64(27)
    x *= _S2
    x ^= x >> np.uint64(31)
    return x
