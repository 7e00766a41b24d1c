"""Byte-identical copies in one chunk are decoded and fingerprinted once
(fingerprint.Copies), and the scan puts files of one size in one chunk (pipeline._chunks):
every record is still the one the file gets on its own."""

from __future__ import annotations

import os

import pytest

from simdup_gui.core.models import FileRecord, Problem
from simdup_gui.core.scan import fingerprint as fp_mod
from simdup_gui.core.scan import pipeline
from simdup_gui.core.scan.fingerprint import (Copies, FeatureSettings, fingerprint_batch,
                                              fingerprint_file, load_file)
from simdup_gui.core.scan.pipeline import ScanOptions, _chunks, scan
from simdup_gui.core.scan.walk import Candidate

from tests.conftest import EN, ZH


def _write(path, data: bytes) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
    return str(path)


@pytest.fixture
def decodes(monkeypatch):
    """How many files were decoded (decode_bytes calls), in this process."""
    calls = []
    real = fp_mod.decode_bytes

    def counting(data):
        calls.append(len(data))
        return real(data)

    monkeypatch.setattr(fp_mod, "decode_bytes", counting)
    return calls


def test_a_copy_gets_its_own_record_without_a_second_decode(tmp_path, decodes):
    data = (ZH * 3).encode("gbk")
    a = _write(tmp_path / "a" / "doc.txt", data)
    b = _write(tmp_path / "backup" / "doc (1).txt", data)
    other = _write(tmp_path / "a" / "other.txt", (EN * 2).encode())
    alone = {p: fingerprint_file(p, str(tmp_path)) for p in (a, b, other)}
    decodes.clear()
    out = fingerprint_batch([(a, str(tmp_path)), (other, str(tmp_path)), (b, str(tmp_path))],
                            "shingles")
    assert len(decodes) == 2  # doc.txt and other.txt; the copy is not decoded
    assert out == [alone[a], alone[other], alone[b]]
    rec_b = out[2]
    assert isinstance(rec_b, FileRecord) and rec_b.path == b
    st = os.stat(b)
    assert (rec_b.inode, rec_b.mtime_ns, rec_b.size) == (st.st_ino, st.st_mtime_ns, st.st_size)
    assert rec_b.inode != out[0].inode
    assert rec_b.fingerprint == out[0].fingerprint and rec_b.sketch == out[0].sketch


def test_the_same_bytes_read_as_html_are_not_a_copy(tmp_path, decodes):
    data = b"<div><p><b>" + EN.encode().replace(b". ", b".</b></p><p><b>") + b"</b></p></div>"
    txt = _write(tmp_path / "page.txt", data)
    html = _write(tmp_path / "page.html", data)
    alone = [fingerprint_file(p, str(tmp_path)) for p in (txt, html)]
    assert alone[0].fingerprint != alone[1].fingerprint  # tags are features only in the .txt
    decodes.clear()
    out = fingerprint_batch([(txt, str(tmp_path)), (html, str(tmp_path))], "shingles")
    assert out == alone
    assert len(decodes) == 2


def test_preloaded_copies_are_found_too(tmp_path, decodes):
    data = (EN * 3).encode()
    paths = [_write(tmp_path / d / "notes.txt", data) for d in ("x", "y", "z")]
    alone = [fingerprint_file(p, str(tmp_path)) for p in paths]
    items = [(p, str(tmp_path), load_file(p)) for p in paths[:2]] + [(paths[2], str(tmp_path))]
    calls = []
    real = fp_mod._fingerprint_loaded
    orig = fp_mod._fingerprint_loaded

    def counting(*a, **k):
        calls.append(a[0])
        return real(*a, **k)

    fp_mod._fingerprint_loaded = counting
    try:
        out = fingerprint_batch(items, "shingles")
    finally:
        fp_mod._fingerprint_loaded = orig
    assert out == alone
    assert calls == [paths[0]]  # the second load and the third file took the first's record


