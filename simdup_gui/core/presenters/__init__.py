"""Qt-free presenters: they turn session state into what the views show (texts, rows,
colours as names), so the app only renders and tests need no Qt.

``tree`` (the groups tree rows and cells), ``details`` (the bit diff and text diff pane),
``lab`` (the accuracy lab's table, charts and headline), ``progress`` (scan progress, the
status line, the chance warning), ``actions`` (what an action or undo did). Texts go through
:func:`translate`, which the app points at Qt's translator; the contexts are the widgets'
class names, as in ``self.tr``.
"""

from .i18n import set_translator, translate

__all__ = ["set_translator", "translate"]
