"""One file to one record: read with bounded memory, decode, extract features, hash."""

from __future__ import annotations

import codecs
import dataclasses
import functools
import hashlib
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from .decode import DECODE_VERSION, SNIFF_BYTES, DecodeError, choose_codec, decode_bytes
from .documents import EXTRACT_VERSION, document_kind, text_of
from ..job import Cancelled
from .features import (DEFAULT_MODE, LOW_CONFIDENCE_TOKENS, NORMALISATION_VERSION, FeatureBuilder,
                       rechunk, tokenizer_name)
from ..models import FileRecord, Problem
from .simhash import HashFn, simhash128
from ..textsim import SKETCH_NAME

STREAM_ABOVE = 16 << 20  # files larger than this are decoded in pieces
READ_BLOCK = 4 << 20
# Features come from at most this many characters of a file (its start): the word and
# word-pair counts of a huge log of random words would otherwise take gigabytes. The
# content hash (used before acting on a file) still covers every byte.
MAX_FEATURE_CHARS = 4 << 20
_WIDE_CODECS = ("utf-16", "utf-32")
HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")


@dataclass(frozen=True, slots=True)
class FeatureSettings:
    mode: str = DEFAULT_MODE

    def version(self) -> str:
        """Changes whenever fingerprints of the same bytes could change."""
        pairs = "p" if self.mode == "shingles" else ""  # pairs hashed from words' hashes
        return (f"n{NORMALISATION_VERSION}-{self.mode}-{tokenizer_name()}-mmh3x128{pairs}"
                f"-cap{MAX_FEATURE_CHARS}-d{DECODE_VERSION}-x{EXTRACT_VERSION}-{SKETCH_NAME}")


def _is_html(path: str, head: bytes) -> bool:
    if document_kind(path):
        return False  # an e-book's pages are XHTML: its extracted text has no tags
    if path.lower().endswith(HTML_SUFFIXES):
        return True
    h = head[:512].lstrip().lower()
    return h.startswith(b"<!doctype html") or h.startswith(b"<html")


