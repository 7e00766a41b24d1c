"""Exact J of record pairs, from the files themselves: the measurer of grouping's doubtful
pairs (:class:`Measurer`, on the scan's pool when there are enough files), and the
similarity check before acting (:class:`PairSimilarity`). A file that changed since the
scan, or cannot be read, gives no measurement (None): the files are the evidence, never
a results file's claims.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from .measure import block_ends
from ..models import FileRecord
from ..textsim import (EMPTY, SKETCH_K, containment_in, count_in, estimate, jaccard,
                       jaccard_distinct, sketch_array, whole_lookup)

PARALLEL_READS = 64  # files to read at once that are worth starting the pool for
POOL_UP_READS = 2  # files to read at once that go to the pool once it is up (Measurer)
PREFETCH_TIMEOUT = 120.0  # seconds for one block of pairs, plus a second per READ_RATE bytes
READ_RATE = 4 << 20  # of its files: a lost worker's block is given up on after that
CONTAINED = 0.90  # |P & W| / |P| at which P is an excerpt of W (excerpts.py)
CONTAINED_TAG = ">"  # after the part's hash in the store's key of a containment: never in a
# hash (hex), so it is never a Jaccard pair's key, and a cache without it needs no rebuild
KEEP_SHINGLES = 2 << 20  # shingles (8 bytes each) of recently read files kept per process:
# 16 MB (it was 64 MB). Cold scans of the 768 MB tree (largetree.py run TREE --rounds 3
# --no-peer, the same rounds, load 0.8-2): peak PSS 644, 664, 666 MB against 652, 675, 709;
# CPU of the process tree 93.6, 105.8, 110.3 s against 80.3, 112.0, 112.2 s; the same groups


class _SetCache:
    """The shingle sets of the files read last, keyed by record index: at most ``keep``
    sets and ``KEEP_SHINGLES`` shingles in all (one 16 MB file alone has millions)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.sets: OrderedDict[object, np.ndarray | None] = OrderedDict()
        self.size = 0

    def get(self, key):
        s = self.sets.get(key, _MISSING)
        if s is not _MISSING:
            self.sets.move_to_end(key)
        return s

    def put(self, key, s: np.ndarray | None) -> None:
        self.sets[key] = s
        self.size += 0 if s is None else s.size
        while len(self.sets) > 1 and (len(self.sets) > self.keep or self.size > KEEP_SHINGLES):
            _, old = self.sets.popitem(last=False)
            self.size -= 0 if old is None else old.size

    def read(self, key, r: FileRecord) -> tuple[np.ndarray | None, int]:
        """(the set of ``r``, kept under ``key``; files read for it: 0 or 1)."""
        s = self.get(key)
        if s is not _MISSING:
            return s, 0
        s = read_shingles(r, ordered=False)
        self.put(key, s)
        return s, 1


_MISSING = object()
_WORKER_SETS = _SetCache(256)  # a pool worker's, kept between the blocks it is sent


def measure_pairs(pairs: list[tuple[FileRecord, FileRecord]],
                  kind: str = "jaccard") -> tuple[list[float | None], int]:
    """A pool worker's part of :meth:`Measurer.prefetch`: the exact J of each pair (None
    when a file changed or is unreadable; ``kind="contained"``: the first's containment in
    the second), and how many files it read. Only the numbers go back to the scan's
    process, not the shingle sets (megabytes each).

    A block that read files ends by handing its freed heap back (trim_heap): glibc kept the
    texts' and sets' freed memory, so each worker grew to 120-165 MB PSS reading the 768 MB
    tree's doubtful pairs, 40-60 MB of its heap free in pieces; trimmed, 50-60 MB between
    blocks (mallinfo2 and smaps_rollup logged after each block). A whole cold scan of that
    tree, summed PSS every 0.25 s, two ABBA rounds: the stars' and excerpts' step 503, 507
    MB on average against 567, 569 (its peak, a big file's set being read, 668-716 against
    714-719); the process tree's CPU 111.8-118.9 s against 110.1-118.9 s
    (``largetree.py run TREE --rounds 2 --no-peer``, three runs against four)."""
    from ..scan.fingerprint import trim_heap

    out: list[float | None] = []
    read = 0
    whole = _WholeLookup()
    for pair in pairs:
        keys = [(r.path, r.content_hash, r.size, r.mtime_ns) for r in pair]
        if kind == "contained":
            c, files = _contained(pair[0], pair[1], keys[0], keys[1], _WORKER_SETS, whole)
            out.append(c)
            read += files
            continue
        (a, ra), (b, rb) = (_WORKER_SETS.read(k, r) for k, r in zip(keys, pair, strict=True))
        read += ra + rb
        out.append(None if a is None or b is None else round(jaccard_distinct(a, b), 6))
    if read:
        trim_heap()
    return out, read


