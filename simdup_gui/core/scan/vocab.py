"""The per-thread vocabulary of the feature path: each distinct token once, with its id, word
test, IDF, mmh3 hash and UTF-8 bytes (:class:`Vocab`), so a file's tokens become an int
array; with the compiled kernels the tokens are cut and looked up without making strings.
"""

from __future__ import annotations

import threading

from . import idf, jiebadict, kernels
from .unicode_tables import token_classes


class _Ids(dict):
    """token -> id; an unseen token gets the next id and is queued in ``new``."""

    __slots__ = ("new",)

    def __missing__(self, key: str) -> int:
        i = len(self)
        self[key] = i
        self.new.append(key)
        return i


class Vocab:
    """Per-thread token table: each distinct token once, with what features need of it.

    Tokens repeat across files (Zipf), so a token's word test, IDF, 128-bit mmh3 and
    UTF-8 bytes are computed once per process instead of once per file. A builder keeps
    the table it started with; a full table is replaced (never cleared) between files,
    so memory stays bounded and ids held by a running builder stay valid.

    With the compiled kernels the table keeps each token only in numpy arrays (its bytes
    in ``buf``): the Python str, bytes and float of each token cost about 150 bytes more,
    15 MB per worker at 100,000 tokens. :meth:`token`, :meth:`token_bytes` and
    :meth:`idf_at` read either form.
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

        classes = token_classes()
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
        idf_keys, idf_vals, median = idf.idf_hashed() or no_table
        check = np.empty(n, dtype=np.int64)
        self.used, nc = kernels.impl().new_tokens(
            c, span, keys, classes, self.buf, self.used, self.start[lo:hi], self.blen[lo:hi],
            self.word[lo:hi], self.idf[lo:hi], idf_keys, idf_vals, median, idf.stop_keys(),
            idf.NUMBER_IDF, idf.EN_WORD_IDF, check)
        for i in check[:nc].tolist():
            t = self.token(lo + i)
            w = idf.is_word(t)
            self.word[lo + i] = w
            self.idf[lo + i] = idf.idf_of_new([t], [w], keys[i : i + 1])[0]
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
        words = [idf.is_word(t) for t in new]
        self.word[lo:hi] = words
        if hashes is None:
            hashes = np.frombuffer(b"".join(map(mmh3_128, enc)), dtype="<u8").reshape(-1, 2)
        self.hash[lo:hi] = hashes
        idfs = idf.idf_of_new(new, words, self.hash[lo:hi, 0])
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
VOCAB_LIMIT = 1 << 17  # distinct tokens kept per thread between files: fingerprinting every
# other file of the 764 MB tree in one process (26,779 files, two rounds alternated), 265-267
# MB peak RSS at 1 << 17, 277-278 at 1 << 18, 12.15-12.26 CPU s against 12.27-12.53
_LOCAL = threading.local()


def thread_vocab() -> Vocab:
    v = getattr(_LOCAL, "vocab", None)
    if v is None or v.n > VOCAB_LIMIT or v.compiled != kernels.active():
        v = _LOCAL.vocab = Vocab()
    return v


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

