"""Normalise text and turn it into weighted features.

Chinese is cut with jieba's dictionary (through ``rjieba``, the jieba-rs binding,
when installed: same tokens as ``jieba.cut(text, HMM=False)``, about 10x faster; with the
compiled kernels, by ``_kernels.cut_ids``: rjieba's tokens, as ids); other scripts are cut
into words. Weights are TF-IDF with jieba's IDF table for
Chinese words and a stop-word aware constant for other words.

Speed: each thread keeps a vocabulary of token ids with each token's word test, IDF,
mmh3 hash and UTF-8 bytes, so a file's tokens become an int array; unigram and word-pair
counts come from np.unique (or a Counter of ids for short texts), and NFKC runs only
on the characters it can change. The features, weights and fingerprints are exactly
those of :meth:`FeatureBuilder.finish` (tests/test_fast_features.py checks every one).
"""

from __future__ import annotations

import hashlib
import html
import math
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from ..textsim import (SHINGLE, SKETCH_K, ShingleBuilder, drop_invisible, gram_hashes, solid,
                       sorted_unique)
from . import jiebadict, kernels
from .jiebadict import cached_arrays, jieba_file
from ..validate import one_of

FEATURE_MODES = ("shingles", "tokens", "topk")
DEFAULT_MODE = "shingles"
NORMALISATION_VERSION = 2
CJK_SHARE = 0.2  # a chunk at least this CJK has every whitespace deleted before the cut
LOW_CONFIDENCE_TOKENS = 40
CHUNK_CHARS = 1 << 20
VECTOR_MIN_TOKENS = 300  # below this many word tokens, features are counted in Python

_TAG = re.compile(r"<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]{0,2000}>", re.S | re.I)
_WORD = re.compile(r"\w+")
_CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
# Regexes over the CJK class compile on first use: compiling them took 8 ms of every
# process that imports this module, the fork server's on the way to the first fingerprint;
# a worker on the compiled path may never use them.
@lru_cache(maxsize=None)
def _cjk_re() -> re.Pattern:
    return re.compile(f"[{_CJK_CLASS}]")


@lru_cache(maxsize=None)
def _ws_between_cjk() -> re.Pattern:
    return re.compile(f"(?<=[{_CJK_CLASS}])\\s+(?=[{_CJK_CLASS}])")


def __getattr__(name: str):
    """The regexes under their module names (``_CJK``, ``_WS_BETWEEN_CJK``), compiled when
    asked for."""
    if name == "_CJK":
        return _cjk_re()
    if name == "_WS_BETWEEN_CJK":
        return _ws_between_cjk()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Function words of English: frequent in every text, so they carry little.
_EN_STOP = frozenset("""
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had
has have having he her here hers herself him himself his how i if in into is it its itself just
me more most my myself no nor not now of off on once only or other our ours ourselves out over
own same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what when where which while who
whom why will with would you your yours yourself yourselves s t don also may might must shall
one two us its
""".split())
_EN_STOP_IDF = 1.5
_EN_WORD_IDF = 8.0
_NUMBER_IDF = 4.0

Tokenizer = Callable[[str], list[str]]


