"""Catalogs: what a scan knows of every file of a drive, kept to compare with while the
drive is not plugged in (``simdup catalog save``, File > Save catalog…).

A catalog is an SQLite file (``NAME.simcat``) of two tables, and never holds any text:

* ``meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)``: ``format`` ("simdup-catalog"),
  ``format_version`` (:data:`FORMAT_VERSION`), ``simdup_version``, ``created`` (seconds
  since 1970), ``roots`` (a JSON list of the absolute folders scanned), ``files`` (the
  number of rows of ``files``), and the settings fingerprints and sketches depend on:
  ``features`` (the feature mode), ``normalisation`` (its version), ``hashing``,
  ``sketch`` (:data:`~simdup_gui.core.textsim.SKETCH_NAME`) and ``fingerprints`` (the whole
  version string of the scan's cache key, for information). ``documents`` says whether
  documents were read.
* ``files``: one row a file: ``path`` (BLOB, UTF-8 with surrogates passed through, as the
  fingerprint cache keeps names that are not UTF-8), ``size``, ``mtime_ns``, ``encoding``
  (or a document's format), ``content_hash`` and ``text_hash`` (16-byte BLAKE2b digests of
  the bytes and of the normalised text), ``fingerprint`` (the 128-bit SimHash, 16 bytes big
  endian), ``sketch`` (the 512-byte bottom-k sketch of the 5-gram set, or empty),
  ``features``, ``chars``, ``shingles``, ``bad_bytes``, ``newline``, ``low_confidence``.

A catalog is untrusted input, like a results file: :func:`read_catalog` is the one
loader; it opens the file read-only (nothing is written beside it), refuses anything but
these two tables, and checks every value of every row; any fault is one
:class:`CatalogError` line. Catalogued records have paths of their own
(:func:`~simdup_gui.core.models.catalog_key`: "catalog:NAME:/the/path"), never a path
that can be opened: nothing reads, marks or acts on them, and their similarity to a file
here is the sketches' estimate.

A catalog made with other fingerprint settings (feature mode, normalisation, hashing,
sketch) is refused, since its fingerprints and sketches would not be comparable; one made
by another version of the decoders or extractors (the rest of the cache's version
string) is compared, since those change how some files are read, not what a fingerprint
is.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
import time
import urllib.parse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..models import FileRecord, catalog_key
from ..textsim import SKETCH_BYTES, SKETCH_NAME
from .schema import MAX_INT, Obj, ResultsError

FORMAT = "simdup-catalog"
FORMAT_VERSION = 1
SUFFIX = ".simcat"
MAX_META_ROWS = 64
MAX_FILES = 50_000_000
_HEADER = b"SQLite format 3\x00"
_NEWLINES = ("none", "LF", "CRLF", "CR", "mixed")
_ENCODING = re.compile(r"[\x20-\x7e]{1,64}")  # a codec's or a document's label
_COLUMNS = ("path", "size", "mtime_ns", "encoding", "content_hash", "text_hash",
            "fingerprint", "sketch", "features", "chars", "shingles", "bad_bytes", "newline",
            "low_confidence")
_SCHEMA = ("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
           "CREATE TABLE files (path BLOB NOT NULL, size INTEGER NOT NULL, "
           "mtime_ns INTEGER NOT NULL, encoding TEXT NOT NULL, content_hash BLOB NOT NULL, "
           "text_hash BLOB NOT NULL, fingerprint BLOB NOT NULL, sketch BLOB NOT NULL, "
           "features INTEGER NOT NULL, chars INTEGER NOT NULL, shingles INTEGER NOT NULL, "
           "bad_bytes INTEGER NOT NULL, newline TEXT NOT NULL, "
           "low_confidence INTEGER NOT NULL)")
# what decides whether two fingerprints (and sketches) can be compared
COMPARABLE = ("features", "normalisation", "hashing", "sketch")


class CatalogError(ValueError):
    """A catalog that cannot be used; ``str()`` is one line saying why."""


@dataclass(frozen=True)
class CatalogInfo:
    """What a catalog says of itself, and the name a review calls it by."""

    name: str
    file: str
    roots: tuple[str, ...]
    created: float
    simdup_version: str
    files: int
    settings: dict = field(default_factory=dict, compare=False)  # the COMPARABLE ones

    def to_dict(self) -> dict:
        return {"name": self.name, "file": self.file, "roots": list(self.roots),
                "created": self.created, "simdup_version": self.simdup_version,
                "files": self.files, "settings": dict(self.settings)}


@dataclass
class Catalog:
    info: CatalogInfo
    records: list[FileRecord]


def fingerprint_settings(features: str) -> dict[str, str]:
    """The settings a fingerprint and a sketch of the feature mode ``features`` depend on."""
    from ..scan.features import NORMALISATION_VERSION

    return {"features": features, "normalisation": str(NORMALISATION_VERSION),
            "hashing": "mmh3x128" + ("p" if features == "shingles" else ""),
            "sketch": SKETCH_NAME}


def incompatibility(settings: dict, features: str) -> str | None:
    """Why fingerprints made with ``settings`` cannot be compared with a scan's in the
    feature mode ``features`` (None: they can)."""
    ours = fingerprint_settings(features)
    for key in COMPARABLE:
        if settings.get(key) != ours[key]:
            return (f"it was made with other fingerprint settings ({key} "
                    f"{settings.get(key)!r}, this scan's is {ours[key]!r}), so its "
                    "fingerprints cannot be compared"
                    + (f"; scan with the features setting {settings['features']!r} to "
                       "compare with it" if key == "features" else ""))
    return None


def catalog_name(path: str, taken: Iterable[str] = ()) -> str:
    """The name a review gives the catalog file ``path``: its file name without
    ".simcat", without ":" and control characters (a catalog key's separator), made
    unique among ``taken`` ("backup (2)")."""
    stem = os.path.basename(path)
    if stem.lower().endswith(SUFFIX):
        stem = stem[: -len(SUFFIX)]
    stem = re.sub(r"[\x00-\x1f\x7f:]", "_", stem).strip()[:64] or "catalog"
    taken = set(taken)
    name, n = stem, 1
    while name in taken:
        n += 1
        name = f"{stem} ({n})"
    return name


# --------------------------------------------------------------------------- writing
def _blob(path: str) -> bytes:
    return path.encode("utf-8", "surrogatepass")


def _digest(h: str) -> bytes:
    """A 32-digit hex digest as its 16 bytes; anything else (a results file's record may
    hold another) as unknown, b""."""
    try:
        return bytes.fromhex(h) if len(h) == 32 else b""
    except ValueError:
        return b""


def _row(r: FileRecord) -> tuple:
    """``r`` as a row of ``files``, in what :class:`_RowCheck` reads back."""
    encoding = r.encoding if _ENCODING.fullmatch(r.encoding) else "unknown"
    return (_blob(r.path), r.size, r.mtime_ns, encoding, _digest(r.content_hash),
            _digest(r.text_hash), r.fingerprint.to_bytes(16, "big"), r.sketch,
            r.features, r.chars, r.shingles, r.bad_bytes,
            r.newline if r.newline in _NEWLINES else "none", int(r.low_confidence))


def write_catalog(path: str, records: Sequence[FileRecord], roots: Sequence[str],
                  features: str, *, documents: bool = True, fingerprints: str = "") -> int:
    """Write the catalog of ``records`` (scanned under ``roots`` in the feature mode
    ``features``) to ``path``: a new file beside it, renamed over it once complete (an
    existing catalog is left as it was if anything fails). Catalogued records are left
    out. Returns the number of files catalogued; OSError when it cannot be written."""
    from simdup_gui import __version__

    rows = [_row(r) for r in records if not r.catalog]
    meta = {"format": FORMAT, "format_version": str(FORMAT_VERSION),
            "simdup_version": __version__, "created": repr(time.time()),
            "roots": json.dumps([os.path.abspath(r) for r in roots], ensure_ascii=False),
            "files": str(len(rows)), "documents": "1" if documents else "0",
            "fingerprints": fingerprints, **fingerprint_settings(features)}
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".simdup-catalog-", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        db = sqlite3.connect(tmp)
        try:
            db.execute("PRAGMA journal_mode=OFF")
            db.execute("PRAGMA synchronous=OFF")
            for statement in _SCHEMA:
                db.execute(statement)
            db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            db.executemany(f"INSERT INTO files VALUES ({', '.join('?' * len(_COLUMNS))})",
                           rows)
            db.execute(f"PRAGMA user_version={FORMAT_VERSION}")
            db.commit()
        finally:
            db.close()
        _publish(tmp, path)
    except sqlite3.Error as e:
        _drop(tmp)
        raise OSError(f"cannot write the catalog {path}: {e}") from e
    except BaseException:
        _drop(tmp)
        raise
    return len(rows)


def _publish(tmp: str, path: str) -> None:
    """Give ``tmp`` the mode a new file gets (never writable by others), sync it and
    rename it over ``path``."""
    from ..ourfiles import shared_mode

    os.chmod(tmp, shared_mode(path))
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def _drop(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


# --------------------------------------------------------------------------- reading
def read_catalog(path: str, taken: Iterable[str] = ()) -> Catalog:
    """The catalog in ``path``, named by :func:`catalog_name` (unique among ``taken``),
    every value checked; CatalogError (one line) for anything that is not a catalog this
    version reads: not SQLite, damaged, truncated, another format version, other tables
    or columns, a value of the wrong type or range, a path that is not absolute or not
    under the catalog's roots, a path listed twice."""
    path = os.path.abspath(path)
    _check_header(path)
    db = _open(path)
    try:
        meta = _read_meta(db, path, catalog_name(path, taken))
        records = _read_files(db, meta)
    except sqlite3.Error as e:
        raise CatalogError(f"{path} is damaged: {e}") from None
    finally:
        db.close()
    if len(records) != meta.files:
        raise CatalogError(f"{path} is damaged: it says it holds {meta.files} files but "
                           f"{len(records)} are in it")
    return Catalog(meta, records)


def _check_header(path: str) -> None:
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(_HEADER))
    except OSError as e:
        raise CatalogError(f"cannot read the catalog {path}: {e.strerror or e}") from None
    if head != _HEADER:
        raise CatalogError(f"{path} is not a simdup catalog (not an SQLite file)")


