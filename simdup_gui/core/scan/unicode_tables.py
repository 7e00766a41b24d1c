"""Text normalisation and what the scan derives from Python's Unicode database: NFKC (by
table where that is exact), case folding, HTML stripped, and the character classes the
compiled kernels read (whitespace, invisible, CJK, word start, digit).

The tables (NFKC map, fold map, classes) are built once and kept in the user's cache folder
(:func:`_unicode_tables`); a process uses NFKC by table once it has normalised enough text
for the build to pay off (``NFKC_TABLE_AFTER``), or from its first file when
:func:`prepare_process` readied it (a scan's worker).
"""

from __future__ import annotations

import hashlib
import html
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from . import kernels
from .jiebadict import cached_arrays

_TAG = re.compile(r"<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]{0,2000}>", re.S | re.I)
CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
# Regexes over the CJK class compile on first use: compiling them took 8 ms of every
# process that imports this module, the fork server's on the way to the first fingerprint;
# a worker on the compiled path may never use them.
@lru_cache(maxsize=None)
def cjk_re() -> re.Pattern:
    return re.compile(f"[{CJK_CLASS}]")


@lru_cache(maxsize=None)
def ws_between_cjk() -> re.Pattern:
    return re.compile(f"(?<=[{CJK_CLASS}])\\s+(?=[{CJK_CLASS}])")


def strip_html(text: str) -> str:
    return html.unescape(_TAG.sub(" ", text))


def normalise(text: str, is_html: bool = False) -> str:
    """NFKC, case folding, HTML stripped; whitespace is left to the tokenizer."""
    if is_html:
        text = strip_html(text)
    if text.isascii():  # O(1) in CPython; NFKC leaves ASCII unchanged
        return text.casefold()
    return nfkc(text).casefold()


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
APPLY_BLOCK = 1 << 16  # code points the NFKC table maps at once: a 2-million-character chunk
# made 16 MB int64 temporaries four at a time. Fingerprinting the 8.4 MB nodejs all.html
# (UCS-4 text, NFKC by the table) in one process under tracemalloc: 138 -> 97 MB at its peak


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
        """NFKC of the code points ``c`` (uint32), all stable; by blocks of APPLY_BLOCK
        code points, whose int64 temporaries stay small (:meth:`_apply`)."""
        if len(c) <= APPLY_BLOCK:
            return self._apply(c)
        return "".join(self._apply(c[a:a + APPLY_BLOCK]) for a in range(0, len(c), APPLY_BLOCK))

    def _apply(self, c) -> str:
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
def fold_table() -> _FoldTable | None:
    t = _unicode_tables()
    return _FoldTable.from_arrays(t) if "fold_buf" in t else None


@lru_cache(maxsize=1)
def nfkc_table() -> _NfkcTable | None:
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


def nfkc(text: str) -> str:
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
    table = nfkc_table()
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


@lru_cache(maxsize=1)
def char_classes():
    """:func:`_build_char_classes`, kept (:func:`_unicode_tables`)."""
    return _unicode_tables().get("classes")


@lru_cache(maxsize=1)
def token_classes():
    """:func:`_build_token_classes`, kept (``_unicode_tables``)."""
    return _unicode_tables().get("token_classes")


def _build_char_classes():
    """_kernels.prepare's classes of the BMP (uint8): 1 whitespace (str.isspace, the
    whitespace of str.split and of re's \\s), 2 invisible (textsim.drop_invisible's), 4 CJK
    (``CJK_CLASS``). None if a character above the BMP is whitespace (no Unicode version so
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
    t[[m.start() for m in re.finditer(f"[{CJK_CLASS}]", bmp)]] |= 4
    return t


def _build_token_classes(base):
    """:func:`char_classes` (``base``) plus what registering a token needs of its
    characters (BMP): 8 a word's first character (``is_word``: str.isalnum or re's \\w),
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


def cjk_count(s: str) -> int:
    """How many characters of ``s`` are CJK ideographs (``CJK_CLASS``), in numpy."""
    import numpy as np

    c = np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    hit = (c >= 0x4E00) & (c <= 0x9FFF)
    for lo, hi in ((0x3400, 0x4DBF), (0xF900, 0xFAFF), (0x20000, 0x2FFFF)):
        hit |= (c >= lo) & (c <= hi)
    return int(np.count_nonzero(hit))


def folded_points(text: str):
    """The code points of ``casefold(NFKC(text))`` by the fold table and ``_kernels.fold``
    (compiled kernels on); None when the table is not in use yet (``nfkc``'s threshold) or a
    character of ``text`` is risky."""
    ft = fold_table() if _nfkc_seen >= NFKC_TABLE_AFTER else None
    if ft is None:
        return None
    return kernels.impl().fold(code_points(text), ft.stable, ft.start, ft.size, ft.buf)


def code_points(s: str):
    import numpy as np

    return np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def prepare_process(compiled: bool) -> None:
    """NFKC by table from the first file on; with the compiled kernels, the tables they
    read (character classes, the fold map) loaded now (features.prepare_process)."""
    global _nfkc_seen
    if nfkc_table() is not None:
        _nfkc_seen = max(_nfkc_seen, NFKC_TABLE_AFTER)
    if compiled:
        char_classes()
        token_classes()
        fold_table()
