"""`simdup release`: free the space of the originals a --hardlink / --symlink action holds
for undo, where their bytes are on disk elsewhere right now."""

from __future__ import annotations

import argparse
import os
import sys

from simdup_gui.core.act.release import ReleaseReport
from simdup_gui.core.job import Job
from simdup_gui.core.models import human_size
from simdup_gui.core.session import Refusal, Session

from .common import act_progress, confirm, error, json_text, print_report, say_stopped, shown

CMD = "release"


def register(sub) -> None:
    r = sub.add_parser(
        CMD, help="free the space of the originals a --hardlink/--symlink action holds for "
        "undo", description="After `simdup apply --hardlink` or `--symlink`, each replaced "
        "original is held in the user data folder (held/<journal id>/) so `simdup undo` can "
        "restore it; that space is not free. Release deletes a held original only where its "
        "bytes are on disk elsewhere right now (the hard link at its path, or the kept copy "
        "its symbolic link points to, hashed now); otherwise it is kept and the reason "
        "given. Undo afterwards keeps the links of released files.")
    r.add_argument("journal", nargs="?", metavar="JOURNAL", help="the journal of the link "
                   "action (default: the newest link action that still holds originals)")
    r.add_argument("--all", action="store_true", help="every link action that still holds "
                   "originals (interrupted ones are named and left alone; exit 1)")
    r.add_argument("--dry-run", "-n", action="store_true", help="say what would be freed; "
                   "touch nothing")
    r.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.set_defaults(func=run_release)


def _journals(args: argparse.Namespace) -> list[str] | None:
    """The journals to release, [] when none holds originals, None after an error."""
    if args.journal and args.all:
        error(CMD, "give a JOURNAL or --all, not both")
        return None
    if args.journal:
        if not os.path.isfile(args.journal):
            error(CMD, shown(f"no such journal: {args.journal}"))
            return None
        return [args.journal]
    found = Session.journals_to_release()
    return found if args.all else found[:1]


def _nothing(args: argparse.Namespace) -> int:
    if args.format == "json":
        print(json_text({"action": CMD, "dry_run": args.dry_run, "journals": [],
                          "refused": [], "bytes_freed": 0} if args.all
                         else ReleaseReport(CMD, dry_run=args.dry_run).to_dict()))
    else:
        print("release: nothing to do: no hard or symbolic link action holds originals")
    return 0


def _each(journals: list[str], args: argparse.Namespace, refused: list[tuple[str, str]],
          **kw) -> list | int:
    """Session.release(j, **kw) for each journal: the reports, or an exit code after an
    error. With --all a refused journal is noted in ``refused`` and the others go on."""
    reports = []
    for j in journals:
        try:
            reports.append(Session.release(j, **kw))
        except Refusal as e:
            if not args.all:
                return error(CMD, shown(str(e)))
            refused.append((j, str(e)))
        except OSError as e:
            return error(CMD, shown(f"cannot use the journal {j}: {e.strerror or e}"))
    return reports


def run_release(args: argparse.Namespace) -> int:
    journals = _journals(args)
    if journals is None:
        return 2
    if not journals:
        return _nothing(args)
    refused: list[tuple[str, str]] = []
    if args.dry_run or not args.yes:  # say what would be freed (and ask)
        previews = _each(journals, args, refused, dry_run=True)
        if isinstance(previews, int):
            return previews
        if args.dry_run:
            return _print(previews, refused, args)
        count = sum(r.count("planned") for r in previews)
        if not count:
            return _print(previews, refused, args)
        freed = sum(r.freed for r in previews)
        what = (f"Release {count} held original{'s' if count != 1 else ''} "
                f"({human_size(freed)}) of {len(previews)} action"
                f"{'s' if len(previews) != 1 else ''}: undo can then no longer put them "
                "back, and the links stay")
        if not sys.stdin.isatty():
            return error(CMD, f"{what}; refusing without --yes because there is no terminal "
                        "to ask (try --dry-run first)")
        if not confirm(what + ". Proceed?"):
            print("nothing done")
            return 0
        journals = [r.journal for r in previews if r.journal]  # the refused ones stay named
    reports = _each(journals, args, refused, job=Job(act_progress))
    return reports if isinstance(reports, int) else _print(reports, refused, args)


def _print(reports: list, refused: list[tuple[str, str]], args: argparse.Namespace) -> int:
    """Print the reports (one, or with --all each with a total); the exit code: 1 if a
    file failed, a journal stopped, or (--all) a journal was refused; else 0."""
    if args.format == "json":
        if args.all:
            print(json_text({"action": CMD, "dry_run": args.dry_run,
                              "journals": [r.to_dict() for r in reports],
                              "refused": [{"journal": j, "error": e} for j, e in refused],
                              "bytes_freed": sum(r.freed for r in reports)}))
        else:
            print(json_text(reports[0].to_dict()))
    else:
        for r in reports:
            print_report(r, "text")
        if args.all:
            verb = "would free" if args.dry_run else "freed"
            print(f"release: {len(reports)} action{'s' if len(reports) != 1 else ''}, "
                  f"{verb} {human_size(sum(r.freed for r in reports))}")
    for _j, e in refused:
        print(shown(f"simdup release: error: not released: {e}"), file=sys.stderr)
    for r in reports:
        say_stopped(CMD, r)
    return 1 if refused or any(r.exit_code for r in reports) else 0
