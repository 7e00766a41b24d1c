"""The app's preferences, declared once with their types and defaults (after Picard's
``options.py``), read and written through :class:`Preferences` over a QSettings.

A stored value of the wrong type (a hand-edited settings file) reads as the default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simdup_gui.core.defaults import DEFAULT_BITS, DEFAULT_DISTANCE, DEFAULT_MEASURE, DEFAULT_VERIFY
from simdup_gui.core.scan.features import DEFAULT_MODE
from simdup_gui.core.textsim import DEFAULT_SIMILARITY


@dataclass(frozen=True)
class Option:
    key: str
    type: type
    default: Any


GEOMETRY = Option("geometry", bytes, None)  # QByteArray from saveGeometry
LANGUAGE = Option("language", str, "")  # "": the system's language
FOLDERS = Option("folders", list, [])
BITS = Option("bits", int, DEFAULT_BITS)
FEATURES = Option("mode", str, DEFAULT_MODE)
GROUPING = Option("grouping", str, "linked")
VERIFY = Option("verify", str, DEFAULT_VERIFY)
MEASURE = Option("measure", str, DEFAULT_MEASURE)  # template-aware verdict, or plain J
SIMILARITY_PERCENT = Option("similarity_percent", int, round(100 * DEFAULT_SIMILARITY))
INCLUDE = Option("include", str, "")
EXCLUDE = Option("exclude", str, "")
MIN_SIZE = Option("min_size", int, 1)
MAX_SIZE_MB = Option("max_size_mb", int, 0)  # 0: no limit
FOLLOW_SYMLINKS = Option("follow_symlinks", bool, False)
DOCUMENTS = Option("documents", bool, True)  # text of .pdf .docx .odt .epub .rtf
SCHEDULER = Option("scheduler", str, "")  # a Dask scheduler; "": this machine
REFERENCE_FOLDERS = Option("reference_folders", list, [])
DUPES_ONLY = Option("view/dupes_only", bool, False)
SHOW_DELTAS = Option("view/deltas", bool, False)  # View > Size and date against the reference
THEME = Option("view/theme", str, "system")  # View > Theme: "system", "light" or "dark"
RECENT_FOLDERS = Option("recent/folders", list, [])  # newest first, at most 8
RECENT_RESULTS = Option("recent/results", list, [])
MAIN_SPLIT = Option("layout/main_splitter", bytes, None)  # QSplitter.saveState
RESULTS_SPLIT = Option("layout/results_splitter", bytes, None)
DIFF_SPLIT = Option("layout/diff_splitter", bytes, None)
TREE_HEADER = Option("layout/tree_header", bytes, None)  # column widths, sort, hidden
COLUMN_WIDTHS = Option("layout/column_widths", str, "")  # the user's, by column name (JSON)
HIDDEN_COLUMNS = Option("view/hidden_columns", list, [])  # column numbers (the chooser)
CUSTOM_COMMAND = Option("tools/custom_command", str, "")  # e.g. "meld %a %b" (%a: the file)


def distance_option(bits: int) -> Option:
    """The candidate distance is remembered per fingerprint size."""
    return Option(f"distance/{bits}", int, DEFAULT_DISTANCE.get(bits, DEFAULT_DISTANCE[64]))


class Preferences:
    """Typed access to a QSettings (or anything with ``value``/``setValue``/``sync``)."""

    def __init__(self, store) -> None:
        self.store = store

    def get(self, option: Option) -> Any:
        raw = self.store.value(option.key, None)
        if raw is None:
            return option.default
        if option.type is list:
            return [raw] if isinstance(raw, str) else list(raw)
        if option.type is bytes:
            return raw
        if option.type is bool:  # an INI file gives back "true" / "false"
            if isinstance(raw, str):
                return {"true": True, "false": False}.get(raw.lower(), option.default)
            return bool(raw)
        try:
            return option.type(raw)
        except (TypeError, ValueError):
            return option.default

    def set(self, option: Option, value: Any) -> None:
        self.store.setValue(option.key, value)

    def sync(self) -> None:
        self.store.sync()