def test_a_copy_of_a_file_that_gave_a_problem_is_read_again(tmp_path):
    data = "，。！？……——".encode() * 50  # punctuation only: no words
    a = _write(tmp_path / "a.txt", data)
    b = _write(tmp_path / "b.txt", data)
    out = fingerprint_batch([(a, str(tmp_path)), (b, str(tmp_path))], "shingles")
    assert [type(r) for r in out] == [Problem, Problem]
    assert [r.path for r in out] == [a, b] and out[0].kind == out[1].kind == "no_text"


def test_a_copy_changed_between_chunks_is_not_taken_for_the_old_bytes(tmp_path):
    """Copies remember one chunk only: a file rewritten after it (same size, other bytes)
    is fingerprinted from its new bytes."""
    a = _write(tmp_path / "a.txt", (EN * 2).encode())
    first = fingerprint_batch([(a, str(tmp_path))], "shingles")[0]
    new = (EN * 2).encode().replace(b"a", b"e")
    _write(tmp_path / "a.txt", new)
    again = fingerprint_batch([(a, str(tmp_path))], "shingles")[0]
    assert again.content_hash != first.content_hash
    assert again == fingerprint_file(a, str(tmp_path))


def test_copies_keep_records_for_the_default_hash_only(tmp_path):
    data = (EN * 2).encode()
    a = _write(tmp_path / "a.txt", data)
    b = _write(tmp_path / "b.txt", data)
    copies = Copies()
    fingerprint_file(a, str(tmp_path), copies=copies)

    def other_hash(raw: bytes) -> bytes:
        import hashlib

        return hashlib.md5(raw).digest()

    with_md5 = fingerprint_file(b, str(tmp_path), FeatureSettings(), other_hash, copies=copies)
    assert with_md5 == fingerprint_file(b, str(tmp_path), FeatureSettings(), other_hash)
    assert with_md5.fingerprint != fingerprint_file(b, str(tmp_path)).fingerprint


def test_chunks_put_files_of_one_size_together_in_walk_order_otherwise():
    sizes = [100, 200, 300, 100, 400, 200, 100]
    cands = [Candidate(f"/d{i}/f", "/", s, 0, i, 1) for i, s in enumerate(sizes)]
    order = [c.path for chunk in _chunks(cands) for c in chunk]
    assert order == ["/d0/f", "/d3/f", "/d6/f", "/d1/f", "/d5/f", "/d2/f", "/d4/f"]
    unique = [Candidate(f"/u{i}", "/", 10 + i, 0, i, 1) for i in range(5)]
    assert [c for chunk in _chunks(unique) for c in chunk] == unique


def test_a_scan_of_scattered_copies_matches_one_file_at_a_time(tmp_path, monkeypatch):
    """Copies in other folders, among other files: the pooled scan's records equal each
    file fingerprinted alone."""
    root = tmp_path / "r"
    texts = [(ZH * (i + 2)).encode("gb18030") if i % 2 else (EN * (i + 2)).encode()
             for i in range(6)]
    paths = []
    for d in range(4):
        for i, t in enumerate(texts):
            paths.append(_write(root / f"dir{d}" / f"f{i}.txt", t))
    paths.append(_write(root / "dir0" / "utf16.txt", (EN * 3).encode("utf-16")))
    monkeypatch.setattr(pipeline, "IN_PROCESS_BELOW", 0)
    res = scan([str(root)], ScanOptions(use_cache=False, workers=2))
    assert not res.problems
    alone = sorted((fingerprint_file(p, str(root)) for p in paths), key=lambda r: r.path)
    assert res.records == alone


def test_a_scan_in_this_process_decodes_each_content_once(tmp_path, decodes):
    """A small scan runs here, one file at a time (for a prompt cancel), but its chunk's
    copies are still done once."""
    root = tmp_path / "r"
    texts = [(ZH * (i + 2)).encode("gb18030") if i % 2 else (EN * (i + 2)).encode()
             for i in range(3)]
    paths = [_write(root / f"dir{d}" / f"f{i}.txt", t) for d in range(4)
             for i, t in enumerate(texts)]
    alone = sorted((fingerprint_file(p, str(root)) for p in paths), key=lambda r: r.path)
    decodes.clear()
    res = scan([str(root)], ScanOptions(use_cache=False, workers=1))
    assert res.stats["workers"] == 1 and not res.problems
    assert res.records == alone
    assert len(decodes) == 3  # three contents, twelve files
