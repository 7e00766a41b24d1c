"""Documents made for the tests: one text as .txt (UTF-8 and GBK), .docx, .odt, .epub, .rtf and
.pdf (fpdf2, with an embedded CJK font: WenQuanYi Micro Hei, the font of .ci/run's apt line),
and bad documents (encrypted, no text layer, corrupt, zip bombs, not what their name says).

The zip formats are written here with zipfile: the smallest packages Word, LibreOffice and
e-book readers open (the parts each format requires), so the extractor meets what real ones
hold: runs split inside a paragraph, a table, chapters whose spine order is not the
manifest's order.

``python3 -m tests.docfixtures FOLDER`` writes them all into FOLDER (to look at them)."""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

CJK_FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
FORMATS = ("utf8.txt", "gbk.txt", "docx", "odt", "epub", "rtf", "pdf")


def paragraphs(text: str) -> list[str]:
    return [p for p in text.split("\n") if p.strip()]


def _zip(path: Path, members: list[tuple[str, str | bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            kind = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            z.writestr(name, data, compress_type=kind)
    return path


_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _w_para(p: str) -> str:
    """A paragraph in three runs (Word splits text at every change of formatting)."""
    k = max(1, len(p) // 3)
    runs = [p[:k], p[k : 2 * k], p[2 * k :]]
    return "<w:p>" + "".join(f'<w:r><w:t xml:space="preserve">{escape(r)}</w:t></w:r>'
                             for r in runs if r) + "</w:p>"


def write_docx(path: Path, text: str, table: list[list[str]] | None = None) -> Path:
    body = "".join(_w_para(p) for p in paragraphs(text))
    if table:
        rows = "".join("<w:tr>" + "".join(f"<w:tc>{_w_para(c)}</w:tc>" for c in row) + "</w:tr>"
                       for row in table)
        body += f"<w:tbl>{rows}</w:tbl>"
    doc = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
           f'<w:document xmlns:w="{_W_NS}"><w:body>{body}<w:sectPr/></w:body></w:document>')
    types = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats'
             '.org/package/2006/content-types"><Default Extension="rels" ContentType="application'
             '/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
             'ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType'
             '="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"'
             '/></Types>')
    rels = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
            'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http:'
            '//schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
            'Target="word/document.xml"/></Relationships>')
    return _zip(path, [("[Content_Types].xml", types), ("_rels/.rels", rels),
                       ("word/document.xml", doc)])


def write_odt(path: Path, text: str) -> Path:
    paras = []
    for i, p in enumerate(paragraphs(text)):
        k = len(p) // 2
        tag = "text:h" if i == 0 else "text:p"
        paras.append(f"<{tag}>{escape(p[:k])}<text:span>{escape(p[k:])}</text:span></{tag}>")
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3">'
               '<office:automatic-styles/><office:body><office:text>'
               + "".join(paras) + "</office:text></office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:'
                'oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/'
                'vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.'
                'xml" manifest:media-type="text/xml"/></manifest:manifest>')
    return _zip(path, [("mimetype", "application/vnd.oasis.opendocument.text"),
                       ("META-INF/manifest.xml", manifest), ("content.xml", content)])


def _xhtml(title: str, paras: list[str]) -> str:
    body = "".join(f"<p>{escape(p)}</p>" for p in paras)
    return ('<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/'
            f'1999/xhtml"><head><title>{escape(title)}</title><style>p {{margin: 0}}</style>'
            f"</head><body>{body}</body></html>")


def write_epub(path: Path, text: str) -> Path:
    """Two chapters; the manifest lists the second first, the spine gives the order."""
    ps = paragraphs(text)
    half = max(1, len(ps) // 2)
    container = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:'
                 'opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf"'
                 ' media-type="application/oebps-package+xml"/></rootfiles></container>')
    opf = ('<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" '
           'version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/'
           '1.1/"><dc:identifier id="id">simdup-test</dc:identifier><dc:title>t</dc:title>'
           '<dc:language>zh</dc:language></metadata><manifest>'
           '<item id="c2" href="text/ch%202.xhtml" media-type="application/xhtml+xml"/>'
           '<item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/>'
           '</manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>')
    return _zip(path, [("mimetype", "application/epub+zip"),
                       ("META-INF/container.xml", container), ("OEBPS/content.opf", opf),
                       ("OEBPS/text/ch 2.xhtml", _xhtml("Chapter 2", ps[half:])),
                       ("OEBPS/text/ch1.xhtml", _xhtml("Chapter 1", ps[:half]))])


