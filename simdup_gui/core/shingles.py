"""The definition's shingles (textsim) by the scan's faster path: NFKC only where the text
needs it (scan/unicode_tables.py) and, in a process with the compiled kernels on, the
5-gram hashes, their distinct set and the bottom-k sketch compiled (scan/_kernels.py).
Equal element for element, and bit for bit, to textsim's.
"""

from __future__ import annotations

import re

import numpy as np

from .scan import kernels
from .scan.unicode_tables import char_classes, code_points, folded_points, normalise
from .textsim import SHINGLE, SKETCH_K, drop_invisible, points_gram_hashes, solid, sorted_unique

COMPACT_ABOVE = 1 << 17  # fresh 5-gram hashes above which only their distinct ones are kept,
# a block of this many at a time: a large file's hashes (8 bytes a character, up to
# MAX_FEATURE_CHARS) were all held until its sketch, and then a joined copy. Fingerprinting
# the six largest files of the 764 MB tree (3.4-12.7 MB) in one process under tracemalloc:
# their peaks 63-108 -> 58-92 MB (valgrind_manual.ps 93 -> 71 MB), the same records; the
# tree's 115 files over 400 KB in 5.84-6.52 CPU s before, 5.83-6.04 after (three rounds
# alternated).


class CompiledShingles:
    """textsim.ShingleBuilder through the compiled kernels: the same hashes, sketch and
    count; one sort of every chunk's 5-gram hashes, no other temporaries. Past
    COMPACT_ABOVE fresh hashes only their distinct ones are kept (:meth:`_compact`)."""

    def __init__(self) -> None:
        import numpy as np

        self._parts: list = []  # hashes kept (distinct within each, repeats between them)
        self._fresh: list = []  # hashes made since the last _compact
        self._held = 0  # how many
        self._tail = np.zeros(0, dtype=np.uint32)  # the last code points, up to SHINGLE - 1
        self.chars = 0

    def add_clean(self, s: str) -> None:
        if s:
            self.add_points(code_points(s))

    def add_points(self, c) -> None:
        """add_clean of the string whose code points (uint32) are ``c``."""
        import numpy as np

        if not len(c):
            return
        self.chars += len(c)
        if len(self._tail):
            c = np.concatenate((self._tail, c))
        if self.chars >= SHINGLE:  # a shorter text is one shingle, taken at the end
            self._fresh.append(kernels.impl().gram_hashes(c))
            self._held += len(self._fresh[-1])
            if self._held > COMPACT_ABOVE:
                self._compact()
            self._tail = c[-(SHINGLE - 1):].copy()
        else:
            self._tail = c.copy()

    def _compact(self) -> None:
        """The fresh hashes made distinct a block of COMPACT_ABOVE at a time (the sketch and
        its count are the set's; a repeat across blocks is kept, as any repeat)."""
        import numpy as np

        h = self._fresh[0] if len(self._fresh) == 1 else np.concatenate(self._fresh)
        self._fresh, self._held = [], 0
        self._parts.extend(kernels.impl().distinct_hashes(h[a:a + COMPACT_ABOVE])
                           for a in range(0, len(h), COMPACT_ABOVE))

    def _hashes(self):
        """Every hash kept (repeats allowed): the text's set, as one array."""
        import numpy as np

        if self.chars < SHINGLE:
            return kernels.impl().gram_hashes(self._tail)
        parts = self._parts + self._fresh
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def distinct(self):
        """The sorted distinct hashes (:func:`shingle_set`)."""
        return sorted_unique(self._hashes())

    def sketch(self) -> tuple[bytes, int]:
        h = self._hashes()
        k = kernels.impl()
        if len(h) <= k.SKETCH_HASHED_MAX:
            out, n = k.sketch_hashes(h, SKETCH_K)
        else:  # a huge file: sorted in place, no table beside it
            h.sort()
            out, n = k.sketch_sorted(h, SKETCH_K)
        return out.astype("<u4").tobytes(), int(n)


