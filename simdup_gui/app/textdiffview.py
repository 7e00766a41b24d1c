"""The text diff view: two decoded texts side by side, changed lines and words highlighted."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QTextBrowser, QWidget

from simdup_gui.core.presenters.details import INITIAL_BYTES, TextDiff, text_diff


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
        self.diff: TextDiff | None = None
        self.retranslate()

    def retranslate(self) -> None:
        self.more.setText(self.tr("Load more of both files"))
        if self.paths is None:
            self.info_a.setText(self.tr("Select a file to compare it with the reference."))
            self.info_b.setText("")
        else:  # the headers are texts in the language of the moment
            self._refresh()

    def compare(self, path_a: str, path_b: str) -> None:
        self.paths = (path_a, path_b)
        self.limit = INITIAL_BYTES
        self._refresh()

    def load_more(self) -> None:
        self.limit *= 4
        self._refresh()

    def clear(self) -> None:
        self.paths = None
        self.diff = None
        self.left.clear()
        self.right.clear()
        self.more.hide()
        self.retranslate()

    def _refresh(self) -> None:
        assert self.paths
        d = self.diff = text_diff(*self.paths, limit=self.limit)
        self.info_a.setText(d.info_a)
        self.info_b.setText(d.info_b)
        self.left.setHtml(d.left)
        self.right.setHtml(d.right)
        self.more.setVisible(d.truncated)

    def show_row(self, row: int) -> None:
        """Scroll both sides so that diff row ``row`` (a block of each side) is at the top."""
        block = self.right.document().findBlockByNumber(row)
        if block.isValid():
            top = self.right.document().documentLayout().blockBoundingRect(block).top()
            self.right.verticalScrollBar().setValue(int(top))

    def changed_rows(self) -> int:
        return self.diff.changed_rows() if self.diff else 0
