"""A whole scan: walk, cache look-up, parallel fingerprinting, with progress and cancel."""

from __future__ import annotations

import heapq
import logging
import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

from .cache import FingerprintCache
from .documents import document_kind
from .fingerprint import (Copies, FeatureSettings, Loaded, fingerprint_batch, load_file,
                          trim_heap, warm_worker)
from ..job import NULL_JOB, Cancelled, Job
from ..models import FileRecord, Problem, ProgressEvent
from .pdftext import HANG_SECONDS, read_crumb
from .poolctx import PoolFailed, WorkerDied, make_pool, pool_context
from .walk import Candidate, WalkOptions, walk

CHUNK_BYTES = 2 << 20
CHUNK_FILES = 64
IN_PROCESS_BELOW = 4 << 20  # scans smaller than this skip the pool's start-up cost
TRIM_EVERY = 16  # chunks taken, then the freed heap handed back (fingerprint.trim_heap): the
# answers' buffers, freed between the records kept, left the scan's process of the 764 MB
# tree holding 47 MB of free heap 8 s into its fingerprinting (mallinfo2), 155 MB PSS;
# trimmed, 109 MB. A trim takes 0.14 ms on average there (887 chunks, 0.13 s in all).
PRELOAD_BYTES = 64 << 20  # decoded text held here at most while the pool starts (_start_pool)

log = logging.getLogger(__name__)


@dataclass
class ScanOptions:
    walk: WalkOptions = field(default_factory=WalkOptions)
    features: FeatureSettings = field(default_factory=FeatureSettings)
    workers: int = 0  # 0: one per core
    use_cache: bool = True
    cache_path: str | None = None
    scheduler: str = ""  # a Dask scheduler ("local", "local:N", "tcp://host:8786"); "": here

    def worker_count(self) -> int:
        return self.workers if self.workers > 0 else max(1, os.cpu_count() or 1)


@dataclass
class ScanResult:
    records: list[FileRecord]
    problems: list[Problem]
    stats: dict
    cancelled: bool = False
    roots: list[str] = field(default_factory=list)  # what was scanned (absolute)
    features: str = ""  # the feature mode the fingerprints were made in ("": not known)


