import importlib
import threading

from simdup_gui.core.job import Job
from simdup_gui.core.scan.pipeline import ScanOptions, _chunks, scan
from simdup_gui.core.scan.walk import Candidate, WalkOptions

from tests.conftest import EN, OTHER, ZH


def make_tree(root, n):
    texts = [ZH, EN, OTHER]
    for i in range(n):
        (root / f"f{i:03d}.txt").write_text(texts[i % 3] * (1 + i % 4) + f"\n{i}\n",
                                            encoding="utf-8")


def test_pool_and_single_process_give_identical_records(tmp_path, monkeypatch):
    scan_mod = importlib.import_module("simdup_gui.core.scan.pipeline")

    make_tree(tmp_path, 30)
    monkeypatch.setattr(scan_mod, "IN_PROCESS_BELOW", 0)
    monkeypatch.setattr(scan_mod, "CHUNK_FILES", 4)
    one = scan([str(tmp_path)], ScanOptions(walk=WalkOptions(), use_cache=False, workers=1))
    two = scan([str(tmp_path)], ScanOptions(walk=WalkOptions(), use_cache=False, workers=2))
    assert two.stats["workers"] == 2 and one.stats["workers"] == 1
    assert [r.to_dict() for r in one.records] == [r.to_dict() for r in two.records]


def test_progress_counts_every_file_once_and_ends_with_done(tmp_path, monkeypatch):
    scan_mod = importlib.import_module("simdup_gui.core.scan.pipeline")

    make_tree(tmp_path, 12)
    monkeypatch.setattr(scan_mod, "IN_PROCESS_BELOW", 0)
    monkeypatch.setattr(scan_mod, "CHUNK_FILES", 3)
    events = []
    scan([str(tmp_path)], ScanOptions(use_cache=False, workers=2), Job(events.append))
    fp = [e for e in events if e.phase == "fingerprint"]
    assert fp[-1].files_done == fp[-1].files_total == 12
    assert [e.files_done for e in fp] == sorted(e.files_done for e in fp)
    assert events[-1].phase == "done"


def test_cancel_on_the_pool_returns_promptly_with_what_was_done(tmp_path, monkeypatch):
    scan_mod = importlib.import_module("simdup_gui.core.scan.pipeline")

    make_tree(tmp_path, 40)
    monkeypatch.setattr(scan_mod, "IN_PROCESS_BELOW", 0)
    monkeypatch.setattr(scan_mod, "CHUNK_FILES", 2)
    job = Job()
    first_chunk = threading.Event()

    def on_progress(e):
        if e.phase == "fingerprint" and e.files_done > 0:
            first_chunk.set()
            job.cancel()

    job._on_progress = on_progress
    res = scan([str(tmp_path)], ScanOptions(use_cache=False, workers=2), job)
    assert first_chunk.is_set()
    assert res.cancelled
    assert 0 < len(res.records) < 40


def test_chunks_bound_both_file_count_and_bytes():
    scan_mod = importlib.import_module("simdup_gui.core.scan.pipeline")

    small = [Candidate(f"/s{i}", "/", 10, 0, i, 1) for i in range(200)]
    chunks = _chunks(small)
    assert max(len(c) for c in chunks) <= scan_mod.CHUNK_FILES
    big = [Candidate(f"/b{i}", "/", scan_mod.CHUNK_BYTES // 2 + 1, 0, i, 1) for i in range(40)]
    assert [len(c) for c in _chunks(big)] == [2] * 20  # CHUNK_BYTES bounds each chunk
    assert sum(len(c) for c in _chunks(small + big)) == 240
    # a small scan is cut finer, so that each of two workers gets about eight chunks
    few = [Candidate(f"/f{i}", "/", 100_000, 0, i, 1) for i in range(32)]
    assert len(_chunks(few, workers=2)) >= 16


def test_worker_count_is_a_setting_defaulting_to_the_cores():
    import os

    assert ScanOptions().worker_count() == max(1, os.cpu_count() or 1)
    assert ScanOptions(workers=3).worker_count() == 3


def test_records_are_sorted_by_path_in_blocks_exactly_as_sorted_would():
    import random

    from simdup_gui.core.models import FileRecord
    from simdup_gui.core.scan import pipeline

    rng = random.Random(3)
    names = [f"/r/{rng.choice('ab.')}/{rng.randrange(10**6)}\udcff{i}" for i in range(9000)]
    recs = [FileRecord(path=p, size=1, mtime_ns=0, inode=0, dev=0, root="/r", encoding="utf-8",
                       fingerprint=0, features=1, text_hash="", content_hash="") for p in names]
    rng.shuffle(recs)
    assert pipeline.SORT_BLOCK < len(recs)
    assert [r.path for r in pipeline._sorted_by_path(recs)] == sorted(names)
    assert pipeline._sorted_by_path([]) == [] and pipeline._sorted_by_path(recs[:1]) == recs[:1]


def _pool_workers() -> list[int]:
    """Pids of this process's pool workers: the fork server's children (Linux), or our own
    spawned children elsewhere."""
    import multiprocessing as mp
    import os

    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as fh:
                    kids[int(d)] = int(fh.read().rsplit(b")", 1)[1].split()[1])
                with open(f"/proc/{d}/cmdline", "rb") as fh:
                    kids[int(d)] = (kids[int(d)], b"forkserver" in fh.read())
            except (OSError, ValueError, IndexError):
                kids.pop(int(d), None)
    servers = [p for p, (pp, fs) in kids.items() if pp == os.getpid() and fs]
    workers = [p for p, (pp, fs) in kids.items() if pp in servers]
    return workers or [p.pid for p in mp.active_children()]


def test_a_worker_killed_mid_scan_loses_no_file_and_the_scan_ends(tmp_path, monkeypatch):
    """SIGKILL one pool worker while chunks are in flight (what the OOM killer does):
    multiprocessing.Pool drops that worker's chunk without a word; the scan sends unanswered
    chunks again and ends with every file fingerprinted exactly once."""
    import os
    import signal
    import sys

    import pytest

    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc")
    scan_mod = importlib.import_module("simdup_gui.core.scan.pipeline")
    make_tree(tmp_path, 60)
    monkeypatch.setattr(scan_mod, "IN_PROCESS_BELOW", 0)
    monkeypatch.setattr(scan_mod, "CHUNK_FILES", 3)
    killed = []

    def progress(ev):
        if ev.phase == "fingerprint" and ev.files_done and not killed:
            workers = _pool_workers()
            if workers:
                os.kill(workers[0], signal.SIGKILL)
                killed.append(workers[0])
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", scan(
        [str(tmp_path)], ScanOptions(use_cache=False, workers=2), Job(progress))), daemon=True)
    t.start()
    t.join(180)
    assert not t.is_alive(), "the scan hung after a worker was killed"
    r = out["r"]
    assert killed
    assert sorted(x.path for x in r.records) == sorted(str(p) for p in tmp_path.iterdir())
    assert not r.problems
    assert r.stats["fingerprinted"] == 60  # each file counted once, resent chunks included
