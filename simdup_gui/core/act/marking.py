"""Marks: which files of each group an action will touch.

Every function takes the current marks and returns a new set of paths; none mutates its
input, so the GUI can keep an undo stack of mark sets for free. Files under a reference
folder are never marked by any function here.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..scan.decode import normalise_codec
from ..models import FileRecord, Group, Member
from ..review.results import Results
from ..textsim import DEFAULT_SIMILARITY, DIFFERENT_BELOW
from ..group.verify import PairSimilarity, check_threshold
from ..validate import one_of

KEEP_RULES = ("oldest", "newest", "largest", "smallest", "shortest-path", "longest-path",
              "encoding", "folder", "catalog")
# Rules that express a preference and need a plain rule to break ties ("catalog": the copy
# in a catalog, on a drive that is not plugged in, is the one kept; :func:`_catalog_marks`).
_PREFERENCE_RULES = ("encoding", "folder", "catalog")
PLAIN_RULES = tuple(r for r in KEEP_RULES if r not in _PREFERENCE_RULES)


def _norm_encoding(name: str) -> str:
    """The decoder's name for an encoding (the GBK family is gb18030); the decoder's "ascii"
    label stays apart from utf-8, so "keep the utf-8 copy" means a file with real UTF-8."""
    n = name.strip().lower().replace("_", "-")
    return n if n == "ascii" else (normalise_codec(n) or n)


def is_under(path: str, folder: str) -> bool:
    """True if ``path`` is ``folder`` or inside it (compared as absolute, normalised paths)."""
    p = os.path.normcase(os.path.abspath(path))
    f = os.path.normcase(os.path.abspath(folder))
    return p == f or p.startswith(f.rstrip(os.sep) + os.sep)


def under_any(path: str, folders: Iterable[str]) -> bool:
    return any(is_under(path, f) for f in folders)


@dataclass(frozen=True)
class KeepRule:
    """Which file of a group to keep.

    ``name`` is one of :data:`KEEP_RULES`. ``encoding`` is the preferred encoding for the
    "encoding" rule, ``folder`` the preferred folder for the "folder" rule; ``then`` breaks
    ties (and decides when no file matches the preference). Remaining ties go to the
    alphabetically first path, so the choice never depends on scan order. "catalog"
    keeps the catalogued copy (:func:`_catalog_marks`); ``last_copy``: with it, also the
    last copy here of a file whose bytes the catalog has (the user's explicit choice).
    """

    name: str
    encoding: str = "utf-8"
    folder: str | None = None
    then: str = "oldest"
    last_copy: bool = False

    def __post_init__(self) -> None:
        one_of("keep rule", self.name, KEEP_RULES)
        one_of("tie-break rule", self.then, PLAIN_RULES)
        if self.name == "folder" and not self.folder:
            raise ValueError("keep rule 'folder' needs a preferred folder")
        if self.name == "encoding" and not self.encoding:
            raise ValueError("keep rule 'encoding' needs a preferred encoding")

    def sort_key(self) -> Callable[[FileRecord], tuple]:
        """Key whose minimum is the file to keep."""

        def plain(rule: str, r: FileRecord) -> tuple:
            return (_PLAIN_KEYS[rule](r),)

        if self.name == "encoding":
            want = _norm_encoding(self.encoding)
            return lambda r: (_norm_encoding(r.encoding) != want, *plain(self.then, r), r.path)
        if self.name == "folder":
            folder = self.folder or ""
            return lambda r: (not is_under(r.path, folder), *plain(self.then, r), r.path)
        if self.name == "catalog":
            return lambda r: (not r.catalog, *plain(self.then, r), r.path)
        return lambda r: (*plain(self.name, r), r.path)


_PLAIN_KEYS: dict[str, Callable[[FileRecord], int]] = {
    "oldest": lambda r: r.mtime_ns, "newest": lambda r: -r.mtime_ns,
    "largest": lambda r: -r.size, "smallest": lambda r: r.size,
    "shortest-path": lambda r: len(r.path), "longest-path": lambda r: -len(r.path),
}


def choose_keeper(records: Sequence[FileRecord], rule: KeepRule) -> FileRecord:
    """The record ``rule`` keeps among ``records`` (non-empty)."""
    if not records:
        raise ValueError("cannot choose a file to keep from an empty group")
    return min(records, key=rule.sort_key())


def group_records(res: Results, g: Group) -> list[FileRecord]:
    return [res.records[i] for i in g.indices()]


def grouped_paths(res: Results) -> set[str]:
    return {res.records[i].path for g in res.groups for i in g.indices()}


def _keepers(recs: list[FileRecord], first: list[FileRecord], rule: KeepRule, g: Group,
             res: Results, threshold: float, sims: PairSimilarity) -> list[FileRecord]:
    """``first`` plus, in the rule's order, every file with no kept copy at least
    ``threshold`` similar in text.

    Every member of a verified group is that similar to the group's reference, but two
    members need not be to each other; an action only goes ahead when each file that goes
    keeps a similar copy, so such files are kept as well.
    """
    ref = res.records[g.representative]
    recorded = {res.records[m.index].path: m.similarity for m in g.members}

    def sim(a: FileRecord, b: FileRecord) -> float:
        if b.path == ref.path and recorded.get(a.path) is not None:
            return recorded[a.path]
        if a.path == ref.path and recorded.get(b.path) is not None:
            return recorded[b.path]
        s = sims.estimated(a, b)
        return -1.0 if s is None else s

    kept = list(first)
    for r in sorted(recs, key=rule.sort_key()):
        if any(r.path == c.path for c in kept):
            continue
        if not any(sim(r, c) >= threshold for c in kept):
            kept.append(r)
    return kept


def mark_all_but_one(res: Results, rule: KeepRule | None, reference: Sequence[str] = (),
                     marks: Iterable[str] = (), *, templates: bool = False,
                     keep: Callable[[str], bool] | None = None) -> set[str]:
    """Mark every file but one in each group.

    A group with a file under a reference folder keeps its reference files and marks the
    rest; otherwise ``rule`` picks the one file to keep. Where a file would then keep no
    copy at least the results' similarity threshold similar in text (possible when the
    kept file is not the group's reference), it is kept too, so the marks never ask for
    an action that must be refused. Marks outside groups are kept as they were; marks
    inside groups are replaced.

    A group with members whose text shared with the reference is a template (Member.template:
    siblings made from one template, maybe not copies) is kept one per copy set unless
    ``templates`` (Member.copy_set: files joined by pairs that are not template pairs; a
    page and its backup are one set, two pages of one generator two). A set of one file
    is left as it was.

    ``keep``: a test of paths (:func:`path_matcher`) whose files are kept like reference
    files, the rest of their group marked; with ``rule`` None, a group where no file is
    kept that way is left as it was.
    """
    grouped, marks = grouped_paths(res), set(marks)
    out = {p for p in marks if p not in grouped}
    threshold = results_threshold(res)
    sims = PairSimilarity()
    for g in res.groups:
        for part in _copy_sets(g, templates):
            recs = [res.records[m.index] for m in part if not res.records[m.index].catalog]
            away = [res.records[m.index] for m in part if res.records[m.index].catalog]
            if rule is not None and rule.name == "catalog":  # groups with no catalogued
                # file (or none here) are left as they were
                out |= (_catalog_marks(recs, away, rule, reference, (g, res, threshold, sims))
                        if away and recs else {r.path for r in recs if r.path in marks})
                continue
            refs = [r for r in recs if under_any(r.path, reference) or keep and keep(r.path)]
            if len(recs) < 2 or (not refs and rule is None):
                # a template sibling with no copy in the group, a file whose other copies
                # are in a catalog (not here), or nothing to keep here: left as it was
                out.update(r.path for r in recs if r.path in marks)
                continue
            first = refs or [choose_keeper(recs, rule)]
            kept = _keepers(recs, first, rule or KeepRule("oldest"), g, res, threshold, sims)
            keep_paths = {c.path for c in kept}
            out.update(r.path for r in recs
                       if r.path not in keep_paths and not under_any(r.path, reference))
    return out


def _catalog_marks(recs: list[FileRecord], away: list[FileRecord], rule: KeepRule,
                   reference: Sequence[str], ctx: tuple) -> set[str]:
    """The "catalog" rule in a group (or copy set) with files here (``recs``) and from a
    catalog (``away``): the catalogued copy is the one kept ("it is already on the backup
    drive"), so the copies here are marked, but one: a file under a reference folder,
    else one whose bytes no catalogued file has (what the drive lacks), else by
    ``rule.then``; a group with one file here marks nothing. With ``rule.last_copy`` (the
    user's explicit choice) that last one is marked too when a catalogued file has its
    bytes (the same content hash), never when it is only a near duplicate of one: its
    differences are not on the drive. An action then needs plan_action's catalog_copies."""
    g, res, threshold, sims = ctx
    on_drive = {c.content_hash for c in away if c.content_hash}
    refs = [r for r in recs if under_any(r.path, reference)]
    then = _PLAIN_KEYS[rule.then]
    first = refs or [min(recs, key=lambda r: (r.content_hash in on_drive, then(r), r.path))]
    kept = {c.path for c in _keepers(recs, first, KeepRule(rule.then), g, res, threshold,
                                     sims)}
    out = {r.path for r in recs if r.path not in kept}
    if rule.last_copy:
        out |= {r.path for r in recs if r.content_hash in on_drive}
    return {p for p in out if not under_any(p, reference)}


def last_copies(res: Results, marks: Iterable[str]) -> list[str]:
    """The marked files whose group keeps no other file here: only a catalogued copy (on a
    drive that is not plugged in) would be left of them. What to say before marking them
    or acting on them."""
    m = set(marks)
    out = []
    for g in res.groups:
        recs = [res.records[i] for i in g.indices()]
        here = [r for r in recs if not r.catalog]
        if len(here) < len(recs) and all(r.path in m for r in here):
            out.extend(r.path for r in here)
    return sorted(out)


def _copy_sets(g: Group, templates: bool) -> list[list[Member]]:
    """The group's members as the keep rule treats them: one set, or with ``templates``
    false and template members in the group, its copy sets (Member.copy_set)."""
    if templates or not g.templates:
        return [g.members]
    sets: dict[int, list[Member]] = {}
    for m in g.members:
        sets.setdefault(m.copy_set, []).append(m)
    return list(sets.values())


def path_matcher(patterns: Iterable[str]) -> Callable[[str], bool]:
    """Whether a path matches one of the glob ``patterns``: a pattern with a slash is
    matched against the whole path ("*/master/*", "/data/keep/*"), one without against the
    file name ("*.orig"); ``*`` crosses slashes. ValueError for an empty pattern."""
    pats = list(patterns)
    if not pats or not all(p.strip() for p in pats):
        raise ValueError("a path pattern is empty")
    norm = os.path.normcase
    full = [norm(p) for p in pats if "/" in p or os.sep in p]
    names = [norm(p) for p in pats if not ("/" in p or os.sep in p)]

    def match(path: str) -> bool:
        p, name = norm(path), norm(os.path.basename(path))
        return (any(fnmatch.fnmatchcase(p, x) for x in full)
                or any(fnmatch.fnmatchcase(name, x) for x in names))

    return match


def results_threshold(res: Results) -> float:
    """The text similarity a kept copy needs: the results' setting (else the default), and
    never less than DIFFERENT_BELOW: below it two texts are different by the definition, so
    no setting, saved or forged, lets a file go on the strength of such a "copy"."""
    try:
        return max(check_threshold(res.settings.get("similarity", DEFAULT_SIMILARITY)),
                   DIFFERENT_BELOW)
    except (TypeError, ValueError):
        return DEFAULT_SIMILARITY


def without_reference(marks: Iterable[str], reference: Sequence[str]) -> set[str]:
    """``marks`` minus every path under a reference folder."""
    return {p for p in marks if not under_any(p, reference)}


def mark_selected(marks: Iterable[str], paths: Iterable[str],
                  reference: Sequence[str] = ()) -> set[str]:
    """Add ``paths`` (the GUI selection) to the marks, except reference files."""
    return set(marks) | without_reference(paths, reference)


def unmark_selected(marks: Iterable[str], paths: Iterable[str]) -> set[str]:
    return set(marks) - set(paths)


def toggle_selected(marks: Iterable[str], paths: Iterable[str],
                    reference: Sequence[str] = ()) -> set[str]:
    """Flip each path in ``paths`` (a checkbox click); reference files stay unmarked."""
    out = set(marks)
    for p in paths:
        if p in out:
            out.discard(p)
        elif not under_any(p, reference):
            out.add(p)
    return out


def matching_names(paths: Iterable[str], pattern: str, *, regex: bool = False) -> set[str]:
    """The paths whose file name matches ``pattern``: a glob ("*.bak", any case) or, with
    ``regex``, a regular expression searched in the name. ValueError for a bad pattern."""
    if not pattern:
        raise ValueError("the pattern is empty")
    if regex:
        try:
            rx = re.compile(pattern)
        except re.error as e:
            raise ValueError(f"not a valid regular expression: {pattern!r}: {e}") from e
        return {p for p in paths if rx.search(os.path.basename(p))}
    pat = pattern.casefold()
    return {p for p in paths if fnmatch.fnmatchcase(os.path.basename(p).casefold(), pat)}


def invert_marks(res: Results, marks: Iterable[str], reference: Sequence[str] = ()) -> set[str]:
    """Marked grouped files become unmarked and the other way round (never a catalogued
    file: it is not here)."""
    current = set(marks)
    present = {res.records[i].path for g in res.groups for i in g.indices()
               if not res.records[i].catalog}
    return without_reference(present - current, reference)


def clear_marks() -> set[str]:
    return set()


def groups_without_kept_file(res: Results, marks: Iterable[str]) -> list[Group]:
    """Groups where every file is marked: acting on them would lose the last copy."""
    m = set(marks)
    return [g for g in res.groups if all(res.records[i].path in m for i in g.indices())]


def marked_size(res: Results, marks: Iterable[str]) -> tuple[int, int]:
    """(count, total bytes) of marked files that are in the results."""
    m = set(marks)
    recs = [r for r in res.records if r.path in m]
    return len(recs), sum(r.size for r in recs)
