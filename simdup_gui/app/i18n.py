"""Interface languages: English (source) and Simplified Chinese (Qt .qm files shipped inside
the package, in ``simdup_gui/resources/i18n``, read with :mod:`importlib.resources` so an
installed wheel finds them as a source checkout does).

Qt's own words (the buttons of message boxes and dialogs, the file and folder pickers)
come from Qt's translation, ``qtbase_<code>.qm``, which PySide6 ships in its translations
folder: it is installed beside ours, and its absence only leaves those words in English."""

from __future__ import annotations

from importlib import resources

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
I18N_PACKAGE = "simdup_gui"
I18N_PATH = ("resources", "i18n")

_installed: list[QTranslator] = []  # ours first, then Qt's own (when found)
_language = "en"


class LanguageError(Exception):
    """A language whose translation cannot be loaded; ``str()`` names the file."""


def system_language() -> str:
    name = QLocale.system().name()
    return "zh_CN" if name.startswith("zh") else "en"


def translation_data(code: str) -> bytes:
    """The compiled translation (.qm) for ``code``; LanguageError when it is missing."""
    res = resources.files(I18N_PACKAGE).joinpath(*I18N_PATH, f"simdup_{code}.qm")
    try:
        return res.read_bytes()
    except OSError as e:
        raise LanguageError(f"{res}: {e.strerror or e}") from None


def current_language() -> str:
    """The language installed by :func:`set_language` ("en" before any)."""
    return _language


def qt_translator(code: str, parent=None) -> QTranslator | None:
    """Qt's own translation for ``code`` (qtbase_zh_CN.qm from PySide6's translations
    folder), or None when this Qt has none."""
    tr = QTranslator(parent)
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    return tr if tr.load(QLocale(code), "qtbase", "_", folder) else None


def set_language(code: str) -> None:
    """Install the translators for ``code``, ours and Qt's own ("en" removes them).
    LanguageError (and English) when ours cannot be loaded."""
    global _language
    app = QCoreApplication.instance()
    if app is None:
        raise LanguageError("no application to install a translation in")
    while _installed:
        app.removeTranslator(_installed.pop())
    _language = "en"
    if code == "en":
        return
    data = translation_data(code)
    tr = QTranslator(app)
    tr._data = data  # QTranslator reads the buffer in place: keep it alive with the translator
    if not tr.load(data):
        raise LanguageError(f"simdup_{code}.qm is not a Qt translation file")
    qt = qt_translator(code, app)
    for t in (qt, tr):  # the last installed is asked first: ours before Qt's
        if t is not None:
            app.installTranslator(t)
            _installed.append(t)
    _language = code


def switch_window(window, code: str) -> bool:
    """Switch ``window`` (a MainWindow) to ``code``; False (English, a message in the status
    bar and on stderr saying why) when its translation cannot be loaded."""
    import sys

    from . import options as opt

    if code not in LANGUAGES:
        code = "en"
    wanted, error = code, None
    try:
        set_language(code)
    except LanguageError as e:
        error, code = e, "en"
    window.language = code
    window.lang_actions[code].setChecked(True)
    if error is None:
        window.prefs.set(opt.LANGUAGE, code)
    window.retranslate()
    if error is not None:
        msg = QCoreApplication.translate(
            "MainWindow", "Cannot load the {0} translation, so the interface stays in English: "
                          "{1}").format(LANGUAGES[wanted], error)
        print(f"simdup-gui: {msg}", file=sys.stderr)
        window.statusBar().showMessage(msg, 30000)
    return error is None