def shingle_set(text: str):
    """textsim.shingle_set(text), equal element for element, by the scan's faster path:
    NFKC only where the text needs it (``nfkc``) and, in a process with the compiled
    kernels on, the 5-gram hashes compiled."""
    if _by_blocks(text):
        return _distinct_by_blocks(text)
    return sorted_unique(_gram_hashes_of(text))


def distinct_shingles(text: str):
    """The elements of :func:`shingle_set` in no particular order where the compiled
    kernels are on (no sort: a third of the cost), sorted elsewhere and for a text of more
    than COMPACT_ABOVE characters; for textsim.jaccard_distinct. Reading a doubtful
    pair's files uses it."""
    if _by_blocks(text):
        return _distinct_by_blocks(text)
    h = _gram_hashes_of(text)
    if _compiled() and len(h) <= kernels.impl().SKETCH_HASHED_MAX:
        return kernels.impl().distinct_hashes(h)
    return sorted_unique(h)  # (a large text: no table beside its hashes)


def _by_blocks(text: str) -> bool:
    return len(text) > COMPACT_ABOVE


def _distinct_by_blocks(text: str):
    """The sorted distinct 5-gram hashes of a large ``text`` (:func:`shingle_set`), made
    piece by piece, each block of COMPACT_ABOVE code points' distinct hashes only kept
    (through CompiledShingles where the kernels are on; by numpy, the last SHINGLE - 1
    points carried into the next block, elsewhere): neither the text's code points nor all
    its hashes are ever held at once. A measuring worker reading the 764 MB tree's largest
    files held all their hashes (8 bytes a character, up to MAX_FEATURE_CHARS) and a
    sorted copy. Reading the six largest (3.4 to 12.7 MB) in one process under
    tracemalloc, with exact.read_shingles no longer holding the file's bytes: their peaks
    59-86 MB -> 25-59 MB (valgrind_manual.ps 70.2 -> 25.5 MB; its set 0.7 MB), the same
    sets. The scan's own process, which reads the doubtful pairs too few for the pool
    without the kernels (group/measure.py: COMPILED_PAIRS), read the three largest by
    numpy at 129-171 MB traced, 0.47-0.71 CPU s each; by blocks at 27-59 MB, 0.28-0.43 s,
    the same sets."""
    if _compiled() and char_classes() is not None:
        builder = CompiledShingles()
        for flat in _flat_pieces(text):
            builder.add_points(flat)
        return builder.distinct()
    kept, held, n, total = [], [], 0, 0
    tail = np.zeros(0, dtype=np.uint64)
    for p in pieces(text):
        c = joined_points([solid(drop_invisible(normalise(p)))])
        held.append(c)
        n += len(c)
        total += len(c)
        if n >= COMPACT_ABOVE:
            block = np.concatenate([tail, *held])
            held, n = [], 0
            kept.append(sorted_unique(points_gram_hashes(block)))
            tail = block[-(SHINGLE - 1):]
    block = np.concatenate([tail, *held])
    if total < SHINGLE or len(block) >= SHINGLE:  # (a text of one shingle: the whole)
        kept.append(sorted_unique(points_gram_hashes(block)))
    return sorted_unique(np.concatenate(kept)) if len(kept) > 1 else kept[0]


def _compiled() -> bool:
    """Whether a text's shingles are made with the compiled kernels here: in a process that
    uses them (kernels.active: the scan's workers), and in one that loaded them already
    (kernels.loaded: the scan's main process once a grouping of many candidate pairs took
    them for its estimates, measure.COMPILED_PAIRS), where the doubtful pairs' files too
    few for the pool are read. On the 768 MB
    tree's records (grouping then excerpts, from a warm fingerprint cache, ABBA, load 2-3,
    four runs each) the main process's 10,338 reads took 1.93-2.50 -> 0.92-1.20 CPU s,
    and with :func:`_compiled_points` the two steps' CPU of the process tree (main + pool
    workers) 39.2-50.4 (mean 44.7) -> 35.2-41.4 (mean 39.0) s; the same groups and
    excerpts. Whole cold scans (benchmarks/largetree.py, rounds 1-2 against 355493b, load
    0.9-2.2): the verify phase (the grouping's verification and the excerpts) 27.5, 30.2 ->
    25.0, 28.4 s, peak PSS 732, 739 -> 723, 718 MB, the CLI's groups and excerpts equal."""
    return kernels.active() or (kernels.loaded() and kernels.allowed())