Sent = tuple[str, int, int, str, bytes]  # a file as a measuring worker gets it (:func:`_wire`)


def _wire(records: Sequence[FileRecord], pairs: list[tuple[int, int]], kind: str
          ) -> tuple[list[Sent], list[tuple[int, int]]]:
    """(files, pairs): what a measuring worker needs of ``pairs`` of ``records``, each file
    once, as a plain tuple: its path, size, mtime and content hash (what read_shingles
    checks, and the key of its kept set), and for a part of a containment its sketch
    (_contained); the pairs as indices into the files. Whole records, sketches and all,
    were pickled before: the 764 MB tree's doubtful pairs and excerpts sent 81 MB in 2,253
    tasks, 9 us of pickling and unpickling a pair, where tuples take under 1 us; now 40 MB.
    Whole cold scans of that tree against eebd504 (``largetree.py run TREE --checkout BASE
    --checkout HEAD --rounds 3``, then 4, alternated, load 1-1.9; its compiling round left
    out): the process tree's CPU per pair -3.3, +0.1, -1.6, +0.8, -2.5, -2.3 % (51.1-53.8
    against 52.4-53.9 s), the verify phase 13.6-14.9 against 14.6-15.2 s; the same groups
    and excerpts."""
    parts = {a for a, _ in pairs} if kind == "contained" else set()
    at: dict[int, int] = {}
    files: list[Sent] = []

    def place(i: int) -> int:
        k = at.get(i)
        if k is None:
            r = records[i]
            k = at[i] = len(files)
            files.append((r.path, r.size, r.mtime_ns, r.content_hash,
                          r.sketch if i in parts else b""))
        return k

    return files, [(place(a), place(b)) for a, b in pairs]


def measure_sent(files: list[Sent], pairs: list[tuple[int, int]], kind: str = "jaccard"
                 ) -> tuple[list[float | None], int]:
    """:func:`measure_pairs` of what :func:`_wire` made (a pool worker's entry point)."""
    recs = [FileRecord(path, size, mtime_ns, 0, 0, "", "", 0, 0, "", content_hash,
                       sketch=sketch) for path, size, mtime_ns, content_hash, sketch in files]
    return measure_pairs([(recs[a], recs[b]) for a, b in pairs], kind)


def _reject_at(n: int = SKETCH_K, alpha: float = 1e-6) -> int:
    """The most values of a full sketch of n that may be found in a whole for the part to
    be left out as no excerpt: below it, a part CONTAINED in the whole shows so few with a
    chance under ``alpha`` (binomial; the sketch's values are a sample of the part's
    5-grams drawn by their hashes). 96 of 128 at 0.90."""
    cdf = 0.0
    for s in range(n + 1):
        cdf += math.comb(n, s) * CONTAINED ** s * (1 - CONTAINED) ** (n - s)
        if cdf >= alpha:
            return s - 1
    return n


REJECT_AT = _reject_at()


