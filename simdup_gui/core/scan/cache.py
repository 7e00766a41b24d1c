"""Fingerprint cache in SQLite, keyed by path, size, mtime_ns, inode and settings version.

Fingerprints are 128 bits, too wide for SQLite INTEGER (signed 64-bit): they are
stored as 16 big-endian bytes. A corrupt or foreign file is moved aside and rebuilt.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Sequence

from ..models import FileRecord, Problem

_BATCH = 900  # SQLite's default limit on bound parameters is 999

SCHEMA_VERSION = 5
_COLUMNS = ("path", "version", "size", "mtime_ns", "inode", "fingerprint", "encoding",
            "features", "text_hash", "content_hash", "bad_bytes", "newline", "low_confidence",
            "chars", "problem_kind", "problem_reason", "sketch", "shingles")
# Problems that depend only on the bytes: remembered, so an unchanged binary or
# undecodable file is not read again on every rescan.
CACHED_PROBLEM_KINDS = frozenset({"binary", "undecodable", "no_text"})


def default_cache_path() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_cache_dir("simdup", appauthor=False), "fingerprints.sqlite")


class FingerprintCache:
    def __init__(self, path: str | None = None) -> None:
        self.path = path or default_cache_path()
        self.rebuilt = False
        self._pending = 0
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        try:
            self.db = self._open()
        except sqlite3.DatabaseError:
            self._discard()
            self.db = self._open()
            self.rebuilt = True

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and (version != SCHEMA_VERSION or "files" not in tables):
                db.close()
                raise sqlite3.DatabaseError("foreign or old cache file")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS files (path TEXT NOT NULL, version TEXT NOT NULL, "
                "size INTEGER, mtime_ns INTEGER, inode INTEGER, fingerprint BLOB, encoding TEXT, "
                "features INTEGER, text_hash TEXT, content_hash TEXT, bad_bytes INTEGER, "
                "newline TEXT, low_confidence INTEGER, chars INTEGER, problem_kind TEXT, "
                "problem_reason TEXT, sketch BLOB, shingles INTEGER, PRIMARY KEY (path, version))"
            )
            # exact text similarity of two contents (blake2b hashes, a < b), measured once
            db.execute("CREATE TABLE IF NOT EXISTS pairs (a TEXT NOT NULL, b TEXT NOT NULL, "
                       "j REAL NOT NULL, PRIMARY KEY (a, b))")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _discard(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            p = self.path + suffix
            if os.path.exists(p):
                os.replace(p, p + ".broken")

    def lookup(self, version: str, keys: Sequence[tuple[str, int, int, int, int, str]]
               ) -> dict[str, FileRecord]:
        """Records still valid for (path, size, mtime_ns, inode, dev, root) keys."""
        return {p: e for p, e in self.lookup_entries(version, keys).items()
                if isinstance(e, FileRecord)}

    def lookup_entries(self, version: str, keys: Sequence[tuple[str, int, int, int, int, str]]
                       ) -> dict[str, FileRecord | Problem]:
        """Records and remembered content problems still valid for the keys."""
        out: dict[str, FileRecord | Problem] = {}
        want = {k[0]: k for k in keys}
        paths = list(want)
        cols = ",".join(_COLUMNS)
        try:
            for i in range(0, len(paths), _BATCH):
                part = paths[i : i + _BATCH]
                q = (f"SELECT {cols} FROM files WHERE version=? AND path IN ("
                     + ",".join("?" * len(part)) + ")")
                for row in self.db.execute(q, [version, *part]):
                    path, _, size, mtime_ns, inode = row[:5]
                    k = want[path]
                    if size != k[1] or mtime_ns != k[2] or inode != k[3]:
                        continue
                    if row[14] is not None:
                        out[path] = Problem(path, row[15], row[14])
                        continue
                    out[path] = FileRecord(
                        path=path, size=size, mtime_ns=mtime_ns, inode=inode, dev=k[4],
                        root=k[5], encoding=row[6], fingerprint=int.from_bytes(row[5], "big"),
                        features=row[7], text_hash=row[8], content_hash=row[9],
                        bad_bytes=row[10], newline=row[11], low_confidence=bool(row[12]),
                        chars=row[13], sketch=row[16] or b"", shingles=row[17] or 0)
        except sqlite3.DatabaseError:
            return {}
        return out

    def store(self, version: str, records: Iterable[FileRecord]) -> None:
        rows = [(r.path, version, r.size, r.mtime_ns, r.inode, r.fingerprint.to_bytes(16, "big"),
                 r.encoding, r.features, r.text_hash, r.content_hash, r.bad_bytes, r.newline,
                 int(r.low_confidence), r.chars, None, None, r.sketch, r.shingles)
                for r in records]
        self._write(rows)

    def store_problems(self, version: str,
                       items: Iterable[tuple[Problem, int, int, int]]) -> None:
        """Remember content problems, each with the (size, mtime_ns, inode) it was seen at."""
        rows = [(p.path, version, size, mtime_ns, inode, None, None, None, None, None, None,
                 None, None, None, p.kind, p.reason, None, None)
                for p, size, mtime_ns, inode in items if p.kind in CACHED_PROBLEM_KINDS]
        self._write(rows)

    def _write(self, rows: list) -> None:
        if not rows:
            return
        try:
            self.db.executemany(
                "INSERT OR REPLACE INTO files (" + ",".join(_COLUMNS) + ") VALUES ("
                + ",".join("?" * len(_COLUMNS)) + ")", rows)
            self.db.commit()
        except sqlite3.DatabaseError:
            pass  # a cache that cannot be written only costs speed

    def get_pair(self, a: str, b: str) -> float | None:
        """The remembered exact similarity of contents ``a`` and ``b`` (hashes), if any."""
        try:
            row = self.db.execute("SELECT j FROM pairs WHERE a=? AND b=?", (a, b)).fetchone()
        except sqlite3.DatabaseError:
            return None
        if row is None or not isinstance(row[0], float) or not 0.0 <= row[0] <= 1.0:
            return None  # a bad row is a miss
        return row[0]

    def put_pair(self, a: str, b: str, j: float) -> None:
        try:
            self.db.execute("INSERT OR REPLACE INTO pairs (a, b, j) VALUES (?, ?, ?)", (a, b, j))
            self._pending += 1
            if self._pending >= 256:
                self.flush()
        except sqlite3.DatabaseError:
            pass

    def flush(self) -> None:
        try:
            self.db.commit()
        except sqlite3.DatabaseError:
            pass
        self._pending = 0

    def clear(self) -> None:
        self.db.execute("DELETE FROM pairs")
        self.db.execute("DELETE FROM files")
        self.db.commit()

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM files").fetchone()[0]

    def close(self) -> None:
        self.flush()
        self.db.close()
