"""Documents to text: .docx, .odt, .epub (zip + XML, read with the standard library), .rtf
(:mod:`.rtf`, our own small converter) and text-layer .pdf (:mod:`.pdftext`, pypdfium2).

The text that comes out is a text file's from then on: the same normalisation, fingerprint,
sketch and verification (fingerprint._load_open, group.exact.read_shingles,
review.textdiff.load_text all go through :func:`text_of`). A document that cannot give text is a
:class:`DocumentError` (problem kind "document") with its reason, never a hang or a crash:

- every zip is bounded: at most MAX_MEMBERS members, MAX_UNCOMPRESSED bytes inflated in all
  (counted while reading, whatever the archive claims), so a zip bomb stops there;
- XML is parsed by expat through a streaming target, and refused when it declares a DTD
  (no entity is ever expanded, nothing external is ever fetched);
- a PDF is read page by page within MAX_PDF_PAGES and PDF_SECONDS (what was read is kept
  and the label says so); in a scan's worker a watchdog ends the process if the PDF library
  hangs, and a breadcrumb names the file, so that a native crash or hang costs that file only
  (pipeline._run_pool).
"""

from __future__ import annotations

import io
import os
import posixpath
import zipfile
from html.parser import HTMLParser
from xml.etree import ElementTree as ET

from .decode import Decoded, DecodeError, DocumentError, decode_bytes

EXTRACT_VERSION = 1  # bump when the same document may give a different text
DOCUMENT_KINDS = {".docx": "docx", ".odt": "odt", ".epub": "epub", ".rtf": "rtf", ".pdf": "pdf"}
DOCUMENT_PATTERNS = tuple("*" + s for s in DOCUMENT_KINDS)
_SUFFIXES = tuple(DOCUMENT_KINDS)  # none longer than 5 characters (document_kind)
MAX_DOCUMENT_BYTES = 256 << 20  # a larger document file is a problem, not read
MAX_UNCOMPRESSED = 64 << 20  # bytes inflated from one zip, all members together
MAX_MEMBERS = 10_000
_BLOCK = 1 << 20


def document_kind(path: str) -> str | None:
    """"pdf", "docx", ... for a document's name, else None. A name whose last characters
    end no kind's suffix is answered without splitext (asked three to four times a file)."""
    if not path[-5:].lower().endswith(_SUFFIXES):
        return None
    return DOCUMENT_KINDS.get(os.path.splitext(path)[1].lower())


def text_of(path: str, data: bytes) -> Decoded:
    """The text of a file's bytes: a document's extracted text (its label the format, e.g.
    "pdf"), any other file decoded (decode.decode_bytes). Raises DecodeError."""
    kind = document_kind(path)
    if kind is None:
        return decode_bytes(data)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise DocumentError(f"document larger than {MAX_DOCUMENT_BYTES >> 20} MB; not read")
    if kind == "pdf":
        from . import pdftext

        with pdftext.guarded(path):
            text, label = pdftext.extract(data)
    else:
        text, label = EXTRACTORS[kind](data), kind
    if not text.strip():
        raise DocumentError(f"no text in this {kind.upper()} document")
    return Decoded(text, label, kind, 0, 0)


# --- zip containers -------------------------------------------------------------------------

