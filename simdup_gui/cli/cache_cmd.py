"""`simdup cache`: where the fingerprint cache is, how many entries it holds, clear it."""

from __future__ import annotations

import argparse
import os

from simdup_gui.core.scan.cache import FingerprintCache, default_cache_path


def register(sub) -> None:
    p = sub.add_parser("cache", help="show or clear the fingerprint cache",
                       description="The fingerprint cache makes a rescan of unchanged files "
                       "nearly free. 'info' shows where it is and how many files it holds; "
                       "'clear' empties it (nothing else is touched).")
    p.add_argument("action", choices=("info", "clear"))
    p.add_argument("--cache", metavar="FILE", help="cache file (default: user cache folder)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = args.cache or default_cache_path()
    cache = FingerprintCache(path)
    try:
        if args.action == "clear":
            n = cache.count()
            cache.clear()
            print(f"cleared {n} cached fingerprints from {path}")
        else:
            size = os.path.getsize(path) if os.path.exists(path) else 0
            print(f"{path}: {cache.count()} cached fingerprints, {size} bytes")
    finally:
        cache.close()
    return 0