def _open(path: str) -> sqlite3.Connection:
    p = path.replace(os.sep, "/")
    if not p.startswith("/"):
        p = "/" + p  # C:/... on Windows
    # read-only and immutable: nothing is created beside the file, nothing is locked
    uri = "file:" + urllib.parse.quote(os.fsencode(p)) + "?mode=ro&immutable=1"
    try:
        db = sqlite3.connect(uri, uri=True)
        db.text_factory = bytes
        db.execute("PRAGMA query_only=ON")
        db.execute("PRAGMA trusted_schema=OFF")
        tables = db.execute("SELECT type, name FROM sqlite_master").fetchall()
        want = {(b"table", b"meta"), (b"table", b"files"), (b"index", b"sqlite_autoindex_meta_1")}
        if set(tables) != want or len(tables) != len(want):
            raise CatalogError(f"{path} is not a simdup catalog (other tables in it)")
        for table, columns in (("meta", ("key", "value")), ("files", _COLUMNS)):
            have = tuple(r[1].decode("utf-8", "replace")
                         for r in db.execute(f"PRAGMA table_info({table})"))
            if have != columns:
                raise CatalogError(f"{path} is not a simdup catalog (table {table} has other "
                                   "columns)")
    except sqlite3.Error as e:
        raise CatalogError(f"{path} is damaged or not a simdup catalog: {e}") from None
    return db


