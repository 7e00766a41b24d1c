"""Fingerprint cache in SQLite, keyed by path, size, mtime_ns, inode and settings version.

The cache is a disposable store and never stops a scan:

* paths are stored as BLOBs, UTF-8 with surrogates passed through: one-to-one on every
  ``str``, so a name that is not valid UTF-8 (``os.fsdecode``'s surrogate escapes) is kept
  losslessly. Fingerprints are 128 bits, too wide for SQLite INTEGER (signed 64-bit): they
  are 16 big-endian bytes; numbers of 2^63 and above (some file systems' inodes) are stored
  wrapped to signed 64 bits.
* every row is checked when read (by SQLite, in the query): a value of the wrong type or
  length is a miss, the file is fingerprinted again and the row rewritten.
* a cache of an older schema is dropped and rebuilt; a corrupt or foreign file (not SQLite,
  damaged pages, tables with other columns) is moved aside to ``*.broken`` and rebuilt, or
  ignored when it cannot be moved.
* a cache that cannot be written (read-only file or folder, a path that cannot be created)
  is read if it can be, and otherwise left out.

Anything of the kind is one :attr:`FingerprintCache.warning`; :meth:`FingerprintCache.report`
logs it (on stderr when the program configured no logging, as the CLI does not) and returns
it as a :class:`Problem` of kind ``"cache"`` for the scan's results.
"""

from __future__ import annotations

import gc
import logging
import os
import sqlite3
import urllib.parse
from collections.abc import Iterable, Sequence

from ..models import FileRecord, Problem
from ..ourfiles import private_dir
from ..textsim import SKETCH_BYTES

log = logging.getLogger(__name__)

_BATCH = 900  # SQLite's default limit on bound parameters is 999
PAIR_BATCH = 4096  # measured pairs written at once (a crash loses at most these: speed)

SCHEMA_VERSION = 6  # 6: path as a BLOB (names that are not UTF-8)
_COLUMNS = ("path", "version", "size", "mtime_ns", "inode", "fingerprint", "encoding",
            "features", "text_hash", "content_hash", "bad_bytes", "newline", "low_confidence",
            "chars", "problem_kind", "problem_reason", "sketch", "shingles")
_PAIR_COLUMNS = ("a", "b", "j")
_OWN_TABLES = frozenset({"files", "pairs"})
# Problems that depend only on the bytes: remembered, so an unchanged binary or
# undecodable file, or a document that gives no text (encrypted, corrupt: scan/documents.py),
# is not read again on every rescan.
CACHED_PROBLEM_KINDS = frozenset({"binary", "undecodable", "no_text", "document"})
# What a look-up reads: the key's columns, then a record's (NULL for a problem row, whose
# other columns are not looked at), then a problem's.
_SELECT = ("path, size, mtime_ns, inode, "
           + ", ".join(f"CASE WHEN problem_kind IS NULL THEN {c} END" for c in (
               "fingerprint", "encoding", "features", "text_hash", "content_hash",
               "bad_bytes", "newline", "low_confidence", "chars"))
           + ", problem_kind, problem_reason, "
           + ", ".join(f"CASE WHEN problem_kind IS NULL THEN {c} END"
                       for c in ("sketch", "shingles")))
_NEWLINES = ("none", "LF", "CRLF", "CR", "mixed")
_INT = "typeof({0})='integer'"
_NAT = "typeof({0})='integer' AND {0} >= 0"


def _sql_list(words) -> str:
    return ", ".join(f"'{w}'" for w in sorted(words))


# The types and ranges of a row this version writes, checked by SQLite; anything else is a
# miss (the file is fingerprinted again and the row rewritten). Its text is read as bytes
# and must be ASCII (codec names, hex digests) or UTF-8 (a problem's reason).
_ROW_OK = (
    "(typeof(path)='blob' AND "
    + " AND ".join(_INT.format(c) for c in ("size", "mtime_ns", "inode")) + " AND ("
    "(problem_kind IS NULL"
    " AND typeof(fingerprint)='blob' AND length(fingerprint)=16"
    " AND typeof(encoding)='text' AND encoding<>''"
    " AND typeof(text_hash)='text' AND typeof(content_hash)='text'"
    f" AND newline IN ({_sql_list(_NEWLINES)})"
    " AND typeof(low_confidence)='integer' AND low_confidence IN (0, 1)"
    " AND " + " AND ".join(_NAT.format(c) for c in ("features", "bad_bytes", "chars",
                                                     "shingles"))
    + f" AND typeof(sketch)='blob' AND length(sketch) IN (0, {SKETCH_BYTES}))"
    f" OR (problem_kind IN ({_sql_list(CACHED_PROBLEM_KINDS)})"
    " AND typeof(problem_reason)='text')))"
)
_NEWLINE_OF = {k.encode(): k for k in _NEWLINES}
_KIND_OF = {k.encode(): k for k in CACHED_PROBLEM_KINDS}
_CORRUPT = ("SQLITE_NOTADB", "SQLITE_CORRUPT")
_CORRUPT_TEXT = ("not a database", "malformed", "encrypted")


