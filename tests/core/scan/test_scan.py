import os

import pytest

from simdup_gui.core.scan import fingerprint as fingerprint_module
from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.job import Job
from simdup_gui.core.scan.pipeline import ScanOptions, scan
from simdup_gui.core.scan.walk import WalkOptions, walk

from tests.conftest import EN, OTHER, ZH


def opts(**walk_kw):
    return ScanOptions(walk=WalkOptions(**walk_kw), use_cache=False, workers=1)


def kinds(result):
    return {os.path.basename(p.path): p.kind for p in result.problems}


def write(path, data: bytes):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_bad_inputs_are_reported_and_the_scan_goes_on(tmp_path):
    write(tmp_path / "empty.txt", b"")
    write(tmp_path / "bin.dat", bytes(range(256)) * 40)
    write(tmp_path / "mid.txt", ZH.encode()[:300] + b"\xff\xfe" + ZH.encode()[300:])
    write(tmp_path / "u16.txt", ZH.encode("utf-16"))
    write(tmp_path / "line.log", ("word " * 1_050_000).encode())  # ~5 MB, one line
    write(tmp_path / "重复 副本 (1).txt", ZH.encode("gbk"))
    write(tmp_path / "ok.txt", ZH.encode())
    os.symlink(tmp_path, tmp_path / "loop")
    res = scan([str(tmp_path)], opts())
    k = kinds(res)
    assert k["empty.txt"] == "empty"
    assert k["bin.dat"] == "binary"
    assert k["loop"] == "symlink"
    names = {os.path.basename(r.path): r for r in res.records}
    assert names["mid.txt"].bad_bytes > 0
    assert names["u16.txt"].encoding == "utf-16"
    assert names["line.log"].size > 5_000_000
    assert names["重复 副本 (1).txt"].encoding == "gb18030"
    assert names["重复 副本 (1).txt"].text_hash == names["ok.txt"].text_hash
    assert not res.cancelled


def test_symlink_loop_is_detected_when_following_links(tmp_path):
    write(tmp_path / "a" / "x.txt", EN.encode())
    os.symlink(tmp_path / "a", tmp_path / "a" / "back")
    w = walk([str(tmp_path)], WalkOptions(follow_symlinks=True))
    assert [os.path.basename(c.path) for c in w.files] == ["x.txt"]
    assert any(p.kind == "symlink_loop" and p.path.endswith("back") for p in w.problems)


def test_followed_symlink_to_a_file_is_read_once(tmp_path):
    write(tmp_path / "x.txt", EN.encode())
    os.symlink(tmp_path / "x.txt", tmp_path / "y.txt")
    w = walk([str(tmp_path)], WalkOptions(follow_symlinks=True))
    assert len(w.files) == 1


def test_hard_links_are_one_file(tmp_path):
    write(tmp_path / "a.txt", EN.encode())
    os.link(tmp_path / "a.txt", tmp_path / "b.txt")
    w = walk([str(tmp_path)])
    assert len(w.files) == 1
    assert [p.kind for p in w.problems] == ["same_file"]


def test_default_excludes_patterns_and_sizes(tmp_path):
    for d in (".git", "node_modules", "__pycache__", "env"):
        write(tmp_path / d / "n.txt", EN.encode())
    write(tmp_path / "env" / "pyvenv.cfg", b"home = /usr\n")
    write(tmp_path / "keep.md", EN.encode())
    write(tmp_path / "skip.log", EN.encode())
    write(tmp_path / "notes", EN.encode())  # no extension: still text
    write(tmp_path / "big.txt", EN.encode() * 50)
    write(tmp_path / "tiny.txt", b"hi")
    w = walk([str(tmp_path)], WalkOptions(exclude=("*.log",), min_size=10, max_size=10_000))
    assert sorted(os.path.basename(c.path) for c in w.files) == ["keep.md", "notes"]
    k = {os.path.basename(p.path): p.kind for p in w.problems}
    assert k == {"big.txt": "too_large", "tiny.txt": "too_small"}
    w2 = walk([str(tmp_path)], WalkOptions(include=("*.md",)))
    assert [os.path.basename(c.path) for c in w2.files] == ["keep.md"]


