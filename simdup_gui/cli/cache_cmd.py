"""`simdup cache`: where the fingerprint cache is, how many entries it holds, clear it."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys

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
    cache = FingerprintCache(path)  # never raises: a cache it cannot use has a warning
    try:
        if cache.warning:
            print(f"simdup cache: warning: {cache.warning}", file=sys.stderr)
        if args.action == "clear":
            n = cache.count()
            try:
                cache.clear()
            except sqlite3.Error as e:
                print(f"simdup cache: error: cannot clear {path}: {e}", file=sys.stderr)
                return 1
            print(f"cleared {n} cached fingerprints from {path}")
        else:
            try:
                size = os.path.getsize(path) if os.path.isfile(path) else 0
            except OSError:
                size = 0
            state = ("" if cache.writable else ", read-only" if cache.db is not None
                     else ", not usable")
            print(f"{path}: {cache.count()} cached fingerprints, {size} bytes{state}")
    finally:
        cache.close()
    return 0
