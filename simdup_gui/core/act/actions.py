"""Plan and carry out move / trash / delete / replace-by-link on marked files, safely and
with a journal.

Safety, in order: :func:`plan_action` refuses marks that would leave a marked file with no
unmarked copy within the results' distance (or the same text), and marks under a reference
folder; just before each file, :func:`execute` re-checks that the file is the one the scan
saw (real path under its scanned root; device and inode; size, mtime_ns, content hash) and
that one of those kept copies still exists unchanged, else skips it with the reason, and
acts on it through its folder opened from the root down without following links. Every
file gets an :class:`Outcome`; a dry run runs the same checks and touches nothing. A real
run holds the action lock (one apply, undo or resume at a time).

"hardlink" and "symlink" replace a marked file by a link to a kept copy of its group, but
only a byte-identical one (same content hash, checked just before acting): simdup finds
near duplicates, and a link to a near copy would lose the file's differences, so those
are skipped with the reason. The original is first given a second name in a holding
folder in the user data folder (:func:`~.journal.held_dir`: a hard link there, or a
verified copy across file systems), the link is made under a temporary name beside it
and renamed over it, so the path never goes missing and undo puts the original back
byte-exact (same inode where it was held by a hard link).
"""

from __future__ import annotations

import errno
import os
import stat
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace

from .copying import KEEPS_ALL, rename_journaled, rename_problem
from .fileops import (Anchored, anchor, copy_at, duplicate_at,
                      find_trash_entry, hash_at, is_link_to, is_under, make_link_at,
                      move_file, replace_at, same_file, send_to_trash,
                      sibling, temp_name_for, unique_path, unlink_at)
from ..job import NULL_JOB, Cancelled, Job
from .journal import (JOURNAL_VERSION, JournalWriter, held_dir, new_journal_path,
                      symlinked_targets)
from .lock import action_lock
from .marking import results_threshold, under_any
from .outcome import (STATUSES, ActionReport, JournalWriteError, Outcome, error_text,  # noqa: F401
                      journal_write)
from .kept import (BUSY_REASON, LAST_COPY_REASON, NEAR_REASON, KeptChecker,  # noqa: F401
                   KeptCopy, PairGuard, anchor_kept, check_file, path_still_leads_to, root_for)
from .trust import destination_problem, hardlink_problem
from ..ourfiles import private_dir
from ..models import ProgressEvent, human_size
from ..review.results import Results
from ..group.verify import PairSimilarity
from ..validate import one_of

ACTIONS = ("move", "trash", "delete", "hardlink", "symlink")
LINK_ACTIONS = ("hardlink", "symlink")  # replace the file by a link to a byte-identical kept copy
TO_FOLDER = ("move", "copy")  # actions that put files into a destination folder
class ActionRefused(ValueError):
    """The marks would lose data (a file with no similar copy left, or a file under a
    reference folder), so nothing was done."""


class CatalogCopiesRefused(ActionRefused):
    """Refused only because marked files would keep no copy here, only the byte-identical
    one a catalog names on a drive that is not plugged in: planning again with
    ``catalog_copies`` (the user's explicit choice) relies on it. ``files``: how many."""

    def __init__(self, message: str, files: int, catalogs: list[str]) -> None:
        super().__init__(message)
        self.files, self.catalogs = files, catalogs


@dataclass
class PlannedOp:
    """One marked file and what will be done to it."""

    seq: int
    action: str
    path: str
    size: int
    mtime_ns: int
    content_hash: str
    group_id: int
    root: str
    dest: str | None  # intended destination of a move (the final name may differ on a clash)
    kept: list[KeptCopy]
    ino: int = 0  # the scan's inode and device (0: not known); see bind_scan_identity
    dev: int = 0
    catalog: str = ""  # no kept copy here: the user chose to rely on the byte-identical
    # copy that this catalog names on a drive not plugged in (plan_action catalog_copies)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> PlannedOp:
        """From a journal's start entry (fields this version does not know are ignored)."""
        known = set(cls.__dataclass_fields__)
        kf = set(KeptCopy.__dataclass_fields__)
        d = {k: v for k, v in d.items() if k in known}
        d["kept"] = [KeptCopy(**{f: v for f, v in k.items() if f in kf})
                     for k in d.get("kept", [])]
        return cls(**d)


