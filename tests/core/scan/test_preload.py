"""Files read by the scan's process while its pool starts (pipeline._start_pool): the
workers get the loads and make the same records and problems as an in-process scan; a
cancel or a pool that fails to start while files are read ends the scan cleanly."""

from __future__ import annotations

import multiprocessing
import os
import threading

import pytest

from simdup_gui.core.job import Job
from simdup_gui.core.scan import pipeline
from simdup_gui.core.scan.fingerprint import (STREAM_ABOVE, Loaded, fingerprint_file,
                                              load_file)
from simdup_gui.core.scan.pipeline import ScanOptions, scan
from simdup_gui.core.scan.walk import WalkOptions, walk

from tests.conftest import EN, OTHER, ZH


def _tree(root) -> dict[str, bytes]:
    files = {
        "zh-gbk.txt": ZH.encode("gbk") * 3,
        "zh-utf8.txt": ZH.encode() * 3,
        "zh-big5.txt": "這是一個繁體中文的文件，內容關於學習與工作。".encode("big5") * 40,
        "en-utf16.txt": EN.encode("utf-16") * 2,
        "en-bom.txt": b"\xef\xbb\xbf" + EN.encode() * 2,
        "cp1252.txt": ("Café naïve résumé — “quoted” " * 60).encode("cp1252"),
        "other.txt": OTHER.encode() * 2,
        "mid-bad.txt": ZH.encode()[:300] + b"\xff\xfe" + ZH.encode()[300:],
        "page.html": b"<!doctype html><html><body>" + EN.encode() + b"</body></html>",
        "tagged.html": b"<div><p><b>" + EN.encode().replace(b". ", b".</b></p><p><b>") + b"</b></p></div>",
        "tagged.txt": b"<div><p><b>" + EN.encode().replace(b". ", b".</b></p><p><b>") + b"</b></p></div>",
        "empty.txt": b"",
        "bin.dat": bytes(range(256)) * 40,
        "nul-late.txt": EN.encode() * 10 + b"\x00" * 50_000,
        "punct.txt": "，。！？……——".encode() * 50,
        "gone.txt": EN.encode(),
        "名字 带空格 (1).txt": ZH.encode("gb18030"),
    }
    for name, data in files.items():
        (root / name).write_bytes(data)
    os.mkfifo(root / "pipe.txt")
    return files


def _slow_pools(ready: threading.Event, fail: bool = False):
    """A pool maker (poolctx.make_pool) that waits until ``ready`` is set: the scan's process
    reads meanwhile, as it does while a cold fork server warms up."""
    real = pipeline.make_pool

    def make(*a, **kw):
        ready.wait(30)
        if fail:
            raise OSError(24, "Too many open files")
        return real(*a, **kw)
    return make


def _preloading(monkeypatch, ready: threading.Event, release_after: int,
               fail: bool = False) -> list[str]:
    """Scans from here on read files before their pool starts: it starts once
    ``release_after`` files were read (or the test sets ``ready``). Returns the paths
    load_file was called for. ``gone.txt`` vanishes just before it is read."""
    calls: list[str] = []
    real_load = pipeline.load_file

    def load(path: str):
        calls.append(path)
        if os.path.basename(path) == "gone.txt" and os.path.exists(path):
            os.unlink(path)
        out = real_load(path)
        if len(calls) >= release_after:
            ready.set()
        return out

    monkeypatch.setattr(pipeline, "load_file", load)
    monkeypatch.setattr(pipeline, "make_pool", _slow_pools(ready, fail))
    monkeypatch.setattr(pipeline, "IN_PROCESS_BELOW", 0)
    monkeypatch.setattr(pipeline, "CHUNK_FILES", 4)
    return calls


def _kinds(res) -> dict[str, tuple[str, str]]:
    return {os.path.basename(p.path): (p.kind, p.reason) for p in res.problems}


def test_loaded_files_give_the_in_process_scans_records_and_problems(tmp_path, monkeypatch):
    root = tmp_path / "r"
    root.mkdir()
    _tree(root)
    one = scan([str(root)], ScanOptions(use_cache=False, workers=1))
    (root / "gone.txt").write_bytes(EN.encode())
    sent = len(walk([str(root)], WalkOptions()).files)  # the walk keeps the empty file
    ready = threading.Event()  # and the FIFO back as its own problems
    calls = _preloading(monkeypatch, ready, release_after=sent)
    two = scan([str(root)], ScanOptions(use_cache=False, workers=2))
    assert two.stats["workers"] == 2
    assert len(calls) == sent  # every file was read here, before the pool started
    want = [r.to_dict() for r in one.records if not r.path.endswith("gone.txt")]
    assert [r.to_dict() for r in two.records] == want
    assert _kinds(two) == _kinds(one) | {"gone.txt": ("vanished", "vanished during the scan")}
    assert len(two.records) == len(one.records) - 1 > 8
    assert _kinds(two)["bin.dat"][0] == "binary"
    assert _kinds(two)["nul-late.txt"][0] == "binary"
    assert _kinds(two)["punct.txt"][0] == "no_text"
    by_name = {os.path.basename(r.path): r for r in two.records}
    assert by_name["zh-big5.txt"].encoding == "big5"
    # the same bytes: tags are markup in a .html file (no features), text in a .txt one
    assert by_name["tagged.html"].features < by_name["tagged.txt"].features