def _chunks(cands: list[Candidate], workers: int = 1) -> list[list[Candidate]]:
    """Chunks of at most CHUNK_BYTES / CHUNK_FILES, and small enough that every worker
    gets about eight: the last chunks then finish close together. Files of one size come
    together (:func:`_sizes_together`), so that a chunk's byte-identical copies are decoded
    and fingerprinted once (fingerprint.Copies)."""
    out: list[list[Candidate]] = []
    cur: list[Candidate] = []
    size = 0
    limit = min(CHUNK_BYTES, max(64 << 10, sum(c.size for c in cands) // (8 * max(1, workers))))
    for c in _sizes_together(cands):
        cur.append(c)
        size += c.size
        if size >= limit or len(cur) >= CHUNK_FILES:
            out.append(cur)
            cur, size = [], 0
    if cur:
        out.append(cur)
    return out


def _sizes_together(cands: list[Candidate]) -> list[Candidate]:
    """``cands`` in the walk's order, but each file that has the size of one before it moved
    up to just after the others of that size. Copies of a file have its size and usually sit
    in other folders (a backup, a download folder): so they meet in one chunk. On the mixed
    benchmark corpus 287 of 3,354 files (8 % of the bytes) are such copies."""
    by_size: dict[int, list[Candidate]] = {}
    for c in cands:
        by_size.setdefault(c.size, []).append(c)
    if len(by_size) == len(cands):
        return cands
    out: list[Candidate] = []
    for c in cands:
        same = by_size.pop(c.size, None)
        if same is not None:
            out.extend(same)
    return out


def scan(roots: list[str], options: ScanOptions | None = None, job: Job = NULL_JOB) -> ScanResult:
    """Scan ``roots`` and return every record and problem. Cancelling keeps what was done."""
    run = _ScanRun(options or ScanOptions(), job)
    try:
        todo = run.candidates(roots)  # walked, and not in the cache
        run.fingerprint(todo)  # here, on a process pool, or on a Dask cluster
    except Cancelled:
        run.cancelled = True
    finally:
        run.close_cache()
    return run.result(roots)


class _ScanRun:
    """One scan's records, problems, counts and progress, as its steps add to them."""

    def __init__(self, opt: ScanOptions, job: Job) -> None:
        self.opt = opt
        self.job = job
        self.t0 = time.perf_counter()
        self.records: list[FileRecord] = []
        self.problems: list[Problem] = []
        self.stats = {"files": 0, "bytes": 0, "seconds": 0.0, "candidates": 0, "cached": 0,
                      "fingerprinted": 0, "empty": 0, "problems": 0, "workers": 0}
        self.cancelled = False
        self.cache: FingerprintCache | None = None
        self.version = ""
        self.total_files = self.total_bytes = self.done_files = self.done_bytes = 0
        self.taken = 0  # chunks taken (TRIM_EVERY)

    def candidates(self, roots: list[str]) -> list[Candidate]:
        """Walk ``roots``; the files to fingerprint (those the cache does not know)."""
        w = walk(roots, self.opt.walk, self.job)
        self.problems.extend(w.problems)
        self.stats["empty"] = w.empty
        cands = w.files
        self.total_files = len(cands)
        self.total_bytes = sum(c.size for c in cands)
        self.stats["candidates"] = self.total_files
        self.version = self.opt.features.version()
        todo = self._not_cached(cands) if self.opt.use_cache else cands
        self.report("fingerprint")
        return todo

    def _not_cached(self, cands: list[Candidate]) -> list[Candidate]:
        """The records and problems the cache keeps for ``cands`` taken; the others."""
        self.cache = FingerprintCache(self.opt.cache_path)
        hits = self.cache.lookup_entries(
            self.version, [(c.path, c.size, c.mtime_ns, c.inode, c.dev, c.root) for c in cands])
        for e in hits.values():
            (self.records if isinstance(e, FileRecord) else self.problems).append(e)
        self.stats["cached"] = len(hits)
        todo = [c for c in cands if c.path not in hits]
        self.done_files = len(hits)
        self.done_bytes = self.total_bytes - sum(c.size for c in todo)
        return todo

    def report(self, phase: str, current: str = "") -> None:
        self.job.report(ProgressEvent(phase, self.done_files, self.total_files, self.done_bytes,
                                      self.total_bytes, current))

    def fingerprint(self, todo: list[Candidate]) -> None:
        """Fingerprint ``todo``: on the Dask cluster the options name, else in this process
        when it is small (IN_PROCESS_BELOW) or there is one worker, else on a pool. Documents
        are read on a pool whatever their number: a crash or hang in a document library then
        costs the file, never the scan (_run_pool)."""
        opt = self.opt
        if opt.scheduler:  # on a Dask cluster: same chunks, same worker function
            from .distributed import Cluster, run_on_cluster

            with Cluster(opt.scheduler) as cluster:
                chunks = _chunks(todo, cluster.threads())
                self.stats["workers"] = run_on_cluster(cluster, chunks, opt.features.mode,
                                                       self.job, self.take)
            return
        chunks = _chunks(todo, opt.worker_count())
        workers = min(opt.worker_count(), len(chunks))
        here = workers <= 1 or sum(c.size for c in todo) < IN_PROCESS_BELOW
        if here and not any(document_kind(c.path) for c in todo):
            self.stats["workers"] = 1
            self._here(chunks)
            return
        workers = max(1, workers)
        self.stats["workers"] = workers
        from . import kernels

        if kernels.will_compile():  # the first scan after an install: say why it waits
            self.report("prepare")
        with tempfile.TemporaryDirectory(prefix="simdup-crumbs-") as crumbs:
            _run_pool(chunks, workers, opt.features.mode, self.job, self.take, crumbs)

    def _here(self, chunks: list[list[Candidate]]) -> None:
        _fingerprint_here(chunks, self.opt.features.mode, self.job, self.take)

    def take(self, batch: list, chunk: list[Candidate]) -> None:
        """The records and problems of a chunk of candidates: kept, cached, counted."""
        new = []
        bad = []
        for item in batch:
            if isinstance(item, FileRecord):
                new.append(item)
            else:
                self.problems.append(item)
                bad.append(item)
        self.records.extend(new)
        self.stats["fingerprinted"] += len(new)
        if self.cache is not None:
            self.cache.store(self.version, new)
            if bad:
                stat_of = {c.path: (c.size, c.mtime_ns, c.inode) for c in chunk}
                self.cache.store_problems(self.version, [(p, *stat_of[p.path]) for p in bad
                                                         if p.path in stat_of])
        self.done_files += len(chunk)
        self.done_bytes += sum(c.size for c in chunk)
        self.taken += 1
        if self.taken % TRIM_EVERY == 0:
            trim_heap()
        self.report("fingerprint", os.path.dirname(chunk[-1].path))

    def close_cache(self) -> None:
        if self.cache is not None:
            self.cache.close()
            self.problems.extend(self.cache.report())  # a cache that is unusable: one warning

    def result(self, roots: list[str]) -> ScanResult:
        stats = self.stats
        stats["files"] = len(self.records)
        stats["bytes"] = sum(r.size for r in self.records)
        stats["problems"] = len(self.problems)
        stats["seconds"] = round(time.perf_counter() - self.t0, 3)
        records = _sorted_by_path(self.records)
        self.job.report(ProgressEvent("done", len(records), len(records)))
        return ScanResult(records, self.problems, stats, self.cancelled,
                          [os.path.abspath(r) for r in roots], self.opt.features.mode)


SORT_BLOCK = 4096


def _path(r: FileRecord) -> str:
    return r.path


def _fingerprint_here(chunks: list[list[Candidate]], mode: str, job: Job, take) -> None:
    """Fingerprint ``chunks`` in this process, giving each chunk's records to ``take``."""
    for chunk in chunks:
        out = []
        copies = Copies()  # the chunk's copies, though it goes one file at a time
        for c in chunk:  # check between files: a cancel is seen within one file
            job.check()
            out.extend(fingerprint_batch([(c.path, c.root)], mode, job.check, copies=copies))
        take(out, chunk)


def _sorted_by_path(records: list[FileRecord]) -> list[FileRecord]:
    """``records`` sorted by path, as ``sorted`` would: blocks sorted one by one, then
    merged. One list.sort of 100,000 paths holds the GIL for about 65 ms, which freezes the
    app's window while a scan ends on a worker thread; a block takes a few milliseconds,
    and the merge runs as Python code, which lets other threads in."""
    blocks = [sorted(records[i : i + SORT_BLOCK], key=_path)
              for i in range(0, len(records), SORT_BLOCK)]
    if len(blocks) <= 1:
        return blocks[0] if blocks else []
    return list(heapq.merge(*blocks, key=_path))


def _run_pool(chunks, workers: int, mode: str, job: Job, take, crumbs: str = "") -> None:
    """Fingerprint chunks on a process pool (poolctx.Workers), every chunk queued at once,
    each worker given the next when it answers.

    Tokenizers hold the GIL, so processes, not threads. On cancel the pool is ended at once:
    a chunk half done is dropped, finished ones are kept.

    A worker that dies (killed, out of memory, a crash in native code) is replaced, and its
    chunk is sent again (fingerprinting is idempotent); a chunk sent ``SENDS`` times without
    an answer is recorded as problems, so a file that crashes its worker cannot stop the
    scan. A worker that dies reading a document left its path in a breadcrumb in the folder
    ``crumbs`` (pdftext.guarded): that file alone is then the problem, and the rest of its
    chunk is sent again without being charged for it. ``crumbs`` "": no breadcrumbs.

    Workers that cannot be started (poolctx.PoolFailed) leave the chunks not yet answered
    to this process (:func:`_without_pool`): the scan goes on, not ends with a traceback.
    """
    chunks = list(chunks)
    sends = [0] * len(chunks)
    try:
        pool, loaded = _start_pool(pool_context(), workers, chunks, job)
    except PoolFailed as e:
        _without_pool(e, chunks, mode, job, take)
        return
    sent: dict[int, int] = {}  # task id -> chunk
    left = set(range(len(chunks)))  # chunks whose records or problems are not taken yet

    def send(i: int) -> None:
        left.add(i)
        sends[i] += 1
        items = loaded.pop(i, None) or [(c.path, c.root) for c in chunks[i]]
        sent[pool.submit(fingerprint_batch, (items, mode),
                         {"crumbs": crumbs or None})] = i

    try:
        for i in range(len(chunks)):
            send(i)
        while sent:
            for done in pool.wait(0.1):
                i = sent.pop(done.task)
                left.discard(i)  # (sent again by _lost: back in it)
                if isinstance(done.error, WorkerDied):
                    _lost(i, done.error.pid, chunks, sends, send, take, crumbs)
                    continue
                e = done.error
                take(done.value if e is None else [
                    Problem(c.path, f"worker failed: {type(e).__name__}: {e}", "error")
                    for c in chunks[i]], chunks[i])
            job.check()
    except PoolFailed as e:
        pool.end()
        _without_pool(e, [chunks[i] for i in sorted(left)], mode, job, take)
        return
    except BaseException:
        pool.end()
        raise
    pool.close()


def _without_pool(why: PoolFailed, chunks, mode: str, job: Job, take) -> None:
    """``chunks`` fingerprinted in this process, their workers not startable (``why``;
    said once on stderr). Documents are read on workers only, where a crash or hang in
    their library costs one file: here it would end the scan, so they are recorded as
    problems (kind "error": not cached, read again by the next scan). So is the warning,
    on the first root, so that the app's Problems tab says it too (with no path of a file,
    it is not cached either)."""
    log.warning("simdup: warning: %s; the scan goes on in its own process", why)
    note = [Problem(chunks[0][0].root, f"{why}; the scan went on in its own process, more "
                    "slowly", "error")] if chunks and chunks[0] else []

    def noted(batch: list, chunk: list) -> None:  # the note with the first batch
        take(note + batch, chunk)
        note.clear()

    for chunk in chunks:
        docs = [c for c in chunk if document_kind(c.path)]
        if docs:
            noted([Problem(c.path, f"not read: {why} (documents are read in worker processes "
                           "only)", "error") for c in docs], docs)
        texts = [c for c in chunk if not document_kind(c.path)]
        if texts:
            _fingerprint_here([texts], mode, job, noted)


def _start_pool(ctx, workers: int, chunks, job: Job) -> tuple[object, dict[int, list]]:
    """The pool, started on a thread, and the first chunks' files read meanwhile here.

    Until the fork server has warmed up (about 0.6 s from a cold start: numpy, numba, the
    kernels) no worker can start, and this process, its walk done, would wait with a core
    idle. It reads, hashes and decodes files of the first chunks instead (load_file), their
    texts taking at most PRELOAD_BYTES, stopping as soon as the pool is up; their chunks go out
    with what was loaded, and the workers only make the features. The records are the
    same: the workers run the same code on the same loads. Returns (pool, chunk index ->
    the items to send for it)."""
    box: dict = {}

    def start() -> None:
        try:
            box["pool"] = make_pool(workers, warm_worker, ctx)
        except BaseException as e:  # noqa: BLE001 - raised in the scan's thread below
            box["error"] = e

    starter = threading.Thread(target=start, name="simdup-pool-start", daemon=True)
    starter.start()
    loaded: dict[int, list] = {}
    budget = PRELOAD_BYTES
    try:
        for i, chunk in enumerate(chunks):
            if not starter.is_alive() or budget <= 0:
                break
            items: list = []
            for c in chunk:
                if not starter.is_alive() or budget <= 0:
                    break
                job.check()
                try:
                    pre = load_file(c.path)
                except Exception:  # noqa: BLE001 - a bug reading one file: the worker reads
                    pre = None  # it again and records what goes wrong, as without this
                items.append((c.path, c.root) if pre is None else (c.path, c.root, pre))
                # what is held until the chunk is sent: the text, 1, 2 or 4 bytes a character
                budget -= sys.getsizeof(pre.text) if isinstance(pre, Loaded) else 0
            items.extend((c.path, c.root) for c in chunk[len(items):])
            loaded[i] = items
    except BaseException:  # a cancel: the scan ends now, the pool when it is up
        threading.Thread(target=_end_when_up, args=(starter, box), daemon=True,
                         name="simdup-pool-end").start()
        raise
    starter.join()
    if "error" in box:
        raise box["error"]
    return box["pool"], loaded


def _end_when_up(starter: threading.Thread, box: dict) -> None:
    """End the pool a cancelled scan was starting, once it is up: a fork server compiling
    the kernels (the first scan after an install) can take seconds, and a cancel does not
    wait for it."""
    starter.join()
    if "pool" in box:
        box["pool"].end()


SENDS = 2  # times a chunk is sent before its files are recorded as lost with their worker


def _lost(i: int, pid: int, chunks, sends, send, take, crumbs: str) -> None:
    """Chunk ``i``'s worker ``pid`` died: the document it was reading, if its breadcrumb
    names one, is recorded as a problem and the rest of the chunk sent again uncharged;
    else the chunk is sent again, or given up once sent SENDS times (its files become
    problems)."""
    culprit = read_crumb(crumbs, pid) if crumbs else None
    if culprit is not None and any(c.path == culprit for c in chunks[i]):
        gone = [c for c in chunks[i] if c.path == culprit]
        chunks[i] = [c for c in chunks[i] if c.path != culprit]
        # kind "error": not cached (a hang may have been the machine's), read again next scan
        take([Problem(c.path, "the document reader crashed or hung on it (its worker process "
                      f"ended; at most {HANG_SECONDS:.0f} s a document); not read", "error")
              for c in gone], gone)
        sends[i] -= 1
    if not chunks[i]:
        return
    if sends[i] < SENDS:
        send(i)
        return
    take([Problem(c.path, "its worker process died while fingerprinting it (killed, out of "
                  "memory, or a crash); not fingerprinted", "error") for c in chunks[i]],
         chunks[i])