def _contained(part: FileRecord, whole: FileRecord, part_key, whole_key, sets: _SetCache,
               lookups: _WholeLookup) -> tuple[float | None, int]:
    """(the containment of ``part`` in ``whole``, files read): the whole's set is read
    first and the part's full sketch (its SKETCH_K smallest 5-gram hashes' high halves)
    looked up in it; a part showing at most REJECT_AT of them is left out without
    reading it (an estimate under CONTAINED), every other pair is measured exactly. On the
    768 MB tree the excerpts' 97,452 doubtful pairs read 41,390 files, 23,592 so (each of
    the 11,982 wholes once, and the parts not left out), for the same 18,344 excerpts;
    on the three held-out halves of docs/accuracy.md the same excerpts from 282 of 336,
    826 of 1,248 and 1,343 of 2,900 reads. A part truly CONTAINED is left out with a
    chance under one in a million. The step alone on that tree: 35 -> 25 s wall, its CPU
    the same (the lookups cost what the reads saved); a whole cold scan with this
    session's other changes: 71.6, 75.7 -> 69.1, 71.3 s wall (docs/performance.md)."""
    w, read = sets.read(whole_key, whole)
    if w is None:
        return None, read
    values = np.frombuffer(part.sketch, dtype="<u4")
    if len(values) == SKETCH_K and values[-1] != EMPTY:  # a sample, not the part's whole set
        found = lookups.found(whole_key, w, values)
        if found <= REJECT_AT:
            return round(found / SKETCH_K, 6), read
    p, more = sets.read(part_key, part)
    if p is None:
        return None, read + more
    return round(containment_in(p, lookups(whole_key, w)), 6), read + more


class _WholeLookup:
    """The last whole's textsim.whole_lookup, by its key: a whole's pairs come together
    (find_excerpts orders them by whole), and its table is made once for them all; and
    likewise the set of the high halves of its hashes (for :meth:`found`)."""

    def __init__(self) -> None:
        self.key, self.lookup = _MISSING, None
        self.tops_key, self.tops = _MISSING, None

    def __call__(self, key, whole: np.ndarray) -> tuple:
        if key != self.key:
            self.key, self.lookup = key, whole_lookup(whole)
        return self.lookup

    def found(self, key, whole: np.ndarray, values: np.ndarray) -> int:
        """How many of a part's sketch ``values`` (32-bit high halves, as
        textsim.make_sketch keeps them) are high halves of the whole's hashes. (Made for
        each part's largest value and again when a larger one came, the set of the halves
        took 3.6 s of CPU in np.unique for the 768 MB tree's 11,982 wholes; once a whole
        and without sorting, the excerpts step of that tree in one process took 29.5 -> 22.3
        CPU s under cProfile, and on the pool 39.3, 37.1 -> 34.7, 38.7 CPU s, ABBA at load
        3-4: within the noise there.)"""
        if key != self.tops_key:
            high = whole >> np.uint64(32)
            high[high == EMPTY] = EMPTY - 1  # (as a sketch folds it)
            self.tops_key, self.tops = key, whole_lookup(high)
        return count_in(values.astype(np.uint64), self.tops)


def measuring_worker() -> None:
    """A measuring pool's worker's start: the compiled kernels on, as in the scan's workers.
    One forked from the fork server has them on from its preload (scan/warm.py), but a
    spawned one (macOS, Windows) did not, nor one whose server could not import simdup at
    its start (Python 3.11's fork server imports its preload before it takes the parent's
    sys.path): those read with the numpy path, the same sets at about twice the CPU (the
    768 MB tree's excerpts: 38.7-46.3 CPU s so, 22.0-27.1 with the kernels)."""
    from ..scan import kernels

    kernels.enable(True)