def test_a_cancel_while_files_are_read_ends_the_scan_and_its_pool(tmp_path, monkeypatch):
    root = tmp_path / "r"
    root.mkdir()
    _tree(root)
    ready = threading.Event()
    _preloading(monkeypatch, ready, release_after=10**6)
    job = Job()
    real_check = job.check
    seen = [0]

    def check():
        seen[0] += 1
        if seen[0] == 3:
            job.cancel()
            ready.set()  # the pool comes up after the cancel: it must be ended, not used
        real_check()

    job.check = check
    res = scan([str(root)], ScanOptions(use_cache=False, workers=2), job)
    assert res.cancelled and seen[0] == 3
    assert res.records == []
    ender = [t for t in threading.enumerate() if t.name == "simdup-pool-end"]
    for t in ender:
        t.join(30)
    assert multiprocessing.active_children() == []  # the pool that came up was ended


def test_a_cancel_does_not_wait_for_a_pool_still_starting(tmp_path, monkeypatch):
    """A fork server that compiles the kernels (a fresh install) takes seconds to start the
    pool: a cancel meanwhile ends the scan at once; the pool is ended when it comes up."""
    root = tmp_path / "r"
    root.mkdir()
    _tree(root)
    ready = threading.Event()
    calls = _preloading(monkeypatch, ready, release_after=10**6)
    job = Job()
    loading = pipeline.load_file

    def load_then_cancel(path):
        job.cancel()  # seen before the next file is read
        return loading(path)

    monkeypatch.setattr(pipeline, "load_file", load_then_cancel)
    res = scan([str(root)], ScanOptions(use_cache=False, workers=2), job)
    assert res.cancelled and len(calls) == 1
    assert not ready.is_set()  # it returned while the pool was still waiting to start
    ender = [t for t in threading.enumerate() if t.name == "simdup-pool-end"]
    assert len(ender) == 1 and ender[0].is_alive()
    ready.set()
    ender[0].join(30)
    assert not ender[0].is_alive()
    assert multiprocessing.active_children() == []


def test_a_pool_that_fails_to_start_while_files_are_read_raises_its_error(tmp_path,
                                                                          monkeypatch):
    root = tmp_path / "r"
    root.mkdir()
    _tree(root)
    ready = threading.Event()
    _preloading(monkeypatch, ready, release_after=2, fail=True)
    with pytest.raises(OSError, match="Too many open files"):
        scan([str(root)], ScanOptions(use_cache=False, workers=2))


def test_load_file_leaves_a_large_file_to_the_reader_in_pieces(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(STREAM_ABOVE + 1)
    assert load_file(str(big)) is None


def test_a_load_gives_fingerprint_files_record(tmp_path):
    for name, data in _tree(tmp_path).items():
        p = str(tmp_path / name)
        if not data:
            continue
        pre = load_file(p)
        whole = fingerprint_file(p, str(tmp_path))
        if isinstance(pre, Loaded):
            assert fingerprint_file(p, str(tmp_path), loaded=pre) == whole
        else:
            assert pre == whole  # the same problem, found while reading


def test_a_bug_reading_one_file_here_leaves_it_to_the_worker(tmp_path, monkeypatch):
    """load_file raising something unexpected while the pool starts does not end the scan:
    that file goes to a worker as a path, which reads it as a scan without preloading does."""
    root = tmp_path / "r"
    root.mkdir()
    _tree(root)
    (root / "gone.txt").unlink()
    one = scan([str(root)], ScanOptions(use_cache=False, workers=1))
    sent = len(walk([str(root)], WalkOptions()).files)
    ready = threading.Event()
    calls = _preloading(monkeypatch, ready, release_after=sent)
    loading = pipeline.load_file

    def buggy(path):
        if os.path.basename(path) == "zh-gbk.txt":
            calls.append(path)
            raise ValueError("a bug in a decoder")
        return loading(path)

    monkeypatch.setattr(pipeline, "load_file", buggy)
    two = scan([str(root)], ScanOptions(use_cache=False, workers=2))
    assert len(calls) == sent
    assert [r.to_dict() for r in two.records] == [r.to_dict() for r in one.records]
    assert _kinds(two) == _kinds(one)


def test_the_texts_held_are_bounded(tmp_path, monkeypatch):
    """PRELOAD_BYTES bounds the decoded text held here (a character may take 4 bytes)."""
    root = tmp_path / "r"
    root.mkdir()
    for i in range(12):
        (root / f"f{i:02d}.txt").write_text(("表情😀" + EN) * 20, encoding="utf-8")
    ready = threading.Event()
    calls = _preloading(monkeypatch, ready, release_after=10**6)
    monkeypatch.setattr(pipeline, "PRELOAD_BYTES", 3 * 4 * len(("表情😀" + EN) * 20))
    threading.Timer(2.0, ready.set).start()  # the pool comes up after a while, whatever
    res = scan([str(root)], ScanOptions(use_cache=False, workers=2))
    assert len(res.records) == 12
    assert len(calls) == 3  # three texts of 4-byte characters fill the budget


def test_an_error_making_the_features_is_a_problem_not_a_traceback(tmp_path, monkeypatch):
    from simdup_gui.core.scan import fingerprint as fp

    p = tmp_path / "a.txt"
    p.write_bytes(ZH.encode())

    def fail(self, chunk):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(fp.FeatureBuilder, "add", fail)
    res = fingerprint_file(str(p), str(tmp_path))
    assert res.kind == "unreadable" and "Input/output error" in res.reason