@dataclass
class Plan:
    action: str
    ops: list[PlannedOp]
    move_to: str | None = None
    flat: bool = False
    notes: list[str] = field(default_factory=list)  # caveats to show before acting
    held: str | None = None  # links: the holding folder of a resumed action (its journal's)
    trusted: list[str] = field(default_factory=list)  # folders whose kept copies the user
    # vouches for though other accounts can write them (act/trust.py)

    @property
    def total_bytes(self) -> int:
        return sum(op.size for op in self.ops)

    def catalog_only(self) -> list[PlannedOp]:
        """The ops whose file keeps no copy here, only the one a catalog names."""
        return [op for op in self.ops if op.catalog]

    def describe(self) -> str:
        """One line for a confirmation: the action, the count and the size."""
        verb = {"move": f"Move to {self.move_to}", "trash": "Send to the trash",
                "delete": "Delete permanently", "hardlink": "Replace with hard links",
                "symlink": "Replace with symbolic links", "copy": f"Copy to {self.move_to}",
                "rename": "Rename"}[self.action]
        n = len(self.ops)
        return f"{verb}: {n} file{'s' if n != 1 else ''}, {human_size(self.total_bytes)}"

    def actable(self) -> Plan:
        """The plan without the files it will skip for sure: for a link, those with no
        byte-identical kept copy (near duplicates, kept as they are). What a confirmation
        and a summary count."""
        if self.action not in LINK_ACTIONS:
            return self
        ops = [op for op in self.ops if any(k.content_hash == op.content_hash
                                            for k in op.kept)]
        return replace(self, ops=ops)


def _intended_dest(path: str, root: str, move_to: str, flat: bool) -> str:
    rel = os.path.basename(path)
    if not flat and root:
        r = os.path.relpath(path, root)
        if not r.startswith(os.pardir + os.sep) and r != os.pardir and not os.path.isabs(r):
            rel = r
    return os.path.join(move_to, rel)


def _similar_kept(r, kept: list, threshold: float, sims: PairSimilarity
                  ) -> tuple[list, tuple[float, object] | None]:
    """The kept records whose text is at least ``threshold`` similar to ``r``, measured
    from the files now, and the most similar kept record with its similarity. When no
    kept copy can be read unchanged, all of them (acting then skips ``r``, saying why)."""
    near, unknown, nearest = [], [], None
    for c in kept:
        j = sims.measured(r, c)
        if j is None:  # changed or gone since the scan: acting will find no unchanged copy
            unknown.append(c)
            continue
        if nearest is None or j > nearest[0]:
            nearest = (j, c)
        if j >= threshold:
            near.append(c)
    if not near and nearest is None:
        return unknown, None  # planned; skipped when acting, with the reason
    return near, nearest


def _destination(action: str, move_to: str | None) -> str | None:
    """The absolute destination folder of a move (ValueError for a bad one, or for one
    given to another action)."""
    if action == "move":
        if not move_to:
            raise ValueError("move needs a destination folder")
        move_to = os.path.abspath(move_to)
        if os.path.exists(move_to) and not os.path.isdir(move_to):
            raise ValueError(f"destination is not a folder: {move_to}")
    elif move_to:
        raise ValueError(f"a destination folder only makes sense for move, not {action}")
    return move_to


def plan_action(res: Results, marks: Iterable[str], action: str, *, move_to: str | None = None,
                flat: bool = False, reference: Sequence[str] = (),
                catalog_copies: bool = False) -> Plan:
    """The ops for ``action`` on the marked files of ``res``.

    Each marked file is protected only by the unmarked files of its group whose text is at
    least the results' similarity threshold similar to it, measured from both files now
    (a results file's fingerprints and similarities are only claims).

    Catalogued files (not here) are never acted on nor a kept copy. A marked file with no
    kept copy here whose bytes a catalogued member of its group has (by the catalog's
    word) raises :class:`CatalogCopiesRefused`, unless ``catalog_copies`` (the user's
    explicit choice): then it is planned with no kept copy (PlannedOp.catalog) for a move or
    the trash, never a permanent delete nor a link: the last copy here is never gone for good
    on an untrusted file's word.

    Raises ActionRefused if a marked file would have no such copy left (or cannot be
    measured: changed or unreadable since the scan), is in no group (no known copy to
    keep), is under a ``reference`` folder or is catalogued, and ValueError for a bad
    action or destination.
    """
    move_to = _destination(one_of("action", action, ACTIONS), move_to)
    m = set(marks)
    _refuse_untouchable(res, m, reference)
    planner = _Planner(res, m, action, move_to, flat, catalog_copies)
    for g in res.groups:
        planner.group(g)
    stray = sorted(m - planner.in_groups)
    if stray:
        planner.problems.append(f"{len(stray)} marked files are in no group, so no copy of "
                                f"them is known to stay (first: {stray[0]})")
    planner.refuse()
    notes = planner.notes()
    inside = [r for r in res.settings.get("roots") or () if move_to and is_under(move_to, r)]
    if inside:
        notes.append(f"{move_to} is inside the scanned folder {inside[0]}: the files moved there "
                     "will be found again by its next scan; a folder outside keeps them out")
    return Plan(action, planner.ops, move_to, flat, notes)


