"""Every text a window or dialog shows (labels, buttons, menus and their actions, headers,
tooltips, group box titles, combo items, tabs, charts), and the English words among them."""

from __future__ import annotations

import re

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractSpinBox, QApplication,
                               QComboBox, QDialog, QDoubleSpinBox, QGroupBox, QLabel, QLineEdit,
                               QMenu, QMenuBar, QSpinBox, QTabWidget, QTextEdit, QWidget)

# Words that stay as they are in Chinese: names (of the app, of methods, of products), file
# formats, units, the language menu's "English", and command or address syntax (a tooltip's
# Dask address, the custom command's example programs).
ALLOWED = {"simdup", "SimHash", "Jaccard", "TF", "IDF", "Dask", "English",
           "CSV", "JSON", "HTML", "PNG", "PDF", "Word", "OpenDocument", "EPUB", "RTF",
           "KB", "MB", "GB", "LF", "CRLF", "CR", "BOM",
           "LSH", "local", "tcp", "host", "pip", "install", "dask",
           "meld", "kdiff", "code", "diff", "shell"}  # (the custom command's examples)


def _menu(menu: QMenu, out: list) -> None:
    out.append(("menu", menu.title()))
    for a in menu.actions():
        if a.isSeparator():
            continue
        out.append(("action", a.text()))
        if a.toolTip() and a.toolTip() != a.text().replace("&", ""):
            out.append(("action tooltip", a.toolTip()))
        if a.menu() is not None:
            _menu(a.menu(), out)


def _view(view: QAbstractItemView, out: list, cells: bool) -> None:
    m = view.model()
    if m is None:
        return
    try:
        cols = m.columnCount(QModelIndex())
    except TypeError:  # a list model
        cols = 1
    for c in range(cols):
        for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            out.append(("header", str(m.headerData(c, Qt.Orientation.Horizontal, role) or "")))
    if not cells:
        return
    for r in range(min(m.rowCount(QModelIndex()), 40)):
        for c in range(cols):
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                out.append(("cell", str(m.data(m.index(r, c), role) or "")))


def _charts(w: QWidget, out: list) -> None:
    chart = w.chart()
    out.append(("chart", chart.title()))
    for axis in chart.axes():
        out.append(("axis", axis.titleText()))
    for s in chart.series():
        out.append(("series", s.name()))


def _one(w: QWidget, out: list, cells: bool) -> None:
    out.append(("tooltip", w.toolTip()))
    if isinstance(w, QLabel):
        out.append(("label", w.text()))
    if isinstance(w, QAbstractButton):
        out.append(("button", w.text()))
    if isinstance(w, QGroupBox):
        out.append(("group box", w.title()))
    if isinstance(w, QLineEdit):
        out.append(("placeholder", w.placeholderText()))
    if isinstance(w, QComboBox):
        out += [("combo item", w.itemText(i)) for i in range(w.count())]
    if isinstance(w, (QSpinBox, QDoubleSpinBox)):
        out += [("spin box", w.prefix()), ("spin box", w.suffix())]
    if isinstance(w, QAbstractSpinBox):
        out.append(("spin box", w.specialValueText()))
    if isinstance(w, QTabWidget):
        out += [("tab", w.tabText(i)) for i in range(w.count())]
    if isinstance(w, QTextEdit):
        out.append(("text", w.toPlainText()))
    if isinstance(w, QMenuBar):
        for a in w.actions():
            if a.menu() is not None:
                _menu(a.menu(), out)
    if isinstance(w, QMenu):
        _menu(w, out)
    if isinstance(w, QAbstractItemView):
        _view(w, out, cells)
    if hasattr(w, "chart"):
        _charts(w, out)


def texts(top: QWidget, cells: bool = True, skip=()) -> list[tuple[str, str]]:
    """(kind, text) of ``top`` and every child that shows when it does; ``cells``: the
    cells of item views too (not for pickers, whose cells are the disk's file names);
    ``skip``: widgets that show the files' own text."""
    out = [("title", top.windowTitle())]
    if hasattr(top, "statusBar"):
        out.append(("status bar", top.statusBar().currentMessage()))
    for w in [top, *top.findChildren(QWidget)]:
        if (w is top or w.isVisibleTo(top)) and w not in skip:
            _one(w, out, cells)
    return [(k, t) for k, t in out if t and t.strip()]


def english(items, data: tuple[str, ...] = ()) -> list[tuple[str, str, list[str]]]:
    """The items holding an English word outside ``ALLOWED``, after removing markup, keyboard
    mnemonics ("(&F)") and a menu entry's keys, the ``data`` strings (paths and names of the files shown, encodings),
    anything that looks like a path, a file name, a pattern or a hex number, and single
    letters (k, the sides A and B, units such as "d" and "s", N in "local:N")."""
    found = []
    for kind, text in items:
        t = re.sub(r"<[^>]+>", " ", text)
        t = re.sub(r"\t.*", " ", t)  # a menu entry's keys (Ctrl+Shift+R), named as on the keys
        t = re.sub(r"\(&\w\)|&(?=\w)", " ", t)
        for d in sorted(data, key=len, reverse=True):
            t = t.replace(d, " ")
        t = re.sub(r"\S*[/\\*]\S*", " ", t)  # paths, patterns
        t = re.sub(r"\S*\.[A-Za-z]\w{0,4}\b", " ", t)  # file names, extensions (.rtf)
        t = re.sub(r"\b[0-9a-f]{8,}\b", " ", t)  # fingerprints
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z']+", t) if w not in ALLOWED]
        if words:
            found.append((kind, text, words))
    return found


def opened_by(qtbot, trigger, cells: bool = True) -> tuple[str, list[tuple[str, str]]]:
    """The class name of the modal dialog or pop-up menu ``trigger()`` opens, and its
    texts; it is closed (rejected) once read, so ``trigger`` returns."""
    seen: list = []
    tries = [0]

    def look() -> None:
        top = QApplication.activeModalWidget() or QApplication.activePopupWidget()
        if top is None:
            tries[0] += 1
            if tries[0] < 500:
                QTimer.singleShot(10, look)
            return
        seen.append((type(top).__name__, texts(top, cells)))
        if isinstance(top, QDialog):
            top.reject()
        else:
            top.close()

    QTimer.singleShot(0, look)
    trigger()
    qtbot.waitUntil(lambda: bool(seen) or tries[0] >= 500, timeout=10_000)
    assert seen, "nothing opened"
    return seen[0]
