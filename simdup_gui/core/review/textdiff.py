"""Side-by-side text diff rows with changed spans, for the text diff view."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from ..models import split_catalog_key
from ..scan.documents import MAX_DOCUMENT_BYTES, document_kind, text_of

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_PIECES = re.compile(r"\w+|\s+|[^\w\s]", re.U)


@dataclass(slots=True)
class DiffRow:
    tag: str  # "equal", "replace", "delete", "insert"
    left: str | None
    right: str | None
    left_spans: list[tuple[int, int]] = field(default_factory=list)  # changed char ranges
    right_spans: list[tuple[int, int]] = field(default_factory=list)


@dataclass(slots=True)
class LoadedText:
    text: str
    encoding: str
    newline: str
    size: int
    truncated: bool


def load_text(path: str, max_bytes: int = 256 * 1024) -> LoadedText:
    """Decode up to ``max_bytes`` of a file for display (large files load lazily); of a
    document (.pdf, .docx, ...) its extracted text, up to ``max_bytes`` characters of it."""
    import os

    if split_catalog_key(path):  # (review/catalog.py: a file that is not here)
        raise ValueError("it is in a catalog, on a drive that is not connected")
    size = os.path.getsize(path)
    document = document_kind(path) is not None
    with open(path, "rb") as fh:
        data = fh.read(MAX_DOCUMENT_BYTES + 1 if document else max_bytes)
    d = text_of(path, data) if data else None
    text = d.text if d else ""
    if document:
        cut, text = len(text) > max_bytes, text[:max_bytes]
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    kinds = [k for k, c in (("CRLF", crlf), ("LF", lf)) if c]
    newline = "none" if not kinds else (kinds[0] if len(kinds) == 1 else "mixed")
    return LoadedText(text.replace("\r\n", "\n").replace("\r", "\n"), d.encoding if d else "",
                      newline, size, cut if document else size > len(data))


def _tokens(line: str) -> list[str]:
    out: list[str] = []
    for p in _PIECES.findall(line):
        if _CJK.search(p):
            out.extend(p)  # Chinese has no spaces: compare character by character
        else:
            out.append(p)
    return out


def _spans(a: str, b: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    ta, tb = _tokens(a), _tokens(b)
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    pa = [0]
    for t in ta:
        pa.append(pa[-1] + len(t))
    pb = [0]
    for t in tb:
        pb.append(pb[-1] + len(t))
    la, lb = [], []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "equal":
            if i2 > i1:
                la.append((pa[i1], pa[i2]))
            if j2 > j1:
                lb.append((pb[j1], pb[j2]))
    return la, lb


def diff_rows(left: str, right: str) -> list[DiffRow]:
    """Line-aligned rows; changed lines carry the changed word (or character) ranges."""
    a, b = left.split("\n"), right.split("\n")
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    rows: list[DiffRow] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            rows.extend(DiffRow("equal", a[i], b[j]) for i, j in zip(range(i1, i2), range(j1, j2)))
        elif tag == "replace":
            n = max(i2 - i1, j2 - j1)
            for t in range(n):
                la = a[i1 + t] if i1 + t < i2 else None
                lb = b[j1 + t] if j1 + t < j2 else None
                if la is not None and lb is not None:
                    sa, sb = _spans(la, lb)
                    rows.append(DiffRow("replace", la, lb, sa, sb))
                elif la is not None:
                    rows.append(DiffRow("delete", la, None, [(0, len(la))]))
                else:
                    rows.append(DiffRow("insert", None, lb, [], [(0, len(lb or ""))]))
        elif tag == "delete":
            rows.extend(DiffRow("delete", a[i], None, [(0, len(a[i]))]) for i in range(i1, i2))
        else:
            rows.extend(DiffRow("insert", None, b[j], [], [(0, len(b[j]))]) for j in range(j1, j2))
    return rows
