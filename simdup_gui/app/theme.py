"""Light and dark: the View > Theme switch (System, Light, Dark, saved in the preferences)
and the colours that follow it.

System leaves the platform's style and palette; Light and Dark set Qt's Fusion style with a
light or a dark palette (every colour of the widgets comes from it: text, placeholders,
check boxes, tooltips). The colours the app draws itself (the diff, the bit grid, an
action's report, the lab's charts and rows, the warning beside the settings) come from the
Qt-free schemes of :mod:`simdup_gui.core.presenters.colours`, picked to match the palette:
the platform's colour-scheme hint (QStyleHints.colorScheme, Qt 6.5+) decides when it says
Light or Dark and no palette was set, otherwise the palette's own colours do.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QMenu, QProxyStyle, QStyle, QStyleFactory

from simdup_gui.core.presenters import colours

from . import options as opt

THEMES = ("system", "light", "dark")
_R, _G = QPalette.ColorRole, QPalette.ColorGroup
# the dark palette: the dark scheme's page and window colours, text readable on each
# (placeholders and disabled text too: WCAG 4.5 on Base, 3 for disabled)
DARK_PALETTE = {
    _R.Window: "#353535", _R.WindowText: "#e8eaed", _R.Base: "#202124",
    _R.AlternateBase: "#2a2b2e", _R.ToolTipBase: "#202124", _R.ToolTipText: "#e8eaed",
    _R.PlaceholderText: "#9aa0a6", _R.Text: "#e8eaed", _R.Button: "#3c3c3c",
    _R.ButtonText: "#e8eaed", _R.BrightText: "#ffffff", _R.Light: "#5a5a5a",
    _R.Midlight: "#474747", _R.Mid: "#2c2c2c", _R.Dark: "#232323", _R.Shadow: "#141414",
    _R.Highlight: "#3d6fb4", _R.HighlightedText: "#ffffff", _R.Link: "#8ab4f8",
    _R.LinkVisited: "#c58af9",
}
DARK_DISABLED = {_R.WindowText: "#8a8d91", _R.Text: "#8a8d91", _R.ButtonText: "#8a8d91",
                 _R.Highlight: "#4a4a4a", _R.HighlightedText: "#b0b0b0"}
INDICATOR_EDGE = "#9aa0a6"  # a check box's or radio button's edge in the dark theme


def dark_palette() -> QPalette:
    p = QPalette()
    for role, colour in DARK_PALETTE.items():
        p.setColor(role, QColor(colour))
    for role, colour in DARK_DISABLED.items():
        p.setColor(_G.Disabled, role, QColor(colour))
    return p


class _DarkFusion(QProxyStyle):
    """Fusion, but a check box or radio button has a visible edge on a dark window: Fusion
    draws it a shade darker than the window, nearly black there."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802
        if element in (QStyle.PrimitiveElement.PE_IndicatorCheckBox,
                       QStyle.PrimitiveElement.PE_IndicatorRadioButton):
            option = type(option)(option)
            pal = QPalette(option.palette)
            # Fusion's edge is the window colour darkened by 140 %
            pal.setColor(_R.Window, QColor(INDICATOR_EDGE).lighter(140))
            option.palette = pal
        super().drawPrimitive(element, option, painter, widget)


_system_style: str | None = None  # the platform's style, put back by "system"
_applied = "system"


def apply_theme(choice: str) -> str:
    """Use ``choice`` ("system", "light" or "dark"; anything else is "system") for the whole
    application; the choice in effect."""
    global _system_style, _applied
    app = QApplication.instance()
    choice = choice if choice in THEMES else "system"
    if app is None or (choice == "system" and _applied == "system"):
        return choice
    if _system_style is None:
        _system_style = app.style().name()
    if choice == "dark":
        app.setStyle(_DarkFusion())
        app.setPalette(dark_palette())
    elif choice == "light":
        fusion = QStyleFactory.create("Fusion")
        app.setStyle(fusion)
        app.setPalette(fusion.standardPalette())
    else:
        app.setStyle(QStyleFactory.create(_system_style) or app.style())
        app.setPalette(QPalette())  # the platform's again
    _applied = choice
    return choice


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
    """View > Theme, and the colours of ``window`` re-picked when the palette or the
    system's scheme changes: the diffs, the bit grid, the warning and the lab repainted."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self._build_menu()
        window.installEventFilter(self)
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self.update)
        self.set_theme(window.prefs.get(opt.THEME), save=False)
        self.retranslate()

    def _build_menu(self) -> None:
        w = self.window
        self.menu = QMenu(w)
        w.results_ui.view_menu.addSeparator()
        w.results_ui.view_menu.addMenu(self.menu)
        self.group = QActionGroup(self)
        self.actions = {}
        for name in THEMES:
            a = QAction(w, checkable=True)
            a.triggered.connect(lambda _c=False, n=name: self.set_theme(n))
            self.group.addAction(a)
            self.menu.addAction(a)
            self.actions[name] = a

    def retranslate(self) -> None:
        self.menu.setTitle(self.tr("Theme"))
        names = {"system": self.tr("System"), "light": self.tr("Light"),
                 "dark": self.tr("Dark")}
        for name, a in self.actions.items():
            a.setText(names[name])

    def set_theme(self, choice: str, save: bool = True) -> str:
        """Switch to ``choice`` (System, Light or Dark) and, with ``save``, remember it."""
        choice = apply_theme(choice)
        self.actions[choice].setChecked(True)
        if save:
            self.window.prefs.set(opt.THEME, choice)
        self.update()
        return choice

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if obj is self.window and event.type() == QEvent.Type.PaletteChange:
            self.update()
        elif obj is self.window and event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
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
            if self.window.accuracy_tab is not None:
                self.window.accuracy_tab.recolour()
        return name