def _rtf_escape(s: str) -> str:
    out = []
    for ch in s:
        if ch in "\\{}":
            out.append("\\" + ch)
        elif ord(ch) < 128:
            out.append(ch)
        else:  # \uN and a one-character fallback, as Word writes them
            n = ord(ch)
            out.append(f"\\u{n - 65536 if n > 32767 else n}?")
    return "".join(out)


def write_rtf(path: Path, text: str) -> Path:
    body = "".join(f"\\pard {_rtf_escape(p)}\\par\n" for p in paragraphs(text))
    head = ("{\\rtf1\\ansi\\ansicpg936\\deff0{\\fonttbl{\\f0\\fnil\\fcharset134 SimSun;}}"
            "{\\colortbl;\\red0\\green0\\blue0;}{\\*\\generator simdup tests;}"
            "{\\info{\\title A title that is not body text}}\\uc1\n")
    path.write_bytes((head + body + "}").encode("ascii"))
    return path


def _fpdf():
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_font("cjk", fname=CJK_FONT, collection_font_number=0)
    pdf.set_font("cjk", size=11)
    return pdf


def write_pdf(path: Path, text: str, copies: int = 1) -> Path:
    """The text with the CJK font embedded (a subset: only the glyphs used)."""
    pdf = _fpdf()
    for _ in range(copies):
        pdf.add_page()
        for p in paragraphs(text):
            pdf.multi_cell(0, 7, p, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def write_all(folder: Path, name: str, text: str) -> dict[str, Path]:
    """The text in every format: {format: path}."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {"utf8.txt": folder / f"{name}.utf8.txt", "gbk.txt": folder / f"{name}.gbk.txt"}
    out["utf8.txt"].write_text(text, encoding="utf-8")
    out["gbk.txt"].write_bytes(text.encode("gb18030"))  # (GBK for GBK text)
    out["docx"] = write_docx(folder / f"{name}.docx", text)
    out["odt"] = write_odt(folder / f"{name}.odt", text)
    out["epub"] = write_epub(folder / f"{name}.epub", text)
    out["rtf"] = write_rtf(folder / f"{name}.rtf", text)
    out["pdf"] = write_pdf(folder / f"{name}.pdf", text)
    return out


# --- bad documents ---------------------------------------------------------------------------

def encrypted_pdf(path: Path, text: str) -> Path:
    pdf = _fpdf()
    pdf.set_encryption(owner_password="owner", user_password="secret")
    pdf.add_page()
    pdf.multi_cell(0, 7, text[:200])
    pdf.output(str(path))
    return path


def scanned_pdf(path: Path, pages: int = 2) -> Path:
    """Pages with drawings and no text (as a scanner's PDF of images has none)."""
    from fpdf import FPDF

    pdf = FPDF()
    for i in range(pages):
        pdf.add_page()
        pdf.set_fill_color(40 * i, 90, 160)
        pdf.rect(20, 20, 150, 200, style="F")
    pdf.output(str(path))
    return path


def corrupt_docx(path: Path, text: str) -> Path:
    good = write_docx(path, text).read_bytes()
    path.write_bytes(good[: len(good) // 2])  # the central directory cut off
    return path


def bomb_docx(path: Path, inflated: int) -> Path:
    """A .docx whose document.xml inflates to ``inflated`` bytes (spaces compress ~1000:1)."""
    head = f'<w:document xmlns:w="{_W_NS}"><w:body><w:p><w:r><w:t>'.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("word/document.xml", "w", force_zip64=True) as fh:
            fh.write(head)
            block = b" " * (1 << 20)
            for _ in range(inflated >> 20):
                fh.write(block)
            fh.write(b"</w:t></w:r></w:p></w:body></w:document>")
    return path


def many_members_docx(path: Path, members: int) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for i in range(members):
            z.writestr(f"m/{i}", b"")
    return path


def long_pdf(path: Path, pages: int) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    for i in range(pages):
        pdf.add_page()
        pdf.cell(0, 10, f"Page {i + 1} of a very long report.")
    pdf.output(str(path))
    return path


if __name__ == "__main__":
    from tests.conftest import EN, ZH

    root = Path(sys.argv[1] if len(sys.argv) > 1 else "docfixtures")
    for name, text in (("zh", ZH), ("en", EN)):
        for fmt, p in write_all(root, name, text).items():
            print(fmt, p, os.path.getsize(p))
