"""The review session: one Qt-free application model that the app and scripts drive.

A :class:`Session` holds what a review is about (roots, settings, records, problems, groups,
marks, reference folders, the last action) and runs each step of the flow on it:
:meth:`~Session.scan` -> :meth:`~Session.regroup` -> marking -> :meth:`~Session.plan` ->
:meth:`~Session.execute` / :meth:`~Session.undo` / :meth:`~Session.resume` ->
:meth:`~Session.finish_action`, plus :meth:`~Session.release` (free the originals a link
action holds), :meth:`~Session.save` and :meth:`~Session.load`.

Long steps take a :class:`~simdup_gui.core.job.Job` (keyword ``job``) for progress and cancel.
They come in two halves so a GUI can run the slow half on a worker thread: a request that
snapshots what it needs and runs without touching the session (``scan_request().run(job=)``,
``grouping_request().run(job=)``, :meth:`Session.execute`, ...), and a quick method that
stores the result (:meth:`Session.set_scan`, :meth:`Session.set_groups`,
:meth:`Session.finish_action`). ``Session.scan(job=)`` and ``Session.regroup()`` do both.

Usage::

    s = Session(["/data/notes"])
    s.scan()                     # records, problems, groups
    s.mark_keep("oldest")        # marks all but one file per group
    plan = s.plan("move", move_to="/data/dups")
    s.finish_action(s.execute(plan))
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .act import marking
from .act.actions import ActionReport, Plan, bind_scan_identity, execute, plan_action
from .act.copyplan import plan_copy, plan_rename
from .act.journal import JournalRefused
from .act.lock import ActionLocked
from .act.recovery import resume, undo
from .act.release import ReleaseReport, journals_to_release, release
from .defaults import DEFAULT_BITS, DEFAULT_DISTANCE, DEFAULT_MEASURE, DEFAULT_VERIFY
from .group import ignore as ignore_list
from .group.cluster import group_records, pair_measurer
from .group.excerpts import with_excerpts
from .group.rereference import apply_chosen
from .group.templates import MEASURES
from .group.verify import VERIFY_MODES, RecordsMemo
from .job import NULL_JOB, Job
from .models import ALLOWED_BITS, CATALOG_SCHEME, Excerpt, FileRecord, Group, Problem
from .review import catalog as catalogs
from .review.export import export_results, load_results, save_results
from .review.results import Results
from .scan.cache import FingerprintCache
from .scan.features import DEFAULT_MODE
from .scan.fingerprint import FeatureSettings
from .scan.pipeline import ScanOptions, ScanResult, scan
from .scan.walk import WalkOptions, folder_pattern
from .textsim import DEFAULT_SIMILARITY

KEEP_RULES = marking.PLAIN_RULES  # the rules that need no argument, for menus


class Refusal(Exception):
    """What the core refused before touching anything: the CLI's error text."""


@dataclass
class ReferenceChange:
    """What :meth:`Session.make_reference` did: the group's new reference, the files that
    left the group (below the threshold against it) and the marks that changed."""

    path: str
    group_id: int
    left: list[str] = field(default_factory=list)
    marks_changed: set[str] = field(default_factory=set)


@dataclass
class ReviewSettings:
    """The settings of one review: how to scan and how to group."""

    bits: int = DEFAULT_BITS
    distance: int = DEFAULT_DISTANCE[DEFAULT_BITS]
    features: str = DEFAULT_MODE
    grouping: str = "linked"
    verify: str = DEFAULT_VERIFY
    similarity: float = DEFAULT_SIMILARITY
    measure: str = DEFAULT_MEASURE  # "template": documents built on one template stay apart
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    min_size: int = 1
    max_size: int | None = None  # bytes; None: no limit
    follow_symlinks: bool = False
    documents: bool = True  # text of .pdf .docx .odt .epub .rtf (scan/documents.py)
    scheduler: str = ""  # a Dask scheduler ("local:N", "tcp://host:8786"); "": this machine
    default_excludes: bool = True  # skip .git, node_modules, __pycache__, virtualenvs
    workers: int = 0  # processes; 0: one per core
    use_cache: bool = True  # read and write the fingerprint cache
    cache_path: str | None = None  # None: the user cache folder's
    excerpts: bool = True  # list the texts mostly inside longer ones (group/excerpts.py)

    def scan_options(self) -> ScanOptions:
        return ScanOptions(walk=WalkOptions(include=tuple(self.include),
                                            exclude=tuple(self.exclude),
                                            default_excludes=self.default_excludes,
                                            min_size=self.min_size, max_size=self.max_size,
                                            follow_symlinks=self.follow_symlinks,
                                            documents=self.documents),
                           features=FeatureSettings(self.features), workers=self.workers,
                           use_cache=self.use_cache, cache_path=self.cache_path,
                           scheduler=self.scheduler.strip())


