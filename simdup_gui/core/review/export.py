"""Save and load review work (results with marks), and export groups as CSV, JSON or HTML."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable

from .report_html import to_html
from ..validate import one_of
from .results import Results, dumps_json, iter_json, load_json, to_csv

EXPORT_FORMATS = ("json", "csv", "html")


def _umask() -> int:
    """The process umask, read without changing it (Linux), else the usual 022."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def write_atomic(path: str, text: str | Iterable[str]) -> None:
    """Write to a temporary file beside ``path`` and rename it over: never half a file, and
    an existing file is left as it was if anything fails. File names that are not valid
    UTF-8 (surrogate escapes, e.g. in CSV) are written as their original bytes. ``text``
    may come in pieces (:func:`iter_json`), written as they are made."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".simdup-save-", dir=folder)
    except OSError as e:  # name the file the user chose, not the temporary one
        raise OSError(e.errno, f"cannot write {path}: {e.strerror}") from e
    try:
        try:  # mkstemp makes it private: give it the mode the file has, or would have had,
            # but never writable by other accounts (a results file names files to act on,
            # and `apply` refuses one that others can write: act/trust.py)
            mode = os.stat(path).st_mode & 0o777 if os.path.exists(path) else 0o666 & ~_umask()
            os.chmod(tmp, mode & ~0o022)
        except OSError:
            pass
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape", newline="") as fh:
            if isinstance(text, str):
                fh.write(text)
            else:
                for piece in text:
                    fh.write(piece)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_results(res: Results, path: str) -> None:
    """Save results with their marks (and every record, so nothing is lost on reload)."""
    write_atomic(path, iter_json(res, include_ungrouped=True))


def load_results(path: str) -> Results:
    """Load what :func:`save_results` or `simdup scan --format json` wrote; marks included."""
    with open(path, encoding="utf-8", errors="surrogateescape") as fh:
        return load_json(fh.read())


def export_text(res: Results, fmt: str) -> str:
    one_of("export format", fmt, EXPORT_FORMATS)
    if fmt == "json":
        return dumps_json(res)
    if fmt == "csv":
        return to_csv(res)
    return to_html(res)


def export_results(res: Results, path: str, fmt: str | None = None) -> None:
    """Export the groups to ``path``; the format defaults to the file's extension."""
    fmt = fmt or os.path.splitext(path)[1].lstrip(".").lower()
    if fmt == "htm":
        fmt = "html"
    # JSON in pieces as it is made (iter_json); CSV and HTML of the groups are small
    write_atomic(path, iter_json(res) if fmt == "json" else export_text(res, fmt))