def default_cache_path() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_cache_dir("simdup", appauthor=False), "fingerprints.sqlite")


def _key(path: str) -> bytes:
    """The stored form of a path: total and one-to-one on str (lone surrogates included)."""
    return path.encode("utf-8", "surrogatepass")


def _text(b: bytes) -> str:
    """SQLite TEXT as str without failing: bytes that are not UTF-8 become surrogates (and
    fail the checks on the row)."""
    return b.decode("utf-8", "surrogateescape")


def _bindable(s: str) -> str:
    """``s`` as text SQLite takes (a reason may quote a name with surrogates)."""
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-8", "backslashreplace").decode("utf-8")


def _i64(n: int) -> int:
    """Integers of [2^63, 2^64) wrapped to signed 64 bits, as SQLite INTEGER holds them."""
    return n - (1 << 64) if n >= 1 << 63 else n


def _is_corrupt(e: sqlite3.Error) -> bool:
    """The file is damaged or not a database (as against locked, read-only, unopenable)."""
    name = getattr(e, "sqlite_errorname", None)  # Python 3.11+
    if name is not None:
        return name.startswith(_CORRUPT)
    return any(t in str(e).lower() for t in _CORRUPT_TEXT)


class _Unusable(Exception):
    """A readable SQLite file that is not (this version of) the cache."""