@lru_cache(maxsize=1)
def _idf_table() -> tuple[dict[str, float], float]:
    # Find jieba's IDF file without importing jieba (its import alone costs ~0.3 s per worker).
    with open(_idf_path(), encoding="utf-8") as fh:
        text = fh.read()
    fields = text.split()
    if len(fields) == 2 * (text.count("\n") + (not text.endswith("\n"))):
        table = dict(zip(fields[0::2], map(float, fields[1::2])))  # every line "word idf"
    else:
        table = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2:
                table[parts[0]] = float(parts[1])
    values = sorted(table.values())
    return table, values[len(values) // 2]


IDF_CACHE_VERSION = 1


def _idf_path() -> str:
    return jieba_file("analyse", "idf.txt")


def _idf_array():
    """The rows (low 64 bits of a word's mmh3 128, its IDF's bits) of :func:`_idf_hashed`,
    sorted by key."""
    import numpy as np

    from .simhash import mmh3_128

    table, _ = _idf_table()
    keys = np.frombuffer(b"".join(mmh3_128(w.encode("utf-8", "surrogatepass"))[:8]
                                  for w in table), dtype="<u8")
    vals = np.fromiter(table.values(), dtype=np.float64, count=len(table))
    order = np.argsort(keys, kind="stable")
    return np.stack((keys[order], vals[order].view(np.uint64)), axis=1)


def _idf_array_ok(arr) -> bool:
    import numpy as np

    return (isinstance(arr, np.ndarray) and arr.dtype == np.uint64 and arr.ndim == 2
            and arr.shape[1] == 2)


@lru_cache(maxsize=1)
def _idf_hashed():
    """jieba's IDF table as arrays: the low 64 bits of each word's mmh3 128 hash (sorted),
    its IDF, and the median; None when two words' keys collide (then use the dict).

    Parsing the 350,000-line table costs each worker about 0.3 s; the arrays are kept in the
    user's cache folder (jiebadict.cached_arrays), and loading them takes a few
    milliseconds. A token's key is the hash the vocabulary computes anyway, so the look-up is
    one searchsorted per batch of new tokens. The values are those of :func:`idf` exactly; a
    token outside the table that shares a table word's 64-bit key (about 2e-14 per token)
    would take that word's IDF.
    """
    import numpy as np

    arr = cached_arrays("idf", IDF_CACHE_VERSION, _idf_path(), _idf_array, _idf_array_ok)
    keys = np.ascontiguousarray(arr[:, 0])
    vals = np.ascontiguousarray(arr[:, 1]).view(np.float64)
    if len(keys) > 1 and bool((keys[1:] == keys[:-1]).any()):
        return None
    k = len(vals) // 2  # the element a sort would put at k (7 ms of the warm-up sorted)
    median = float(np.partition(vals, k)[k]) if len(vals) else 0.0
    return keys, vals, median


def _idf_of_new(tokens: list[str], is_word: list[bool], keys) -> list[float]:
    """idf() of each word token (0.0 for the rest); ``keys``: each token's mmh3 low 64 bits."""
    out = [0.0] * len(tokens)
    cjk = []
    cjk_search = _cjk_re().search
    for i, (t, w) in enumerate(zip(tokens, is_word)):
        if not w:
            continue
        if cjk_search(t):
            cjk.append(i)
        elif t.isdigit():
            out[i] = _NUMBER_IDF
        else:
            out[i] = _EN_STOP_IDF if t in _EN_STOP else _EN_WORD_IDF
    if cjk:
        for i, x in zip(cjk, _cjk_idf(keys[cjk], lambda j: tokens[cjk[j]]).tolist()):
            out[i] = x
    return out


def _cjk_idf(keys, token: Callable[[int], str]):
    """idf() of CJK tokens (float64 array), by their mmh3 low 64 bits ``keys``; ``token(j)``
    gives the j-th as a string when the hashed table cannot be used."""
    import numpy as np

    hashed = _idf_hashed()
    if hashed is None:
        table, median = _idf_table()
        return np.array([table.get(token(j), median) for j in range(len(keys))],
                        dtype=np.float64)
    k, v, median = hashed
    pos = np.minimum(np.searchsorted(k, keys), len(k) - 1)
    return np.where(k[pos] == keys, v[pos], median)


@lru_cache(maxsize=1)
def _stop_keys():
    """The mmh3 low 64 bits of the English stop words (a token whose key is among them is
    checked by its string)."""
    import numpy as np

    from .simhash import mmh3_128

    return np.sort(np.frombuffer(b"".join(mmh3_128(w.encode())[:8] for w in _EN_STOP),
                                 dtype="<u8"))


def idf(token: str) -> float:
    if _cjk_re().search(token):
        table, median = _idf_table()
        return table.get(token, median)
    if token.isdigit():
        return _NUMBER_IDF
    if token in _EN_STOP:
        return _EN_STOP_IDF
    return _EN_WORD_IDF


def tokenizer_name() -> str:
    """"rjieba" when it is installed, else "jieba" (for the cache key). Found without
    importing it: rjieba loads its dictionary on import, holding the GIL for about 0.2 s,
    which would freeze the app's window when a scan starts; only the workers cut text."""
    import importlib.util
    import sys

    if "rjieba" in sys.modules or importlib.util.find_spec("rjieba") is not None:
        return "rjieba"
    return "jieba"


@lru_cache(maxsize=1)
def default_tokenizer() -> Tokenizer:
    """jieba's dictionary cut without HMM, through rjieba when it is installed."""
    try:
        import rjieba

        def cut(text: str) -> list[str]:
            return rjieba.cut(text, False)
    except ImportError:  # pragma: no cover - rjieba is a dependency
        import logging

        import jieba

        jieba.setLogLevel(logging.WARNING)

        def cut(text: str) -> list[str]:
            return list(jieba.cut(text, HMM=False))

    return cut


CUT_SLICE = 1 << 16  # characters cut at a time: a token list of a whole chunk (2 million
# characters) holds about a million strings, 50 MB more in a worker while it lives
_SLICE_AT = re.compile("[ ，。、；：！？]")


def cut_slices(text: str, size: int | None = None) -> Iterator[str]:
    """``text`` in pieces of about ``size`` characters, each but the first starting at a
    space or a CJK punctuation mark. jieba cuts at those anyway (a space is a token of its
    own, the marks are outside its word-character class, and each run between them is cut
    on its own), so the pieces' tokens, one after the other, are the whole text's."""
    for a, b in slice_bounds(text, size):
        yield text[a:b] if a or b < len(text) else text


def slice_bounds(text: str, size: int | None = None) -> Iterator[tuple[int, int]]:
    """Where :func:`cut_slices` cuts ``text``: (start, end) of each piece."""
    size = size or CUT_SLICE
    pos, n = 0, len(text)
    while n - pos > 2 * size:
        m = _SLICE_AT.search(text, pos + size, pos + 2 * size)
        if m is None:
            break
        yield pos, m.start()
        pos = m.start()
    yield pos, n


def strip_html(text: str) -> str:
    return html.unescape(_TAG.sub(" ", text))


def normalise(text: str, is_html: bool = False) -> str:
    """NFKC, case folding, HTML stripped; whitespace is left to the tokenizer."""
    if is_html:
        text = strip_html(text)
    if text.isascii():  # O(1) in CPython; NFKC leaves ASCII unchanged
        return text.casefold()
    return _nfkc(text).casefold()


@lru_cache(maxsize=1)
def _nfkc_risky() -> frozenset[str] | None:
    """Characters that may combine with or reorder against the character before them.

    NFKC of a text is the concatenation of NFKC of its pieces when each piece starts
    with a stable character: one with combining class 0 whose decomposition starts
    with a character that never composes with a character before it. ASCII and CJK
    unified ideographs are stable and unchanged by NFKC, so only the runs of other
    characters need normalising; a run whose first character is in the returned set
    (a combining mark, a Hangul vowel, ...) takes the character before it along. Code
    points past U+2FFFF are all treated as risky. None: the Unicode database breaks
    these assumptions; normalise whole texts.
    """
    second: set[int] = set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))
    import numpy as np

    limit = 0x30000
    cps = np.arange(limit, dtype="<u4")
    cps[0xD800:0xE000] = 0x20  # surrogates: no characters of their own
    chars = cps.tobytes().decode("utf-32-le")
    combining = set(filter(unicodedata.combining, chars))
    # a block NFKD leaves unchanged holds no character with a decomposition
    blocks = [chars[i : i + 64] for i in range(0, limit, 64)]
    changed_blocks = [b for b in blocks if unicodedata.normalize("NFKD", b) != b]
    decomposable = [(c, d) for b in changed_blocks for c in b
                    if (d := unicodedata.decomposition(c))]
    for _, d in decomposable:
        if d[0] != "<":
            parts = d.split()
            if len(parts) == 2:
                second.add(int(parts[1], 16))
    risky = {ord(c) for c in combining} | second
    for c, _ in decomposable:
        first = unicodedata.normalize("NFKD", c)[:1] or c
        if first in combining or ord(first) in second:
            risky.add(ord(c))
    changed = {c for c, _ in decomposable}
    for cp in [*range(0, 0x80), *range(0x4E00, 0xA000)]:
        if cp in risky or chr(cp) in changed:
            return None  # an unexpected Unicode database: always normalise whole texts
    return frozenset(map(chr, risky))


NFKC_TABLE_AFTER = 500_000  # non-ASCII characters normalised whole before building the table
_nfkc_seen = 0
_TABLE_LIMIT = 0x30000  # code points the table covers; any above it is treated as risky
MANY_RISKY = 64  # a text with more risky characters than this (Korean, say): NFKC whole


def _table_chars() -> str:
    """Every code point below _TABLE_LIMIT as one string, surrogates as spaces (they are no
    characters of their own: left as they are)."""
    import numpy as np

    cps = np.arange(_TABLE_LIMIT, dtype="<u4")
    cps[0xD800:0xE000] = 0x20
    return cps.tobytes().decode("utf-32-le")


def _char_map(changes: Iterable[tuple[int, str]], start_type, size_type):
    """(start, size, buf) of a map of code points below _TABLE_LIMIT (one more entry stands
    for every code point above): ``buf[start[c] : start[c] + size[c]]`` is the image of
    ``c``, itself unless ``changes`` (code point, image) says otherwise."""
    import numpy as np

    n = _TABLE_LIMIT
    single = np.arange(n + 1, dtype=np.uint32)
    start = np.arange(n + 1, dtype=start_type)
    size = np.ones(n + 1, dtype=size_type)
    extra: list[int] = []
    for cp, out in changes:
        if len(out) == 1:
            single[cp] = ord(out)
        else:
            start[cp] = n + 1 + len(extra)
            size[cp] = len(out)
            extra.extend(map(ord, out))
    return start, size, np.concatenate((single, np.array(extra, dtype=np.uint32)))


