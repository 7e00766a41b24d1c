"""Save and load review work (results with marks), and export groups as CSV, JSON or HTML."""

from __future__ import annotations

import os

from ..ourfiles import write_atomic
from ..validate import one_of
from .report_html import to_html
from .results import Results, dumps_json, iter_json, load_json, to_csv

EXPORT_FORMATS = ("json", "csv", "html")


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
