"""The window's menu shortcuts work whatever widget has focus.

A focused spin box or combo box claims Ctrl+Z and other keys for itself (Qt sends it a
ShortcutOverride first and it accepts), so the window's Undo never ran while the distance
box had focus. :class:`MenuShortcuts` filters those overrides for the window's own
shortcuts. A text field keeps Undo and Redo while it has typing of its own to undo.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QLineEdit, QWidget


def _owner_editor(widget: QWidget) -> QWidget:
    """The spin box or combo box a focused inner line edit belongs to, else the widget."""
    parent = widget.parentWidget()
    if isinstance(widget, QLineEdit) and isinstance(parent, (QAbstractSpinBox, QComboBox)):
        return parent
    return widget


class MenuShortcuts(QObject):
    """An event filter that lets ``window``'s action shortcuts through.

    It watches the focus widget only (a ShortcutOverride goes to it first): a filter on the
    whole application ran Python for every event of the app, each call waiting for the GIL
    while a worker runs Python (a few ms each, tens of ms an event-loop turn)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self._watched: QWidget | None = None
        app = QApplication.instance()
        app.focusChanged.connect(self._follow_focus)
        window.destroyed.connect(self._remove)
        self._follow_focus(None, app.focusWidget())

    def _follow_focus(self, _old: QWidget | None, now: QWidget | None) -> None:
        self._unwatch()
        if now is not None and now.window() is self.window:
            now.installEventFilter(self)
            self._watched = now

    def _unwatch(self) -> None:
        if self._watched is not None:
            try:
                self._watched.removeEventFilter(self)
            except RuntimeError:  # the widget is gone already
                pass
            self._watched = None

    def _remove(self) -> None:
        app = QApplication.instance()
        if app is not None:
            try:
                app.focusChanged.disconnect(self._follow_focus)
            except (RuntimeError, TypeError):  # disconnected with this object already
                pass
        self._watched = None

    def action_for(self, seq: QKeySequence) -> QAction | None:
        for a in self.window.findChildren(QAction):
            if a.shortcutContext() in (Qt.ShortcutContext.WidgetShortcut,
                                       Qt.ShortcutContext.WidgetWithChildrenShortcut):
                continue  # a key of one widget (Space in the tree), not of the window
            if a.isEnabled() and any(s == seq for s in a.shortcuts()):
                return a
        return None

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(obj, QWidget):
            return False
        if obj.window() is not self.window:
            return False
        seq = QKeySequence(event.keyCombination())
        if self.action_for(seq) is None:
            return False
        widget = _owner_editor(obj)
        if isinstance(widget, QLineEdit):  # a text field: its own typing comes first
            if seq.matches(QKeySequence(QKeySequence.StandardKey.Undo)) == \
                    QKeySequence.SequenceMatch.ExactMatch:
                return not widget.isUndoAvailable()
            if seq.matches(QKeySequence(QKeySequence.StandardKey.Redo)) == \
                    QKeySequence.SequenceMatch.ExactMatch:
                return not widget.isRedoAvailable()
            return False
        # a spin box, combo box or view: the override is not delivered, stays unaccepted,
        # and the shortcut runs
        return True
