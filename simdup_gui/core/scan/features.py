"""Turn text into weighted features: the tokenizer, the feature text, and
:class:`FeatureBuilder`, which counts and weights a file's words and word pairs.

Chinese is cut with jieba's dictionary (through ``rjieba``, the jieba-rs binding,
when installed: same tokens as ``jieba.cut(text, HMM=False)``, about 10x faster; with the
compiled kernels, by ``_kernels.cut_ids``: rjieba's tokens, as ids); other scripts are cut
into words. Weights are TF-IDF with jieba's IDF table for
Chinese words and a stop-word aware constant for other words (idf.py).

Speed: each thread keeps a vocabulary of token ids with each token's word test, IDF,
mmh3 hash and UTF-8 bytes (vocab.py), so a file's tokens become an int array; unigram and
word-pair counts come from np.unique (or a Counter of ids for short texts), and NFKC runs
only on the characters it can change (unicode_tables.py). The features, weights and
fingerprints are exactly those of :meth:`FeatureBuilder.finish`
(tests/core/scan/test_fast_features.py checks every one).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from . import decode, jiebadict, kernels, unicode_tables
from .idf import IDF_MEMO, idf_hashed
from .unicode_tables import (char_classes, cjk_count, code_points, folded_points, normalise,
                             ws_between_cjk)
from .vocab import Vocab, thread_vocab
from ..shingles import CompiledShingles
from ..textsim import ShingleBuilder, drop_invisible, solid
from ..validate import one_of

FEATURE_MODES = ("shingles", "tokens", "topk")
DEFAULT_MODE = "shingles"
NORMALISATION_VERSION = 2
CJK_SHARE = 0.2  # a chunk at least this CJK has every whitespace deleted before the cut
LOW_CONFIDENCE_TOKENS = 40
CHUNK_CHARS = 1 << 20
VECTOR_MIN_TOKENS = 300  # below this many word tokens, features are counted in Python

Tokenizer = Callable[[str], list[str]]


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


def slice_bounds(text: str, size: int | None = None) -> Iterator[tuple[int, int]]:
    """(start, end) of the pieces of ``text`` that jieba's cut gets, each of about ``size``
    characters (``CUT_SLICE``), each but the first starting at a space or a CJK
    punctuation mark. jieba cuts at those anyway (a space is a token of its own, the marks
    are outside its word-character class, and each run between them is cut on its own), so
    the pieces' tokens, one after the other, are the whole text's."""
    size = size or CUT_SLICE
    pos, n = 0, len(text)
    while n - pos > 2 * size:
        m = _SLICE_AT.search(text, pos + size, pos + 2 * size)
        if m is None:
            break
        yield pos, m.start()
        pos = m.start()
    yield pos, n


def rechunk(pieces: Iterable[str], size: int = CHUNK_CHARS) -> Iterator[str]:
    """Re-cut decoded pieces into chunks of about ``size`` characters at whitespace.

    Cuts depend only on the text, never on byte offsets, so a GBK and a UTF-8 copy
    of one text are cut alike and give the same features.

    The text not yet cut is kept as an offset ``at`` into ``buf``, not sliced off after
    each chunk: that copied the rest of the text once a chunk, so a whole file's text (one
    piece, fingerprint._fingerprint_loaded) was held twice. Fingerprinting the 768 MB
    tree's 8.4 MB nodejs all.html (UCS-4: 32 MB of text), Python's and numpy's memory
    peaked at 158 MB, now 134 MB (tracemalloc); the same chunks (5,000 random texts,
    pieces and sizes against the old code).
    """
    buf, at = "", 0
    for piece in pieces:
        buf = buf[at:] + piece
        at = 0
        while len(buf) - at >= 2 * size:
            cut = buf.rfind("\n", at + size, at + 2 * size)
            if cut < 0:
                m = None
                for m in re.finditer(r"\s", buf[at + size : at + 2 * size]):
                    pass
                cut = at + size + m.start() if m else at + 2 * size
            yield buf[at : cut + 1]
            at = cut + 1
    if at < len(buf):
        yield buf[at:]


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
    cjk = cjk_count(solid_text)
    if cjk and cjk >= CJK_SHARE * len(solid_text):
        return solid_text
    return " ".join(ws_between_cjk().sub("", folded).split())


class FeatureBuilder:
    """Accumulates token ids over text chunks, then counts and weights them."""

    def __init__(self, mode: str = DEFAULT_MODE, is_html: bool = False,
                 tokenizer: Tokenizer | None = None, shingles: bool = True) -> None:
        one_of("feature mode", mode, FEATURE_MODES)
        self.mode = mode
        self.is_html = is_html
        self.tokenizer = tokenizer
        self._vocab = thread_vocab()
        # jieba's cut through the compiled kernel, not rjieba: the same tokens (jiebadict)
        self._compiled_cut = tokenizer is None and self._vocab.compiled
        # a non-ASCII chunk's strings in one compiled pass (HTML's feature text differs)
        self._fused = self._vocab.compiled and not is_html and char_classes() is not None
        self._ids: list = []  # int32 arrays of word-token ids, one per chunk
        self.n_tokens = 0
        self.chars = 0
        self._hash = hashlib.blake2b(digest_size=16)
        self._crlf = self._lf = self._cr = 0
        if not shingles:
            self.shingles = None
        elif self._vocab.compiled:
            self.shingles = CompiledShingles()
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
        if self._fused and raw.isascii():
            # ASCII through prepare too: one encode and one compiled pass instead of split,
            # two joins and three encodes. Fingerprinting every 8th file of the 768 MB tree
            # in one process (6,896 files, 93 MB, half of them ASCII): 6.72 -> 5.92 CPU s,
            # means of four runs each, alternated
            self._add_points(code_points(raw.casefold()))
            return
        if self._fused:
            points = folded_points(raw)
            if points is None:  # a risky character: NFKC of the whole chunk
                folded = normalise(raw)
                points = None if folded.isascii() else code_points(folded)
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
        hand and free of surrogates). jieba's cut goes in slices (slice_bounds: bounded
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
        flat, feat, cjk, sur = kernels.impl().prepare(c, char_classes())
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
        uni_idf = {t: IDF_MEMO[t] for t in unigrams}
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
        v = self._vocab
        if v.compiled and self.mode != "topk":
            lo, hi, n, status = kernels.impl().fingerprint(
                self._all_ids(), v.idf, v.hash, _log_table(), v.counts, self.mode == "shingles")
            if status == 0:
                return int(lo) | (int(hi) << 64), int(n)
        from .simhash import simhash128_hashed  # (not before: an import statement costs 1 us)

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


PAIR_BLOCK = 1 << 16  # word pairs hashed per numpy pass


def _pair_hashes(v: Vocab, ia, ib):
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
    not used), and with the kernels their tables; NFKC by table from the first file on.
    The one door into the tables for warm.py."""
    if not compiled or jiebadict.tables() is None:
        default_tokenizer()("预热")
    idf_hashed()
    unicode_tables.prepare_process(compiled)
    decode.prepare_process()
    if compiled:
        _log_table()
