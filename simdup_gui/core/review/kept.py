"""The review the app keeps across runs: the session (its results with the marks, and the
folders, settings, files removed from the results and the selection) written to the user
data folder when the app quits and read back when it starts.

The file is a results file (:func:`~.results.iter_json` with every record) whose settings
carry one more entry, ``kept``, with what a results file does not hold. It is written
atomically, 0600, in a folder only this user can use (:mod:`..ourfiles`). Read back it is
untrusted input like any results file: :func:`split` takes what
:func:`~.export.load_results` (or :func:`~.process_load.load_results_in_process`) loaded,
every check of a results file done, and checks the ``kept`` entry the same way
(:class:`~.schema.ResultsError` saying where).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..models import FileRecord
from ..ourfiles import private_dir, write_private
from .export import load_results
from .results import Results, iter_json
from .schema import Obj

FILE_NAME = "session.json"
KEY = "kept"  # the settings entry of what only a kept session holds
MAX_PATHS = 10_000_000


def default_path() -> str:
    """Where the app keeps its session: the user data folder's ``session.json``."""
    from ..act.lock import data_dir

    return os.path.join(data_dir(), FILE_NAME)


@dataclass
class KeptView:
    """What a results file does not hold: the files removed from the results (this review
    only) and the view: the selected files, the current one, the groups expanded (by their
    files) or all of them."""

    removed: list[str] = field(default_factory=list)
    selected: list[str] = field(default_factory=list)
    current: str | None = None
    expanded: list[str] = field(default_factory=list)
    all_expanded: bool = False

    def to_dict(self) -> dict:
        return {"removed": sorted(self.removed), "selected": sorted(self.selected),
                "current": self.current, "expanded": sorted(self.expanded),
                "all_expanded": self.all_expanded}


def save(res: Results, view: KeptView, path: str) -> None:
    """Write ``res`` (with its marks and every record) and ``view`` to ``path``, atomically,
    in a private folder (OSError, ourfiles.NotPrivate)."""
    private_dir(os.path.dirname(os.path.abspath(path)))
    res = Results(res.records, res.groups, res.problems, {**res.settings, KEY: view.to_dict()},
                  res.stats, res.marks)

    def write(fh) -> None:
        for piece in iter_json(res, include_ungrouped=True):
            fh.write(piece.encode("utf-8", "surrogateescape"))

    write_private(path, write)


def _paths(o: Obj, key: str) -> list[str]:
    items = o.list(key, max_len=MAX_PATHS)
    return [Obj({f"{key}[{i}]": p}, o.where).path(f"{key}[{i}]") for i, p in enumerate(items)]


def split(res: Results) -> tuple[Results, KeptView]:
    """The results of a kept session and its view, taken out of the settings and checked
    (:class:`~.schema.ResultsError`); a results file without the entry gives an empty view."""
    raw = res.settings.pop(KEY, None)
    if raw is None:
        return res, KeptView()
    o = Obj(raw, f"settings.{KEY}")
    current = o.path("current", required=False) if raw.get("current") is not None else None
    view = KeptView(_paths(o, "removed"), _paths(o, "selected"), current or None,
                    _paths(o, "expanded"), o.bool("all_expanded"))
    return res, view


def load(path: str) -> tuple[Results, KeptView]:
    """Read a kept session (OSError, ResultsError)."""
    return split(load_results(path))


def changed_since(before: Sequence[FileRecord],
                  after: Iterable[FileRecord]) -> tuple[list[str], list[str]]:
    """(gone, changed): the paths of ``before`` that ``after`` (a new scan of the same
    folders) no longer holds, and those it holds with another size, time or content."""
    now = {r.path: r for r in after}
    gone, changed = [], []
    for r in before:
        n = now.get(r.path)
        if n is None:
            gone.append(r.path)
        elif (n.size, n.mtime_ns) != (r.size, r.mtime_ns) or (
                n.content_hash and r.content_hash and n.content_hash != r.content_hash):
            changed.append(r.path)
    return gone, changed