def _text(v: object) -> str:
    return v.decode("utf-8", "surrogateescape") if isinstance(v, bytes) else str(v)


def _read_meta(db: sqlite3.Connection, path: str, name: str) -> CatalogInfo:
    rows = db.execute(f"SELECT key, value FROM meta LIMIT {MAX_META_ROWS + 1}").fetchall()
    if len(rows) > MAX_META_ROWS:
        raise CatalogError(f"{path} is not a simdup catalog (too many meta entries)")
    d = {_text(k): _text(v) for k, v in rows}
    if d.get("format") != FORMAT:
        raise CatalogError(f"{path} is not a simdup catalog")
    if d.get("format_version") != str(FORMAT_VERSION):
        raise CatalogError(f"{path} is a catalog of format version "
                           f"{d.get('format_version', '?')[:20]}; this simdup reads version "
                           f"{FORMAT_VERSION}")
    try:
        o = Obj({**d, "roots": json.loads(d.get("roots", "")),
                 "files": int(d.get("files", "")), "created": float(d.get("created", ""))},
                "meta")
        roots = tuple(Obj({"root": r}, f"meta.roots[{i}]").path("root")
                      for i, r in enumerate(o.list("roots", required=True, max_len=10_000)))
        info = CatalogInfo(name, path, roots, o.float("created", lo=0, hi=1e11, required=True),
                           o.str("simdup_version", max_len=64, required=True),
                           o.int("files", hi=MAX_FILES, required=True),
                           {k: o.str(k, max_len=200, required=True) for k in COMPARABLE})
    except (ValueError, RecursionError) as e:  # ResultsError is a ValueError
        raise CatalogError(f"{path} is damaged: {_said(e)}") from None
    if not roots:
        raise CatalogError(f"{path} is damaged: meta.roots: no folder")
    return info