@dataclass(frozen=True)
class ScanRequest:
    """A scan to run: the roots and options as they were when it was asked for."""

    roots: tuple[str, ...]
    options: ScanOptions

    def run(self, *, job: Job = NULL_JOB) -> ScanResult:
        return scan(list(self.roots), self.options, job)


@dataclass(frozen=True)
class GroupingRequest:
    """A grouping to run over the records and settings of the moment it was asked for."""

    records: list[FileRecord] = field(compare=False)
    bits: int
    distance: int
    grouping: str
    verify: str
    similarity: float
    cache_path: str | None = None  # where measured similarities are remembered
    use_cache: bool = True
    scheduler: str = ""
    measure: str = DEFAULT_MEASURE
    read_workers: int = field(default=1, compare=False)  # see group_records
    memo: RecordsMemo | None = field(default=None, compare=False)  # the session's
    excerpts: bool = True

    def run(self, *, job: Job = NULL_JOB) -> tuple[list[Group], str, list[Excerpt]]:
        """(groups, index plan, excerpts); reads no session state (any thread may run it)."""
        return with_excerpts(self.records, self.read_workers, self.memo, self.excerpts,
                             lambda: group_records(
                                 self.records, self.bits, self.distance, self.grouping, job=job,
                                 verify=self.verify, similarity=self.similarity, memo=self.memo,
                                 cache_path=self.cache_path, use_cache=self.use_cache,
                                 scheduler=self.scheduler, read_workers=self.read_workers,
                                 verdict=self.measure), (self.cache_path, self.use_cache))


