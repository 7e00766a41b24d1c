"""Weights of words: jieba's IDF table for Chinese words (kept as hashed arrays in the user's
cache folder), a stop-word aware constant for other words, and the word test.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from .jiebadict import cached_arrays, jieba_file
from .unicode_tables import cjk_re

_WORD = re.compile(r"\w+")

# Function words of English: frequent in every text, so they carry little.
EN_STOP = frozenset("""
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had
has have having he her here hers herself him himself his how i if in into is it its itself just
me more most my myself no nor not now of off on once only or other our ours ourselves out over
own same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what when where which while who
whom why will with would you your yours yourself yourselves s t don also may might must shall
one two us its
""".split())
EN_STOP_IDF = 1.5
EN_WORD_IDF = 8.0
NUMBER_IDF = 4.0


@lru_cache(maxsize=1)
def idf_table() -> tuple[dict[str, float], float]:
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
    """The rows (low 64 bits of a word's mmh3 128, its IDF's bits) of :func:`idf_hashed`,
    sorted by key."""
    import numpy as np

    from .simhash import mmh3_128

    table, _ = idf_table()
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
def idf_hashed():
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


def idf_of_new(tokens: list[str], words: list[bool], keys) -> list[float]:
    """idf() of each token that is a word (``words``: which are; 0.0 for the rest);
    ``keys``: each token's mmh3 low 64 bits."""
    out = [0.0] * len(tokens)
    cjk = []
    cjk_search = cjk_re().search
    for i, (t, w) in enumerate(zip(tokens, words)):
        if not w:
            continue
        if cjk_search(t):
            cjk.append(i)
        elif t.isdigit():
            out[i] = NUMBER_IDF
        else:
            out[i] = EN_STOP_IDF if t in EN_STOP else EN_WORD_IDF
    if cjk:
        for i, x in zip(cjk, _cjk_idf(keys[cjk], lambda j: tokens[cjk[j]]).tolist()):
            out[i] = x
    return out


def _cjk_idf(keys, token: Callable[[int], str]):
    """idf() of CJK tokens (float64 array), by their mmh3 low 64 bits ``keys``; ``token(j)``
    gives the j-th as a string when the hashed table cannot be used."""
    import numpy as np

    hashed = idf_hashed()
    if hashed is None:
        table, median = idf_table()
        return np.array([table.get(token(j), median) for j in range(len(keys))],
                        dtype=np.float64)
    k, v, median = hashed
    pos = np.minimum(np.searchsorted(k, keys), len(k) - 1)
    return np.where(k[pos] == keys, v[pos], median)


@lru_cache(maxsize=1)
def stop_keys():
    """The mmh3 low 64 bits of the English stop words (a token whose key is among them is
    checked by its string)."""
    import numpy as np

    from .simhash import mmh3_128

    return np.sort(np.frombuffer(b"".join(mmh3_128(w.encode())[:8] for w in EN_STOP),
                                 dtype="<u8"))


def idf(token: str) -> float:
    if cjk_re().search(token):
        table, median = idf_table()
        return table.get(token, median)
    if token.isdigit():
        return NUMBER_IDF
    if token in EN_STOP:
        return EN_STOP_IDF
    return EN_WORD_IDF


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


def is_word(t: str) -> bool:
    return bool(t[:1].isalnum() or _WORD.match(t))


IDF_MEMO = _Memo(lambda t: idf(t))