def _refuse_untouchable(res: Results, marks: set[str], reference: Sequence[str]) -> None:
    """ActionRefused for marks on files under a reference folder or from a catalog."""
    refs = sorted(p for p in marks if under_any(p, reference))
    if refs:
        raise ActionRefused(
            f"Refused, nothing was done: {len(refs)} marked files are under a reference "
            "folder, and files there are never touched (first: "
            f"{refs[0]}). Unmark them or change the reference folders.")
    away = sorted(r.path for r in res.records if r.catalog and r.path in marks)
    if away:
        raise ActionRefused(
            f"Refused, nothing was done: {len(away)} marked files are from a catalog, not on "
            f"this computer, and files there are never touched (first: {away[0]}).")


class _Planner:
    """:func:`plan_action`'s walk over the groups: the ops, the problems, and the marked
    files that only a catalog's copy would keep (``away_only``: (path, catalog))."""

    def __init__(self, res: Results, marks: set[str], action: str, move_to: str | None,
                 flat: bool, catalog_copies: bool) -> None:
        self.res, self.m, self.action, self.move_to, self.flat = res, marks, action, move_to, flat
        self.catalog_copies, self.threshold = catalog_copies, results_threshold(res)
        self.sims, self.in_groups = PairSimilarity(), set()
        self.problems, self.near_only = [], []
        self.ops: list[PlannedOp] = []
        self.away_only: list[tuple[str, str]] = []

    def group(self, g) -> None:
        recs = [self.res.records[i] for i in g.indices()]
        self.in_groups.update(r.path for r in recs)
        here = [r for r in recs if not r.catalog]
        marked = [r for r in here if r.path in self.m]
        unmarked = [r for r in here if r.path not in self.m]
        if marked and not unmarked and len(here) == len(recs):
            self.problems.append(f"group {g.id}: all {len(recs)} files are marked; "
                                 "unmark at least one to keep")
            return
        on_drive = {c.content_hash: c.catalog for c in recs if c.catalog and c.content_hash}
        for r in marked:
            if not unmarked:
                near, nearest = [], None
            elif not self.sims.readable(r):
                # changed or unreadable since the scan: planned, and skipped when acting
                # (its content hash is checked first), so it never blocks the others
                near, nearest = unmarked, None
            else:
                near, nearest = _similar_kept(r, unmarked, self.threshold, self.sims)
            if near:
                self._add(g, r, near)
            elif r.content_hash in on_drive and self.action not in LINK_ACTIONS:
                if self.catalog_copies:  # the last copy here: never gone for good on a word
                    self._add_away(g, r, on_drive[r.content_hash])
                else:
                    self.away_only.append((r.path, on_drive[r.content_hash]))
            else:
                self.problems.append(self._no_copy(g, r, nearest, on_drive))

    def _add_away(self, g, r, catalog: str) -> None:
        if self.action == "delete":
            self.problems.append(f"group {g.id}: {r.path} is the last copy on this computer; on "
                                 "a catalog's word it may be moved or trashed, never be deleted "
                                 f"permanently (its copy is in the catalog {catalog})")
        else:
            self._add(g, r, [], catalog)

    def _no_copy(self, g, r, nearest, on_drive: dict[str, str]) -> str:
        if nearest is not None:
            j, c = nearest
            return (f"group {g.id}: {r.path} has no kept copy at least {self.threshold:.0%} "
                    f"similar in text; the most similar kept copy is {c.path} at {j:.0%}")
        if r.content_hash in on_drive:  # a link
            return (f"group {g.id}: {r.path} keeps no copy on this computer, and a link "
                    f"needs one here (its copy is in the catalog {on_drive[r.content_hash]})")
        return (f"group {g.id}: {r.path} keeps no copy on this computer, and no file of a "
                "catalog has its bytes (a near duplicate's differences are not on that drive)")

    def _add(self, g, r, near: list, catalog: str = "") -> None:
        kept = [KeptCopy(c.path, c.size, c.mtime_ns, c.content_hash) for c in near]
        if self.action in LINK_ACTIONS and not any(k.content_hash == r.content_hash
                                                   for k in kept):
            self.near_only.append(r.path)
        dest = (_intended_dest(r.path, r.root, self.move_to, self.flat)
                if self.action == "move" else None)
        self.ops.append(PlannedOp(len(self.ops), self.action, r.path, r.size, r.mtime_ns,
                                  r.content_hash, g.id, r.root, dest, kept, catalog=catalog))

    def refuse(self) -> None:
        """ActionRefused for the problems (and the files only a catalog keeps, named with
        them); CatalogCopiesRefused when those files are the only objection."""
        away, names = self.away_only, sorted({c for _, c in self.away_only})
        said = (f"{len(away)} marked files would keep no copy on this computer: only the "
                f"catalog {', '.join(names)} says a byte-identical copy is on a drive that is "
                f"not plugged in (first: {away[0][0]}). Relying on a catalog for the last "
                "copy here must be chosen explicitly." if away else "")
        if self.problems:
            hint = ("\nUnmark a file similar to each of these (the group's reference ★ is "
                    "similar to every member)."
                    if any("similar in text" in p for p in self.problems) else "")
            raise ActionRefused("Refused, nothing was done: this would leave files with no "
                                "copy (or none similar enough).\n"
                                + "\n".join("  " + p for p in self.problems) + hint
                                + ("\n" + said if said else ""))
        if away:
            raise CatalogCopiesRefused("Refused, nothing was done: " + said, len(away), names)

    def notes(self) -> list[str]:
        notes = []
        if self.near_only:
            notes.append(f"{len(self.near_only)} marked files are near duplicates, not "
                         "byte-identical to a kept copy; a link would lose their differences, "
                         f"so they will be skipped (first: {self.near_only[0]})")
        away = [op for op in self.ops if op.catalog]
        if away:
            notes.append(f"{len(away)} files keep no copy on this computer: they go on the "
                         f"word of the catalog {', '.join(sorted({op.catalog for op in away}))} "
                         "alone, which says a byte-identical copy is on a drive that is not "
                         "plugged in (simdup cannot check that it still is)")
        return notes


