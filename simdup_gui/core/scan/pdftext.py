"""The text layer of a PDF, with pypdfium2 (PDFium's text extraction: Apache-2.0/BSD, wheels
for every desktop platform; measured against pypdf in benchmarks/documents.py and
docs/design.md: several times faster on the same files, and the same text).

Bounds: at most MAX_PDF_PAGES pages and PDF_SECONDS seconds a file; a longer one keeps the
text of the pages read and says so in its label ("pdf, first 1000 of 2400 pages"). PDFium is
native code and not thread-safe: one call at a time in a process (_LOCK). In a scan's worker
(:func:`set_crumbs`) each PDF is read under :func:`guarded`: a breadcrumb file names it while it
is read, and a watchdog ends the process past HANG_SECONDS, so that a crash or a hang in
PDFium ends that worker and the scan (pipeline._run_pool) records that one file as a problem.
"""

from __future__ import annotations

import faulthandler
import os
import threading
import time
from contextlib import contextmanager

from .decode import DocumentError

MAX_PDF_PAGES = 1000
PDF_SECONDS = 20.0  # reading pages stops past this (checked between pages)
HANG_SECONDS = 120.0  # a worker inside PDFium this long is ended (a hang in native code)
_LOCK = threading.Lock()
_crumbs: str | None = None  # a scan worker's breadcrumb folder (set_crumbs)
_ERR_PASSWORD, _ERR_SECURITY = 4, 5  # PDFium's FPDF_ERR_PASSWORD, FPDF_ERR_SECURITY


def set_crumbs(folder: str | None) -> None:
    """In a scan's worker: the folder where :func:`guarded` names the PDF being read (one
    file per process, named by its pid); None: not in such a worker (no watchdog either)."""
    global _crumbs
    _crumbs = folder


def crumb_path(folder: str, pid: int) -> str:
    return os.path.join(folder, str(pid))


def read_crumb(folder: str, pid: int) -> str | None:
    """The path a worker process ``pid`` was reading a PDF of when it ended, or None; the
    breadcrumb is removed."""
    p = crumb_path(folder, pid)
    try:
        with open(p, "rb") as fh:
            path = os.fsdecode(fh.read())
        os.remove(p)
    except OSError:
        return None
    return path or None


_devnull = None


def _watchdog_file():
    global _devnull
    if _devnull is None:
        _devnull = open(os.devnull, "w")  # noqa: SIM115 - kept for the process's life
    return _devnull


@contextmanager
def guarded(path: str):
    """Read ``path``'s PDF inside: in a scan's worker, under a breadcrumb and a watchdog
    (faulthandler's thread calls _exit past HANG_SECONDS, even while PDFium holds the GIL);
    elsewhere as it is."""
    folder = _crumbs
    if folder is None:
        yield
        return
    crumb: str | None = crumb_path(folder, os.getpid())
    try:
        with open(crumb, "wb") as fh:
            fh.write(os.fsencode(path))
    except OSError:
        crumb = None
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True, file=_watchdog_file())
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        if crumb is not None:
            try:
                os.remove(crumb)
            except OSError:
                pass


def extract(data: bytes) -> tuple[str, str]:
    """(text, label) of a PDF's bytes: label "pdf", or "pdf, first N of M pages" when the
    bounds stopped it. DocumentError: not a PDF, encrypted, corrupt, no text layer."""
    if b"%PDF-" not in data[:1024]:
        raise DocumentError("not a PDF document: no %PDF header")
    import pypdfium2 as pdfium

    with _LOCK:
        doc = _open(pdfium, data)
        try:
            return _pages(pdfium, doc)
        finally:
            doc.close()


def _open(pdfium, data: bytes):
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        code = getattr(e, "err_code", None)
        if code == _ERR_PASSWORD or "password" in str(e).lower():
            raise DocumentError("encrypted: no text (the PDF needs a password)") from None
        if code == _ERR_SECURITY:
            raise DocumentError("encrypted: no text (unsupported security handler)") from None
        raise DocumentError(f"corrupt or unreadable PDF ({e})") from None


def _pages(pdfium, doc) -> tuple[str, str]:
    n = len(doc)
    if n == 0:
        raise DocumentError("PDF without pages")
    deadline = time.monotonic() + PDF_SECONDS
    parts: list[str] = []
    read = 0
    for i in range(min(n, MAX_PDF_PAGES)):
        if i and time.monotonic() > deadline:  # (the first page is always read)
            break
        parts.append(_page_text(pdfium, doc, i))
        read = i + 1
    text = "\n".join(parts).replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise DocumentError("no text layer: scanned image?")
    label = "pdf" if read == n else f"pdf, first {read} of {n} pages"
    return text, label


def _page_text(pdfium, doc, i: int) -> str:
    """One page's text ("" for a page PDFium cannot load)."""
    try:
        page = doc[i]
    except pdfium.PdfiumError:
        return ""
    try:
        tp = page.get_textpage()
        try:
            return tp.get_text_range()
        finally:
            tp.close()
    except pdfium.PdfiumError:
        return ""
    finally:
        page.close()
