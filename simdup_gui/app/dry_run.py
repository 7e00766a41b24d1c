"""The dry-run switch made visible (issue 38, item 11): while *Actions → Dry run* is on, the
status bar says so in the warning colour, so an action that "did nothing" is never a
surprise; a click on it turns dry run off."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QToolButton

from simdup_gui.core.presenters import colours


class DryRunBadge(QToolButton):
    """Shown in ``window``'s status bar while ``switch`` (the checkable Dry run action) is on."""

    def __init__(self, window, switch: QAction) -> None:
        super().__init__(window)
        self.switch = switch
        self.setAutoRaise(True)
        self.clicked.connect(lambda: switch.setChecked(False))
        switch.toggled.connect(self._show)
        window.statusBar().addPermanentWidget(self)
        self._retranslate()
        self._show(switch.isChecked())

    def _show(self, on: bool) -> None:
        sheet = f"color: {colours.current().warning}; font-weight: bold"
        if self.styleSheet() != sheet:  # (a new sheet is a palette change: no loop)
            self.setStyleSheet(sheet)
        self.setVisible(on)

    def _retranslate(self) -> None:
        self.setText(self.tr("Dry run: actions change nothing"))
        self.setToolTip(self.tr("Actions only list what they would do. Click to turn dry run "
                                "off (Actions menu)."))

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
        elif event.type() == QEvent.Type.PaletteChange:  # light or dark: the warning's colour
            self._show(self.switch.isChecked())
        super().changeEvent(event)
