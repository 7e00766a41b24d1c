"""The text diff view: two decoded texts side by side, changed lines and words highlighted."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QGridLayout, QLabel, QPushButton, QTextBrowser, QWidget)

from simdup_gui.core.review.textdiff import DiffRow, LoadedText, diff_rows, load_text

from .tree_models import human_size

INITIAL_BYTES = 128 * 1024


def _render(text: str | None, spans, tag: str, side: str) -> str:
    if text is None:
        return '<div style="background:#f1f3f4">&nbsp;</div>'
    out, pos = [], 0
    mark = "#f4c7c3" if side == "left" else "#b7e1cd"
    for s, e in spans:
        out.append(html.escape(text[pos:s]))
        out.append(f'<span style="background:{mark}">{html.escape(text[s:e])}</span>')
        pos = e
    out.append(html.escape(text[pos:]))
    body = "".join(out) or "&nbsp;"
    bg = {"equal": "transparent", "replace": "#fef7e0",
          "delete": "#fce8e6", "insert": "#e6f4ea"}[tag]
    return f'<div style="background:{bg}; white-space:pre-wrap">{body}</div>'


class TextDiffView(QWidget):
    """Shows what differs between two files, loading large files a piece at a time."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.info_a = QLabel()
        self.info_b = QLabel()
        self.left = QTextBrowser()
        self.right = QTextBrowser()
        for v in (self.left, self.right):
            v.setOpenLinks(False)
        self.more = QPushButton()
        self.more.clicked.connect(self.load_more)
        self.more.hide()
        lay = QGridLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.info_a, 0, 0)
        lay.addWidget(self.info_b, 0, 1)
        lay.addWidget(self.left, 1, 0)
        lay.addWidget(self.right, 1, 1)
        lay.addWidget(self.more, 2, 0, 1, 2)
        self.left.verticalScrollBar().valueChanged.connect(self.right.verticalScrollBar().setValue)
        self.right.verticalScrollBar().valueChanged.connect(self.left.verticalScrollBar().setValue)
        self.paths: tuple[str, str] | None = None
        self.limit = INITIAL_BYTES
        self.rows: list[DiffRow] = []
        self.retranslate()

    def retranslate(self) -> None:
        self.more.setText(self.tr("Load more of both files"))
        if self.paths is None:
            self.info_a.setText(self.tr("Select a file to compare it with the representative."))
            self.info_b.setText("")

    def compare(self, path_a: str, path_b: str) -> None:
        self.paths = (path_a, path_b)
        self.limit = INITIAL_BYTES
        self._refresh()

    def load_more(self) -> None:
        self.limit *= 4
        self._refresh()

    def clear(self) -> None:
        self.paths = None
        self.rows = []
        self.left.clear()
        self.right.clear()
        self.more.hide()
        self.retranslate()

    def _info(self, t: LoadedText | None, err: str | None) -> str:
        if t is None:
            return self.tr("cannot read: {0}").format(err)
        s = self.tr("{0}, line endings {1}, {2}").format(t.encoding, t.newline, human_size(t.size))
        return s + (self.tr(" (first part shown)") if t.truncated else "")

    def _refresh(self) -> None:
        assert self.paths
        loaded = []
        for p in self.paths:
            try:
                loaded.append((load_text(p, self.limit), None))
            except (OSError, ValueError) as e:
                loaded.append((None, str(e)))
        (ta, ea), (tb, eb) = loaded
        self.info_a.setText("<b>A</b> " + html.escape(self._info(ta, ea)))
        self.info_b.setText("<b>B</b> " + html.escape(self._info(tb, eb)))
        self.rows = diff_rows(ta.text if ta else "", tb.text if tb else "")
        self.left.setHtml("".join(_render(r.left, r.left_spans, r.tag, "left") for r in self.rows))
        self.right.setHtml("".join(_render(r.right, r.right_spans, r.tag, "right")
                                   for r in self.rows))
        self.more.setVisible(bool((ta and ta.truncated) or (tb and tb.truncated)))

    def changed_rows(self) -> int:
        return sum(1 for r in self.rows if r.tag != "equal")


_ = Qt