class Session:
    """Roots, settings, records, groups, marks and actions of one review."""

    def __init__(self, roots: Iterable[str] = (), settings: ReviewSettings | None = None,
                 reference: Iterable[str] = ()) -> None:
        self.roots: list[str] = [os.path.abspath(r) for r in roots]
        self.settings = settings or ReviewSettings()
        self.records: list[FileRecord] = []
        self._memo = RecordsMemo()  # classes and fingerprint arrays of ``records``, once
        self.problems: list[Problem] = []
        self.stats: dict = {}
        self.groups: list[Group] = []
        self.excerpts: list[Excerpt] = []  # beside the groups: information, never marked
        self.group_bits = self.settings.bits  # the size the groups were made at
        self.index_plan = ""
        self.cancelled = False  # the last scan was cancelled (what was done is kept)
        # The roots the records came from (a scan's, or a loaded file's): what a saved
        # results file names, and what actions stay under. Empty: none known yet.
        self.record_roots: list[str] = []
        # Marks are kept by path across re-grouping: a file that leaves every group at a
        # smaller k keeps its mark for when it comes back; only grouped marks are acted on.
        self.marks: set[str] = set()
        self.saved_marks: set[str] = set()  # as last saved, loaded or acted on (see unsaved)
        self.reference: list[str] = [os.path.abspath(f) for f in reference]
        self.last_report: ActionReport | None = None
        # the grouped paths (_grouped) are made from these groups and records when asked for
        self._grouped_source: tuple[list[Group], list[FileRecord]] = ([], [])
        self._grouped_paths: set[str] | None = set()
        self._removed: list[FileRecord] = []  # records the last action removed, for undo
        self._removed_marks: set[str] = set()  # and their marks, which an undo restores
        self._grouping: GroupingRequest | None = None
        self._regroup_pending = False
        # Not duplicates: the ignore list (kept in ``ignore_path`` when set, across scans)
        # and the files removed from the results for this session only.
        self.ignore = ignore_list.IgnoreList()
        self.ignore_path: str | None = None
        self.removed: set[str] = set()
        self._all_groups: list[Group] = []  # the groups before the ignore list
        self._grouped_records: list[FileRecord] = self.records
        # The references the user chose (make_reference), the latest last: applied to the
        # groups of every grouping, each such group measured again around its file.
        self.chosen_references: list[str] = []
        self._rereferenced: dict = {}  # what rereference measured, by group and settings
        # Catalogs compared with (review/catalog.py): their files join ``records`` after the
        # scanned ones, with paths of their own that nothing reads, marks or acts on.
        self.catalogs: list[catalogs.CatalogInfo] = []
        self._catalogued: list[FileRecord] = []
        self.record_features = self.settings.features  # the records' feature mode

    # ------------------------------------------------------------------ scanning
    def scan_request(self, options: ScanOptions | None = None) -> ScanRequest:
        """The scan of the roots, with the settings' options unless ``options`` is given."""
        return ScanRequest(tuple(self.roots), options or self.settings.scan_options())

    def set_scan(self, result: ScanResult) -> None:
        """Keep a scan's records, problems and stats (groups follow on :meth:`regroup`);
        the files of the catalogs compared with join them, unless the scan's feature mode
        makes their fingerprints incomparable (then they are dropped, with a problem)."""
        self.records, self.problems, self.stats = result.records, result.problems, result.stats
        self.cancelled = result.cancelled
        self.record_roots = list(result.roots)
        self.record_features = result.features or self.settings.features
        for info in list(self.catalogs):
            why = catalogs.incompatibility(info.settings, self.record_features)
            if why:
                self.problems = [*self.problems, Problem(info.file, f"catalog not compared: "
                                                        f"{why}", "catalog")]
                self.forget_catalogs([info.name])
        if self._catalogued:
            self.records = [*self.records, *self._catalogued]

    # ------------------------------------------------------------------ catalogs
    def compare_with_catalog(self, path: str) -> catalogs.CatalogInfo:
        """Compare the review with the catalog in ``path`` (a drive that is not plugged in):
        its files join the records (the next :meth:`regroup` groups them with the files
        here). CatalogError (one line) for a catalog that cannot be read or was made with
        other fingerprint settings."""
        return self.add_catalog(catalogs.read_catalog(path, [c.name for c in self.catalogs]))

    def add_catalog(self, cat: catalogs.Catalog) -> catalogs.CatalogInfo:
        """:meth:`compare_with_catalog` with a catalog read already (on a worker thread:
        ``read_catalog(path, [c.name for c in session.catalogs])``)."""
        if any(c.file == cat.info.file for c in self.catalogs):
            raise catalogs.CatalogError(f"{cat.info.file} is compared with already")
        if any(c.name == cat.info.name for c in self.catalogs):  # (named when read began)
            raise catalogs.CatalogError(f"{cat.info.file} is not compared: another catalog "
                                        f"is called {cat.info.name!r} already; compare again")
        why = catalogs.incompatibility(cat.info.settings, self.record_features
                                       if self.records else self.settings.features)
        if why:
            raise catalogs.CatalogError(f"{cat.info.file} is not compared: {why}")
        self.catalogs.append(cat.info)
        self._catalogued = [*self._catalogued, *cat.records]
        self.records = [*(r for r in self.records if not r.catalog), *self._catalogued]
        return cat.info

    def forget_catalogs(self, names: Iterable[str] | None = None) -> None:
        """Stop comparing with the catalogs ``names`` (None: every one)."""
        gone = {c.name for c in self.catalogs} if names is None else set(names)
        self.catalogs = [c for c in self.catalogs if c.name not in gone]
        self._catalogued = [r for r in self._catalogued if r.catalog not in gone]
        self.records = [r for r in self.records if r.catalog not in gone]

    def save_catalog(self, path: str) -> int:
        """Write the catalog of the scanned files (not those of a catalog) to ``path``;
        the number of files in it (OSError)."""
        return catalogs.write_catalog(path, self.records, self.scanned_roots(),
                                      self.record_features, documents=self.settings.documents)

    def keeps_previous(self, result: ScanResult) -> bool:
        """Whether a scan that ``result`` ends should leave the results as they are: it was
        cancelled and complete results (of a scan that was not) are here, with their groups
        and marks. A cancelled re-scan must not replace them with the part it read."""
        return result.cancelled and bool(self.records) and not self.cancelled

    def scan(self, *, job: Job = NULL_JOB) -> ScanResult:
        """Scan the roots and group what was found."""
        self.set_scan(result := self.scan_request().run(job=job))
        self.regroup(job=job)
        return result

    # ------------------------------------------------------------------ grouping
    def grouping_request(self, read_workers: int = 1) -> GroupingRequest:
        s = self.settings
        return GroupingRequest(self.records, s.bits, s.distance, s.grouping, s.verify,
                               s.similarity, s.cache_path, s.use_cache, s.scheduler.strip(),
                               s.measure, read_workers, memo=self._memo, excerpts=s.excerpts)

    def is_current(self, request: GroupingRequest) -> bool:
        """True if ``request`` still matches the records and settings."""
        return request.records is self.records and request == self.grouping_request()

    def set_groups(self, request: GroupingRequest, groups: list[Group], plan: str,
                   excerpts: Sequence[Excerpt] = ()) -> bool:
        """Keep groups (and excerpts) made for ``request``; False (nothing kept) if stale."""
        if not self.is_current(request):
            return False
        self.excerpts = list(excerpts)
        self._all_groups, self.group_bits, self.index_plan = groups, request.bits, plan
        self._grouped_records, self._rereferenced = request.records, {}
        self._apply_ignore()
        return True

    def _apply_ignore(self) -> None:
        if self._grouped_records is not self.records:
            return  # the records changed since grouping: the next grouping applies it
        s = self.settings
        groups = apply_chosen(
            self._all_groups, self.records, self.chosen_references, self._rereferenced,
            lambda: pair_measurer(self.records, s.cache_path, s.use_cache),
            bits=self.group_bits, threshold=s.similarity, verify=s.verify, distance=s.distance)
        self.groups = ignore_list.apply(groups, self.records, self.ignore, self.removed)
        if self.catalogs:  # a group of catalogued files alone is not about the files here
            self.groups = [g for g in self.groups
                           if any(not self.records[i].catalog for i in g.indices())]
        self._grouped_source, self._grouped_paths = (self.groups, self.records), None

    @property
    def _grouped(self) -> set[str]:
        """The paths of the files in a group now, made when first asked for after a change
        (100,000 paths take 30 ms that a GUI's regroup, on its GUI thread, need not spend)."""
        if self._grouped_paths is None:
            groups, records = self._grouped_source
            self._grouped_paths = {records[m.index].path for g in groups for m in g.members}
        return self._grouped_paths

    def regroup(self, *, job: Job = NULL_JOB, read_workers: int = 1) -> None:
        """Group the fingerprints already computed at the current settings, at once
        (``read_workers``: processes that read the doubtful pairs' files; the CLI's)."""
        req = self.grouping_request(read_workers)
        self.set_groups(req, *req.run(job=job))

    def begin_regroup(self, read_workers: int = 1) -> GroupingRequest | None:
        """The grouping to run in the background now (``read_workers``: see :meth:`regroup`),
        or None when one runs already (run again when it ends: :meth:`end_regroup`)."""
        if self._grouping is not None:
            self._regroup_pending = True
            return None
        self._grouping = self.grouping_request(read_workers)
        return self._grouping

    def end_regroup(self, result: tuple[list[Group], str] | None) -> tuple[bool, bool]:
        """Store the background grouping's ``result`` (None if it failed).

        Returns (kept, again): whether the groups were current and kept, and whether the
        settings or records changed meanwhile so a new grouping should start.
        """
        req, self._grouping = self._grouping, None
        kept = req is not None and result is not None and self.set_groups(req, *result)
        again = self._regroup_pending or (req is not None and not self.is_current(req))
        self._regroup_pending = False
        return kept, again

    @property
    def regrouping(self) -> bool:
        return self._grouping is not None

    def file_count(self) -> int:
        return sum(len(g.members) for g in self.groups)

    # ------------------------------------------------------------------ not duplicates
    def load_ignore(self, path: str, *, keep: bool = True) -> str:
        """Use the ignore list in ``path`` (and with ``keep``, write changes back to it);
        "" or a warning saying why the file could not be used (the list then starts
        empty, and with ``keep`` replaces the file when changed)."""
        self.ignore_path = path if keep else None
        try:
            self.ignore = ignore_list.load(path)
        except ignore_list.IgnoreListError as e:
            self.ignore = ignore_list.IgnoreList()
            return (f"{e}; the ignore list starts empty and replaces it when changed" if keep
                    else f"{e}; it is not applied")
        finally:
            self._apply_ignore()
        return ""

    def _ignore_changed(self) -> None:
        """Regroup the shown groups and keep the list (Refusal if it cannot be written)."""
        self._apply_ignore()
        if self.ignore_path:
            try:
                ignore_list.save(self.ignore, self.ignore_path)
            except OSError as e:
                raise Refusal(f"cannot write the ignore list {self.ignore_path}: "
                              f"{e.strerror or e}") from e

    def reference_of(self, path: str) -> str | None:
        """The path of the reference of the group that shows ``path`` (None if none)."""
        for g in self.groups:
            if any(self.records[m.index].path == path for m in g.members):
                return self.records[g.representative].path
        return None

    def compare_with(self, path: str) -> str | None:
        """The file to compare ``path`` with (a custom command's %b): its group's reference,
        or for the reference itself its closest member (else another member); None when
        ``path`` is in no group."""
        for g in self.groups:
            here = {m.index: m for m in g.members}
            m = next((x for x in g.members if self.records[x.index].path == path), None)
            if m is None:
                continue
            if m.index != g.representative:
                return self.records[g.representative].path
            other = m.closest if m.closest in here and m.closest != m.index else next(
                (x.index for x in g.members if x.index != m.index), None)
            return None if other is None else self.records[other].path
        return None

    def ignore_files(self, paths: Iterable[str]) -> int:
        """Never group these files again (in this and later scans); the number added."""
        n = self.ignore.add_files(paths)
        self._ignore_changed()
        return n

    def ignore_pairs(self, pairs: Iterable[tuple[str, str]]) -> int:
        """These pairs are not duplicates (in this and later scans); the number added."""
        n = self.ignore.add_pairs(pairs)
        self._ignore_changed()
        return n

    def ignore_with_reference(self, paths: Iterable[str]) -> int:
        """Each file is not a duplicate of its group's reference."""
        pairs = [(p, ref) for p in paths if (ref := self.reference_of(p)) not in (None, p)]
        return self.ignore_pairs(pairs)

    def unignore(self, files: Iterable[str] = (), pairs: Iterable[tuple[str, str]] = ()) -> None:
        self.ignore.remove(files, pairs)
        self._ignore_changed()

    def clear_ignore(self) -> None:
        self.ignore.clear()
        self._ignore_changed()

    def remove_from_results(self, paths: Iterable[str]) -> None:
        """Hide these files from the groups of this session (not remembered)."""
        self.removed |= set(paths)
        self._apply_ignore()

    def remove_marked_from_results(self) -> set[str]:
        """Hide the marked grouped files from the results (dupeGuru's "Remove marked from
        results": the files stay on disk, their groups shrink, a group left with one file
        goes) and drop their marks; the paths removed."""
        gone = self.grouped_marks()
        self.set_marks(self.marks - gone)
        self.remove_from_results(gone)
        return gone

    def grouped_under(self, folder: str) -> set[str]:
        """The grouped files in ``folder`` or below it."""
        return {p for p in self._grouped if marking.is_under(p, folder)}

    def exclude_folder(self, folder: str) -> str:
        """Leave ``folder`` out of later scans (its exact path joins the settings' exclude
        patterns: walk.folder_pattern) and its files out of these results; the pattern.
        Refusal for a folder that is not inside a scanned folder (a scanned folder itself
        is taken out of the folders to scan instead)."""
        folder = os.path.abspath(folder)
        if not any(marking.is_under(folder, r) and os.path.normpath(folder) !=
                   os.path.normpath(r) for r in self.scanned_roots() + self.roots):
            raise Refusal(f"{folder} is not inside a scanned folder; to stop scanning a "
                          "scanned folder, remove it from the folders to scan")
        pattern = folder_pattern(folder)
        if pattern not in self.settings.exclude:
            self.settings.exclude = (*self.settings.exclude, pattern)
        self.remove_from_results(self.grouped_under(folder))
        return pattern

    # ------------------------------------------------------------------ references
    def make_reference(self, path: str) -> ReferenceChange:
        """Make ``path`` the reference of its group (dupeGuru's "Make selected into
        reference"): each member is measured again against it (group/rereference.py) and
        those below the threshold leave the group; keep rules then keep it, and it is
        never marked (like a file under a reference folder). The choice holds across
        regroupings and rescans, and is saved with the results. Refusal if ``path`` is in
        no group."""
        shown = next((g for g in self.groups
                      if any(self.records[i].path == path for i in g.indices())), None)
        if shown is None:
            raise Refusal(f"{path} is in no group")
        before = {self.records[i].path for i in shown.indices()}
        if self.records[shown.representative].path == path:
            return ReferenceChange(path, shown.id)
        made = next((g for g in self._all_groups
                     if any(self.records[i].path == path for i in g.indices())), shown)
        members = {self.records[i].path for i in made.indices()}
        self.chosen_references = [p for p in self.chosen_references if p not in members]
        if self.records[made.representative].path != path:
            self.chosen_references.append(path)
        self._apply_ignore()
        changed = self.set_marks(self.marks - {path})
        return ReferenceChange(path, shown.id, sorted(before - self._grouped), changed)

    def protected(self) -> list[str]:
        """What is never marked: the reference folders, and the references the user chose
        that are a group's reference now."""
        return [*self.reference, *sorted(self._chosen_now())]

    def _chosen_now(self) -> set[str]:
        """The references the user chose that are a group's reference now."""
        if not self.chosen_references:
            return set()
        refs = {self.records[g.representative].path for g in self.groups}
        return {p for p in self.chosen_references if p in refs}

    # ------------------------------------------------------------------ marks
    def grouped_marks(self) -> set[str]:
        """The marks on files that are in a group now: what an action would touch."""
        return self.marks & self._grouped if self.marks else set()

    def unsaved_marks(self) -> int:
        """The grouped marks made since the results were last saved, loaded or acted on:
        what quitting would lose (an app asks first)."""
        return len(self.grouped_marks() - self.saved_marks)

    def marked_size(self) -> int:
        marks = self.grouped_marks()
        return sum(r.size for r in self.records if r.path in marks) if marks else 0

    def set_marks(self, marks: Iterable[str]) -> set[str]:
        """Replace the marks; returns the paths whose mark changed. A catalogued file (not
        here) is never marked."""
        new = {p for p in marks if not p.startswith(CATALOG_SCHEME)}
        changed = self.marks ^ new
        self.marks = new
        return changed

    def set_mark(self, path: str, on: bool) -> set[str]:
        """Mark or unmark one file (a checkbox)."""
        return self.set_marks(self.marks | {path} if on else self.marks - {path})

    def mark_keep(self, rule: str | marking.KeepRule | None, *, templates: bool = False,
                  paths: Sequence[str] = (), **options) -> set[str]:
        """Mark all but one file of each group; ``rule`` (a keep rule, or its name with
        ``options``) picks the one kept. Marks on files in no group stay as they are;
        members whose shared text is a template take part only with ``templates``
        (:meth:`template_members` counts them, for the question to ask first). ``paths``:
        glob patterns (marking.path_matcher) of files to keep, the rest of their group
        marked; a group with no such file is left to ``rule`` (None: as it was)."""
        return self.set_marks(self.keep_marks(rule, templates=templates, paths=paths,
                                              **options)(self.results()))

    def keep_marks(self, rule: str | marking.KeepRule | None, *, templates: bool = False,
                   paths: Sequence[str] = (), **options) -> Callable[[Results], set[str]]:
        """What :meth:`mark_keep` marks, as a function of the results (a snapshot of them
        may be marked off the window's thread); a bad rule raises ValueError here."""
        if rule is not None and not isinstance(rule, marking.KeepRule):
            rule = marking.KeepRule(rule, **options)
        keep = marking.path_matcher(paths) if paths else None
        if rule is None and keep is None:
            raise ValueError("no keep rule and no path to keep")
        reference = self.protected()
        return lambda res: marking.mark_all_but_one(res, rule, reference, res.marks,
                                                    templates=templates, keep=keep)

    def template_members(self) -> tuple[int, int]:
        """(files, groups): members whose text shared with the reference is a template, and
        the groups holding them: a keep rule leaves them alone unless told otherwise."""
        counts = [g.templates for g in self.groups if g.templates]
        return sum(counts), len(counts)

    def inverted_marks(self) -> Callable[[Results], set[str]]:
        """What :meth:`invert` marks, as a function of the results."""
        reference = self.protected()
        return lambda res: marking.invert_marks(res, res.marks, reference)

    def mark(self, paths: Iterable[str], on: bool = True) -> set[str]:
        """Mark (or unmark) ``paths``; files under a reference folder are never marked."""
        return self.set_marks(marking.mark_selected(self.marks, paths, self.protected()) if on
                              else marking.unmark_selected(self.marks, paths))

    def toggle(self, paths: Iterable[str]) -> set[str]:
        return self.set_marks(marking.toggle_selected(self.marks, paths, self.protected()))

    def mark_matching(self, pattern: str, *, regex: bool = False) -> set[str]:
        """Mark the grouped files whose name matches a glob (or a regular expression);
        ValueError for a bad pattern. Reference files are never marked."""
        return self.mark(marking.matching_names(self._grouped, pattern, regex=regex))

    def invert(self) -> set[str]:
        return self.set_marks(self.inverted_marks()(self.results()))

    def clear_marks(self) -> set[str]:
        return self.set_marks(marking.clear_marks())

    def set_reference(self, folders: Iterable[str]) -> set[str]:
        """Files under these folders are never marked; their marks go now."""
        self.reference = [os.path.abspath(f) for f in folders]
        return self.set_marks(marking.without_reference(self.marks, self.reference))

    # ------------------------------------------------------------------ acting
    def scanned_roots(self) -> list[str]:
        """The roots the records were scanned under (what a results file must name: every
        path in it lies under one of them), else the folders chosen now."""
        if self.record_roots:
            return list(self.record_roots)
        found = sorted({r.root for r in self.records if r.root and not r.catalog})
        return found or [os.path.abspath(r) for r in self.roots]

    def results(self) -> Results:
        """The review as the core's results: what actions plan on and files save."""
        s = self.settings
        settings = {"bits": s.bits, "distance": s.distance, "features": s.features,
                    "grouping": s.grouping, "verify": s.verify, "similarity": s.similarity,
                    "measure": s.measure, "roots": self.scanned_roots(), "include": list(s.include),
                    "exclude": list(s.exclude), "min_size": s.min_size,
                    "max_size": s.max_size, "follow_symlinks": s.follow_symlinks,
                    "documents": s.documents,
                    "index": self.index_plan}
        if self.catalogs:
            settings["catalogs"] = [c.to_dict() for c in self.catalogs]
        return Results(self.records, self.groups, self.problems, settings, self.stats,
                       self.grouped_marks(), self._chosen_now(),
                       self.excerpts if self._grouped_records is self.records else [])

    def plan(self, action: str, *, move_to: str | None = None, flat: bool = False,
             trusted: Iterable[str] = (), catalog_copies: bool = False) -> Plan:
        """The checked plan for ``action`` on the marked files (ActionRefused, ValueError).
        ``trusted``: folders whose kept copies the user vouches for although other accounts
        can write them (act/trust.py). ``catalog_copies``: the user chose to let marked
        files go that keep no copy here but one a catalog names (else refused:
        CatalogCopiesRefused)."""
        res = self.results()
        plan = bind_scan_identity(plan_action(res, res.marks, action, move_to=move_to,
                                              flat=flat, reference=self.protected(),
                                              catalog_copies=catalog_copies), res)
        plan.trusted = [os.path.abspath(t) for t in trusted]
        return plan

    def plan_copy(self, copy_to: str, *, flat: bool = False, trusted: Iterable[str] = ()
                  ) -> Plan:
        """The plan to copy the marked files into ``copy_to`` (dupeGuru's "Copy marked
        to…"): nothing is removed, nothing is written over; undo removes each copy that is
        unchanged while its original still is (act/copying.py). ValueError for a bad
        destination."""
        res = self.results()
        plan = bind_scan_identity(plan_copy(res, res.marks, copy_to, flat=flat), res)
        plan.trusted = [os.path.abspath(t) for t in trusted]
        return plan

    def plan_rename(self, path: str, new_name: str) -> Plan:
        """The plan to give the grouped file ``path`` the name ``new_name`` in its folder (a
        move within the folder, checked, journaled and undone as one); ValueError for a
        name that is not a plain file name or that exists, and for a file under a reference
        folder (never touched)."""
        if marking.under_any(path, self.reference):
            raise ValueError(f"{path} is under a reference folder, and files there are never "
                             "touched")
        if path.startswith(CATALOG_SCHEME):
            raise ValueError(f"{path} is in a catalog, not on this computer")
        res = self.results()
        return bind_scan_identity(plan_rename(res, path, new_name), res)

    @staticmethod
    def execute(plan: Plan, *, dry_run: bool = False, journal: str | None = None,
                job: Job = NULL_JOB) -> ActionReport:
        """Carry out ``plan``; Refusal when the lock is held or the journal cannot start."""
        try:
            return execute(plan, job, dry_run=dry_run, journal=journal)
        except (ActionLocked, JournalRefused) as e:  # JournalRefused: e.g. a foreign key
            raise Refusal(str(e)) from e
        except OSError as e:  # the journal could not be started: nothing was done
            raise Refusal(f"cannot write the journal, so nothing was done: {e.strerror or e}"
                          + (f": {e.filename}" if e.filename else "")) from e

    @staticmethod
    def undo(journal: str | None = None, *, job: Job = NULL_JOB) -> ActionReport:
        """Reverse the last action (or the one in ``journal``); Refusal if refused."""
        try:
            return undo(journal, job)
        except FileNotFoundError:
            if journal is not None:  # that journal (or the lock) is missing: an error
                raise
            return ActionReport("undo")  # nothing left to undo: the report says "nothing to do"
        except (ActionLocked, ValueError) as e:
            raise Refusal(str(e)) from e

    @staticmethod
    def resume(journal: str, *, job: Job = NULL_JOB) -> ActionReport:
        """Finish an interrupted action: the half-done file first, then those not reached."""
        try:
            return resume(journal, job)
        except (ActionLocked, ValueError) as e:
            raise Refusal(str(e)) from e

    @staticmethod
    def release(journal: str | None = None, *, dry_run: bool = False,
                job: Job = NULL_JOB) -> ReleaseReport:
        """Delete the held originals of a finished link action (default: the newest that
        still holds some) whose bytes are at the kept side now; ``dry_run`` says what would
        be freed. Refusal for an untrusted journal, another action, an interrupted one, or
        while another action runs; with no ``journal`` and none to release, an empty
        report ("nothing to do")."""
        try:
            return release(journal, job, dry_run=dry_run)
        except FileNotFoundError:
            if journal is not None:
                raise  # the journal named cannot be read: an OSError for the caller
            return ReleaseReport("release", dry_run=dry_run)
        except (ActionLocked, ValueError) as e:
            raise Refusal(str(e)) from e

    @staticmethod
    def journals_to_release() -> list[str]:
        """The journals of link actions that still hold originals, newest first."""
        return journals_to_release()

    def finish_action(self, report: ActionReport) -> bool:
        """Keep ``report`` as the last action; drop files that are gone from the review and
        bring back files an undo restored. True if the records changed (regroup then)."""
        self.last_report = report
        if report.dry_run or report.action in ("release", "copy"):  # (no record changes)
            return False
        if report.action == "rename":
            return self._renamed({o.path: o.dest for o in report.outcomes
                                  if o.status == "done" and o.dest})
        gone = {o.path for o in report.outcomes if o.status == "done"
                and report.action in ("move", "trash", "delete", "hardlink", "symlink")}
        if report.action.startswith("undo"):
            records = {r.path: r for r in self._removed + self.records}.values()
            self.records = sorted((r for r in records if not r.catalog and os.path.exists(
                r.path)), key=lambda r: r.path) + self._catalogued
            self.marks |= {p for p in self._removed_marks if os.path.exists(p)}
            self._removed, self._removed_marks = [], set()
        elif gone:
            self._removed = [r for r in self.records if r.path in gone]
            self._removed_marks = self.marks & gone
            self.records = [r for r in self.records if r.path not in gone]
        self.marks -= gone
        return True

    def _renamed(self, new: dict[str, str]) -> bool:
        """The records of renamed files take their new paths (their marks and chosen
        references follow); the old ones are kept for an undo, as removed files are."""
        self._removed = [r for r in self.records if r.path in new]
        self._removed_marks = self.marks & set(new)
        self.records = [dataclasses.replace(r, path=new[r.path]) if r.path in new else r
                        for r in self.records]
        self.marks = {new.get(p, p) for p in self.marks}
        self.chosen_references = [new.get(p, p) for p in self.chosen_references]
        return True

    def clear_cache(self) -> int:
        """Empty the fingerprint cache (the next scan reads every file again)."""
        cache = FingerprintCache(self.settings.scan_options().cache_path)
        try:
            n = cache.count()
            cache.clear()
        except sqlite3.Error as e:  # read-only or unusable: say so, nothing is lost
            raise Refusal(f"cannot clear the fingerprint cache {cache.path}: {e}") from e
        finally:
            cache.close()
        return n

    # ------------------------------------------------------------------ files
    def save(self, path: str) -> None:
        """Save the results with their marks (and every record)."""
        res = self.results()
        save_results(res, path)
        self.saved_marks = set(res.marks)

    def export(self, path: str, fmt: str | None = None) -> None:
        export_results(self.results(), path, fmt)

    def load(self, path: str, *, keep_groups: bool = False) -> None:
        """Load saved results: records, problems, roots, size and distance, marks (never
        under a reference folder). With ``keep_groups`` the file's groups are the groups
        (what `simdup apply` acts on); else groups follow on :meth:`regroup`, at the file's
        settings. OSError, ValueError (:class:`~.review.schema.ResultsError`)."""
        self.set_loaded(load_results(path), keep_groups=keep_groups)

    def set_loaded(self, res: Results, *, keep_groups: bool = False) -> None:
        """Keep results loaded by :func:`~.review.export.load_results` (which may run on a
        worker thread: it reads no session state) as :meth:`load` does."""
        self.records, self.problems, self.stats = res.records, res.problems, res.stats
        self.excerpts = list(res.excerpts)  # (record indices of the file's records)
        self.record_roots = [os.path.abspath(r) for r in res.settings.get("roots") or ()]
        self.catalogs = catalogs.infos_of(res.settings)
        self._catalogued = [r for r in self.records if r.catalog]  # (in place: the groups'
        # indices are the file's)
        self.record_features = catalogs.features_of(res.settings, self.settings.features)
        bits = int(res.settings.get("bits", self.settings.bits))
        if bits in ALLOWED_BITS:
            self.settings.bits = bits
        self.settings.distance = int(res.settings.get("distance", self.settings.distance))
        self.settings.similarity = float(res.settings.get("similarity",
                                                          self.settings.similarity))
        if res.settings.get("verify") in VERIFY_MODES:
            self.settings.verify = res.settings["verify"]
        if res.settings.get("measure") in MEASURES:
            self.settings.measure = res.settings["measure"]
        self.chosen_references = sorted(res.chosen)
        self.marks = {p for p in marking.without_reference(res.marks, [*self.reference,
                                                                       *res.chosen])
                      if not p.startswith(CATALOG_SCHEME)}
        self.saved_marks = set(self.marks)
        self._removed, self._removed_marks = [], set()
        if keep_groups:
            self._all_groups, self.group_bits = list(res.groups), res.bits
            self.index_plan = str(res.settings.get("index") or "")
            self._grouped_records, self._rereferenced = self.records, {}
            self._apply_ignore()


def paths_of(records: Sequence[FileRecord], indices: Iterable[int]) -> list[str]:
    """The paths of the records at ``indices`` (a view's selection)."""
    return [records[i].path for i in indices if i is not None and i >= 0]