class _NfkcTable:
    """NFKC character by character, in numpy, where that is exact.

    NFKC of a text is the concatenation of NFKC of its pieces when each piece starts with
    a stable character (see :func:`_nfkc_risky`). So a text none of whose characters is
    risky maps each character on its own: to itself (no decomposition), or to its NFKC
    (fullwidth forms, "…", ligatures, circled digits). ``buf[start[c] : start[c] +
    size[c]]`` holds the code points of NFKC(c); every character below the limit has an
    entry, one past it stands for every code point above (risky)."""

    def __init__(self, risky: frozenset[str]) -> None:
        import numpy as np

        n = _TABLE_LIMIT
        self.stable = np.ones(n + 1, dtype=bool)
        self.stable[[ord(c) for c in risky if ord(c) < n]] = False
        self.stable[n] = False
        chars = _table_chars()

        def changes():
            for i in range(0, n, 64):  # only blocks NFKC changes hold characters it changes
                block = chars[i : i + 64]
                if unicodedata.normalize("NFKC", block) != block:
                    for cp, c in enumerate(block, i):
                        out = unicodedata.normalize("NFKC", c)
                        if out != c:
                            yield cp, out

        self.start, self.size, self.buf = _char_map(changes(), np.int64, np.int64)
        self.grows = self.size != 1  # characters NFKC makes longer (or deletes)

    @classmethod
    def from_arrays(cls, t: dict) -> _NfkcTable:
        self = cls.__new__(cls)
        self.stable, self.start, self.size, self.buf = (
            t["nfkc_stable"], t["nfkc_start"], t["nfkc_size"], t["nfkc_buf"])
        self.grows = self.size != 1
        return self

    def apply(self, c) -> str:
        """NFKC of the code points ``c`` (uint32), all stable."""
        import numpy as np

        if not len(c):
            return ""
        if not self.grows[c].any():
            out = self.buf[c]
        else:
            size = self.size[c]
            first = np.cumsum(size) - size
            at = np.repeat(self.start[c] - first, size) + np.arange(int(size.sum()))
            out = self.buf[at]
        return out.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


class _FoldTable:
    """``casefold(NFKC(c))`` of every stable character ``c`` (see :class:`_NfkcTable`), as
    arrays for ``_kernels.fold``: a chunk none of whose characters is risky is normalised
    and folded character by character in one compiled pass (casefold maps each character on
    its own, and NFKC does too for such a chunk). ``stable`` is the NFKC table's."""

    def __init__(self, nt: _NfkcTable) -> None:
        import numpy as np

        n = _TABLE_LIMIT
        self.stable = nt.stable
        # what NFKC changes, and every character of a block casefold changes
        todo = set(np.flatnonzero((nt.buf[:n] != np.arange(n)) | (nt.size[:n] != 1)).tolist())
        chars = _table_chars()
        for i in range(0, n, 64):
            block = chars[i : i + 64]
            if block.casefold() != block:
                todo.update(range(i, i + 64))

        def changes():
            for cp in sorted(todo):
                if not 0xD800 <= cp < 0xE000:
                    c = chr(cp)
                    out = unicodedata.normalize("NFKC", c).casefold()
                    if out != c:
                        yield cp, out

        self.start, self.size, self.buf = _char_map(changes(), np.int32, np.uint8)

    @classmethod
    def from_arrays(cls, t: dict) -> _FoldTable:
        self = cls.__new__(cls)
        self.stable, self.start, self.size, self.buf = (
            t["nfkc_stable"], t["fold_start"], t["fold_size"], t["fold_buf"])
        return self


@lru_cache(maxsize=1)
def _fold_table() -> _FoldTable | None:
    t = _unicode_tables()
    return _FoldTable.from_arrays(t) if "fold_buf" in t else None


@lru_cache(maxsize=1)
def _nfkc_table() -> _NfkcTable | None:
    t = _unicode_tables()
    return _NfkcTable.from_arrays(t) if "nfkc_buf" in t else None


UNICODE_TABLES_VERSION = 1
# name: (dtype, length or None for any) of each array _unicode_tables keeps
_UNICODE_ARRAYS = {
    "nfkc_stable": ("bool", _TABLE_LIMIT + 1), "nfkc_start": ("int64", _TABLE_LIMIT + 1),
    "nfkc_size": ("int64", _TABLE_LIMIT + 1), "nfkc_buf": ("uint32", None),
    "fold_start": ("int32", _TABLE_LIMIT + 1), "fold_size": ("uint8", _TABLE_LIMIT + 1),
    "fold_buf": ("uint32", None), "classes": ("uint8", 0x10000),
    "token_classes": ("uint8", 0x10000),
}


@lru_cache(maxsize=1)
def _unicode_tables() -> dict:
    """What the scan derives from this Python's Unicode database: the NFKC and fold maps
    (absent when :func:`_nfkc_risky` finds the database unfit) and the character classes
    (absent when a character above the BMP is whitespace). Built in about 80 ms, which
    every scan's fork server paid before its first file; kept in the user's cache folder
    like jieba's arrays (jiebadict.cached_arrays: keyed by this file's size and mtime, the
    database's version and Python's), where a copy is untrusted input: one whose arrays
    have other types or lengths, an index outside its buffer (the kernels read it
    unchecked) or another checksum is rebuilt."""
    import sys

    kind = f"unicode-{unicodedata.unidata_version}-py{sys.version_info[0]}.{sys.version_info[1]}"
    return cached_arrays(kind, UNICODE_TABLES_VERSION, __file__, _build_unicode_tables,
                         _unicode_tables_ok)


def _build_unicode_tables() -> dict:
    out: dict = {}
    risky = _nfkc_risky()
    if risky is not None:
        nt = _NfkcTable(risky)
        ft = _FoldTable(nt)
        out.update(nfkc_stable=nt.stable, nfkc_start=nt.start, nfkc_size=nt.size,
                   nfkc_buf=nt.buf, fold_start=ft.start, fold_size=ft.size, fold_buf=ft.buf)
    classes = _build_char_classes()
    if classes is not None:
        out.update(classes=classes, token_classes=_build_token_classes(classes))
    out["checksum"] = _tables_checksum(out)
    return out


def _tables_checksum(t: dict):
    import numpy as np

    h = hashlib.blake2b(digest_size=16)
    for k in sorted(t):
        if k != "checksum":
            a = np.ascontiguousarray(t[k])
            h.update(f"{k}:{a.dtype.str}:{a.shape};".encode())
            h.update(a.tobytes())
    return np.frombuffer(h.digest(), dtype=np.uint8).copy()


def _unicode_tables_ok(t) -> bool:
    import numpy as np

    try:
        if not isinstance(t, dict) or set(t) - set(_UNICODE_ARRAYS) - {"checksum"}:
            return False
        groups = ({k for k in _UNICODE_ARRAYS if k.startswith(("nfkc", "fold"))},
                  {"classes", "token_classes"})
        if any(g & set(t) and not g <= set(t) for g in groups):
            return False
        for k, a in t.items():
            want = ("uint8", 16) if k == "checksum" else _UNICODE_ARRAYS[k]
            if not (isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype == np.dtype(want[0])
                    and (want[1] is None or len(a) == want[1])):
                return False
        for pre in ("nfkc", "fold"):
            if pre + "_buf" in t:
                start = t[pre + "_start"].astype(np.int64)
                end = start + t[pre + "_size"].astype(np.int64)
                if start.min() < 0 or end.max() > len(t[pre + "_buf"]):
                    return False
        return bool(np.array_equal(t["checksum"], _tables_checksum(t)))
    except (KeyError, TypeError, ValueError):
        return False