def _said(e: Exception) -> str:
    return str(e) if isinstance(e, ResultsError) else f"meta: {e}"


def _read_files(db: sqlite3.Connection, info: CatalogInfo) -> list[FileRecord]:
    """Every row of ``files``, checked, as catalogued records."""
    out: list[FileRecord] = []
    seen: set[str] = set()
    check = _RowCheck(info)
    cur = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM files LIMIT {info.files + 1}")
    for n, row in enumerate(cur):
        if n >= info.files:
            raise CatalogError(f"{info.file} is damaged: it holds more files than it says "
                               f"({info.files})")
        r = check(n, row)
        if r.path in seen:
            raise CatalogError(f"{info.file} is damaged: files row {n + 1}: "
                               f"{check.original(r)!r} is listed twice")
        seen.add(r.path)
        out.append(r)
    return out


class _RowCheck:
    """One row of ``files`` to a catalogued FileRecord, or CatalogError saying which row
    and which value is wrong."""

    def __init__(self, info: CatalogInfo) -> None:
        self.info = info
        self.name = info.name
        self.roots = info.roots

    def original(self, r: FileRecord) -> str:
        return r.path[len(catalog_key(self.name, "")):]

    def fail(self, n: int, column: str, expected: str) -> CatalogError:
        return CatalogError(f"{self.info.file} is damaged: files row {n + 1}: {column}: "
                            f"expected {expected}")

    def _int(self, n: int, row: tuple, i: int, lo: int = 0) -> int:
        v = row[i]
        if type(v) is not int or not lo <= v <= MAX_INT:
            raise self.fail(n, _COLUMNS[i], f"a whole number from {lo} to {MAX_INT}")
        return v

    def _blob(self, n: int, row: tuple, i: int, sizes: tuple[int, ...]) -> bytes:
        v = row[i]
        if type(v) is not bytes or len(v) not in sizes:
            raise self.fail(n, _COLUMNS[i], f"{' or '.join(map(str, sizes))} bytes")
        return v

    def _path(self, n: int, row: tuple) -> str:
        v = row[0]
        if type(v) is not bytes or not v or len(v) > 65536 or b"\x00" in v:
            raise self.fail(n, "path", "a file's path")
        p = v.decode("utf-8", "surrogatepass") if _utf8ish(v) else None
        if p is None or not os.path.isabs(p) or os.path.normpath(p) != p or p.startswith("//"):
            raise self.fail(n, "path", "an absolute path without '..' or '.' parts")
        if not any(p == r or p.startswith(r.rstrip(os.sep) + os.sep) for r in self.roots):
            raise self.fail(n, "path", "a path under one of the catalog's roots")
        return p

    def __call__(self, n: int, row: tuple) -> FileRecord:
        if len(row) != len(_COLUMNS):
            raise self.fail(n, "row", f"{len(_COLUMNS)} values")
        path = self._path(n, row)
        encoding, newline = row[3], row[12]
        if type(encoding) is not bytes or not _ENCODING.fullmatch(encoding.decode("latin-1")):
            raise self.fail(n, "encoding", "an encoding's name")
        if type(newline) is not bytes or newline.decode("ascii", "replace") not in _NEWLINES:
            raise self.fail(n, "newline", "one of " + ", ".join(_NEWLINES))
        low = self._int(n, row, 13)
        if low > 1:
            raise self.fail(n, "low_confidence", "0 or 1")
        root = max((r for r in self.roots if path == r or path.startswith(
            r.rstrip(os.sep) + os.sep)), key=len)
        return FileRecord(
            path=catalog_key(self.name, path), size=self._int(n, row, 1),
            mtime_ns=self._int(n, row, 2, lo=-MAX_INT), inode=0, dev=0,
            root=catalog_key(self.name, root), encoding=encoding.decode("ascii"),
            fingerprint=int.from_bytes(self._blob(n, row, 6, (16,)), "big"),
            features=self._int(n, row, 8),
            text_hash=self._blob(n, row, 5, (0, 16)).hex(),
            content_hash=self._blob(n, row, 4, (0, 16)).hex(),
            bad_bytes=self._int(n, row, 11), newline=newline.decode("ascii"),
            low_confidence=bool(low), chars=self._int(n, row, 9),
            sketch=self._blob(n, row, 7, (0, SKETCH_BYTES)), shingles=self._int(n, row, 10),
            catalog=self.name)