def test_a_root_that_is_a_file_is_scanned(tmp_path):
    f = write(tmp_path / "one.txt", EN.encode())
    res = scan([str(f)], opts())
    assert [r.path for r in res.records] == [str(f)]


def test_file_that_vanishes_during_the_scan_is_reported(tmp_path):
    write(tmp_path / "a.txt", EN.encode())
    gone = write(tmp_path / "b.txt", OTHER.encode())

    def on_progress(ev):
        if ev.phase == "fingerprint" and gone.exists():
            gone.unlink()

    res = scan([str(tmp_path)], opts(), Job(on_progress))
    assert kinds(res) == {"b.txt": "vanished"}
    assert [os.path.basename(r.path) for r in res.records] == ["a.txt"]


def test_file_that_loses_read_permission_is_reported(tmp_path, monkeypatch):
    write(tmp_path / "a.txt", EN.encode())
    locked = write(tmp_path / "b.txt", OTHER.encode())
    real_open = os.open

    def fake_open(path, *a, **kw):  # as root, chmod 000 would not stop a read
        if str(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *a, **kw)

    monkeypatch.setattr(fingerprint_module.os, "open", fake_open)
    res = scan([str(tmp_path)], opts())
    assert kinds(res) == {"b.txt": "unreadable"}
    assert "permission denied" in res.problems[0].reason


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_by_mode_is_reported(tmp_path):
    f = write(tmp_path / "a.txt", EN.encode())
    f.chmod(0)
    res = scan([str(tmp_path)], opts())
    assert kinds(res) == {"a.txt": "unreadable"}


def test_cancel_keeps_what_was_fingerprinted(tmp_path):
    for i in range(200):
        write(tmp_path / f"f{i:03d}.txt", (EN + str(i)).encode())
    job = Job()
    seen = []

    def on_progress(ev):
        seen.append(ev)
        if ev.phase == "fingerprint" and ev.files_done >= 64:
            job.cancel()

    job._on_progress = on_progress
    res = scan([str(tmp_path)], opts(), job)
    assert res.cancelled
    assert 64 <= len(res.records) < 200


def test_parallel_scan_gives_the_same_records_as_in_process(tmp_path, monkeypatch):
    import importlib

    scan_module = importlib.import_module("simdup_gui.core.scan.pipeline")

    monkeypatch.setattr(scan_module, "IN_PROCESS_BELOW", 0)
    for i in range(40):
        write(tmp_path / f"zh{i}.txt", (ZH + str(i)).encode("gbk" if i % 2 else "utf-8"))
        write(tmp_path / f"en{i}.txt", (EN + str(i)).encode())
    one = scan([str(tmp_path)], opts())
    two = scan([str(tmp_path)], ScanOptions(use_cache=False, workers=2))
    assert two.stats["workers"] == 2
    assert [(r.path, r.fingerprint) for r in one.records] == [
        (r.path, r.fingerprint) for r in two.records]


def test_gbk_and_utf8_copies_group_together(tmp_path):
    write(tmp_path / "a.txt", ZH.encode())
    write(tmp_path / "b.txt", ZH.encode("gbk"))
    write(tmp_path / "c.txt", EN.encode())
    res = scan([str(tmp_path)], opts())
    groups, _ = build_groups(res.records, 64, 3)
    assert len(groups) == 1
    assert sorted(os.path.basename(res.records[i].path) for i in groups[0].indices()) == [
        "a.txt", "b.txt"]
    assert groups[0].exact


def test_fifo_is_reported_not_read(tmp_path):
    write(tmp_path / "a.txt", EN.encode())
    os.mkfifo(tmp_path / "pipe.txt")
    res = scan([str(tmp_path)], opts())
    assert kinds(res) == {"pipe.txt": "special"}


def test_file_swapped_for_a_fifo_after_the_walk_does_not_block(tmp_path):
    from simdup_gui.core.scan.fingerprint import fingerprint_file

    os.mkfifo(tmp_path / "x.txt")
    p = fingerprint_file(str(tmp_path / "x.txt"), str(tmp_path))
    assert p.kind == "special"