def _nfkc(text: str) -> str:
    """unicodedata.normalize("NFKC", text), character by character in numpy where exact.

    Risky characters (combining marks, Hangul vowels, ...) are normalised together with
    the stable character before them, by unicodedata; a text with many of them is
    normalised whole. The table takes about 0.05 s to build, so a process uses it only
    once it has normalised enough text for the build to pay off.
    """
    global _nfkc_seen
    if unicodedata.is_normalized("NFKC", text):  # a C quick check: common for Chinese text
        return text
    if _nfkc_seen < NFKC_TABLE_AFTER:
        _nfkc_seen += len(text)
        return unicodedata.normalize("NFKC", text)
    table = _nfkc_table()
    if table is None:
        return unicodedata.normalize("NFKC", text)
    import numpy as np

    c = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    c = np.minimum(c, _TABLE_LIMIT)
    bad = np.flatnonzero(~table.stable[c])
    if not len(bad):
        return table.apply(c)
    if len(bad) > MANY_RISKY:
        return unicodedata.normalize("NFKC", text)
    # each run of risky characters is normalised with the stable character before it
    gap = np.diff(bad) > 1
    firsts = bad[np.concatenate(([True], gap))].tolist()
    lasts = bad[np.concatenate((gap, [True]))].tolist()
    out = []
    last = 0
    for a, b in zip(firsts, lasts):
        a = max(a - 1, 0)
        out.append(table.apply(c[last:a]))
        out.append(unicodedata.normalize("NFKC", text[a : b + 1]))
        last = b + 1
    out.append(table.apply(c[last:]))
    return "".join(out)


class _Memo(dict):
    """A bounded memo of a pure function of one token (tokens repeat: Zipf)."""

    def __init__(self, fn: Callable[[str], object], limit: int = 1 << 20) -> None:
        super().__init__()
        self.fn = fn
        self.limit = limit

    def __missing__(self, key: str):
        value = self.fn(key)
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


def _is_word(t: str) -> bool:
    return bool(t[:1].isalnum() or _WORD.match(t))


_IS_WORD = _Memo(_is_word)
_IDF = _Memo(lambda t: idf(t))


def tokens(text: str, tokenizer: Tokenizer | None = None) -> list[str]:
    """Word tokens of normalised text (punctuation and spaces dropped)."""
    cut = tokenizer or default_tokenizer()
    return list(filter(_IS_WORD.__getitem__, cut(text)))


def rechunk(pieces: Iterable[str], size: int = CHUNK_CHARS) -> Iterator[str]:
    """Re-cut decoded pieces into chunks of about ``size`` characters at whitespace.

    Cuts depend only on the text, never on byte offsets, so a GBK and a UTF-8 copy
    of one text are cut alike and give the same features.
    """
    buf = ""
    for piece in pieces:
        buf += piece
        while len(buf) >= 2 * size:
            cut = buf.rfind("\n", size, 2 * size)
            if cut < 0:
                m = None
                for m in re.finditer(r"\s", buf[size : 2 * size]):
                    pass
                cut = size + m.start() if m else 2 * size
            yield buf[: cut + 1]
            buf = buf[cut + 1 :]
    if buf:
        yield buf


@dataclass(slots=True)
class Features:
    names: list[str]
    weights: list[float]
    tokens: int
    text_hash: str
    chars: int
    newline: str
    # the last len(pairs) names are word pairs, these (a, b); the others words (a tokenizer's
    # word may hold U+001F, so a pair's name alone cannot say where its words part)
    pairs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def low_confidence(self) -> bool:
        return self.tokens < LOW_CONFIDENCE_TOKENS


class _Ids(dict):
    """token -> id; an unseen token gets the next id and is queued in ``new``."""

    __slots__ = ("new",)

    def __missing__(self, key: str) -> int:
        i = len(self)
        self[key] = i
        self.new.append(key)
        return i


