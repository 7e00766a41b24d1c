"""Interface languages: English (source) and Simplified Chinese (Qt .qm in resources/i18n)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

I18N_DIR = Path(__file__).resolve().parents[2] / "resources" / "i18n"
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}

_installed: QTranslator | None = None


def system_language() -> str:
    name = QLocale.system().name()
    return "zh_CN" if name.startswith("zh") else "en"


def set_language(code: str) -> bool:
    """Install the translator for ``code`` ("en" removes it). Returns True on success."""
    global _installed
    app = QCoreApplication.instance()
    if app is None:
        return False
    if _installed is not None:
        app.removeTranslator(_installed)
        _installed = None
    if code == "en":
        return True
    tr = QTranslator(app)
    if not tr.load(str(I18N_DIR / f"simdup_{code}.qm")):
        return False
    app.installTranslator(tr)
    _installed = tr
    return True