class FingerprintCache:
    """Never raises on opening, reading or writing; see :attr:`warning` and :attr:`writable`.

    ``db`` is None when there is no usable cache at all (every look-up is then a miss).
    """

    def __init__(self, path: str | None = None) -> None:
        self.path = path or default_cache_path()
        self.rebuilt = False  # a corrupt or foreign file was moved aside
        self.writable = False
        self.warning: str | None = None
        self.db: sqlite3.Connection | None = None
        self._pairs: dict[tuple[str, str], float] = {}  # put, not yet written (flush)
        self._logged = False
        try:
            self._connect()
        except Exception as e:  # noqa: BLE001 - the cache only saves time, never fails a scan
            self._close_db()
            self.writable = False
            self._warn(f"cannot use the cache {self.path} ({type(e).__name__}: {e}); "
                       "scanning without it")

    # --- opening ---------------------------------------------------------------------

    def _warn(self, message: str) -> None:
        if self.warning is None:  # the first is the cause; what follows is its echo
            self.warning = message

    def _connect(self) -> None:
        path = self.path
        folder = os.path.dirname(os.path.abspath(path))
        try:
            if os.path.abspath(path) == os.path.abspath(default_cache_path()):
                private_dir(folder)  # ours: only this user's, whatever the umask
            else:
                os.makedirs(folder, exist_ok=True)  # a place the user chose
        except OSError as e:
            why = "a file is in the way" if isinstance(e, FileExistsError) else e.strerror or e
            self._warn(f"cannot create the cache folder {folder} ({why}); "
                       "scanning without the cache")
            return
        exists = os.path.lexists(path)
        if exists and not os.path.isfile(path):
            self._warn(f"the cache {path} is not a regular file; scanning without the cache")
            return
        folder_ok = os.access(folder, os.W_OK | os.X_OK)
        if folder_ok and (not exists or os.access(path, os.W_OK)):
            try:
                self.db = self._open(readonly=False)
                self.writable = True
                return
            except _Unusable as e:  # foreign tables or columns (an older schema is dropped)
                self._rebuild(str(e))
                return
            except sqlite3.Error as e:
                if _is_corrupt(e):
                    self._rebuild(str(e))
                    return
                # locked, read-only file system, ...: read it if it can be read
                why = str(e)
        else:
            why = ""
        if not exists:
            self._warn(f"cannot create the cache {path} ({why or 'the folder is read-only'}); "
                       "scanning without the cache")
            return
        try:
            self.db = self._open(readonly=True)
        except (sqlite3.Error, _Unusable) as e:
            self._warn(f"the cache {path} cannot be written ({why or 'read-only'}) nor read "
                       f"({e}); scanning without it")
            return
        cannot = f"cannot be written ({why})" if why else "is read-only"
        self._warn(f"the cache {path} {cannot}: it is read, but nothing new is saved to it")

    def _open(self, readonly: bool) -> sqlite3.Connection:
        if readonly:
            # immutable: nothing is created beside the file (a read-only folder could not
            # hold SQLite's -shm file) and nothing is locked
            p = os.path.abspath(self.path).replace(os.sep, "/")
            if not p.startswith("/"):
                p = "/" + p  # C:/... on Windows
            uri = "file:" + urllib.parse.quote(os.fsencode(p)) + "?mode=ro&immutable=1"
            db = sqlite3.connect(uri, uri=True, timeout=10)
        else:
            db = sqlite3.connect(self.path, timeout=10)
        db.text_factory = _text
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables:
                ours = "files" in tables and tables <= _OWN_TABLES
                if not ours:
                    raise _Unusable("not a simdup cache: other tables")
                if version != SCHEMA_VERSION:
                    if readonly:
                        raise _Unusable(f"written by another version of simdup ({version})")
                    for t in tables:  # a disposable store: an older schema is rebuilt
                        db.execute(f"DROP TABLE {t}")
                    db.commit()
                    db.execute("VACUUM")
                    tables = set()
                else:
                    self._check_columns(db, tables)
            if readonly:
                if not tables:
                    raise _Unusable("no fingerprints in it")
                db.execute("PRAGMA query_only=ON")
                return db
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS files (path BLOB NOT NULL, version TEXT NOT NULL, "
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
        except BaseException:
            db.close()
            raise
        return db

    @staticmethod
    def _check_columns(db: sqlite3.Connection, tables: set[str]) -> None:
        for table, want in (("files", _COLUMNS), ("pairs", _PAIR_COLUMNS)):
            if table not in tables:
                continue
            have = tuple(r[1] for r in db.execute(f"PRAGMA table_info({table})"))
            if have != want:
                raise _Unusable(f"table {table} has other columns")

    def _rebuild(self, why: str) -> None:
        """Move a corrupt or foreign file aside and start afresh; or go without a cache."""
        self._close_db()
        self.writable = False
        broken = self.path + ".broken"
        try:
            self._discard()
        except OSError as e:
            self._warn(f"the cache {self.path} is damaged ({why}) and cannot be moved aside "
                       f"({e.strerror or e}); scanning without it")
            return
        try:
            self.db = self._open(readonly=False)
        except (sqlite3.Error, _Unusable) as e:
            self._warn(f"the cache {self.path} was damaged ({why}), moved aside to {broken}, "
                       f"and cannot be made again ({e}); scanning without it")
            return
        self.writable = True
        self.rebuilt = True
        self._warn(f"the cache {self.path} was damaged ({why}); moved aside to {broken} and "
                   "started afresh")

    def _discard(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            p = self.path + suffix
            if os.path.lexists(p):
                os.replace(p, p + ".broken")

    def _close_db(self) -> None:
        if self.db is not None:
            try:
                self.db.close()
            except sqlite3.Error:
                pass
            self.db = None

    def _failed(self, e: BaseException, doing: str) -> None:
        """A read or write failed after opening: damage is moved aside (when it can be),
        anything else stops the writes; either way one warning."""
        if isinstance(e, sqlite3.Error) and _is_corrupt(e) and self.writable:
            self._rebuild(str(e))
            return
        if self.writable:
            self.writable = False  # a locked or full disk would fail (slowly) every time
            self._warn(f"cannot {doing} the cache {self.path} ({e}); nothing more is saved "
                       "to it")
        else:
            self._warn(f"cannot {doing} the cache {self.path} ({e})")

    # --- fingerprints ----------------------------------------------------------------

    def lookup(self, version: str, keys: Sequence[tuple[str, int, int, int, int, str]]
               ) -> dict[str, FileRecord]:
        """Records still valid for (path, size, mtime_ns, inode, dev, root) keys."""
        return {p: e for p, e in self.lookup_entries(version, keys).items()
                if isinstance(e, FileRecord)}

    def lookup_entries(self, version: str, keys: Sequence[tuple[str, int, int, int, int, str]]
                       ) -> dict[str, FileRecord | Problem]:
        """Records and remembered content problems still valid for the keys; a row that is
        not what this version writes is a miss.

        The rows are checked by SQLite (:data:`_ROW_OK`), so a warm rescan pays no Python
        call per column: 100,000 look-ups took about 2 s with the checks in Python."""
        out: dict[str, FileRecord | Problem] = {}
        if self.db is None or self._empty():
            return out
        # stored form of the path -> (path, size, mtime_ns, inode as stored, the key)
        want = {_key(k[0]): (k[0], _i64(k[1]), _i64(k[2]), _i64(k[3]), k) for k in keys}
        blobs = list(want)
        db = self.db
        collecting = gc.isenabled()
        gc.disable()  # 200,000 new objects, no cycle among them: the collector's passes
        # over the whole heap cost 0.3 s of the 1.4 s of 100,000 look-ups
        try:
            db.text_factory = bytes  # no Python call per column: decoded below
            for (blob, size, mtime_ns, inode, fp, encoding, features, text_hash,
                 content_hash, bad_bytes, newline, low_confidence, chars, kind, reason,
                 sketch, shingles) in self._rows(version, blobs):
                w = want.get(blob)
                if w is None or size != w[1] or mtime_ns != w[2] or inode != w[3]:
                    continue
                k = w[4]
                if kind is not None:
                    try:
                        out[k[0]] = Problem(k[0], reason.decode("utf-8"), _KIND_OF[kind])
                    except UnicodeDecodeError:
                        pass
                    continue
                if not (encoding + text_hash + content_hash).isascii():
                    continue
                out[k[0]] = FileRecord(
                    k[0], k[1], k[2], k[3], k[4], k[5], encoding.decode(),
                    int.from_bytes(fp, "big"), features, text_hash.decode(),
                    content_hash.decode(), bad_bytes, _NEWLINE_OF[newline],
                    bool(low_confidence), chars, sketch, shingles)
        except (sqlite3.Error, ValueError, OverflowError) as e:
            self._failed(e, "read")
        finally:
            if collecting:
                gc.enable()
            if self.db is not None:
                self.db.text_factory = _text
        return out

    def _empty(self) -> bool:
        """No file is remembered (a first scan): nothing to look up. The keys of every
        candidate would be made for nothing (68,467 of the 768 MB tree: a Python loop on the
        app's worker thread while its window waits for the GIL)."""
        try:
            return self.db.execute("SELECT 1 FROM files LIMIT 1").fetchone() is None
        except sqlite3.Error:
            return False  # (the look-up then meets the error and reports it)

    def _rows(self, version: str, blobs: list[bytes]):
        """The rows of ``version`` that pass :data:`_ROW_OK`, for at least the paths
        ``blobs``: by batches of paths, or the whole table when the paths are a good share
        of it (one pass costs about 0.4 s per 100,000 rows, the batches 0.6 s)."""
        db = self.db
        rows = db.execute("SELECT COUNT(*) FROM files").fetchone()[0]
        if len(blobs) * 3 >= rows:
            yield from db.execute(f"SELECT {_SELECT} FROM files WHERE version=? AND {_ROW_OK}",
                                  (version,))
            return
        for i in range(0, len(blobs), _BATCH):
            part = blobs[i : i + _BATCH]
            yield from db.execute(f"SELECT {_SELECT} FROM files WHERE version=? AND path IN ("
                                  + ",".join("?" * len(part)) + f") AND {_ROW_OK}",
                                  [version, *part])

    def store(self, version: str, records: Iterable[FileRecord]) -> None:
        rows = []
        for r in records:
            try:
                rows.append((_key(r.path), version, _i64(r.size), _i64(r.mtime_ns),
                             _i64(r.inode), r.fingerprint.to_bytes(16, "big"),
                             _bindable(r.encoding), r.features, _bindable(r.text_hash),
                             _bindable(r.content_hash), r.bad_bytes, _bindable(r.newline),
                             int(r.low_confidence), r.chars, None, None, bytes(r.sketch),
                             r.shingles))
            except (ValueError, OverflowError, TypeError, AttributeError):
                continue  # not storable: the file is only fingerprinted again next time
        self._write(rows)

    def store_problems(self, version: str,
                       items: Iterable[tuple[Problem, int, int, int]]) -> None:
        """Remember content problems, each with the (size, mtime_ns, inode) it was seen at."""
        rows = [(_key(p.path), version, _i64(size), _i64(mtime_ns), _i64(inode), None, None,
                 None, None, None, None, None, None, None, p.kind, _bindable(p.reason), None,
                 None)
                for p, size, mtime_ns, inode in items if p.kind in CACHED_PROBLEM_KINDS]
        self._write(rows)

    def _write(self, rows: list) -> None:
        if not rows or not self.writable or self.db is None:
            return
        try:
            self.db.executemany(
                "INSERT OR REPLACE INTO files (" + ",".join(_COLUMNS) + ") VALUES ("
                + ",".join("?" * len(_COLUMNS)) + ")", rows)
            self.db.commit()
        except (sqlite3.Error, ValueError, OverflowError) as e:
            self._rollback()
            self._failed(e, "write")

    def _rollback(self) -> None:
        try:
            if self.db is not None:
                self.db.rollback()
        except sqlite3.Error:
            pass

    # --- exact similarities of pairs of contents -------------------------------------

    def get_pair(self, a: str, b: str) -> float | None:
        """The remembered exact similarity of contents ``a`` and ``b`` (hashes), if any."""
        j = self._pairs.get((a, b))
        if j is not None or self.db is None:
            return j
        try:
            row = self.db.execute("SELECT j FROM pairs WHERE a=? AND b=?",
                                  (_bindable(a), _bindable(b))).fetchone()
        except (sqlite3.Error, ValueError) as e:
            self._failed(e, "read")
            return None
        if row is None or type(row[0]) is not float or not 0.0 <= row[0] <= 1.0:
            return None  # a bad row is a miss (and is replaced by put_pair)
        return row[0]

    def put_pair(self, a: str, b: str, j: float) -> None:
        """Remember ``j`` for contents ``a`` and ``b``; written PAIR_BATCH at a time, one
        statement and one commit each. The first scan of the 768 MB tree that stores its
        97,452 excerpt pairs (``simdup scan TREE`` with a cache holding its fingerprints
        and Jaccard pairs): with a row and a commit every 256 pairs its verify phase took
        18.9 s against 15.1 s storing none (one run each); so, 20.3, 18.2 s against 19.9,
        15.5 s (ABBA, load 0.9-1.4)."""
        if not self.writable or self.db is None:
            return
        try:
            j = float(j)
        except (ValueError, TypeError, OverflowError) as e:
            self._failed(e, "write")
            return
        if not 0.0 <= j <= 1.0:  # (NaN too) a miss when read: not kept, nor written
            return
        self._pairs[(a, b)] = j
        if len(self._pairs) >= PAIR_BATCH:
            self.flush()

    def flush(self) -> None:
        rows, self._pairs = self._pairs, {}
        if not self.writable or self.db is None:
            return
        try:
            if rows:
                self.db.executemany("INSERT OR REPLACE INTO pairs (a, b, j) VALUES (?, ?, ?)",
                                    [(_bindable(a), _bindable(b), j)
                                     for (a, b), j in rows.items()])
            self.db.commit()
        except (sqlite3.Error, ValueError, TypeError, OverflowError) as e:
            self._rollback()
            self._failed(e, "write")

    # --- the whole store -------------------------------------------------------------

    def clear(self) -> None:
        """Empty the cache; raises sqlite3.Error when it cannot be written."""
        if not self.writable or self.db is None:
            raise sqlite3.OperationalError("the cache is read-only" if self.db is not None
                                           else "the cache is not usable")
        self._pairs = {}
        self.db.execute("DELETE FROM pairs")
        self.db.execute("DELETE FROM files")
        self.db.commit()

    def count(self) -> int:
        """Rows in the cache; 0 when there is none or it cannot be read."""
        if self.db is None:
            return 0
        try:
            return int(self.db.execute("SELECT COUNT(*) FROM files").fetchone()[0])
        except sqlite3.Error as e:
            self._failed(e, "read")
            return 0

    def close(self) -> None:
        self.flush()
        self._close_db()

    def report(self) -> list[Problem]:
        """The warning, if any, as a problem of kind ``"cache"`` (logged once)."""
        if self.warning is None:
            return []
        if not self._logged:
            self._logged = True
            log.warning("simdup: warning: %s", self.warning)
        return [Problem(self.path, self.warning, "cache")]
