"""Normalise text and turn it into weighted features.

Chinese is cut with jieba's dictionary (through ``rjieba``, the jieba-rs binding,
when installed: same tokens as ``jieba.cut(text, HMM=False)``, about 10x faster);
other scripts are cut into words. Weights are TF-IDF with jieba's IDF table for
Chinese words and a stop-word aware constant for other words.
"""

from __future__ import annotations

import hashlib
import html
import math
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

FEATURE_MODES = ("shingles", "tokens", "topk")
DEFAULT_MODE = "shingles"
NORMALISATION_VERSION = 1
LOW_CONFIDENCE_TOKENS = 40
CHUNK_CHARS = 1 << 20
VECTOR_MIN_FEATURES = 300  # below this, hashing feature by feature is faster

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")
_TAG = re.compile(r"<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]{0,2000}>", re.S | re.I)
_WORD = re.compile(r"\w+")

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
    import jieba

    path = os.path.join(os.path.dirname(jieba.__file__), "analyse", "idf.txt")
    table: dict[str, float] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) == 2:
                table[parts[0]] = float(parts[1])
    values = sorted(table.values())
    return table, values[len(values) // 2]


def idf(token: str) -> float:
    if _CJK.search(token):
        table, median = _idf_table()
        return table.get(token, median)
    if token.isdigit():
        return _NUMBER_IDF
    if token in _EN_STOP:
        return _EN_STOP_IDF
    return _EN_WORD_IDF


def tokenizer_name() -> str:
    try:
        import rjieba  # noqa: F401

        return "rjieba"
    except ImportError:
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


def strip_html(text: str) -> str:
    return html.unescape(_TAG.sub(" ", text))


def normalise(text: str, is_html: bool = False) -> str:
    """NFKC, case folding, HTML stripped; whitespace is left to the tokenizer."""
    if is_html:
        text = strip_html(text)
    return unicodedata.normalize("NFKC", text).casefold()


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

    @property
    def low_confidence(self) -> bool:
        return self.tokens < LOW_CONFIDENCE_TOKENS


class FeatureBuilder:
    """Accumulates token counts over text chunks, then weights them."""

    def __init__(self, mode: str = DEFAULT_MODE, is_html: bool = False,
                 tokenizer: Tokenizer | None = None) -> None:
        if mode not in FEATURE_MODES:
            raise ValueError(f"feature mode must be one of {', '.join(FEATURE_MODES)}, not {mode!r}")
        self.mode = mode
        self.is_html = is_html
        self.tokenizer = tokenizer
        self.unigrams: Counter[str] = Counter()
        self.bigrams: Counter[tuple[str, str]] = Counter()
        self.n_tokens = 0
        self.chars = 0
        self._last: str | None = None
        self._hash = hashlib.blake2b(digest_size=16)
        self._crlf = self._lf = self._cr = 0

    def add(self, raw: str) -> None:
        self.chars += len(raw)
        crlf = raw.count("\r\n")
        self._crlf += crlf
        self._lf += raw.count("\n") - crlf
        self._cr += raw.count("\r") - crlf
        text = normalise(raw, self.is_html)
        # "Exact" text ignores whitespace entirely: re-wrapped Chinese has no spaces to keep.
        self._hash.update("".join(text.split()).encode("utf-8", "surrogatepass"))
        toks = tokens(text, self.tokenizer)
        if not toks:
            return
        self.n_tokens += len(toks)
        self.unigrams.update(toks)
        if self.mode == "shingles":
            prev = [self._last] + toks[:-1] if self._last is not None else toks[:-1]
            nxt = toks if self._last is not None else toks[1:]
            self.bigrams.update(zip(prev, nxt))
        self._last = toks[-1]

    def newline(self) -> str:
        kinds = [n for n, c in (("CRLF", self._crlf), ("LF", self._lf), ("CR", self._cr)) if c]
        if not kinds:
            return "none"
        return kinds[0] if len(kinds) == 1 else "mixed"

    def finish(self) -> Features:
        names: list[str] = []
        weights: list[float] = []
        uni_idf = {t: _IDF[t] for t in self.unigrams}
        for t, c in self.unigrams.items():
            names.append(t)
            weights.append((1.0 + math.log(c)) * uni_idf[t])
        if self.mode == "topk":
            # The seeds' recipe: only the K best TF-IDF keywords, K from the text's size.
            k = max(5, min(200, self.chars * 3 // 120))
            best = sorted(zip(weights, names), key=lambda p: (-p[0], p[1]))[:k]
            names = [n for _, n in best]
            weights = [w for w, _ in best]
        elif self.mode == "shingles":
            for (a, b), c in self.bigrams.items():
                names.append(a + "\x1f" + b)
                weights.append((1.0 + math.log(c)) * 0.5 * (uni_idf[a] + uni_idf[b]))
        return Features(names, weights, self.n_tokens, self._hash.hexdigest(), self.chars,
                        self.newline())


    def fingerprint(self) -> tuple[int, int] | None:
        """(128-bit SimHash, number of features) without building feature names.

        Equal to ``simhash128(f.names, f.weights)`` with ``f = self.finish()``, bit
        for bit: the same weights in the same float arithmetic, the same mmh3 hash of
        the same UTF-8 bytes, computed for all features at once in numpy. Returns
        None where that shortcut does not apply (``topk`` mode); use finish() then.
        """
        import numpy as np

        from .simhash import mmh3_128_many, simhash128_hashed

        if self.mode == "topk":
            return None
        vocab = list(self.unigrams)
        n_u = len(vocab)
        if n_u == 0:
            return 0, 0
        if n_u + len(self.bigrams) < VECTOR_MIN_FEATURES:
            return None  # numpy's fixed cost per call outweighs the per-feature saving
        counts_u = np.fromiter(self.unigrams.values(), dtype=np.int64, count=n_u)
        idfs = np.fromiter(map(_IDF.__getitem__, vocab), dtype=np.float64, count=n_u)
        joined = "\x00".join(vocab).encode("utf-8", "surrogatepass")
        buf = np.frombuffer(joined, dtype=np.uint8)
        zeros = np.flatnonzero(buf == 0)
        if len(zeros) != n_u - 1:
            return None  # a token holds a NUL character: take the slow path
        starts_u = np.empty(n_u, dtype=np.int64)
        starts_u[0] = 0
        starts_u[1:] = zeros + 1
        lens_u = np.empty(n_u, dtype=np.int64)
        lens_u[:-1] = zeros - starts_u[:-1]
        lens_u[-1] = len(buf) - starts_u[-1]
        w_u = (1.0 + _logs(counts_u)) * idfs
        if self.mode != "shingles" or not self.bigrams:
            hashes = mmh3_128_many(buf, starts_u, lens_u)
            return simhash128_hashed(hashes, w_u), n_u
        from operator import itemgetter

        tid = dict(zip(vocab, range(n_u)))
        keys = list(self.bigrams)
        n_b = len(keys)
        ia = np.fromiter(map(tid.__getitem__, map(itemgetter(0), keys)), dtype=np.int64,
                         count=n_b)
        ib = np.fromiter(map(tid.__getitem__, map(itemgetter(1), keys)), dtype=np.int64,
                         count=n_b)
        counts_b = np.fromiter(self.bigrams.values(), dtype=np.int64, count=n_b)
        w_b = (1.0 + _logs(counts_b)) * 0.5 * (idfs[ia] + idfs[ib])
        # bigram bytes: a, 0x1f, b; segments copied out of buf + one separator byte
        ext = np.concatenate((buf, np.array([0x1F], dtype=np.uint8)))
        seg_start = np.empty(3 * n_b, dtype=np.int64)
        seg_len = np.empty(3 * n_b, dtype=np.int64)
        seg_start[0::3], seg_len[0::3] = starts_u[ia], lens_u[ia]
        seg_start[1::3], seg_len[1::3] = len(buf), 1
        seg_start[2::3], seg_len[2::3] = starts_u[ib], lens_u[ib]
        seg_out = np.cumsum(seg_len) - seg_len
        total = int(seg_len.sum())
        src = np.repeat(seg_start - seg_out, seg_len) + np.arange(total, dtype=np.int64)
        big = ext[src]
        lens_b = seg_len[0::3] + 1 + seg_len[2::3]
        starts_b = seg_out[0::3] + len(buf)
        all_buf = np.concatenate((buf, big))
        hashes = mmh3_128_many(all_buf, np.concatenate((starts_u, starts_b)),
                               np.concatenate((lens_u, lens_b)))
        return simhash128_hashed(hashes, np.concatenate((w_u, w_b))), n_u + n_b

    def text_hash(self) -> str:
        return self._hash.hexdigest()


_LOG_TABLE = None


def _logs(counts):
    """math.log of each count, looked up (so bit-identical to the scalar formula)."""
    import numpy as np

    global _LOG_TABLE
    if _LOG_TABLE is None:
        _LOG_TABLE = np.array([0.0] + [math.log(c) for c in range(1, 1 << 16)])
    if len(counts) and int(counts.max()) < len(_LOG_TABLE):
        return _LOG_TABLE[counts]
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
