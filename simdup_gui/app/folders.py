"""The list of folders to scan; folders dropped from the file manager are added."""

from __future__ import annotations

import os

from PySide6.QtCore import QSize, Signal
from PySide6.QtWidgets import QAbstractItemView, QListWidget


class FolderList(QListWidget):
    """Folders to scan; accepts folders dropped from the file manager."""

    changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """A few folders high: in a short window the settings below need the room more (the
        list grows into any room left)."""
        rows = max(self.count(), 3) + 1
        return QSize(super().sizeHint().width(), rows * self.fontMetrics().lineSpacing()
                     + 2 * self.frameWidth() + 8)

    def folders(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]

    def add_folder(self, path: str) -> bool:
        path = os.path.abspath(path)
        if path in self.folders():
            return False
        self.addItem(path)
        self.changed.emit()
        return True

    def remove_selected(self) -> None:
        for item in self.selectedItems():
            self.takeItem(self.row(item))
        self.changed.emit()

    def dragEnterEvent(self, e) -> None:  # noqa: N802 - Qt API
        if e.mimeData().hasUrls():
            e.acceptProposedAction()
        else:
            super().dragEnterEvent(e)

    def dragMoveEvent(self, e) -> None:  # noqa: N802 - Qt API
        if e.mimeData().hasUrls():
            e.acceptProposedAction()
        else:
            super().dragMoveEvent(e)

    def dropEvent(self, e) -> None:  # noqa: N802 - Qt API
        if not e.mimeData().hasUrls():
            return super().dropEvent(e)
        for url in e.mimeData().urls():
            p = url.toLocalFile()
            if p and os.path.exists(p):
                self.add_folder(p)
        e.acceptProposedAction()