def bind_scan_identity(plan: Plan, res: Results) -> Plan:
    """Record in ``plan`` what the scan saw of each file: its inode and device, and each
    kept copy's scan root (from ``res``), so :func:`execute` can tell when another file has
    taken a path since the scan. Returns ``plan``."""
    recs = {r.path: r for r in res.records}
    for op in plan.ops:
        r = recs.get(op.path)
        if r is not None:
            op.ino, op.dev = int(r.inode or 0), int(r.dev or 0)
        for k in op.kept:
            c = recs.get(k.path)
            if c is not None:
                k.root, k.ino, k.dev = c.root, int(c.inode or 0), int(c.dev or 0)
    return plan


def _nlink_note(st: os.stat_result | None) -> str:
    n = st.st_nlink if st is not None else 1
    return f"has {n - 1} other hard link(s); no space is freed" if n > 1 else ""


class _Stop(Exception):
    """Raised by :func:`_one` when the journal failed: the file's outcome so far."""

    def __init__(self, out: Outcome, err: JournalWriteError) -> None:
        self.out, self.err = out, err


def execute(plan: Plan, job: Job = NULL_JOB, *, dry_run: bool = False,
            journal: str | None = None, trash: Callable[[str], None] = send_to_trash,
            seqs: Iterable[int] | None = None,
            _writer: JournalWriter | None = None) -> ActionReport:
    """Carry out ``plan`` (or with ``dry_run`` say what would happen, touching nothing).

    ``journal`` is the journal file (default: a new one in the user data folder); it must
    not exist yet (FileExistsError), so one journal never holds two actions. Dry runs
    write none. ``trash`` sends one file to the trash (injectable for tests). Cancelling
    ``job`` stops between files; the files not reached are reported as skipped. ``seqs``
    limits the run to those ops (used by resume).

    Each file is acted on through its folder opened from its scanned root down without
    following links (see :func:`~.fileops.anchor`), after checking that its real path is
    under that root and that it is the file the scan saw (inode and device when the plan
    has them: :func:`bind_scan_identity`; size, mtime, content hash); otherwise it is
    skipped, with the reason.

    A real run holds the action lock (:func:`~.lock.action_lock`): while another apply,
    undo or resume runs, it waits briefly, then raises :class:`~.lock.ActionLocked`. If the
    journal cannot be written once the action has started, it stops before the next file
    and the report says so (``ActionReport.stopped``); the files not reached are skipped.
    """
    if dry_run:
        return _execute(plan, job, True, journal, trash, seqs, _writer)
    with action_lock():
        return _execute(plan, job, False, journal, trash, seqs, _writer)