def test_nul_bytes_after_the_sniffed_head_are_binary(tmp_path):
    write(tmp_path / "a.txt", EN.encode() * 10 + b"\x00" * 50_000)
    res = scan([str(tmp_path)], opts())
    assert kinds(res) == {"a.txt": "binary"}


def test_large_sparse_file_is_binary_not_read_whole(tmp_path):
    f = tmp_path / "big.txt"
    with open(f, "wb") as fh:
        fh.write(EN.encode())
        fh.truncate(64 << 20)  # sparse: text, then NULs
    res = scan([str(tmp_path)], opts())
    assert kinds(res) == {"big.txt": "binary"}


def test_features_come_from_a_bounded_prefix_but_the_hash_covers_everything(tmp_path,
                                                                              monkeypatch):
    from simdup_gui.core.scan import fingerprint as fp_module

    monkeypatch.setattr(fp_module, "MAX_FEATURE_CHARS", 2000)
    a = write(tmp_path / "a.txt", (EN * 5 + OTHER * 50).encode())
    b = write(tmp_path / "b.txt", (EN * 5 + ZH * 50).encode())
    ra = fp_module.fingerprint_file(str(a), str(tmp_path))
    rb = fp_module.fingerprint_file(str(b), str(tmp_path))
    assert ra.chars == rb.chars == 2000
    assert ra.fingerprint == rb.fingerprint  # same first 2000 characters
    assert ra.content_hash != rb.content_hash


def test_cancel_stops_inside_a_single_large_file(tmp_path, monkeypatch):
    from simdup_gui.core.scan import fingerprint as fp_module
    from simdup_gui.core.job import Cancelled

    monkeypatch.setattr(fp_module, "STREAM_ABOVE", 1 << 16)
    f = write(tmp_path / "big.txt", (EN * 2000).encode())
    calls = []

    def check():
        calls.append(1)
        if len(calls) > 1:
            raise Cancelled()

    with pytest.raises(Cancelled):
        fp_module.fingerprint_file(str(f), str(tmp_path), check=check)


@pytest.mark.parametrize("patterns", [
    (".git", "node_modules", "Thumbs.db"),  # plain names: answered by a set
    ("*.log", ".git"), ("sub/*", "a?c"), ("[ab]*",), ("docs/keep.txt",),
])
def test_compiled_matcher_agrees_with_fnmatch_per_pattern(patterns):
    import fnmatch

    from simdup_gui.core.scan.walk import _matcher

    def _matches(patterns, name: str, rel: str) -> bool:  # one fnmatch per pattern
        return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(rel, p) for p in patterns)

    m = _matcher(patterns)
    names = [".git", "node_modules", "x.log", "abc", "a.c", "keep.txt", "Thumbs.db", "b",
             "notes.txt", ".gitignore", "git"]
    for name in names:
        for parent in ("", "sub/", "docs/", "a/.git/", "node_modules/x/"):
            rel = parent + name
            assert m(name, rel) == _matches(patterns, name, rel), (patterns, name, rel)


def test_the_walk_reports_its_progress_now_and_then_not_per_folder(tmp_path, monkeypatch):
    """A progress report for each folder ran a slot on the app's window thread for each of
    the 768 MB tree's 8,598 folders: the walk reports the first folder, then at most every
    REPORT_EVERY seconds (a clock that moves 10 ms a look here)."""
    from simdup_gui.core.scan import walk as walk_module

    for i in range(60):
        (tmp_path / f"d{i:02d}").mkdir()
        (tmp_path / f"d{i:02d}" / "a.txt").write_text(EN + str(i), encoding="utf-8")
    from types import SimpleNamespace

    clock = iter(range(10**6))
    monkeypatch.setattr(walk_module, "time", SimpleNamespace(monotonic=lambda: next(clock) / 100))
    events = []
    got = walk([str(tmp_path)], WalkOptions(), Job(events.append))
    assert len(got.files) == 60
    assert events[0].phase == "walk" and events[0].current == str(tmp_path)
    assert 5 <= len(events) <= 61 // 2  # every few folders (two looks of 10 ms a folder)
    assert [e.files_done for e in events] == sorted(e.files_done for e in events)