def _stream_text(fh, first: bytes, codec: str, bom: int, hasher, counter: list[int]) -> Iterator[str]:
    dec = codecs.getincrementaldecoder(codec)(errors="replace")
    block = first[bom:]
    count_nul = not codec.startswith(_WIDE_CODECS)
    nul = seen = 0
    while True:
        if count_nul and block:
            nul += block.count(0)
            seen += len(block)
            if nul > max(16, seen // 1000):
                raise DecodeError(f"binary content (NUL bytes within the first {seen} bytes)",
                                  "binary")
        text = dec.decode(block, final=not block)
        counter[0] += text.count("\ufffd")
        if text:
            yield text
        if not block:
            return
        block = fh.read(READ_BLOCK)
        hasher.update(block)


def _no_check() -> None:
    return None


@dataclass(slots=True)
class Loaded:
    """A file of at most STREAM_ABOVE bytes read, hashed and decoded: the first half of
    :func:`fingerprint_file`. The scan's own process makes them while its pool's workers
    warm up (pipeline._start_pool) and sends them with the chunk; the workers do the rest."""
    size: int
    mtime_ns: int
    inode: int
    dev: int
    content_hash: str
    text: str
    encoding: str
    bad_bytes: int
    html: bool


def _open(path: str):
    """(file descriptor, its stat) of the file opened for reading, or the Problem that says
    why not. A descriptor, not a file object: most files are read in one os.read
    (:func:`_read_all`), without a buffered reader and its own fstat and lseek per file."""
    try:
        # O_NONBLOCK: a file swapped for a FIFO after the walk must not block the scan
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return Problem(path, "vanished during the scan", "vanished")
    except PermissionError:
        return Problem(path, "permission denied", "unreadable")
    except OSError as e:
        return Problem(path, f"cannot open: {e.strerror or e}", "unreadable")
    try:
        st = os.fstat(fd)
    except OSError as e:
        os.close(fd)
        return Problem(path, f"cannot open: {e.strerror or e}", "unreadable")
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        return Problem(path, "not a regular file (FIFO, socket or device); not read", "special")
    return fd, st


def _read_all(fd: int, size: int) -> bytes:
    """Every byte of the open file ``fd`` from where it stands: ``size`` (its stat's) and
    one more asked for at once, then reads until one gives nothing, as a file object's
    read() does (a short read, or a file that grew since its stat, loses nothing)."""
    parts = [os.read(fd, size + 1)]
    while parts[-1]:
        parts.append(os.read(fd, max(size, 1 << 16)))
    return parts[0] if len(parts) == 2 else b"".join(parts)


def _read_problem(path: str, e: BaseException) -> Problem:
    if isinstance(e, DecodeError):
        return Problem(path, str(e), e.kind)
    if isinstance(e, FileNotFoundError):
        return Problem(path, "vanished during the scan", "vanished")
    if isinstance(e, MemoryError):
        return Problem(path, "too large to fingerprint in memory", "too_large")
    return Problem(path, f"read error: {e.strerror or e}", "unreadable")  # OSError


def _load_open(path: str, fd: int, st, copy_of: Callable | None = None):
    data = _read_all(fd, st.st_size)
    content_hash = hashlib.blake2b(data, digest_size=16).hexdigest()
    html = _is_html(path, data[:SNIFF_BYTES])
    if copy_of is not None:
        done = copy_of(content_hash, html, (st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev))
        if done is not None:
            return done
    # a document's extracted text (documents.py), else decoded
    dec = text_of(path, data) if document_kind(path) else decode_bytes(data)
    return Loaded(st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev, content_hash,
                  dec.text, dec.encoding, dec.bad_bytes, html)


def _read(path: str, stream: Callable | None = None, copy_of: Callable | None = None):
    """A Loaded, or the Problem that stops the file there; a file above STREAM_ABOVE bytes
    goes to ``stream(fh, st)`` (read in pieces), whose result is returned (None without).
    ``copy_of(content_hash, html, (size, mtime_ns, inode, dev))``: the record of a file
    with these bytes done before,
    or None; given one, the file is not decoded and that record is returned."""
    opened = _open(path)
    if isinstance(opened, Problem):
        return opened
    fd, st = opened
    try:
        if st.st_size == 0:
            return Problem(path, "empty file (0 bytes); not fingerprinted", "empty")
        if st.st_size > STREAM_ABOVE and not document_kind(path):  # (documents: read whole)
            if stream is None:
                return None
            fh, fd = open(fd, "rb"), None  # the file object closes it now, whatever happens
            with fh:
                return stream(fh, st)
        return _load_open(path, fd, st, copy_of)
    except (DecodeError, MemoryError, OSError) as e:
        return _read_problem(path, e)
    finally:
        if fd is not None:
            os.close(fd)


def load_file(path: str) -> Loaded | Problem | None:
    """The first half of :func:`fingerprint_file` (read, hash, decode), as a Loaded for
    the second; a Problem where it stops there; None for a file above STREAM_ABOVE bytes
    (fingerprint_file reads those in pieces) and for a document (its extraction runs in the
    scan's workers, pdftext.guarded)."""
    if document_kind(path):
        return None
    return _read(path)


def fingerprint_file(path: str, root: str, settings: FeatureSettings = FeatureSettings(),
                     hash_fn: HashFn | None = None,
                     check: Callable[[], None] = _no_check,
                     loaded: Loaded | None = None,
                     copies: Copies | None = None) -> FileRecord | Problem:
    """Fingerprint one file, or say why it cannot be. ``loaded``: its first half done
    already (:func:`load_file`), where the file is not read again. ``copies``: records of
    files done before (:class:`Copies`); a file with the same bytes takes its record over.

    ``check`` is called between pieces of a large file; it raises ``Cancelled`` to stop.
    """
    if hash_fn is not None:
        copies = None  # (records are kept for the default hash only)
    if loaded is None:
        copy_of = None if copies is None else functools.partial(copies.find, path, root)
        loaded = _read(path, lambda fh, st: _fingerprint_stream(path, root, settings, hash_fn,
                                                                check, fh, st), copy_of)
        if not isinstance(loaded, Loaded):
            return loaded  # a problem, or the record of a file read in pieces or a copy's
    elif copies is not None:
        done = copies.find(path, root, loaded.content_hash, loaded.html,
                           (loaded.size, loaded.mtime_ns, loaded.inode, loaded.dev))
        if done is not None:
            return done
    rec = _fingerprint_loaded(path, root, settings, hash_fn, check, loaded)
    if copies is not None and isinstance(rec, FileRecord):
        copies.keep(rec, loaded.html)
    return rec


class Copies:
    """Records of the files fingerprinted so far in one chunk, by their bytes' hash: a file
    whose bytes are the same (a plain copy; the scan puts files of one size in one chunk,
    pipeline._chunks) gets that record with its own path and stat, without being decoded or
    fingerprinted again. Its record is the one the file would get: every other field is a
    function of the bytes and of how it is read (as HTML, as a document of a format, or as
    text: from its name), which is in the key.
    The content hash is BLAKE2b's 128 bits, the one actions check before touching a file."""

    __slots__ = ("_done",)

    def __init__(self) -> None:
        self._done: dict[tuple[str, bool, str | None], FileRecord] = {}

    def keep(self, rec: FileRecord, html: bool) -> None:
        self._done.setdefault((rec.content_hash, html, document_kind(rec.path)), rec)

    def find(self, path: str, root: str, content_hash: str, html: bool,
             stat: tuple[int, int, int, int]) -> FileRecord | None:
        """The record for ``path`` (under ``root``, its ``stat``: size, mtime_ns, inode, dev)
        if a file with these bytes was done, else None."""
        rec = self._done.get((content_hash, html, document_kind(path)))
        if rec is None:
            return None
        size, mtime_ns, inode, dev = stat
        return dataclasses.replace(rec, path=path, root=root, size=size, mtime_ns=mtime_ns,
                                   inode=inode, dev=dev)


def _fingerprint_loaded(path: str, root: str, settings: FeatureSettings, hash_fn: HashFn | None,
                        check: Callable[[], None], ld: Loaded) -> FileRecord | Problem:
    try:
        fb = FeatureBuilder(settings.mode, ld.html)
        chars = _add_pieces(fb, [ld.text], check)
        return _record(path, root, hash_fn, fb, chars, ld.bad_bytes, ld.encoding,
                       ld.size, ld.mtime_ns, ld.inode, ld.dev, ld.content_hash)
    except (DecodeError, MemoryError, OSError) as e:  # as before the split: a problem
        return _read_problem(path, e)


def _fingerprint_stream(path: str, root: str, settings: FeatureSettings, hash_fn: HashFn | None,
                        check: Callable[[], None], fh, st) -> FileRecord | Problem:
    """A file above STREAM_ABOVE bytes, decoded and fingerprinted piece by piece."""
    hasher = hashlib.blake2b(digest_size=16)
    first = fh.read(1 << 20)
    hasher.update(first)
    codec, bom, label = choose_codec(first)
    bad_counter = [0]
    pieces = _stream_text(fh, first, codec, bom, hasher, bad_counter)
    fb = FeatureBuilder(settings.mode, _is_html(path, first[:SNIFF_BYTES]))
    chars = _add_pieces(fb, pieces, check)
    return _record(path, root, hash_fn, fb, chars, bad_counter[0], label,
                   st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev, hasher.hexdigest())


def _add_pieces(fb: FeatureBuilder, pieces, check: Callable[[], None]) -> int:
    chars = 0
    for chunk in rechunk(pieces):
        check()
        if chars < MAX_FEATURE_CHARS:
            chunk = chunk[: MAX_FEATURE_CHARS - chars]
            chars += len(chunk)
            fb.add(chunk)
        # past the cap the rest is only read (for the content hash and the checks)
    return chars


def _record(path: str, root: str, hash_fn: HashFn | None, fb: FeatureBuilder, chars: int,
            bad: int, label: str, size: int, mtime_ns: int, inode: int, dev: int,
            content_hash: str) -> FileRecord | Problem:
    if chars and bad / chars > 0.05:
        return Problem(path, f"binary or unknown encoding ({bad} undecodable "
                       f"characters, best guess {label})", "undecodable")
    fast = fb.fingerprint() if hash_fn is None else None
    feats = fb.finish() if fast is None else None
    if fast is not None:
        fp, n_features = fast
        text_hash, newline = fb.text_hash(), fb.newline()
        low_confidence, n_chars = fb.n_tokens < LOW_CONFIDENCE_TOKENS, fb.chars
    else:
        fp, n_features = 0, len(feats.names)
        text_hash, newline = feats.text_hash, feats.newline
        low_confidence, n_chars = feats.low_confidence, feats.chars
    if not n_features:
        return Problem(path, "no words to fingerprint (only spaces or punctuation)", "no_text")
    if feats is not None:
        fp = simhash128(feats.names, feats.weights, hash_fn, feats.pairs)
    sketch, n_shingles = fb.shingles.sketch()
    return FileRecord(
        path=path, size=size, mtime_ns=mtime_ns, inode=inode, dev=dev,
        root=root, encoding=label, fingerprint=fp, features=n_features,
        text_hash=text_hash, content_hash=content_hash, bad_bytes=bad,
        newline=newline, low_confidence=low_confidence, chars=n_chars,
        sketch=sketch, shingles=n_shingles,
    )


def fingerprint_batch(items: list[tuple], mode: str, check: Callable[[], None] = _no_check,
                      copies: Copies | None = None,
                      crumbs: str | None = None) -> list[FileRecord | Problem]:
    """Worker entry point: fingerprint a chunk of (path, root) items; an item may carry a
    third element, what :func:`load_file` gave for it (a Loaded, or the Problem).
    ``copies``: the
    chunk's copies so far, when it comes in pieces (a new one by default). ``crumbs``: in a
    pool worker, the folder where a PDF being read is named (pdftext.guarded)."""
    settings = FeatureSettings(mode)
    copies = Copies() if copies is None else copies
    if crumbs is not None:
        from . import pdftext

        pdftext.set_crumbs(crumbs)
        try:
            return fingerprint_batch(items, mode, check, copies)
        finally:
            pdftext.set_crumbs(None)
    out: list[FileRecord | Problem] = []
    big = False
    for path, root, *pre in items:
        try:
            if pre and isinstance(pre[0], Problem):
                out.append(pre[0])
            else:
                out.append(fingerprint_file(path, root, settings, check=check,
                                            loaded=pre[0] if pre else None, copies=copies))
        except Cancelled:
            raise
        except Exception as e:  # noqa: BLE001 - one bad file must never stop a scan
            out.append(Problem(path, f"internal error: {type(e).__name__}: {e}", "error"))
        big = big or getattr(out[-1], "size", 0) > TRIM_AFTER
    if big:
        trim_heap()
    return out


def warm_worker() -> None:
    """A scan pool worker's initializer: ready to fingerprint (.warm). Here, beside the task
    function, whose module the worker imports for its first chunk anyway. A worker forked
    from the fork server (whose preload is .warm) finds the work done there; a spawned one
    warms itself. (.warm imports features and kernels, never this module: no circle.)"""
    from .warm import warm

    warm()


TRIM_AFTER = 256 << 10  # a file this large leaves megabytes of freed heap behind


@lru_cache(maxsize=1)
def _malloc_trim():
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None


def trim_heap() -> None:
    """Hand freed heap memory back to the system. glibc keeps it otherwise: a worker that
    fingerprinted one 1.5 MB file (its token lists, a few hundred thousand strings) held
    about 40 MB more for the rest of the scan. Dask's workers do the same (malloc_trim)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def fingerprint_batch_compiled(items: list[tuple[str, str]], mode: str) -> list[FileRecord | Problem]:
    """fingerprint_batch with the compiled kernels on, where numba is installed (a Dask
    worker's entry point: such a worker fingerprints many chunks; the results are the same)."""
    from . import kernels

    kernels.enable(True)
    return fingerprint_batch(items, mode)

