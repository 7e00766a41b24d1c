"""`simdup apply`, `simdup undo`, `simdup resume`: act on duplicates safely, and take it back."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

from simdup_gui.core.act.actions import ActionRefused, CatalogCopiesRefused
from simdup_gui.core.act.journal import journal_to_undo, last_journal
from simdup_gui.core.act.marking import KEEP_RULES, KeepRule
from simdup_gui.core.act.trust import broad_roots, read_own_results
from simdup_gui.core.job import Job
from simdup_gui.core.models import human_size
from simdup_gui.core.review.results import load_json
from simdup_gui.core.session import Refusal, Session

from .common import act_progress, confirm, error, print_report, say_stopped, shown


def register(sub) -> None:
    p = sub.add_parser(
        "apply", help="mark all but one file in each group and move, trash, delete or "
        "replace them by links",
        description="Keep one file per group (by --keep) and move, trash or delete the others, "
        "or replace them by hard or symbolic links to the kept copy. Each file is re-checked "
        "just before it is touched; every step is journaled so `simdup undo` can take it "
        "back.")
    p.add_argument("results", metavar="RESULTS.json", help="what `simdup scan --format json` "
                   "(or the app) saved")
    p.add_argument("--keep", choices=KEEP_RULES, metavar="RULE",
                   help=f"which file of each group to keep: {', '.join(KEEP_RULES)} "
                   "(default: use the marks saved in RESULTS.json)")
    p.add_argument("--prefer-folder", metavar="DIR", help="keep the copy under DIR (with "
                   "--keep folder, or before any other rule, which then breaks ties)")
    p.add_argument("--prefer-encoding", metavar="ENC",
                   help="keep the copy in encoding ENC: with --keep encoding (default utf-8), "
                   "or before any other --keep rule, which then breaks ties (default oldest)")
    p.add_argument("--last-copies", action="store_true",
                   help="with --keep catalog (keep the copy a catalog names, on a drive that is "
                   "not plugged in): also mark the last copy here of a file whose bytes the "
                   "catalog has, and let marked files be moved or trashed that keep no copy "
                   "on this computer but that one, on the catalog's word alone (asked first "
                   "without --yes); never --delete: the last copy here is never gone for good")
    p.add_argument("--include-templates", action="store_true",
                   help="let --keep mark members whose text shared with their group's "
                   "reference is mostly a template found in many other files (man pages of "
                   "one generator, one licence in many projects): maybe not copies, so by "
                   "default they are neither kept nor marked")
    p.add_argument("--keep-path", action="append", default=[], metavar="GLOB",
                   help="keep the files whose path matches GLOB and mark the rest of their "
                   "group (a GLOB with a slash matches the whole path, e.g. '*/master/*', "
                   "one without the file name, e.g. '*.orig'; repeatable); groups with no "
                   "such file are left to --keep, or untouched without it")
    p.add_argument("--reference", "--reference-folder", dest="reference", action="append",
                   default=[], metavar="DIR",
                   help="files under DIR are never touched (repeatable)")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--move-to", metavar="DIR", help="move the others into DIR")
    what.add_argument("--trash", action="store_true", help="send the others to the trash")
    what.add_argument("--delete", action="store_true", help="delete the others permanently")
    what.add_argument("--hardlink", action="store_true", help="replace each of the others by a "
                      "hard link to a kept copy with the same bytes (same file system only); "
                      "near duplicates that are not byte-identical are skipped, since a link "
                      "would lose their differences. The originals are held in the user data "
                      "folder (held/) so undo restores them byte-exact")
    what.add_argument("--symlink", action="store_true", help="like --hardlink, with symbolic "
                      "links to the kept copy's absolute path")
    p.add_argument("--trust-folder", action="append", default=[], metavar="DIR",
                   help="kept copies under DIR may justify acting although another account "
                   "owns them or can write their folder (a shared folder, /tmp); by default "
                   "such copies are not relied on (repeatable)")
    p.add_argument("--trust-results", action="store_true",
                   help="act on a results file that another account owns or can write "
                   "(by default refused: it names the files to act on)")
    p.add_argument("--allow-broad-roots", action="store_true",
                   help="act although a scanned root is a whole file system or your whole "
                   "home folder (by default refused)")
    p.add_argument("--flat", action="store_true", help="with --move-to: no sub-folders")
    p.add_argument("--dry-run", "-n", action="store_true", help="say what would happen; "
                   "touch nothing")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    p.add_argument("--journal", metavar="FILE", help="journal file to create; it must not "
                   "exist yet (default: a new one in the user data folder)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run_apply)

    u = sub.add_parser("undo", help="undo the last action (or the one in JOURNAL)",
                       description="Move files back, restore trashed files where the trash "
                       "can be read, and roll back an interrupted action.")
    u.add_argument("journal", nargs="?", metavar="JOURNAL", help="default: the newest action "
                   "that still has something to undo, so repeating undo walks back")
    u.add_argument("--format", choices=("text", "json"), default="text")
    u.set_defaults(func=run_undo)

    r = sub.add_parser("resume", help="finish an interrupted action from its journal")
    r.add_argument("journal", nargs="?", metavar="JOURNAL", help="default: the last journal")
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.set_defaults(func=run_resume)


def _rule(args: argparse.Namespace) -> KeepRule:
    if args.prefer_folder and args.prefer_encoding:
        raise ValueError("use one preference: --prefer-folder or --prefer-encoding, not both")
    if args.keep == "catalog":
        if args.prefer_folder or args.prefer_encoding:
            raise ValueError("--keep catalog keeps the catalogued copy: no --prefer-folder "
                             "or --prefer-encoding with it")
        return KeepRule("catalog", last_copy=args.last_copies)
    if args.keep == "folder" or (args.prefer_folder and args.keep is None):
        return KeepRule("folder", folder=args.prefer_folder)
    if args.prefer_folder:
        if args.keep == "encoding":
            raise ValueError("--prefer-folder combines with a plain rule, not with encoding")
        return KeepRule("folder", folder=args.prefer_folder, then=args.keep)
    encoding = args.prefer_encoding or "utf-8"
    if args.keep == "encoding" or args.keep is None:
        return KeepRule("encoding", encoding=encoding)
    if args.prefer_encoding:  # prefer that encoding; the --keep rule breaks ties
        return KeepRule("encoding", encoding=encoding, then=args.keep)
    return KeepRule(args.keep)


def print_kept(plan) -> None:
    """Per group, the file it keeps and the marked files that go (a dry run's preview); a
    link action counts only the byte-identical copies it replaces."""
    by_group: dict[int, list] = {}
    for op in plan.ops:
        by_group.setdefault(op.group_id, []).append(op)
    actable = {op.path for op in plan.actable().ops}
    for gid, ops in by_group.items():
        kept = sorted({k.path for op in ops for k in op.kept}) + sorted(
            {f"the copy in catalog {op.catalog} (not connected)" for op in ops if op.catalog})
        going = [op for op in ops if op.path in actable]
        size = sum(op.size for op in going)
        verb = {"hardlink": "replace by hard links", "symlink": "replace by symbolic links"
                }.get(plan.action, plan.action)
        near = len(ops) - len(going)
        print(shown(f"group {gid}: keeps {', '.join(kept) or '(nothing: refused)'}; "
                     f"{len(going)} file{'s' if len(going) != 1 else ''} to {verb}, "
                     f"{human_size(size)}"
                     + (f"; {near} near duplicate{'s' if near != 1 else ''} left as "
                        f"{'they are' if near != 1 else 'it is'}" if near else "")))


def run_apply(args: argparse.Namespace) -> int:
    if args.flat and not args.move_to:
        return error("apply", "--flat only goes with --move-to")
    if args.journal and os.path.lexists(args.journal):
        return error("apply", f"journal file already exists: {args.journal}; give a new file "
                    "name (a journal holds one action, so it can be undone)")
    session = Session()
    try:  # the file's own groups are acted on: what the user reviewed; read from the one
        # descriptor whose owner and folders were checked (dry runs too: say it early)
        text = read_own_results(args.results, trust=args.trust_results)
    except ValueError as e:
        return error("apply", shown(str(e)))
    except OSError as e:
        return error("apply", shown(f"cannot read {args.results}: {e.strerror or e}"))
    try:
        session.set_loaded(load_json(text), keep_groups=True)
    except ValueError as e:
        return error("apply", shown(f"cannot read {args.results}: {e}"))
    broad = broad_roots(session.scanned_roots())
    if broad and not args.allow_broad_roots:
        return error("apply", shown(f"refusing: the results were scanned under {broad[0]}, a "
                                    "whole file system or home folder; scan the folders you "
                                    "mean, or pass --allow-broad-roots"))
    saved_marks = bool(session.marks)
    session.set_reference(args.reference)  # drops the marks under a reference folder
    try:
        if args.keep or args.prefer_folder or args.prefer_encoding or args.keep_path:
            rule = (_rule(args) if args.keep or args.prefer_folder or args.prefer_encoding
                    else None)
            session.mark_keep(rule, templates=args.include_templates, paths=args.keep_path)
            files, groups = session.template_members()
            if files and not args.include_templates:
                print(f"simdup apply: note: {files} files in {groups} groups share mostly "
                      "template text with their group's reference (maybe not copies) and "
                      "were left unmarked; --include-templates marks them too",
                      file=sys.stderr)
        elif not saved_marks:
            return error("apply", "no --keep rule and no marks saved in the results file")
        action = ("move" if args.move_to else "trash" if args.trash else "hardlink"
                  if args.hardlink else "symlink" if args.symlink else "delete")
        plan = session.plan(action, move_to=args.move_to, flat=args.flat,
                            trusted=args.trust_folder, catalog_copies=args.last_copies)
    except CatalogCopiesRefused as e:
        print(shown(f"simdup apply: {e}\nWith --last-copies they go on the catalog's word."),
              file=sys.stderr)
        return 2
    except ActionRefused as e:
        print(f"simdup apply: {e}", file=sys.stderr)
        return 2
    except ValueError as e:
        return error("apply", str(e))
    for note in plan.notes:
        print(f"simdup apply: note: {note}", file=sys.stderr)
    if not plan.ops:
        print("nothing to do: no file is marked")
        return 0
    if args.dry_run:
        rep = session.execute(plan, dry_run=True)
        if args.format == "text":
            print_kept(plan)
        print_report(rep, args.format)
        if args.format == "text":  # what the dry run planned, not every marked file
            planned = {o.path for o in rep.outcomes if o.status == "planned"}
            what = replace(plan, ops=[op for op in plan.ops if op.path in planned]).describe()
            print(shown(f"would {what[0].lower()}{what[1:]}"))
        return 0
    if not args.yes:
        if not sys.stdin.isatty():
            return error("apply", f"{plan.actable().describe()}; refusing without --yes "
                        "because there is no terminal to ask (try --dry-run first)")
        if not confirm(plan.actable().describe() + _last_copies_said(plan) + ". Proceed?"):
            print("nothing done")
            return 0
    try:
        rep = session.execute(plan, journal=args.journal, job=Job(act_progress))
    except Refusal as e:  # the lock is held, or the journal could not be started
        return error("apply", shown(str(e)))
    print_report(rep, args.format)
    if rep.journal and args.format == "text" and rep.count("done"):  # something to undo
        print(shown(f"undo with: simdup undo {rep.journal}"))
    say_stopped("apply", rep)
    return rep.exit_code


def _last_copies_said(plan) -> str:
    """What the confirmation adds when files go on a catalog's word alone."""
    away = plan.catalog_only()
    if not away:
        return ""
    return (f". {len(away)} of them are the LAST COPY on this computer: only the catalog "
            f"{', '.join(sorted({op.catalog for op in away}))} says a byte-identical copy is "
            "on a drive that is not plugged in, and simdup cannot check that it still is")


def _journal_arg(cmd: str, path: str | None) -> str | None:
    if path is None and cmd == "undo":
        path = journal_to_undo()
        if path is None:
            error(cmd, "no journal found: nothing left to undo" if last_journal() else
                 "no journal found: nothing has been done yet")
            return None
    path = path or last_journal()
    if path is None:
        error(cmd, "no journal found: nothing has been done yet")
    elif not os.path.isfile(path):
        error(cmd, f"no such journal: {path}")
        return None
    return path


def _run_journal(cmd: str, fn, args: argparse.Namespace) -> int:
    path = _journal_arg(cmd, args.journal)
    if path is None:
        return 2
    try:
        rep = fn(path, job=Job(act_progress))
    except Refusal as e:
        return error(cmd, shown(str(e)))
    except OSError as e:  # the journal could not be opened or read
        return error(cmd, shown(f"cannot use the journal {path}: {e.strerror or e}"))
    print_report(rep, args.format)
    say_stopped(cmd, rep)
    return rep.exit_code


def run_undo(args: argparse.Namespace) -> int:
    return _run_journal("undo", Session.undo, args)


def run_resume(args: argparse.Namespace) -> int:
    return _run_journal("resume", Session.resume, args)