def _execute(plan: Plan, job: Job, dry_run: bool, journal: str | None,
             trash: Callable[[str], None], seqs: Iterable[int] | None,
             _writer: JournalWriter | None) -> ActionReport:
    report = ActionReport(plan.action, dry_run=dry_run)
    writer = _writer
    jid = uuid.uuid4().hex
    if not dry_run and writer is None:
        writer = JournalWriter(journal or new_journal_path(), new=True)
        start = {"type": "start", "version": JOURNAL_VERSION, "id": jid, "time": time.time(),
                 "action": plan.action, "move_to": plan.move_to, "flat": plan.flat,
                 "ops": [op.to_dict() for op in plan.ops]}
        if plan.action in LINK_ACTIONS:
            start["held"] = held_dir(jid)
        try:
            writer.write(start)
        except BaseException:
            writer.discard()  # nothing was done: leave no empty or half journal behind
            raise
    report.journal = writer.path if writer else None
    held = plan.held or (held_dir(jid) if plan.action in LINK_ACTIONS else None)
    wanted = set(seqs) if seqs is not None else None
    ops = [op for op in plan.ops if wanted is None or op.seq in wanted]
    total_bytes = sum(op.size for op in ops)
    kept = KeptChecker({op.root for op in plan.ops if op.root}, plan.trusted)
    kept.linked = symlinked_targets() if plan.ops else {}
    if plan.action in TO_FOLDER and plan.move_to:  # not into another account's reach
        kept.destination = destination_problem(plan.move_to, plan.trusted)
    taken: set[str] = set()
    claimed: set[str] = set()
    done_bytes = 0
    try:
        for i, op in enumerate(ops):
            job.report(ProgressEvent("apply", i, len(ops), done_bytes, total_bytes, op.path))
            try:
                job.check()
            except Cancelled:
                report.cancelled = True
                report.outcomes += [Outcome(o.path, "skipped", o.action, reason="cancelled "
                                            "before this file", size=o.size, group_id=o.group_id)
                                    for o in ops[i:]]
                break
            try:
                out = _one(op, plan, kept, taken, claimed, dry_run, writer, trash, held)
            except _Stop as stop:
                report.outcomes.append(stop.out)
                report.stopped = str(stop.err) + "; stopped before the next file"
                report.outcomes += [Outcome(o.path, "skipped", o.action, reason="not reached: "
                                            "the action stopped (the journal could not be "
                                            "written)", size=o.size, group_id=o.group_id)
                                    for o in ops[i + 1:]]
                break
            report.outcomes.append(out)
            done_bytes += op.size
        job.report(ProgressEvent("done", len(report.outcomes), len(ops), done_bytes,
                                 total_bytes))
    finally:
        if writer is not None:
            if not report.stopped:
                try:
                    writer.write({"type": "end", "time": time.time(),
                                  "cancelled": report.cancelled})
                except OSError as e:  # every file is done: only the end mark is missing
                    report.stopped = f"the journal's end could not be written ({error_text(e)})"
            if _writer is None:
                writer.close()
    return report


def _one(op: PlannedOp, plan: Plan, kept: KeptChecker, taken: set[str], claimed: set[str],
         dry_run: bool, writer: JournalWriter | None,
         trash: Callable[[str], None], held: str | None = None) -> Outcome:
    """One file of the plan: checked (:meth:`_Step.why_not`), then acted on, journaled;
    its outcome. Raises _Stop when the journal could not be written."""
    step = _Step(op, plan, kept, writer)
    try:
        why = step.why_not(taken, dry_run)
        if why is not None:
            step.out.reason = why
            if writer:
                journal_write(writer, {"type": "skipped", "seq": op.seq, "reason": why},
                              sync=False)
            return step.out
        if dry_run:
            if op.action in LINK_ACTIONS:
                step.note = f"would become a {_LINK_NAME[op.action]} to {step.out.dest}"
            step.out.status, step.out.reason = "planned", step.note
            return step.out
        return step.act(taken, claimed, trash, held)
    except JournalWriteError as e:
        raise _Stop(step.stopped(e), e) from None
    finally:
        step.close()