class _Zip:
    """A zip archive read within the bounds: MAX_MEMBERS members, MAX_UNCOMPRESSED bytes
    inflated in all, counted as they come out."""

    def __init__(self, data: bytes, kind: str) -> None:
        self.kind = kind.upper()
        if not data.startswith(b"PK\x03\x04"):
            raise DocumentError(f"not a {self.kind} document: not a zip archive")
        try:
            self.zf = zipfile.ZipFile(io.BytesIO(data))
            infos = self.zf.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as e:
            raise DocumentError(f"corrupt zip archive ({e})") from None
        if len(infos) > MAX_MEMBERS:
            raise DocumentError(f"zip archive of {len(infos)} members (more than "
                                f"{MAX_MEMBERS}); not read")
        self.names = {i.filename for i in infos}
        self.left = MAX_UNCOMPRESSED

    def read(self, name: str) -> bytes:
        """A member's bytes; DocumentError when it is missing, corrupt or past the bound."""
        if name not in self.names:
            raise DocumentError(f"not a {self.kind} document: no {name} in the archive")
        parts = []
        try:
            with self.zf.open(name) as fh:
                while True:
                    block = fh.read(min(_BLOCK, self.left + 1))
                    if not block:
                        break
                    self.left -= len(block)
                    if self.left < 0:
                        raise DocumentError(f"more than {MAX_UNCOMPRESSED >> 20} MB once "
                                            "unpacked (a zip bomb?); not read")
                    parts.append(block)
        except DocumentError:
            raise
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError,
                RuntimeError) as e:  # (RuntimeError: an encrypted member)
            raise DocumentError(f"corrupt zip archive ({name}: {e})") from None
        except Exception as e:  # noqa: BLE001 - zlib.error and the like: the archive is bad
            raise DocumentError(f"corrupt zip archive ({name}: {type(e).__name__})") from None
        return b"".join(parts)


class _Collector:
    """An expat target that keeps the text of a document's XML in reading order: the
    character data inside ``text_in`` elements (any element when None), a line break after
    each of ``breaks``, ``tabs`` and ``newlines`` for those empty elements, nothing inside
    ``skip``."""

    def __init__(self, text_in=None, breaks=(), tabs=(), newlines=(), skip=(), spaces=None):
        self.out: list[str] = []
        self.text_in, self.breaks, self.tabs = text_in, frozenset(breaks), frozenset(tabs)
        self.newlines, self.skip, self.spaces = frozenset(newlines), frozenset(skip), spaces
        self.inside = 0  # depth inside a text_in element
        self.skipping = 0  # depth inside a skip element

    def start(self, tag, attrib):
        if self.skipping or tag in self.skip:
            self.skipping += 1
        elif self.text_in is not None and tag in self.text_in:
            self.inside += 1
        elif tag in self.tabs:
            self.out.append("\t")
        elif tag in self.newlines:
            self.out.append("\n")
        elif self.spaces is not None and tag == self.spaces[0]:
            self.out.append(" " * _count(attrib.get(self.spaces[1])))

    def end(self, tag):
        if self.skipping:
            self.skipping -= 1
        elif self.text_in is not None and tag in self.text_in:
            self.inside -= 1
        elif tag in self.breaks:
            self.out.append("\n")

    def data(self, text):
        if not self.skipping and (self.text_in is None or self.inside):
            self.out.append(text)

    def close(self):
        return "".join(self.out)


def _count(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), 1000))
    except ValueError:
        return 1


def _parse_xml(data: bytes, target, what: str):
    """Feed ``data`` to expat with ``target``; a DTD (where entities would be declared) or
    malformed XML is a DocumentError."""
    head = data[:4096]
    if b"<!DOCTYPE" in head or b"<!ENTITY" in data:
        raise DocumentError(f"{what} declares a DTD or entities; not read")
    parser = ET.XMLParser(target=target)
    try:
        for i in range(0, len(data), _BLOCK):
            parser.feed(data[i : i + _BLOCK])
        return parser.close()
    except ET.ParseError as e:
        raise DocumentError(f"{what} is not well-formed XML ({e})") from None


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def docx_text(data: bytes) -> str:
    """The body of a Word document (word/document.xml): paragraphs, tables cell by cell, in
    the order they are written; tracked deletions and field codes left out."""
    z = _Zip(data, "docx")
    xml = z.read("word/document.xml")
    return _parse_xml(xml, _Collector(text_in={_W + "t"}, breaks={_W + "p"},
                                      tabs={_W + "tab"}, newlines={_W + "br", _W + "cr"}),
                      "word/document.xml")


_T = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_O = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"


def odt_text(data: bytes) -> str:
    """The body of an OpenDocument text (content.xml): paragraphs and headings, tables cell
    by cell, in order; notes, annotations and tracked changes left out."""
    z = _Zip(data, "odt")
    xml = z.read("content.xml")
    collector = _BodyOnly(_O + "text", _Collector(
        breaks={_T + "p", _T + "h"}, tabs={_T + "tab"}, newlines={_T + "line-break"},
        skip={_T + "note", _O + "annotation", _T + "tracked-changes", _T + "sequence-decls"},
        spaces=(_T + "s", _T + "c")))
    return _parse_xml(xml, collector, "content.xml")


