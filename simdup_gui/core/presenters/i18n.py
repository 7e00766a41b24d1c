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


def counted(n: int, one: str, many: str) -> str:
    """``one`` when ``n`` is 1 (a text that says "1 file"), else ``many`` with ``n`` for {0}:
    English plurals ("1 file", "3 files", "0 files"); a language without them translates the
    two alike."""
    return one if n == 1 else many.format(n)


def files(n: int) -> str:
    """"1 file", "3 files"."""
    return counted(n, translate("Count", "1 file"), translate("Count", "{0} files"))


def pairs(n: int) -> str:
    """"1 pair", "3 pairs"."""
    return counted(n, translate("Count", "1 pair"), translate("Count", "{0} pairs"))


def groups(n: int) -> str:
    """"1 group", "3 groups"."""
    return counted(n, translate("Count", "1 group"), translate("Count", "{0} groups"))
