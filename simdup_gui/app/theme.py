"""Dark mode: the diff and the bit grid follow the system's light or dark palette.

The platform's colour-scheme hint (QStyleHints.colorScheme, Qt 6.5+) decides when it says
Light or Dark; otherwise the palette's window colour does. The colours themselves are the
Qt-free schemes of :mod:`simdup_gui.core.presenters.colours`.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QGuiApplication, QPalette

from simdup_gui.core.presenters import colours


def system_scheme() -> str:
    """"dark" or "light" for what the widgets are painted with now: the palette's Base colour
    (the background of the text views the diff is drawn in). The platform's colour-scheme
    hint decides only when Qt reports it and the palette is not set by the application."""
    palette = QGuiApplication.palette()
    base = palette.color(QPalette.ColorRole.Base).name()
    hints = QGuiApplication.styleHints()
    hint = None
    if hasattr(hints, "colorScheme") and not palette.isBrushSet(QPalette.ColorGroup.Active,
                                                                QPalette.ColorRole.Base):
        value = hints.colorScheme()
        hint = {Qt.ColorScheme.Dark: True, Qt.ColorScheme.Light: False}.get(value)
    return colours.scheme_for_window(base, hint)


class ThemeWatcher(QObject):
    """Re-picks the scheme when the palette or the system's scheme changes and repaints
    the diffs of ``window``."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        window.installEventFilter(self)
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self.update)
        self.update()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.window and event.type() == QEvent.Type.PaletteChange:
            self.update()
        return False

    def update(self, *_args) -> str:
        name = system_scheme()
        if name != colours.current().name:
            colours.set_scheme(name)
            gv = self.window.groups_view
            if gv.textdiff.paths is not None:
                gv.textdiff.retranslate()  # re-renders the diff's HTML in the new colours
            gv.bitdiff.grid_a.update()
            gv.bitdiff.grid_b.update()
            self.window.panel.recolour()
        return name
