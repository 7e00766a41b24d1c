"""The bit-level diff view: two fingerprints as grids of bits, blocks drawn."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from simdup_gui.core.presenters import colours
from simdup_gui.core.presenters.details import bit_diff_text
from simdup_gui.core.review.bitdiff import BitDiff



class BitGrid(QWidget):
    """Paints one fingerprint of a BitDiff: equal bits plain, differing bits highlighted."""

    def __init__(self, *, which: str = "a", parent=None) -> None:
        super().__init__(parent)
        self.which = which
        self.diff: BitDiff | None = None
        self.setMinimumSize(QSize(200, 90))

    def set_diff(self, diff: BitDiff | None) -> None:
        self.diff = diff
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(360, 170)

    def paintEvent(self, _event) -> None:
        d = self.diff
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if d is None:
            p.setPen(self.palette().mid().color())
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("Select a file"))
            return
        cell = min((self.width() - 4) / d.columns, (self.height() - 4) / d.rows)
        x0 = (self.width() - cell * d.columns) / 2
        y0 = (self.height() - cell * d.rows) / 2
        values = d.a if self.which == "a" else d.b
        differing = set(d.differing)
        font = QFont(self.font())
        font.setPixelSize(max(7, int(cell * 0.5)))
        p.setFont(font)
        matching = set(d.matching_blocks)
        c = colours.current()  # light or dark, as the system palette is
        tints = [QColor(t) for t in c.bit_tints]
        for bit in range(d.bits):
            row, col = d.cell(bit)
            r = QRectF(x0 + col * cell, y0 + row * cell, cell, cell)
            blk = d.block_of(bit)
            bg = QColor(c.bit_diff_bg) if bit in differing else tints[blk % len(tints)]
            if bit not in differing and blk in matching:  # shaded: away from the text colour
                bg = bg.darker(108) if c.name == "light" else bg.lighter(115)
            p.fillRect(r.adjusted(1, 1, -1, -1), bg)
            p.setPen(QColor(c.bit_diff_text if bit in differing else c.text))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, str(values[bit]))
        # block boundaries: a thick line where the next bit starts a new block
        pen = QPen(QColor(c.block_line), 2.5)
        p.setPen(pen)
        for start, width in d.blocks:
            if start + width >= d.bits:
                continue
            bit = start + width - 1  # last bit of this block, drawn before the next
            row, col = d.cell(bit)
            x = x0 + col * cell
            y = y0 + row * cell
            p.drawLine(int(x), int(y), int(x), int(y + cell))
        p.setPen(QPen(QColor(c.frame), 1))
        p.drawRect(QRectF(x0, y0, cell * d.columns, cell * d.rows))
        p.end()


class BitDiffView(QWidget):
    """Both grids, the Hamming distance, the similarity, the hex values and block matches."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.diff: BitDiff | None = None
        self._names = ("", "")
        self.title_a = QLabel()
        self.grid_a = BitGrid(which="a")
        self.title_b = QLabel()
        self.grid_b = BitGrid(which="b")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        for w in (self.title_a, self.grid_a, self.title_b, self.grid_b, self.summary):
            lay.addWidget(w)
        self.set_diff(None)

    def set_diff(self, diff: BitDiff | None, name_a: str = "", name_b: str = "") -> None:
        self.diff, self._names = diff, (name_a, name_b)
        self.grid_a.set_diff(diff)
        self.grid_b.set_diff(diff)
        text = bit_diff_text(diff, name_a, name_b)
        self.title_a.setText(text.title_a)
        self.title_b.setText(text.title_b)
        self.summary.setText(text.summary)

    def retranslate(self) -> None:
        self.set_diff(self.diff, *self._names)
