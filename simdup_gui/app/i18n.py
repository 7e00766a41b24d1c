"""Interface languages: English (source) and Simplified Chinese (Qt .qm files shipped inside
the package, in ``simdup_gui/resources/i18n``, read with :mod:`importlib.resources` so an
installed wheel finds them as a source checkout does)."""

from __future__ import annotations

from importlib import resources

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
I18N_PACKAGE = "simdup_gui"
I18N_PATH = ("resources", "i18n")

_installed: QTranslator | None = None


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


def set_language(code: str) -> None:
    """Install the translator for ``code`` ("en" removes it). LanguageError (and English)
    when its translation cannot be loaded."""
    global _installed
    app = QCoreApplication.instance()
    if app is None:
        raise LanguageError("no application to install a translation in")
    if _installed is not None:
        app.removeTranslator(_installed)
        _installed = None
    if code == "en":
        return
    data = translation_data(code)
    tr = QTranslator(app)
    tr._data = data  # QTranslator reads the buffer in place: keep it alive with the translator
    if not tr.load(data):
        raise LanguageError(f"simdup_{code}.qm is not a Qt translation file")
    app.installTranslator(tr)
    _installed = tr


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