def _gram_hashes_of(text: str):
    """The 5-gram hashes of ``text`` by the definition (repeats kept), in order."""
    if _compiled():
        if char_classes() is not None:
            return kernels.impl().gram_hashes(_compiled_points(text))
        folded = "".join(normalise(p) for p in pieces(text))
        return kernels.impl().gram_hashes(code_points(solid(drop_invisible(folded))))
    return points_gram_hashes(joined_points(solid(drop_invisible(normalise(p)))
                                            for p in pieces(text)))


def _compiled_points(text: str) -> np.ndarray:
    """The code points (uint32) of the definition's string of ``text``, as
    FeatureBuilder.add makes them: each piece casefolded (ASCII) or NFKC'd and casefolded
    by the fold table where it can be (unicode_tables.folded_points), then its invisible
    characters and whitespace dropped in one compiled pass (``_kernels.prepare``). Pieces
    of PIECE characters (:func:`pieces`; an ASCII text cut anywhere) keep each call that
    holds the GIL short. An ASCII text went through pieces' NFKC, two splits and joins,
    the invisibles' search and an encode before: the excerpts' files of the 768 MB tree
    (a quarter of them: 4,293 ASCII texts, 31 million characters) in one process, 0.70 ->
    0.27 CPU s to hash."""
    flats = list(_flat_pieces(text))
    if len(flats) == 1:
        return flats[0]
    return np.concatenate(flats) if flats else np.zeros(0, dtype=np.uint32)


def _flat_pieces(text: str):
    """:func:`_compiled_points` of ``text`` piece by piece (their concatenation is it)."""
    cls = char_classes()
    parts = ((text[a:a + PIECE] for a in range(0, len(text), PIECE)) if text.isascii()
             else pieces(text))
    for p in parts:
        c = None if p.isascii() else folded_points(p)
        if c is None:
            c = code_points(normalise(p))
        yield kernels.impl().prepare(c, cls)[0]


def joined_points(parts) -> np.ndarray:
    """The code points (uint64) of ``"".join(parts)``, encoded a part at a time: joining a
    large text's normalised pieces and encoding the whole held the GIL for each copy
    (14 million characters: 91 ms to encode, more to join, on a loaded machine), while
    the app's worker thread measured excerpts of the 768 MB tree (gui_stalls.py)."""
    arrays = [np.frombuffer(p.encode("utf-32-le", "surrogatepass"), dtype="<u4")
              for p in parts]
    if not arrays:
        return np.zeros(0, dtype=np.uint64)
    return (np.concatenate(arrays) if len(arrays) > 1 else arrays[0]).astype(np.uint64)


PIECE = 1 << 16  # characters normalised per call (NFKC, regexes: each holds the GIL)
_CUT = re.compile(r"[\x00-\x7f](?=[\x00-\x7f])")  # two ASCII characters in a row


def pieces(text: str):
    """``text`` in pieces of about PIECE characters, each cut between two ASCII characters:
    NFKC, case folding and the deletions of the definition give the same text piece by
    piece (an ASCII character is a starter that composes with no character after it, and
    none before it composes with it or reorders across it). Each call then holds the GIL
    briefly: measuring a pair of large files on the app's worker thread froze its window
    up to 233 ms while it scanned the 768 MB tree (gui_stalls.py). (Cut at line breaks
    only, a minified file of one 7 MB line was one piece.)"""
    start, n = 0, len(text)
    while n - start > PIECE:
        cut = _CUT.search(text, start + PIECE)
        if cut is None:
            break
        yield text[start:cut.end()]
        start = cut.end()
    yield text[start:]