class _Vocab:
    """Per-thread token table: each distinct token once, with what features need of it.

    Tokens repeat across files (Zipf), so a token's word test, IDF, 128-bit mmh3 and
    UTF-8 bytes are computed once per process instead of once per file. A builder keeps
    the table it started with; a full table is replaced (never cleared) between files,
    so memory stays bounded and ids held by a running builder stay valid.

    With the compiled kernels the table keeps each token only in numpy arrays (its bytes
    in ``buf``): the Python str, bytes and float of each token cost about 150 bytes more,
    15 MB per worker at 100,000 tokens. :meth:`token`, :meth:`token_bytes` and
    :meth:`idf_of` read either form.
    """

    def __init__(self) -> None:
        import numpy as np

        self.ids = _Ids()
        self.ids.new = []
        self.n = 0  # tokens in the table
        # without the kernels: each token, its UTF-8 bytes and its IDF (0.0 for non-words)
        self.tokens: list[str] = []
        self.tb: list[bytes] = []
        self.idf_l: list[float] = []
        cap = 1024
        self.word = np.zeros(cap, dtype=bool)
        self.idf = np.zeros(cap, dtype=np.float64)
        self.hash = np.zeros((cap, 2), dtype=np.uint64)
        self.start = np.zeros(cap, dtype=np.int64)  # token bytes in buf, then one 0x1f byte
        self.blen = np.zeros(cap, dtype=np.int64)
        self.buf = np.zeros(1 << 16, dtype=np.uint8)
        self.used = 0
        # compiled kernels: token ids from a table keyed by the tokens' hashes, not the dict
        self.compiled = kernels.active()
        if self.compiled:
            self.keys = np.zeros((1 << 12, 2), dtype=np.uint64)
            self.vals = np.full(1 << 12, -1, dtype=np.int32)
            self.counts = np.zeros(cap, dtype=np.int32)  # fingerprint()'s scratch, all zero
        self.wslot = self.cslot = None  # cut(): ids of dictionary words, of BMP characters

    def lookup(self, toks: list[str]):
        """int32 ids of the word tokens among ``toks`` (punctuation and spaces dropped)."""
        import numpy as np

        if self.compiled:
            ids = self._lookup_compiled(toks)
        else:
            ids = np.fromiter(map(self.ids.__getitem__, toks), dtype=np.int32, count=len(toks))
            if self.ids.new:
                new = self.ids.new
                self.ids.new = []
                self._register(new)
        return ids.compress(self.word.take(ids))  # 2.5x faster than ids[self.word[ids]]

    def cut(self, text: str, points=None):
        """:meth:`lookup` of ``default_tokenizer()(text)`` by the compiled cut
        (``_kernels.cut_ids``: jieba-rs's tokens, never made into strings); None where it
        does not apply: no dictionary arrays (jiebadict), or a text with a lone surrogate,
        which rjieba refuses (the caller's path through rjieba then raises as it did).
        ``points``: the code points of ``text`` (uint32, no surrogates), if at hand."""
        import numpy as np

        t = jiebadict.tables()
        if t is None:
            return None
        if points is not None:
            c = _ro(points)
        else:
            try:
                c = np.frombuffer(text.encode("utf-32-le"), dtype="<u4")
            except UnicodeEncodeError:
                return None
        if self.wslot is None:
            self.wslot = np.full(len(t["logp"]), -1, dtype=np.int32)
            self.cslot = np.full(1 << 16, -1, dtype=np.int32)
            self.akey = np.zeros(ASCII_CACHE, dtype=np.uint64)  # short ASCII tokens' ids
            self.aval = np.full(ASCII_CACHE, -1, dtype=np.int32)
        n = len(c)
        ids = np.empty(n, dtype=np.int32)
        pos = tok = 0
        while pos < n:
            room = len(self.vals) // 2 - self.n
            if room < 2:  # the kernel takes a step of up to two tokens at a time
                self._grow_table()
                continue
            k = min(room, n - pos + 2)
            span = np.empty((k, 2), dtype=np.int64)
            new_hash = np.empty((k, 2), dtype=np.uint64)
            pos, tok, new = kernels.impl().cut_ids(
                c, pos, tok, t["root"], t["first"], t["label"], t["word"], t["logp"],
                float(t["log1"][0]), t["pairs"], self.wslot, self.cslot, self.akey, self.aval,
                self.keys, self.vals, self.n, ids, span, new_hash)
            if new:
                self._register_cut(c, span[:new], new_hash[:new])
        ids = ids[:tok]
        return ids.compress(self.word.take(ids))

    def _lookup_compiled(self, toks: list[str]):
        import numpy as np

        n = len(toks)
        if not n:
            return np.zeros(0, dtype=np.int32)
        raw = "\x1f".join(toks).encode("utf-8", "surrogatepass")
        ends = np.zeros(0, dtype=np.int64)
        if raw.count(b"\x1f") != n - 1:  # a token holds 0x1F (the tokenizer's text never
            # does: str.split counts it as whitespace): say where each token ends instead
            lens = np.fromiter((len(t.encode("utf-8", "surrogatepass")) for t in toks),
                               dtype=np.int64, count=n)
            ends = np.cumsum(lens + 1) - 1
        data = np.frombuffer(raw, dtype=np.uint8)
        ids = np.empty(n, dtype=np.int32)
        pos = tok = 0
        while tok < n:
            room = len(self.vals) // 2 - self.n
            if room < 1:
                self._grow_table()
                continue
            k = min(n - tok, room)
            new_index = np.empty(k, dtype=np.int64)
            new_hash = np.empty((k, 2), dtype=np.uint64)
            pos, tok, new = kernels.impl().token_ids(data, pos, tok, self.keys, self.vals,
                                              self.n, ids, new_index, new_hash,
                                              ends)
            if new:
                self._register([toks[i] for i in new_index[:new].tolist()], new_hash[:new])
        return ids

    def _grow_table(self) -> None:
        import numpy as np

        cap = 2 * len(self.vals)
        keys = np.zeros((cap, 2), dtype=np.uint64)
        vals = np.full(cap, -1, dtype=np.int32)
        kernels.impl().rehash(self.keys, self.vals, keys, vals)
        self.keys, self.vals = keys, vals

    def _reserve(self, hi: int) -> None:
        import numpy as np

        if hi > len(self.word):
            cap = max(hi, 2 * len(self.word))
            self.word = np.resize(self.word, cap)
            self.idf = np.resize(self.idf, cap)
            self.hash = np.resize(self.hash, (cap, 2))
            self.start = np.resize(self.start, cap)
            self.blen = np.resize(self.blen, cap)
            if self.compiled:
                self.counts = np.zeros(cap, dtype=np.int32)

    def _register_cut(self, c, span, hashes) -> None:
        """_register of the new tokens cut_ids found at ``span`` in the code points ``c``
        (``hashes``: their mmh3), in one compiled pass (``_kernels.new_tokens``) instead of
        making each a string: 3.3 us a token that way, a tenth of the worker's CPU on the
        mix. A token whose answer needs its string (a character above the BMP, a possible
        English stop word) is decoded from its bytes and decided by _register's rules."""
        import numpy as np

        classes = _token_classes()
        if classes is None:
            text = c.tobytes().decode("utf-32-le")
            self._register([text[a:b] for a, b in span.tolist()], hashes)
            return
        n = len(span)
        lo = self.n
        hi = lo + n
        self._reserve(hi)
        need = self.used + 4 * int(span[-1, 1] - span[0, 0]) + n + 16  # spans do not overlap
        if need > len(self.buf):
            self.buf = np.resize(self.buf, max(need, 2 * len(self.buf)))
        self.hash[lo:hi] = hashes
        keys = np.ascontiguousarray(hashes[:, 0])
        no_table = (np.zeros(0, dtype=np.uint64), np.zeros(0), 0.0)  # CJK words: checked
        idf_keys, idf_vals, median = _idf_hashed() or no_table
        check = np.empty(n, dtype=np.int64)
        self.used, nc = kernels.impl().new_tokens(
            c, span, keys, classes, self.buf, self.used, self.start[lo:hi], self.blen[lo:hi],
            self.word[lo:hi], self.idf[lo:hi], idf_keys, idf_vals, median, _stop_keys(),
            _NUMBER_IDF, _EN_WORD_IDF, check)
        for i in check[:nc].tolist():
            t = self.token(lo + i)
            w = _is_word(t)
            self.word[lo + i] = w
            self.idf[lo + i] = _idf_of_new([t], [w], keys[i : i + 1])[0]
        self.n = hi

    def _register(self, new: list[str], hashes=None) -> None:
        """Append tokens seen for the first time (``hashes``: their mmh3, if known)."""
        import numpy as np

        from .simhash import mmh3_128

        lo = self.n
        hi = lo + len(new)
        self.n = hi
        self._reserve(hi)
        enc = [t.encode("utf-8", "surrogatepass") for t in new]
        if not self.compiled:
            self.tokens.extend(new)
            self.tb.extend(enc)
        is_word = [_is_word(t) for t in new]
        self.word[lo:hi] = is_word
        if hashes is None:
            hashes = np.frombuffer(b"".join(map(mmh3_128, enc)), dtype="<u8").reshape(-1, 2)
        self.hash[lo:hi] = hashes
        idfs = _idf_of_new(new, is_word, self.hash[lo:hi, 0])
        if not self.compiled:
            self.idf_l.extend(idfs)
        self.idf[lo:hi] = idfs
        lens = np.fromiter(map(len, enc), dtype=np.int64, count=len(enc))
        joined = b"\x1f".join(enc) + b"\x1f"
        need = self.used + len(joined) + 16
        if need > len(self.buf):
            self.buf = np.resize(self.buf, max(need, 2 * len(self.buf)))
        self.buf[self.used : self.used + len(joined)] = np.frombuffer(joined, dtype=np.uint8)
        self.start[lo:hi] = self.used + np.cumsum(lens + 1) - (lens + 1)
        self.blen[lo:hi] = lens
        self.used += len(joined)


    def token_bytes(self, i: int) -> bytes:
        """The UTF-8 bytes of token ``i``."""
        if not self.compiled:
            return self.tb[i]
        at = int(self.start[i])
        return self.buf[at : at + int(self.blen[i])].tobytes()

    def token(self, i: int) -> str:
        if not self.compiled:
            return self.tokens[i]
        return self.token_bytes(i).decode("utf-8", "surrogatepass")

    def idf_at(self, i: int) -> float:
        return self.idf_l[i] if not self.compiled else float(self.idf[i])


# Slots of the cut's cache of short ASCII tokens (_kernels.cut_ids): 192 KB a vocabulary,
# within a core's L2 cache, enough for the words that make most of an English text.
ASCII_CACHE = 1 << 14
VOCAB_LIMIT = 1 << 18  # distinct tokens kept per thread between files
_LOCAL = threading.local()