class _Step:
    """What :func:`_one` knows of its file: the file as checked (``st``, ``loc``: its folder
    held open), the kept copy that justifies the action (``k``, and for a link ``kloc``),
    the outcome so far, and whether the disk was changed yet (``acted``)."""

    def __init__(self, op: PlannedOp, plan: Plan, kept: KeptChecker,
                 writer: JournalWriter | None) -> None:
        self.op, self.plan, self.kept, self.writer = op, plan, kept, writer
        self.out = Outcome(op.path, "skipped", op.action, size=op.size, group_id=op.group_id)
        self.why, self.st, self.loc = check_file(op.path, op.root, op.size, op.mtime_ns,
                                                  op.content_hash, op.ino, op.dev)
        self.k: KeptCopy | None = None
        self.kloc: Anchored | None = None
        self.note = ""
        self.acted = False  # has the file system been changed for this file?

    def close(self) -> None:
        for a in (self.loc, self.kloc):
            if a is not None:
                a.close()

    def why_not(self, taken: set[str], dry_run: bool) -> str | None:
        """Why the file is not to be acted on now, or None (every check passed)."""
        op, st, why = self.op, self.st, self.why
        links = self.kept.linked.get(op.path) if op.action != "copy" else None
        if why is None and links:
            why = (f"{len(links)} symbolic link(s) that simdup made point to it (first: "
                   f"{links[0]}); acting on it would leave them dangling: undo that action "
                   "first; not touched")
        if why is None and op.action in LINK_ACTIONS:
            self.k, why = self.kept.identical(op, st)
            if why is None:
                why = self._link_target()
        elif why is None and op.action not in KEEPS_ALL and not (op.catalog and not op.kept):
            # (a copy or a rename loses nothing; a file the user chose to let go on a
            # catalog's word has no copy here to check: plan_action's catalog_copies)
            self.k, why = self.kept.usable(op, st)
        elif why is None and op.action not in ("move", "trash", *KEEPS_ALL):  # (a plan not
            why = LAST_COPY_REASON  # from plan_action: an old journal resumed, an API call)
        self.note = _nlink_note(st) if op.action in ("trash", "delete") else ""
        if why is None and op.action == "rename":
            self.out.dest = op.dest
            why = rename_problem(op)
        if why is None and op.action in TO_FOLDER:
            why = self.kept.destination
        if why is None and op.action in TO_FOLDER:
            self.out.dest = unique_path(op.dest or "", taken)
            taken.add(self.out.dest)
            if not self.plan.move_to or not is_under(self.out.dest, self.plan.move_to):
                why = f"its destination {self.out.dest} is not inside {self.plan.move_to}"
        if why is None and op.action == "trash" and not dry_run:
            why = path_still_leads_to(self.loc, st)  # the trash is told a path: check it
        return why

    def _link_target(self) -> str | None:
        """The byte-identical kept copy ``k`` held open as the link's target, or why not."""
        k, st, op = self.k, self.st, self.op
        assert k is not None and st is not None
        self.out.dest = k.path
        self.kloc, kst, why = anchor_kept(k, self.kept.roots)
        if why is None and same_file(st, kst):
            why = f"is already the same file as its kept copy {k.path} (a hard link)"
        if why is None and op.action == "hardlink" and st.st_dev != kst.st_dev:
            why = (f"its kept copy {k.path} is on another file system, and a hard "
                   "link cannot cross file systems; not touched")
        if why is None and op.action == "hardlink":
            why = hardlink_problem(k.path, kst, st, self.kept.trusted)
        return why

    def act(self, taken: set[str], claimed: set[str], trash: Callable[[str], None],
            held: str | None) -> Outcome:
        """Carry out the checked action; any failure is reported as one, never as success."""
        op, out, writer = self.op, self.out, self.writer
        assert writer is not None and self.loc is not None and self.st is not None
        guard = PairGuard()
        try:
            if op.action not in ("move", *KEEPS_ALL):  # (these lose nothing)
                why = guard.take(self.loc, self.st, self.k, self.kept.roots)
                if why is not None:
                    out.reason = why
                    journal_write(writer, {"type": "skipped", "seq": op.seq, "reason": why})
                    return out
            if op.action == "move":
                self._move(taken)
            elif op.action == "copy":
                self._copy(taken)
            elif op.action == "rename":
                how = rename_journaled(op, self.loc, self.writer, move_file)
                self.acted = True
                journal_write(self.writer, {"type": "done", "seq": op.seq, "dest": op.dest,
                                            "how": how}, sync=False)
            elif op.action in LINK_ACTIONS:
                if not self._link(held):
                    return out
            elif op.action == "trash":
                self._trash(trash, claimed)
            elif not self._delete(guard):
                return out
        except JournalWriteError:
            raise
        except Exception as e:  # noqa: BLE001 - reported as the file's failure
            out.status, out.reason = "failed", error_text(e)
            journal_write(writer, {"type": "failed", "seq": op.seq, "error": out.reason})
            return out
        finally:
            guard.release()
        out.status, out.reason = "done", self.note
        return out

    def _move(self, taken: set[str]) -> None:
        op, out = self.op, self.out
        out.dest, how = _move_journaled(op, self.loc, out.dest or "", self.plan.move_to or "",
                                        taken, self.writer)
        self.acted = True
        if how == "copy":
            self.note = "copied across file systems, verified, original removed"
        journal_write(self.writer, {"type": "done", "seq": op.seq, "dest": out.dest,
                                    "how": how}, sync=False)

    def _copy(self, taken: set[str]) -> None:
        """A copy of the checked file under its destination, never over a file there."""
        op, out, loc, st = self.op, self.out, self.loc, self.st
        out.dest, cst = _move_journaled(op, loc, out.dest or "", self.plan.move_to or "",
                                        taken, self.writer,
                                        lambda _s, d, h, tmp: copy_at(loc, st, d, h, tmp))
        self.acted = True
        journal_write(self.writer, {"type": "done", "seq": op.seq, "dest": out.dest,
                                    "ino": cst.st_ino, "dev": cst.st_dev}, sync=False)

    def _link(self, held: str | None) -> bool:
        op, kloc = self.op, self.kloc
        assert kloc is not None and held is not None
        try:
            how = _link_journaled(op, self.loc, self.st, kloc, held, self.writer)
        except _NotLinked as e:
            self.out.reason = str(e)
            journal_write(self.writer, {"type": "skipped", "seq": op.seq,
                                        "reason": self.out.reason})
            return False
        self.acted = True
        self.note = (f"now a {_LINK_NAME[op.action]} to {kloc}; the original is held in "
                     f"{held} for undo" + (" (copied: another file system)"
                                           if how == "copy" else ""))
        journal_write(self.writer, {"type": "done", "seq": op.seq, "how": how}, sync=False)
        return True

    def _trash(self, trash: Callable[[str], None], claimed: set[str]) -> None:
        op = self.op
        journal_write(self.writer, {"type": "begin", "seq": op.seq, "path": op.path})
        self.acted = True
        trash(op.path)
        if os.path.lexists(op.path):
            raise OSError(f"the trash reported success but {op.path} is still there")
        entry = find_trash_entry(op.path, claimed)
        if entry:
            claimed.add(entry["trash_info"])
            if not same_file(os.lstat(entry["trash_file"]), self.st):
                raise OSError(f"the file that went to the trash is not the one that "
                              f"was checked (its path changed meanwhile); it is at "
                              f"{entry['trash_file']}")
        self.out.restorable = entry is not None
        if entry is None:
            self.note = (self.note + "; " if self.note else "") + "undo cannot restore it " \
                "on this platform: restore it from the system trash"
        journal_write(self.writer, {"type": "done", "seq": op.seq, **(entry or {}),
                                    "restorable": entry is not None})

    def _delete(self, guard: PairGuard) -> bool:
        op = self.op
        why = guard.kept_changed(self.k)  # through its locked descriptor
        if why is None and self.k is not None and guard.kept_fd is None:  # (no flock here)
            why = self.kept.recheck(self.k)
        if why is not None:  # the kept copy changed since its check: keep this one
            self.out.reason = why
            journal_write(self.writer, {"type": "skipped", "seq": op.seq, "reason": why})
            return False
        journal_write(self.writer, {"type": "begin", "seq": op.seq, "path": op.path})
        unlink_at(self.loc, self.st)
        self.acted = True
        journal_write(self.writer, {"type": "done", "seq": op.seq}, sync=False)
        return True

    def stopped(self, e: JournalWriteError) -> Outcome:
        """The outcome when the journal failed: done (with a note) if the disk changed."""
        out = self.out
        if out.status == "failed":
            pass  # the failure is reported; only its journal entry is missing
        elif self.acted:
            out.status = "done"
            out.reason = ((self.note + "; ") if self.note else "") + "done, but its journal " \
                "entry could not be written"
        else:
            out.status, out.reason = "skipped", f"not done: {e}"
        return out


