"""Recent folders and results for the File menu: the newest first, each once, at most 8."""

from __future__ import annotations

import os
from collections.abc import Iterable

RECENT_LIMIT = 8


def push_recent(items: Iterable[str], new: Iterable[str] | str,
                limit: int = RECENT_LIMIT) -> list[str]:
    """``items`` with ``new`` (a path or several, the first newest) in front, no repeats."""
    new = [new] if isinstance(new, str) else list(new)
    fresh = [os.path.abspath(p) for p in new if p]
    out = list(dict.fromkeys(fresh + [p for p in items if isinstance(p, str) and p]))
    return out[:limit]


def recent_label(position: int, path: str) -> str:
    """A menu entry: "&1  /data/notes" (the number is its key), a long path shortened in
    the middle so the menu stays narrow."""
    shown = path if len(path) <= 70 else path[:30] + "…" + path[-39:]
    return f"&{position + 1}  {shown.replace('&', '&&')}"