def _vocab() -> _Vocab:
    v = getattr(_LOCAL, "vocab", None)
    if v is None or v.n > VOCAB_LIMIT or v.compiled != kernels.active():
        v = _LOCAL.vocab = _Vocab()
    return v


def release_vocab() -> bool:
    """Drop this thread's vocabulary (its tables: 20-30 MB after the 100 MB mix); the next
    fingerprint starts a new one. For a pool worker that goes on to measure doubtful pairs
    (the command line hands the scan's workers over, poolctx.take), which needs none of it.
    True when there was one."""
    if getattr(_LOCAL, "vocab", None) is None:
        return False
    _LOCAL.vocab = None
    return True


@lru_cache(maxsize=1)
def _char_classes():
    """:func:`_build_char_classes`, kept (``_unicode_tables``)."""
    return _unicode_tables().get("classes")


@lru_cache(maxsize=1)
def _token_classes():
    """:func:`_build_token_classes`, kept (``_unicode_tables``)."""
    return _unicode_tables().get("token_classes")


def _build_char_classes():
    """_kernels.prepare's classes of the BMP (uint8): 1 whitespace (str.isspace, the
    whitespace of str.split and of re's \\s), 2 invisible (textsim.drop_invisible's), 4 CJK
    (``_CJK_CLASS``). None if a character above the BMP is whitespace (no Unicode version so
    far has one; the kernel assumes it): the steps of add() then run one by one."""
    import numpy as np

    from ..textsim import _INVISIBLE

    cps = np.arange(0x10000, dtype="<u4")
    cps[0xD800:0xE000] = 0x41  # surrogates: no characters of their own
    bmp = cps.tobytes().decode("utf-32-le")
    astral = np.arange(0x10000, 0x110000, dtype="<u4").tobytes().decode("utf-32-le")
    if len(astral.split()) != 1:
        return None
    t = np.zeros(0x10000, dtype=np.uint8)
    t[[m.start() for m in re.finditer(r"\s", bmp)]] |= 1
    t[[m.start() for m in _INVISIBLE.finditer(bmp)]] |= 2
    t[[m.start() for m in re.finditer(f"[{_CJK_CLASS}]", bmp)]] |= 4
    return t


def _build_token_classes(base):
    """:func:`_char_classes` (``base``) plus what registering a token needs of its
    characters (BMP): 8 a word's first character (``_is_word``: str.isalnum or re's \\w),
    16 a digit (str.isdigit). Surrogates have neither."""
    import numpy as np

    t = base.copy()
    chars = list(map(chr, range(0x10000)))
    # re's \w is str.isalnum or "_" (sre's SRE_UNI_IS_WORD); a test checks every character
    word = np.fromiter(map(str.isalnum, chars), dtype=bool, count=0x10000)
    word[ord("_")] = True
    digit = np.fromiter(map(str.isdigit, chars), dtype=bool, count=0x10000)
    t[word] |= 8
    t[digit] |= 16
    t[0xD800:0xE000] &= 7
    return t


def _cjk_count(s: str) -> int:
    """How many characters of ``s`` are CJK ideographs (``_CJK_CLASS``), in numpy."""
    import numpy as np

    c = np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    hit = (c >= 0x4E00) & (c <= 0x9FFF)
    for lo, hi in ((0x3400, 0x4DBF), (0xF900, 0xFAFF), (0x20000, 0x2FFFF)):
        hit |= (c >= lo) & (c <= hi)
    return int(np.count_nonzero(hit))


def feature_text(folded: str, solid_text: str | None = None) -> str:
    """What the tokenizer sees: whitespace that a re-wrap could have put or moved deleted.

    A chunk that is at least ``CJK_SHARE`` CJK has every whitespace deleted (a re-wrapped
    Chinese text breaks lines inside words, and inside embedded ASCII words too); other
    text has whitespace between two CJK characters deleted and every other run of
    whitespace made one space. ``solid_text``: ``folded`` with all whitespace deleted, if
    known. Invisible characters (textsim.drop_invisible) must be gone already.
    """
    if folded.isascii():
        return " ".join(folded.split())
    if solid_text is None:
        solid_text = solid(folded)
    cjk = _cjk_count(solid_text)
    if cjk and cjk >= CJK_SHARE * len(solid_text):
        return solid_text
    return " ".join(_ws_between_cjk().sub("", folded).split())