def _utf8ish(v: bytes) -> bool:
    """UTF-8 with surrogates passed through (how paths are stored): decodable so."""
    try:
        v.decode("utf-8", "surrogatepass")
        return True
    except UnicodeDecodeError:
        return False


def original_path(r: FileRecord) -> str:
    """The path a catalogued record names on its drive (a present record's path as it is)."""
    return r.path[len(catalog_key(r.catalog, "")):] if r.catalog else r.path


# ----------------------------------------------------- in a results file (review/results)
def check_infos(so: Obj) -> list[dict]:
    """``settings.catalogs`` of a results file (what :meth:`CatalogInfo.to_dict` wrote),
    every value checked (ResultsError): the catalogs its catalogued files come from."""
    out: list[dict] = []
    for i, d in enumerate(so.list("catalogs", max_len=1000)):
        o = Obj(d, f"settings.catalogs[{i}]")
        name = o.str("name", max_len=80)
        if not name or catalog_name(name + SUFFIX, ()) != name:
            raise o.fail("name", "a catalog's name (no ':' nor control characters)")
        roots = [Obj({"root": r}, f"{o.where}.roots[{k}]").path("root")
                 for k, r in enumerate(o.list("roots", max_len=10_000))]
        so_ = o.obj("settings")
        out.append({"name": name, "file": o.path("file"), "roots": roots,
                    "created": o.float("created", 0.0, hi=1e11),
                    "simdup_version": o.str("simdup_version", "", max_len=64),
                    "files": o.int("files", 0, hi=MAX_FILES),
                    "settings": {k: so_.str(k, "", max_len=200) for k in COMPARABLE}})
    if len({c["name"] for c in out}) != len(out):
        raise so.fail("catalogs", "catalogs of different names")
    return out


def infos_of(settings: dict) -> list[CatalogInfo]:
    """The catalogs a review's settings name (as :func:`check_infos` checked them)."""
    return [CatalogInfo(c["name"], c["file"], tuple(c["roots"]), c["created"],
                        c["simdup_version"], c["files"], dict(c["settings"]))
            for c in settings.get("catalogs") or ()]


def features_of(settings: dict, default: str) -> str:
    """The feature mode a review's settings say its fingerprints were made in."""
    from ..scan.features import FEATURE_MODES

    mode = settings.get("features")
    return mode if mode in FEATURE_MODES else default


def catalogued_path(o: Obj, names: Iterable[str]) -> tuple[str, str, str]:
    """(path, root, catalog) of a results file's catalogued record ``o`` (one with a
    ``catalog``): its path a catalog key of one of the catalogs ``names`` whose path is
    absolute and normalised (ResultsError otherwise)."""
    name = o.str("catalog", max_len=80)
    if name not in set(names):
        raise o.fail("catalog", "one of the catalogs in settings.catalogs")
    key = o.str("path", max_len=65600)
    prefix = catalog_key(name, "")
    if not key.startswith(prefix):
        raise o.fail("path", f"a path in the catalog {name!r}")
    original = Obj({"path": key[len(prefix):]}, o.where).path("path")
    root = o.str("root", "", max_len=65600)
    if root and not (root.startswith(prefix) and (original + os.sep).startswith(
            root[len(prefix):].rstrip(os.sep) + os.sep)):
        raise o.fail("root", f"the folder in the catalog {name!r} that holds the file")
    return catalog_key(name, original), root, name
