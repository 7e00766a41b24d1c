"""Documents (issue 41, part 1): the same text as .txt (UTF-8, GBK), .docx, .odt, .epub, .rtf and
.pdf is one group with every member measured >= 0.95; what the extractors keep (tables,
reading order, fonts' character sets); bad documents are problems with their reasons; a PDF
that crashes or hangs its worker costs that file only; --no-documents leaves them out."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from simdup_gui.core.group.cluster import group_records
from simdup_gui.core.group.exact import PairSimilarity
from simdup_gui.core.review.textdiff import load_text
from simdup_gui.core.scan import documents, pdftext, pipeline
from simdup_gui.core.scan.decode import DecodeError
from simdup_gui.core.scan.fingerprint import warm_worker
from simdup_gui.core.scan.pipeline import ScanOptions, scan
from simdup_gui.core.scan.rtf import rtf_text
from simdup_gui.core.scan.walk import WalkOptions
from tests import docfixtures as fx
from tests.conftest import EN, OTHER, ZH

needs_font = pytest.mark.skipif(not os.path.exists(fx.CJK_FONT),
                                reason="fonts-wqy-microhei (.ci/run's apt line) is not installed")
FORMAT_LABEL = {"utf8.txt": ("utf-8", "ascii"), "gbk.txt": ("gb18030", "ascii"), "docx": ("docx",),
                "odt": ("odt",), "epub": ("epub",), "rtf": ("rtf",), "pdf": ("pdf",)}


def _scan(root, **walk):
    return scan([str(root)], ScanOptions(walk=WalkOptions(**walk), use_cache=False, workers=2))


@needs_font
def test_each_text_in_every_format_is_one_group_measured_at_least_095(tmp_path):
    made = {name: fx.write_all(tmp_path / name, name, text)
            for name, text in (("zh", ZH), ("en", EN), ("other", OTHER))}
    res = _scan(tmp_path)
    assert not res.problems, res.problems
    assert len(res.records) == 21
    groups, _ = group_records(res.records, 64, 16, use_cache=False)
    assert len(groups) == 3
    sim = PairSimilarity()
    for g in groups:
        members = [res.records[m.index] for m in g.members]
        name = Path(members[0].path).parent.name
        assert {r.path for r in members} == {str(p) for p in made[name].values()}
        for fmt, p in made[name].items():  # each member shows its format
            (rec,) = [r for r in members if r.path == str(p)]
            assert rec.encoding in FORMAT_LABEL[fmt], (fmt, rec.encoding)
        ref = members[0]
        for r in members[1:]:  # measured from the files' extracted texts, not the sketches
            assert sim.measured(ref, r) >= 0.95, (ref.path, r.path)


@needs_font
def test_the_text_diff_shows_a_documents_extracted_text(tmp_path):
    made = fx.write_all(tmp_path, "zh", ZH)
    t = load_text(str(made["pdf"]))
    assert t.encoding == "pdf" and "".join(t.text.split()) == "".join(ZH.split())
    short = load_text(str(made["docx"]), max_bytes=50)
    assert short.truncated and len(short.text) == 50 and short.encoding == "docx"


def test_word_tables_and_runs_come_in_reading_order(tmp_path):
    p = fx.write_docx(tmp_path / "t.docx", "First paragraph here.\nSecond one.",
                      table=[["cell A1", "cell B1"], ["cell A2", "cell B2"]])
    d = documents.text_of(str(p), p.read_bytes())
    words = d.text.split()
    assert " ".join(words) == ("First paragraph here. Second one. cell A1 cell B1 "
                               "cell A2 cell B2")
    assert d.encoding == "docx"


def test_epub_follows_the_spine_and_odt_keeps_spans_and_spaces(tmp_path):
    text = "Chapter one opens.\nChapter one ends.\nChapter two opens.\nChapter two ends."
    p = fx.write_epub(tmp_path / "b.epub", text)
    got = documents.text_of(str(p), p.read_bytes()).text
    assert got.split() == text.split()  # spine order, no <title>, no <style>
    content = ('<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:'
               'opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:'
               'text:1.0"><office:body><office:text><text:p>a<text:s text:c="3"/>b<text:span>c'
               '</text:span><text:note><text:p>NOTE</text:p></text:note>d<text:tab/>e</text:p>'
               '</office:text></office:body></office:document-content>')
    o = tmp_path / "s.odt"
    fx._zip(o, [("mimetype", "application/vnd.oasis.opendocument.text"), ("content.xml", content)])
    assert documents.text_of(str(o), o.read_bytes()).text == "a   bcd\te\n"


def test_rtf_reads_unicode_gbk_bytes_by_font_and_skips_destinations():
    gbk = "".join(f"\\'{b:02x}" for b in "整理文件".encode("gbk"))
    data = ("{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}{\\f1\\fcharset134 SimSun;}}"
            "{\\*\\generator hidden;}{\\info{\\title hidden}}{\\header hidden}"
            f"\\f0 caf\\'e9 \\f1 {gbk}\\par \\uc1\\u25991?\\u20214?\\tab x\\{{y\\}}"
            "{\\pict 0123abcd}\\line end}").encode("ascii")
    assert rtf_text(data) == "café 整理文件\n文件\tx{y}\nend"
    with pytest.raises(DecodeError, match="not an RTF document"):
        rtf_text(b"plain text named .rtf")


def test_long_pdfs_are_bounded_by_pages_and_time_and_say_so(tmp_path, monkeypatch):
    p = fx.long_pdf(tmp_path / "long.pdf", 12)
    monkeypatch.setattr(pdftext, "MAX_PDF_PAGES", 5)
    d = documents.text_of(str(p), p.read_bytes())
    assert d.encoding == "pdf, first 5 of 12 pages" and "Page 5 " in d.text
    assert "Page 6 " not in d.text
    monkeypatch.setattr(pdftext, "PDF_SECONDS", 0.0)
    assert documents.text_of(str(p), p.read_bytes()).encoding == "pdf, first 1 of 12 pages"


def _bad_documents(root: Path) -> dict[str, str]:
    """{file name: what its problem's reason says}."""
    root.mkdir(parents=True, exist_ok=True)
    fx.encrypted_pdf(root / "encrypted.pdf", EN)
    fx.scanned_pdf(root / "scanned.pdf")
    fx.corrupt_docx(root / "corrupt.docx", EN)
    fx.bomb_docx(root / "bomb.docx", documents.MAX_UNCOMPRESSED + (1 << 20))
    fx.many_members_docx(root / "members.docx", documents.MAX_MEMBERS + 1)
    (root / "text.pdf").write_text(EN)
    (root / "image.docx").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    fx.write_docx(root / "word.odt", EN)  # a .docx renamed .odt
    fx._zip(root / "entities.docx", [("word/document.xml", (
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        '<d>&b;&b;&b;</d>'))])
    return {"encrypted.pdf": "encrypted: no text", "scanned.pdf": "no text layer: scanned image?",
            "corrupt.docx": "corrupt zip archive", "bomb.docx": "more than 64 MB once unpacked",
            "members.docx": f"more than {documents.MAX_MEMBERS}",
            "text.pdf": "not a PDF document", "image.docx": "not a DOCX document",
            "word.odt": "no content.xml", "entities.docx": "declares a DTD"}


@needs_font
def test_bad_documents_are_problems_with_their_reasons(tmp_path):
    want = _bad_documents(tmp_path / "bad")
    fx.write_all(tmp_path / "good", "en", EN)
    t0 = time.monotonic()
    res = _scan(tmp_path)
    assert time.monotonic() - t0 < 300  # (a hang would be caught here, not measured)
    got = {os.path.basename(p.path): p for p in res.problems}
    assert set(got) == set(want)
    for name, reason in want.items():
        assert reason in got[name].reason and got[name].kind == "document", (name, got[name])
    assert len(res.records) == 7
    cache = str(tmp_path.parent / f"{tmp_path.name}-cache.sqlite")  # (outside the scan)
    first = scan([str(tmp_path)], ScanOptions(use_cache=True, cache_path=cache, workers=2))
    again = scan([str(tmp_path)], ScanOptions(use_cache=True, cache_path=cache, workers=2))
    assert first.stats["cached"] == 0 and again.stats["cached"] == 7 + len(want)
    assert {p.path: p.reason for p in again.problems} == {p.path: p.reason
                                                          for p in first.problems}


@needs_font
def test_no_documents_leaves_them_out_of_the_walk(tmp_path):
    fx.write_all(tmp_path, "en", EN)
    fx.scanned_pdf(tmp_path / "scanned.pdf")
    res = _scan(tmp_path, documents=False)
    assert sorted(os.path.basename(r.path) for r in res.records) == ["en.gbk.txt", "en.utf8.txt"]
    assert not res.problems


# --- a PDF library that crashes or hangs -----------------------------------------------------

CRASH, HANG = b"%SIMDUP-TEST-CRASH\n", b"%SIMDUP-TEST-HANG\n"


def _faulty_extract(data: bytes):
    """pdftext.extract in the test's workers: a PDF holding CRASH ends the process at once
    (a native crash), one holding HANG never returns (a native hang)."""
    if CRASH in data:
        os._exit(11)
    if HANG in data:
        while True:
            time.sleep(1)
    return _real_extract(data)


_real_extract = pdftext.extract


def faulty_worker() -> None:
    """The pool's initializer in the test (its workers import this module by name)."""
    warm_worker()
    pdftext.extract = _faulty_extract
    pdftext.HANG_SECONDS = 1.5


@pytest.mark.slow
@needs_font
def test_a_pdf_that_crashes_or_hangs_its_worker_costs_that_file_only(tmp_path, monkeypatch):
    good = fx.write_all(tmp_path, "zh", ZH)
    for i in range(4):
        (tmp_path / f"note{i}.txt").write_text(EN + f" note {i}", encoding="utf-8")
    pdf = good["pdf"].read_bytes()
    (tmp_path / "crash.pdf").write_bytes(pdf + CRASH)  # (bytes after %%EOF: still a PDF)
    (tmp_path / "hang.pdf").write_bytes(pdf + HANG)
    monkeypatch.setattr(pipeline, "warm_worker", faulty_worker)
    res = _scan(tmp_path)
    lost = {os.path.basename(p.path): p.reason for p in res.problems}
    assert set(lost) == {"crash.pdf", "hang.pdf"}, lost
    assert all("crashed or hung" in r for r in lost.values())
    assert len(res.records) == 7 + 4  # every other file, the crash's chunk-mates included
    assert res.stats["fingerprinted"] == 11


def test_the_zip_bound_is_counted_as_members_are_inflated(tmp_path, monkeypatch):
    p = fx.write_docx(tmp_path / "a.docx", EN * 3)
    assert documents.text_of(str(p), p.read_bytes()).encoding == "docx"
    monkeypatch.setattr(documents, "MAX_UNCOMPRESSED", 1000)
    with pytest.raises(DecodeError, match="once unpacked"):
        documents.text_of(str(p), p.read_bytes())


def test_document_kind_is_the_extension_looked_up_for_every_name():
    """document_kind's shortcut (the last five characters) answers as the extension of
    os.path.splitext looked up: upper case, a dot file, a double suffix, a longer suffix
    that ends like a kind's, a non-ASCII letter that lower() lengthens."""
    names = ["a.PDF", "x/.pdf", "x/y.Docx", "a.rtf.txt", "/a/b.epub", "a.odt", "rtf", "a.pdfx",
             "b/c.tar.gz", "x.\u0130pdf", "q.df", "d.ocx", "a.b/c", "e.EPUB", ".docx.pdf",
             "x.xdocx", "a\u0130.rtf", "", "."]
    for name in names:
        want = documents.DOCUMENT_KINDS.get(os.path.splitext(name)[1].lower())
        assert documents.document_kind(name) == want, name