class FeatureBuilder:
    """Accumulates token ids over text chunks, then counts and weights them."""

    def __init__(self, mode: str = DEFAULT_MODE, is_html: bool = False,
                 tokenizer: Tokenizer | None = None, shingles: bool = True) -> None:
        one_of("feature mode", mode, FEATURE_MODES)
        self.mode = mode
        self.is_html = is_html
        self.tokenizer = tokenizer
        self._vocab = _vocab()
        # jieba's cut through the compiled kernel, not rjieba: the same tokens (jiebadict)
        self._compiled_cut = tokenizer is None and self._vocab.compiled
        # a non-ASCII chunk's strings in one compiled pass (HTML's feature text differs)
        self._fused = self._vocab.compiled and not is_html and _char_classes() is not None
        self._ids: list = []  # int32 arrays of word-token ids, one per chunk
        self.n_tokens = 0
        self.chars = 0
        self._hash = hashlib.blake2b(digest_size=16)
        self._crlf = self._lf = self._cr = 0
        if not shingles:
            self.shingles = None
        elif self._vocab.compiled:
            self.shingles = _CompiledShingles()
        else:
            self.shingles = ShingleBuilder()

    def add(self, raw: str) -> None:
        self.chars += len(raw)
        cr = raw.count("\r")
        lf = raw.count("\n")
        crlf = raw.count("\r\n") if cr and lf else 0  # most files have no CR: two passes
        self._crlf += crlf
        self._lf += lf - crlf
        self._cr += cr - crlf
        folded = None
        if self._fused and not raw.isascii():
            points = _folded_points(raw)
            if points is None:  # a risky character: NFKC of the whole chunk
                folded = normalise(raw)
                points = None if folded.isascii() else _code_points(folded)
            if points is not None:
                self._add_points(points)
                return
        if folded is None:
            folded = normalise(raw)
        if not folded.isascii():
            folded = drop_invisible(folded)
        # the definition's string (textsim): no whitespace at all; shingles come from it
        words = folded.split() if folded.isascii() else None  # split once for both
        flat = solid(folded) if words is None else "".join(words)
        if self.shingles is not None:
            self.shingles.add_clean(flat)
        if self.is_html:  # tags out of the features; the definition's shingles keep them
            text = feature_text(drop_invisible(normalise(raw, True)))
        elif words is not None:
            text = " ".join(words)  # feature_text of ASCII text
        else:
            text = feature_text(folded, flat)
        # equal feature text means equal tokens, so equal text_hash means equal fingerprint
        self._hash.update(text.encode("utf-8", "surrogatepass"))
        self._cut(text)

    def _cut(self, text: str, points=None) -> None:
        """Keep the word ids of the feature text ``text`` (its code points ``points``, if at
        hand and free of surrogates). jieba's cut goes in slices (cut_slices: bounded
        temporaries), compiled where it applies; another tokenizer gets the whole text."""
        whole = ((0, len(text)),)
        for a, b in slice_bounds(text) if self.tokenizer is None else whole:
            part = text[a:b] if a or b < len(text) else text
            ids = None
            if self._compiled_cut:
                ids = self._vocab.cut(part, None if points is None else points[a:b])
            if ids is None:
                ids = self._vocab.lookup((self.tokenizer or default_tokenizer())(part))
            if len(ids):
                self.n_tokens += len(ids)
                self._ids.append(ids)

    def _add_points(self, c) -> None:
        """add() of a non-ASCII chunk, NFKC'd and casefolded (its code points ``c``), through
        the compiled kernels: its invisible characters and whitespace dropped, its feature
        text and CJK share in one pass (``_kernels.prepare``), the same strings as the
        steps of add()."""
        flat, feat, cjk, sur = kernels.impl().prepare(c, _char_classes())
        if self.shingles is not None:
            self.shingles.add_points(flat)
        if cjk and cjk >= CJK_SHARE * len(flat):  # feature_text's rule
            feat = flat
        text = feat.tobytes().decode("utf-32-le", "surrogatepass")
        self._hash.update(text.encode("utf-8", "surrogatepass"))
        self._cut(text, None if sur else feat)

    def newline(self) -> str:
        kinds = [n for n, c in (("CRLF", self._crlf), ("LF", self._lf), ("CR", self._cr)) if c]
        if not kinds:
            return "none"
        return kinds[0] if len(kinds) == 1 else "mixed"

    def _all_ids(self):
        import numpy as np

        if len(self._ids) > 1:
            self._ids = [np.concatenate(self._ids)]
        return self._ids[0] if self._ids else np.zeros(0, dtype=np.int32)

    @property
    def unigrams(self) -> Counter[str]:
        """Word counts (in order of first occurrence)."""
        return Counter(map(self._vocab.token, self._all_ids().tolist()))

    @property
    def bigrams(self) -> Counter[tuple[str, str]]:
        """Counts of adjacent word pairs; empty unless the mode is ``shingles``."""
        if self.mode != "shingles":
            return Counter()
        toks = list(map(self._vocab.token, self._all_ids().tolist()))
        return Counter(zip(toks, toks[1:]))

    def finish(self) -> Features:
        """The named, weighted features (the reference the fast fingerprint must equal)."""
        names: list[str] = []
        weights: list[float] = []
        unigrams = self.unigrams
        uni_idf = {t: _IDF[t] for t in unigrams}
        for t, c in unigrams.items():
            names.append(t)
            weights.append((1.0 + math.log(c)) * uni_idf[t])
        if self.mode == "topk":
            # The seeds' recipe: only the K best TF-IDF keywords, K from the text's size.
            k = max(5, min(200, self.chars * 3 // 120))
            best = sorted(zip(weights, names), key=lambda p: (-p[0], p[1]))[:k]
            names = [n for _, n in best]
            weights = [w for w, _ in best]
        pairs: list[tuple[str, str]] = []
        if self.mode == "shingles":
            for (a, b), c in self.bigrams.items():
                names.append(a + "\x1f" + b)
                pairs.append((a, b))
                weights.append((1.0 + math.log(c)) * 0.5 * (uni_idf[a] + uni_idf[b]))
        return Features(names, weights, self.n_tokens, self._hash.hexdigest(), self.chars,
                        self.newline(), pairs)

    def fingerprint(self) -> tuple[int, int] | None:
        """(128-bit SimHash, number of features) without building feature names.

        Equal to ``simhash128(f.names, f.weights, pairs=f.pairs)`` with ``f = self.finish()``
        (``pairs`` may be left out where no word holds U+001F: the scan's never do), bit
        for bit: the same weights in the same float arithmetic, the same mmh3 hash of
        the same UTF-8 bytes (unigram hashes cached per token), computed for all
        features at once in numpy. Returns None where that shortcut does not apply
        (``topk`` mode); use finish() then.
        """
        from .simhash import simhash128_hashed

        v = self._vocab
        if v.compiled and self.mode != "topk":
            lo, hi, n, status = kernels.impl().fingerprint(
                self._all_ids(), v.idf, v.hash, _log_table(), v.counts, self.mode == "shingles")
            if status == 0:
                return int(lo) | (int(hi) << 64), int(n)
        hw = self.hashed_features()
        if hw is None:
            return None
        hashes, weights = hw
        return simhash128_hashed(hashes, weights), len(weights)

    def hashed_features(self):
        """(hashes (n, 2) uint64, weights (n,) float64) of every feature, or None (topk).

        Row i is the mmh3 128 hash of a feature name of :meth:`finish` and its weight.
        """
        import numpy as np

        if self.mode == "topk":
            return None
        ids = self._all_ids()
        v = self._vocab
        if not len(ids):
            return np.zeros((0, 2), dtype=np.uint64), np.zeros(0, dtype=np.float64)
        if len(ids) < min(VECTOR_MIN_TOKENS, _LOG_LIST_SIZE):  # counts index the log list
            return self._hashed_features_small(ids.tolist())
        uni, counts_u = np.unique(ids, return_counts=True)
        w_u = (1.0 + _logs(counts_u)) * v.idf[uni]
        if self.mode != "shingles" or len(ids) < 2:
            return v.hash[uni], w_u
        codes = (ids[:-1].astype(np.int64) << 32) | ids[1:]
        big, counts_b = np.unique(codes, return_counts=True)
        ia = big >> 32
        ib = big & 0xFFFFFFFF
        n_b = len(big)
        w_b = (1.0 + _logs(counts_b)) * 0.5 * (v.idf[ia] + v.idf[ib])
        # in blocks, so the per-byte gather index stays bounded on huge files
        hashes_b = np.concatenate([_pair_hashes(v, ia[k : k + PAIR_BLOCK], ib[k : k + PAIR_BLOCK])
                                   for k in range(0, n_b, PAIR_BLOCK)])
        return np.concatenate((v.hash[uni], hashes_b)), np.concatenate((w_u, w_b))

    def _hashed_features_small(self, ids: list[int]):
        """hashed_features() for short texts: Python counting, two numpy calls."""
        import numpy as np
        from mmh3 import hash_bytes

        v = self._vocab
        logs = _log_list()
        cu = Counter(ids)
        idf = v.idf_l.__getitem__ if not v.compiled else v.idf_at
        weights = [(1.0 + logs[c]) * idf(t) for t, c in cu.items()]
        raw = v.hash[list(cu)].astype("<u8", copy=False).tobytes()
        if self.mode == "shingles" and len(ids) > 1:
            cb = Counter(zip(ids, ids[1:]))
            hv = v.hash.astype("<u8", copy=False)  # a pair's hash: the mmh3 of its words'
            raw += b"".join([hash_bytes(hv[a].tobytes() + hv[b].tobytes(), 0) for a, b in cb])
            weights += [(1.0 + logs[c]) * 0.5 * (idf(a) + idf(b))
                        for (a, b), c in cb.items()]
        return np.frombuffer(raw, dtype="<u8").reshape(-1, 2), np.array(weights, dtype=np.float64)

    def text_hash(self) -> str:
        return self._hash.hexdigest()


class _CompiledShingles:
    """textsim.ShingleBuilder through the compiled kernels: the same hashes, sketch and
    count; one sort of every chunk's 5-gram hashes, no other temporaries."""

    def __init__(self) -> None:
        import numpy as np

        self._parts: list = []
        self._tail = np.zeros(0, dtype=np.uint32)  # the last code points, up to SHINGLE - 1
        self.chars = 0

    def add_clean(self, s: str) -> None:
        if s:
            self.add_points(_code_points(s))

    def add_points(self, c) -> None:
        """add_clean of the string whose code points (uint32) are ``c``."""
        import numpy as np

        if not len(c):
            return
        self.chars += len(c)
        if len(self._tail):
            c = np.concatenate((self._tail, c))
        if self.chars >= SHINGLE:  # a shorter text is one shingle, taken at the end
            self._parts.append(kernels.impl().gram_hashes(c))
            self._tail = c[-(SHINGLE - 1):].copy()
        else:
            self._tail = c.copy()

    def sketch(self) -> tuple[bytes, int]:
        import numpy as np

        if self.chars < SHINGLE:
            h = kernels.impl().gram_hashes(self._tail)
        elif len(self._parts) == 1:
            h = self._parts[0]
        else:
            h = np.concatenate(self._parts)
        k = kernels.impl()
        if len(h) <= k.SKETCH_HASHED_MAX:
            out, n = k.sketch_hashes(h, SKETCH_K)
        else:  # a huge file: sorted in place, no table beside it
            h.sort()
            out, n = k.sketch_sorted(h, SKETCH_K)
        return out.astype("<u4").tobytes(), int(n)


def shingle_set(text: str):
    """textsim.shingle_set(text), equal element for element, by the scan's faster path:
    NFKC only where the text needs it (``_nfkc``) and, in a process with the compiled
    kernels on, the 5-gram hashes compiled."""
    return sorted_unique(_gram_hashes_of(text))


def distinct_shingles(text: str):
    """The elements of :func:`shingle_set` in no particular order where the compiled
    kernels are on (no sort: a third of the cost), sorted elsewhere; for
    textsim.jaccard_distinct. Reading a doubtful pair's files uses it."""
    h = _gram_hashes_of(text)
    if kernels.active() and len(h) <= kernels.impl().SKETCH_HASHED_MAX:
        return kernels.impl().distinct_hashes(h)
    return sorted_unique(h)  # (a large text: no table beside its hashes)


def _gram_hashes_of(text: str):
    """The 5-gram hashes of ``text`` by the definition (repeats kept), in order."""
    if kernels.active() and not text.isascii() and _char_classes() is not None:
        points = _folded_points(text)  # casefold(NFKC) by table, as add() does
        if points is not None:
            flat = kernels.impl().prepare(points, _char_classes())[0]
            return kernels.impl().gram_hashes(flat)
    folded = normalise(text)
    if kernels.active():
        classes = None if folded.isascii() else _char_classes()
        if classes is None:
            points = _code_points(solid(drop_invisible(folded)))
        else:  # invisible characters and whitespace dropped in one pass (as add() does)
            points = kernels.impl().prepare(_code_points(folded), classes)[0]
        return kernels.impl().gram_hashes(points)
    return gram_hashes(solid(drop_invisible(folded)))


def _folded_points(text: str):
    """The code points of ``casefold(NFKC(text))`` by the fold table and ``_kernels.fold``
    (compiled kernels on); None when the table is not in use yet (``_nfkc``'s threshold) or a
    character of ``text`` is risky."""
    ft = _fold_table() if _nfkc_seen >= NFKC_TABLE_AFTER else None
    if ft is None:
        return None
    return kernels.impl().fold(_code_points(text), ft.stable, ft.start, ft.size, ft.buf)


def _ro(a):
    """``a`` read-only (a view when it is not): the cut's kernels (cut_ids, new_tokens) are
    then called with one array type, read-only as ``np.frombuffer`` gives it, and the fork
    server loads one compiled specialisation of each, not two. prepare and gram_hashes,
    small to load, keep both: their read-only code ran 5-18 % slower (2 ms each over the
    25 MB mix), and their inputs are mostly the kernels' own writable outputs."""
    if a.flags.writeable:
        a = a.view()
        a.flags.writeable = False
    return a


def _code_points(s: str):
    import numpy as np

    return np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype="<u4")


PAIR_BLOCK = 1 << 16  # word pairs hashed per numpy pass


def _pair_hashes(v: _Vocab, ia, ib):
    """The feature hashes of the word pairs (ia, ib) (word ids): simhash.pair_hash, the mmh3
    128 of the two words' hashes, 32 bytes a pair."""
    import numpy as np

    from .simhash import mmh3_128_many

    n = len(ia)
    rows = np.empty((n, 4), dtype="<u8")
    rows[:, :2] = v.hash[ia]
    rows[:, 2:] = v.hash[ib]
    return mmh3_128_many(rows.view(np.uint8).ravel(), np.arange(n, dtype=np.int64) * 32,
                         np.full(n, 32, dtype=np.int64))


_LOG_TABLE = None
_LOG_LIST: list[float] = []


_LOG_LIST_SIZE = 1 << 12


def _log_list() -> list[float]:
    """math.log(c) for c < _LOG_LIST_SIZE (0.0 at 0), as a Python list."""
    if not _LOG_LIST:
        _LOG_LIST.extend([0.0] + [math.log(c) for c in range(1, _LOG_LIST_SIZE)])
    return _LOG_LIST


def _log_table():
    """math.log(c) for c < 2**16 (0.0 at 0) as a float64 array."""
    import numpy as np

    global _LOG_TABLE
    if _LOG_TABLE is None:  # math.log, not np.log: numpy's may differ in the last bit
        table = np.zeros(1 << 16, dtype=np.float64)
        table[1:] = np.fromiter(map(math.log, range(1, 1 << 16)), dtype=np.float64,
                                count=(1 << 16) - 1)
        _LOG_TABLE = table
    return _LOG_TABLE


def _logs(counts):
    """math.log of each count, looked up (so bit-identical to the scalar formula)."""
    import numpy as np

    table = _log_table()
    if len(counts) and int(counts.max()) < len(table):
        return table[counts]
    uniq, inv = np.unique(counts, return_inverse=True)
    table = np.array([math.log(c) for c in uniq.tolist()], dtype=np.float64)
    return table[inv]


def extract(text: str, mode: str = DEFAULT_MODE, is_html: bool = False,
            tokenizer: Tokenizer | None = None) -> Features:
    """Features of a whole text (convenience over :class:`FeatureBuilder`)."""
    fb = FeatureBuilder(mode, is_html, tokenizer)
    for chunk in rechunk([text]):
        fb.add(chunk)
    return fb.finish()


def prepare_process(compiled: bool) -> None:
    """Load what fingerprinting uses, once per process (the fork server's preload, or a
    spawned worker): the IDF arrays, the tokenizer (rjieba only where the compiled cut is
    not used), and with the kernels their tables; NFKC by table from the first file on."""
    from . import jiebadict

    if not compiled or jiebadict.tables() is None:
        default_tokenizer()("预热")
    _idf_hashed()
    global _nfkc_seen
    if _nfkc_table() is not None:
        _nfkc_seen = max(_nfkc_seen, NFKC_TABLE_AFTER)
    if compiled:
        _log_table()
        _char_classes()
        _token_classes()
        _fold_table()