def _task_count(files: int, workers: int) -> int:
    """The tasks a block of pairs reading ``files`` files is cut into: about one a
    PARALLEL_READS files, at least one a worker and at most four. Four a worker whatever
    the block's size (before 2026-11-28) cut a 290-file block into eight tasks on two
    workers, each with its own start and its share of the components' files; see Measurer
    for a whole scan's figures."""
    return min(4 * workers, max(workers, -(-files // PARALLEL_READS)))


def _block_key(pairs: list[tuple[int, int]]) -> tuple:
    return (len(pairs), pairs[0], pairs[-1]) if pairs else (0,)


def _spread(pairs: list, comp: list[int], n: int) -> list[list]:
    """``pairs`` (in component order, ``comp`` each one's) in about ``n`` contiguous slices,
    cut between components where :func:`measure.block_ends` finds a change near the cut."""
    ends = block_ends(np.asarray(comp), -(-len(pairs) // max(1, n)))
    return [pairs[a:b] for a, b in zip([0, *ends], [*ends, len(pairs)])]


class Measurer:
    """Exact J of two records from the files themselves (None when a file changed or is
    unreadable). Shingle sets of the last few files are kept; results can be remembered
    in ``store`` (keyed by both content hashes) so a warm rescan reads no file.

    ``workers`` > 1: :meth:`prefetch` measures a block of pairs on that many processes of
    the scan's pool (forked from its warm fork server) when they need at least
    PARALLEL_READS files; only the similarities come back. :meth:`close` ends the pool.
    Once it is up, a block of a few files goes to it too (POOL_UP_READS), in
    :func:`_task_count` tasks: the stars ask for a reference's doubtful pairs one star at a
    time (edges.py), and the 764 MB tree's 1,430 such blocks of under 64 files (11,333
    files) were read here, by numpy (measure.COMPILED_PAIRS), while the workers waited.
    Whole cold scans against 105a1b5 (``largetree.py run TREE --checkout HEAD --checkout
    BASE --rounds 4``, alternated, load 0.6-1.3): wall 29.1-31.3 against 30.4-32.5 s (per
    pair -2.5 to -4.7 %), the process tree's CPU 48.3-52.2 against 50.1-53.3 s (-1.9 to
    -3.6 %), the verify phase 12.6-13.6 against 13.7-14.1 s, peak PSS 462-474 against
    460-478 MB; the same groups and excerpts. (Small blocks to the pool with four tasks a
    worker for every block, as before, gained less: verify 14.2-14.8 against 14.8-15.5 s.)
    The 25 MB mix (``alternate.py``, 6 rounds): 2.38 against 2.40 s median, its pool never
    started by a small block.
    Fresh workers, not the ones that fingerprinted: those were handed over until
    2026-11-28 (poolctx.take), and waited through the candidates' step with the heap of
    their fingerprinting, 68 MB PSS each. On the 764 MB tree (53,558 files, cold
    ``simdup scan --phase-times``, summed PSS every 0.2 s) the candidates' step peaked at
    579 MB, not 655, and the stars' at 618, not 669; the whole scan's wall 29.5-29.6 s
    against 29.2-29.6 s, its CPU 49.0-49.2 against 48.3-49.0 s (largetree.py, 2 rounds).
    The similarities are the same either way."""

    def __init__(self, records: Sequence[FileRecord], store=None, keep: int = 320,
                 workers: int = 1, kind: str = "jaccard") -> None:
        self.records = records
        self.kind = kind  # what prefetch measures on the pool: "jaccard" or "contained"
        self.store = store
        self._sets = _SetCache(keep)
        self._measured: dict[tuple[int, int], float | None] = {}  # by prefetch, not yet asked
        self.read = 0
        self.workers = workers
        self._pool = None
        self._pending: dict = {}  # blocks sent to the pool, not yet waited for
        self._done: dict = {}  # the pool's answers (poolctx.Done) by task, not yet used
        self._whole = _WholeLookup()  # for contained(), here
        self._looked: dict = {}  # pairs sent to the pool: what the store held (None: no)

    def prefetch(self, pairs: list[tuple[int, int]], labels: list[int] | None = None,
                 ahead: Sequence[tuple[list[tuple[int, int]], list[int]]] = ()) -> None:
        """Measure ``pairs`` (not remembered in the store, nor measured already) on the
        pool; :meth:`__call__` then answers them without reading. ``labels``: each pair's
        component (graph.component_order), so that a component's pairs go to one worker,
        which then reads each of its files once. ``ahead``: the next blocks (pairs, labels),
        sent now so the workers go on while this process uses the answers."""
        if self.workers < 2:
            return
        key = _block_key(pairs)
        try:
            if key not in self._pending:
                self._send(key, pairs, labels)
            for p, lab in ahead:
                if _block_key(p) not in self._pending:
                    self._send(_block_key(p), p, lab)
            sent = self._pending.pop(key, None)
            if sent is None:  # too few files to be worth the pool
                return
            blocks, tasks, timeout = sent
            answers = self._answers(tasks, timeout)
        except Exception:  # noqa: BLE001 - no pool, a worker lost or too slow (the
            if self._pool is not None:  # timeout), ...: measure them here instead
                self._pool.end()
                self._pool = None
            self._pending.clear()
            self.workers = 1
            return
        for blk, (js, read) in zip(blocks, answers):
            self.read += read
            self._measured.update(zip(blk, js))

    def _send(self, key, pairs: list[tuple[int, int]], labels: list[int] | None) -> None:
        """Send a block's pairs to the pool (in :func:`_spread`'s slices), unless its files
        are too few to be worth it."""
        todo: list[tuple[int, int]] = []
        comp: list[int] = []
        files: set[int] = set()
        for k, (a, b) in enumerate(pairs):
            if (a, b) in self._measured or self._catalogued(a, b):
                continue
            if self.store is not None:  # (looked up once: __call__ and contained() take it)
                j = self._looked[(a, b)] = self._stored(a, b)
                if j is not None:
                    continue
            todo.append((a, b))
            comp.append(labels[k] if labels is not None else k)
            files.update((a, b))
        if len(files) < (PARALLEL_READS if self._pool is None else POOL_UP_READS):
            return
        blocks = _spread(todo, comp, _task_count(len(files), self.workers))
        if self._pool is None:
            from ..scan.poolctx import make_pool

            self._pool = make_pool(self.workers, measuring_worker)
        timeout = PREFETCH_TIMEOUT + sum(self.records[i].size for i in files) / READ_RATE
        self._pending[key] = blocks, [self._pool.submit(
            measure_sent, (*_wire(self.records, blk, self.kind), self.kind))
            for blk in blocks], timeout

    def _answers(self, tasks: list[int], timeout: float) -> list:
        """The answers of the pool's ``tasks``, in order, keeping those of other blocks that
        come meanwhile; TimeoutError past ``timeout`` seconds, a task's error raised."""
        deadline = time.monotonic() + timeout
        while any(t not in self._done for t in tasks):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the measuring pool did not answer in time")
            for done in self._pool.wait(left):
                self._done[done.task] = done
        answers = [self._done.pop(t) for t in tasks]
        for done in answers:
            if done.error is not None:
                raise done.error
        return [done.value for done in answers]

    def close(self) -> None:
        """End the pool."""
        if self._pool is not None:
            self._pool.end()
            self._pool = None

    def _key(self, a: int, b: int, kind: str = "jaccard") -> tuple[str, str] | None:
        """The store's key of a pair (both content hashes, ordered; for the containment of
        ``a`` in ``b``, a's hash with CONTAINED_TAG, then b's), or None: no store, or a
        record without a hash."""
        ha, hb = self.records[a].content_hash, self.records[b].content_hash
        if self.store is None or not (ha and hb):
            return None
        return (ha + CONTAINED_TAG, hb) if kind == "contained" else tuple(sorted((ha, hb)))

    def _stored(self, a: int, b: int) -> float | None:
        key = self._key(a, b, self.kind)
        return None if key is None else self.store.get_pair(*key)

    def _set(self, i: int) -> np.ndarray | None:
        s, read = self._sets.read(i, self.records[i])
        self.read += read
        return s

    def _from_store(self, a: int, b: int, key, kind: str = "jaccard") -> float | None:
        """The value the store holds for the pair under ``key`` (None: none, or no store),
        not looked up again when :meth:`_send` did (it looked up ``self.kind``'s value)."""
        j = self._looked.pop((a, b), _MISSING) if kind == self.kind else _MISSING
        if j is _MISSING:
            j = None if key is None else self.store.get_pair(*key)
        return j

    def _catalogued(self, a: int, b: int) -> bool:
        """A pair with a catalogued record (review/catalog.py): its file is not here, so
        the pair is not measured (not even from the store: a catalog's hashes are only its
        claims); its sketches' estimate stands."""
        return bool(self.records[a].catalog or self.records[b].catalog)

    def __call__(self, a: int, b: int) -> float | None:
        if self._catalogued(a, b):
            return None
        key = self._key(a, b)
        j = self._from_store(a, b, key)
        if j is not None:
            return j
        if (a, b) in self._measured:
            j = self._measured.pop((a, b))
        else:
            sa, sb = self._set(a), self._set(b)
            if sa is None or sb is None:
                return None
            j = round(jaccard_distinct(sa, sb), 6)
        if j is not None and key is not None:
            self.store.put_pair(*key, j)
        return j

    def contained(self, part: int, whole: int) -> float | None:
        """Exact containment |P & W| / |P| of record ``part``'s text in ``whole``'s (None:
        a file changed, cannot be read, or is in a catalog); remembered in the store, so
        that a warm rescan reads no file for it either. A rescan of the 768 MB tree with
        the cache (``simdup scan TREE --phase-times``, 2 workers, against fe5dd52, ABBA at
        load 0.9-1.4): its verify phase 20.2, 17.4 -> 8.5, 9.8 s, the whole rescan 31.7,
        25.5 -> 18.7, 18.8 s; the same groups and 18,344 excerpts."""
        if self._catalogued(part, whole):
            return None
        key = self._key(part, whole, "contained")
        c = self._from_store(part, whole, key, "contained")
        if c is not None:
            return c
        if self.kind == "contained" and (part, whole) in self._measured:  # by prefetch
            c = self._measured.pop((part, whole))
        else:
            c, read = _contained(self.records[part], self.records[whole], part, whole,
                                 self._sets, self._whole)
            self.read += read
        if c is not None and key is not None:
            self.store.put_pair(*key, c)
        return c


def read_shingles(r: FileRecord, ordered: bool = True) -> np.ndarray | None:
    """The record's shingle set, from its file; None if it changed since the scan.
    ``ordered=False``: in any order (shingles.distinct_shingles, for jaccard_distinct)."""
    from ..scan.documents import MAX_DOCUMENT_BYTES, document_kind, text_of
    from ..scan.fingerprint import MAX_FEATURE_CHARS, STREAM_ABOVE
    from ..shingles import distinct_shingles, shingle_set as fast_shingle_set

    if r.catalog:  # a catalogued file is not here: its path is never opened
        return None
    limit = MAX_DOCUMENT_BYTES if document_kind(r.path) else STREAM_ABOVE
    try:
        if r.size > limit:
            return None  # huge files: the sketch's estimate stands
        with open(r.path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError:
        return None
    if r.content_hash and hashlib.blake2b(data, digest_size=16).hexdigest() != r.content_hash:
        return None
    try:
        text = text_of(r.path, data).text  # a document's extracted text (scan/documents.py)
    except Exception:  # noqa: BLE001 - undecodable now: no measurement
        return None
    del data  # (a large file's bytes: not held while its set is made)
    text = text[:MAX_FEATURE_CHARS]
    return fast_shingle_set(text) if ordered else distinct_shingles(text)  # textsim's set


class PairSimilarity:
    """Text similarity of two records, for keep rules and for the check before acting.

    ``measured`` reads both files (shingle sets kept by path) and gives None when either
    changed since the scan or cannot be read: the files themselves are the evidence, never
    a results file's claims. Identical bytes (equal content hashes, which the action
    checks again just before it acts) are 1.0 without reading. ``estimated`` uses the
    sketches when both records have one, and measures otherwise.
    """

    def __init__(self) -> None:
        self._sets: dict[tuple[str, str], np.ndarray | None] = {}

    def _set(self, r: FileRecord) -> np.ndarray | None:
        key = (r.path, r.content_hash)
        if key not in self._sets:
            self._sets[key] = read_shingles(r) if r.content_hash else None
        return self._sets[key]

    def readable(self, r: FileRecord) -> bool:
        """The file is still there, readable, with the scan's content."""
        return self._set(r) is not None

    def measured(self, a: FileRecord, b: FileRecord) -> float | None:
        if a.content_hash and a.content_hash == b.content_hash:
            return 1.0
        sa, sb = self._set(a), self._set(b)
        if sa is None or sb is None:
            return None
        return jaccard(sa, sb)

    def estimated(self, a: FileRecord, b: FileRecord) -> float | None:
        if a.content_hash and a.content_hash == b.content_hash:
            return 1.0
        if a.sketch and b.sketch:
            est, _ = estimate(sketch_array((a.sketch, b.sketch), 2), np.array([0]), np.array([1]))
            return float(est[0])
        return self.measured(a, b)