class _BodyOnly:
    """Passes to ``inner`` only what lies inside the ``body`` element (ODF's styles and
    declarations before it hold no text of the document)."""

    def __init__(self, body: str, inner: _Collector) -> None:
        self.body, self.inner, self.depth = body, inner, 0

    def start(self, tag, attrib):
        if self.depth or tag == self.body:
            self.depth += 1
            if self.depth > 1:
                self.inner.start(tag, attrib)

    def end(self, tag):
        if self.depth:
            self.depth -= 1
            if self.depth:
                self.inner.end(tag)

    def data(self, text):
        if self.depth:
            self.inner.data(text)

    def close(self):
        return self.inner.close()


_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_OPF = "{http://www.idpf.org/2007/opf}"


def epub_text(data: bytes) -> str:
    """An e-book's chapters in reading order (the package's spine), each XHTML page's body
    text."""
    z = _Zip(data, "epub")
    opf_path = _opf_path(z)
    manifest, spine = _package(z.read(opf_path), opf_path)
    pages = []
    for idref in spine:
        href = manifest.get(idref)
        if href and href in z.names:
            pages.append(html_text(z.read(href)))
    if not pages:
        raise DocumentError("not an EPUB document: its spine names no page in the archive")
    return "\n".join(pages)


class _Tree:
    """An expat target that keeps elements' tags, attributes and text (a small tree of the
    package files, which are a few kilobytes)."""

    def __init__(self) -> None:
        self.elements: list[tuple[str, dict]] = []

    def start(self, tag, attrib):
        self.elements.append((tag, dict(attrib)))

    def end(self, tag):
        pass

    def data(self, text):
        pass

    def close(self):
        return self.elements


def _opf_path(z: _Zip) -> str:
    for tag, attrib in _parse_xml(z.read("META-INF/container.xml"), _Tree(), "container.xml"):
        if tag == _CONTAINER + "rootfile" and attrib.get("full-path"):
            return attrib["full-path"]
    raise DocumentError("not an EPUB document: container.xml names no package")


def _package(xml: bytes, opf_path: str) -> tuple[dict[str, str], list[str]]:
    """(manifest id -> member name, the spine's idrefs in order) of the package file."""
    base = posixpath.dirname(opf_path)
    manifest: dict[str, str] = {}
    spine: list[str] = []
    for tag, attrib in _parse_xml(xml, _Tree(), opf_path):
        if tag == _OPF + "item" and attrib.get("id") and attrib.get("href"):
            href = attrib["href"].split("#")[0]
            manifest[attrib["id"]] = posixpath.normpath(posixpath.join(base, _unquote(href)))
        elif tag == _OPF + "itemref" and attrib.get("idref"):
            spine.append(attrib["idref"])
    return manifest, spine


def _unquote(href: str) -> str:
    from urllib.parse import unquote

    return unquote(href)


_BLOCKS = frozenset("p div br li tr h1 h2 h3 h4 h5 h6 table ul ol blockquote pre section "
                    "article header footer hr dt dd title".split())
_HIDDEN = frozenset({"script", "style", "head"})


class _HtmlText(HTMLParser):
    """The visible text of an (X)HTML page: no script, style or head; a line break at the
    end of each block. HTML's named references are the only ones resolved."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self.out.append("\n")

    def handle_startendtag(self, tag, attrs):
        if tag == "br":
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCKS and not self.hidden:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.hidden:
            self.out.append(data)


def html_text(page: bytes) -> str:
    """The visible text of one XHTML page of an e-book (its bytes decoded as any text)."""
    try:
        decoded = decode_bytes(page).text
    except DecodeError:
        return ""
    p = _HtmlText()
    p.feed(decoded)
    p.close()
    return "".join(p.out)


def _rtf(data: bytes) -> str:
    from .rtf import rtf_text

    return rtf_text(data)


EXTRACTORS = {"docx": docx_text, "odt": odt_text, "epub": epub_text, "rtf": _rtf}
