"""Translation hook for presenters: English unless the app installs Qt's translator.

Calls are written ``translate("Context", "text")`` so pyside6-lupdate finds them
(tools/update_translations.py scans this package too).
"""

from __future__ import annotations

from collections.abc import Callable

_translator: Callable[[str, str], str] | None = None


def set_translator(fn: Callable[[str, str], str] | None) -> None:
    """Use ``fn(context, text)`` for every presenter text (None: English source texts)."""
    global _translator
    _translator = fn


def translate(context: str, text: str) -> str:
    return text if _translator is None else _translator(context, text)
