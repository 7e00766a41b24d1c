"""A scroll area that scrolls up and down only: the left panel's folders and settings scroll
when the window is too short for them (1280x720 cut the 16-bit warning), and the panel stays
as wide as they need."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


class VerticalScroll(QScrollArea):
    """Scrolls ``widget`` up and down, never sideways: as wide as the widget needs."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.setWidget(widget)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # its needs changed (a language, a warning): so do ours
        return super().eventFilter(obj, event)

    def _plus_bar(self, hint: QSize, height: int) -> QSize:
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(hint.width() + bar + 2 * self.frameWidth(), height)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self._plus_bar(self.widget().minimumSizeHint(),
                              super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        hint = self.widget().sizeHint()
        return self._plus_bar(hint, hint.height())