_LINK_NAME = {"hardlink": "hard link", "symlink": "symbolic link"}

class _NotLinked(Exception):
    """The link could not be made (a hard link across file systems); nothing changed."""


def _link_journaled(op: PlannedOp, loc: Anchored, st: os.stat_result, kloc: Anchored,
                    held: str, writer: JournalWriter) -> str:
    """Replace the checked file ``loc`` (status ``st``) by a link to ``kloc``: journal the
    names, make the link under a temporary name beside it, give the original a second
    name in the holding folder ``held``, then rename the link over it if it is still the
    checked file. Returns how the original is held ("link" or "copy"). Raises
    :class:`_NotLinked` when the link cannot be made (nothing changed)."""
    kst = kloc.lstat()
    if kst is None:
        raise FileNotFoundError(errno.ENOENT, "its kept copy vanished just now", str(kloc))
    tmp = temp_name_for(op.path)
    keep_at = os.path.join(held, str(op.seq), os.path.basename(op.path))
    journal_write(writer, {"type": "begin", "seq": op.seq, "path": op.path, "target": str(kloc),
                 "target_dev": kst.st_dev, "target_ino": kst.st_ino, "tmp": tmp,
                 "held": keep_at})
    private_dir(held)  # the originals held for undo: only this user's, whatever the umask
    t = sibling(loc, tmp)
    made_link = False
    try:
        try:
            make_link_at(op.action, kloc, t)
        except OSError as e:
            if e.errno == errno.EXDEV:
                raise _NotLinked(f"its kept copy {kloc} is on another file system, and a "
                                 "hard link cannot cross file systems; not touched") from None
            raise
        made_link = True
        with anchor(keep_at, held, create=True) as h:
            how = duplicate_at(loc, st, h, op.content_hash)
            try:
                _kept_unchanged(kloc, kst, op.content_hash)
                _unchanged(loc, st)  # (an edit while its original was copied: not lost)
                replace_at(t, loc, st)
            except BaseException:
                try:  # not replaced: drop the held name, unless the link is in place
                    hst = h.lstat()
                    if hst is not None and stat.S_ISREG(hst.st_mode) and not is_link_to(
                            loc, loc.lstat(), op.action, str(kloc), kst.st_dev, kst.st_ino):
                        os.unlink(h.name, dir_fd=h.dir_fd)
                except OSError:
                    pass
                raise
        made_link = False
        return how
    finally:
        if made_link:  # not renamed over the file: remove the link made for it
            try:
                tst = t.lstat()
                if is_link_to(t, tst, op.action, str(kloc), kst.st_dev, kst.st_ino):
                    os.unlink(t.name, dir_fd=t.dir_fd)
            except OSError:
                pass
        t.dir_fd = None


def _kept_unchanged(kloc: Anchored, kst: os.stat_result, content_hash: str) -> None:
    """The last look at a kept copy before a file becomes a link to it: the same file
    (device, inode, size, mtime) with the same bytes (read again through its open folder),
    else _NotLinked: an edit made to it meanwhile would otherwise become the file's text."""
    now = kloc.lstat()
    if (now is None or not same_file(now, kst)
            or (now.st_size, now.st_mtime_ns) != (kst.st_size, kst.st_mtime_ns)
            or hash_at(kloc, now) != content_hash):
        raise _NotLinked(f"its kept copy {kloc} changed just now; not touched")


def _unchanged(loc: Anchored, st: os.stat_result) -> None:
    """_NotLinked unless the file at ``loc`` is still ``st``'s, unedited (size and times):
    an edit made while its original was being held (a copy across disks takes a while)
    would be lost under the link."""
    now = loc.lstat()
    if now is None or not same_file(now, st) or (now.st_size, now.st_mtime_ns) != (
            st.st_size, st.st_mtime_ns):
        raise _NotLinked(f"{loc} changed while its original was being held; not touched")


def _move_journaled(op: PlannedOp, loc: Anchored, dest: str, move_to: str, taken: set[str],
                    writer: JournalWriter, place: Callable | None = None) -> tuple[str, object]:
    """Move the checked file ``loc`` to ``dest`` (inside ``move_to``, reached without
    following links), journaling the names first; a name taken meanwhile gets a new one.
    ``place`` (source, destination, hash, tmp) puts it there instead of a move (a copy).
    Returns the destination and what ``place`` (default: move_file) returned."""
    for _ in range(100):
        tmp = temp_name_for(dest)
        with anchor(dest, move_to, create=True) as d:
            journal_write(writer, {"type": "begin", "seq": op.seq, "path": op.path, "dest": dest,
                         "tmp": tmp})
            try:
                return dest, (place or move_file)(loc, d, op.content_hash, tmp)
            except FileExistsError:
                dest = unique_path(dest, taken)  # something appeared there meanwhile
                taken.add(dest)
    raise OSError(f"could not find a free name for {op.path} in {os.path.dirname(dest)}")
