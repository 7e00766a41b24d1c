"""`simdup scan`: fingerprint folders and print groups of near-duplicates."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable

from simdup_gui.core.defaults import DEFAULT_BITS, DEFAULT_DISTANCE, DEFAULT_MEASURE, DEFAULT_VERIFY
from simdup_gui.core.group import ignore as ignore_list
from simdup_gui.core.group.cluster import GROUPING_MODES
from simdup_gui.core.group.index import chance_matches
from simdup_gui.core.group.templates import MEASURES
from simdup_gui.core.group.verify import VERIFY_MODES
from simdup_gui.core.job import Job
from simdup_gui.core.models import ProgressEvent
from simdup_gui.core.ourfiles import write_atomic
from simdup_gui.core.presenters.progress import scale_warning
from simdup_gui.core.review.catalog import CatalogError
from simdup_gui.core.review.results import iter_json, to_csv, to_text
from simdup_gui.core.scan.distributed import SchedulerError, parse_scheduler, require_dask
from simdup_gui.core.scan.features import DEFAULT_MODE, FEATURE_MODES
from simdup_gui.core.session import ReviewSettings, Session
from simdup_gui.core.textsim import DEFAULT_SIMILARITY

from .common import StderrProgress, bits_arg, positive_arg, shown, similarity_arg, size_arg


def add_scan_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("roots", nargs="+", metavar="ROOT", help="folders (or files) to scan")
    p.add_argument("--include", action="append", default=[], metavar="GLOB",
                   help="only files whose name or relative path matches (repeatable)")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="skip files and folders that match (repeatable)")
    p.add_argument("--no-default-excludes", action="store_true",
                   help="also enter .git, node_modules, __pycache__ and virtualenvs")
    p.add_argument("--min-size", type=size_arg, default=1, metavar="N")
    p.add_argument("--max-size", type=size_arg, default=None, metavar="N")
    p.add_argument("--follow-symlinks", action="store_true")
    p.add_argument("--documents", action=argparse.BooleanOptionalAction, default=True,
                   help="read the text of .pdf, .docx, .odt, .epub and .rtf files (default: on; "
                   "--no-documents leaves them out)")
    p.add_argument("--features", choices=FEATURE_MODES, default=DEFAULT_MODE,
                   help=f"feature mode (default {DEFAULT_MODE}, chosen by measured accuracy)")
    p.add_argument("--workers", type=positive_arg, default=0, metavar="N",
                   help="processes, 1 or more (default: one per core)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    p.add_argument("--cache", metavar="FILE", help="cache file (default: user cache folder)")
    p.add_argument("--scheduler", metavar="ADDRESS", default="",
                   help="fingerprint on a Dask cluster: tcp://HOST:8786, or local[:N] to start "
                   "N worker processes here (needs pip install \"simdup[dask]\"; the roots "
                   "must have the same path on every worker)")


def review_settings(args: argparse.Namespace, distance: int | None = None) -> ReviewSettings:
    """The session's settings from the scan options (and, for `scan`, the grouping ones)."""
    grouping = {}
    if hasattr(args, "bits"):
        grouping = dict(bits=args.bits, distance=distance, grouping=args.grouping,
                        verify=args.verify, similarity=args.similarity, measure=args.measure,
                        excerpts=not args.no_excerpts)
    return ReviewSettings(
        features=args.features, include=tuple(args.include), exclude=tuple(args.exclude),
        default_excludes=not args.no_default_excludes, min_size=args.min_size,
        max_size=args.max_size, follow_symlinks=args.follow_symlinks, workers=args.workers,
        documents=getattr(args, "documents", True),
        use_cache=not args.no_cache, cache_path=args.cache,
        scheduler=getattr(args, "scheduler", ""), **grouping)


def chance_warning(n: int, bits: int, distance: int, verify: str) -> str | None:
    """A warning when each file is expected to match more than one unrelated file by chance
    at this size and distance (None otherwise)."""
    c = chance_matches(n, bits, distance)
    if c <= 1:
        return None
    what = ("they are grouped as duplicates (--verify none)" if verify == "none" else
            "verification by text similarity rejects them, but each costs time")
    return (f"at {bits} bits and distance {distance}, each of {n:,} files is expected to be "
            f"within the distance of {c:,.0f} unrelated files by chance; {what}. A larger "
            "--bits or a smaller --distance avoids it.")


def register(sub) -> None:
    p = sub.add_parser("scan", help="scan folders and list near-duplicate groups",
                       description="Scan folders and list groups of near-duplicate text files. "
                       "Default maximum distance per size: " + ", ".join(
                           f"{b} bits: k={k}" for b, k in DEFAULT_DISTANCE.items()))
    add_scan_options(p)
    p.add_argument("--bits", type=bits_arg, default=DEFAULT_BITS,
                   help="fingerprint size: 16, 32, 64 or 128 (default 64)")
    p.add_argument("--distance", "-k", type=int, default=None, metavar="K",
                   help="maximum Hamming distance of candidate pairs (default scales with "
                   "--bits)")
    p.add_argument("--similarity", type=similarity_arg, default=DEFAULT_SIMILARITY,
                   metavar="S", help="text similarity (5-gram Jaccard, 0-1) at which a "
                   f"candidate is a near-duplicate (default {DEFAULT_SIMILARITY})")
    p.add_argument("--verify", choices=VERIFY_MODES, default=DEFAULT_VERIFY,
                   help="sketch: verify candidates by text similarity, groups around a "
                   "reference (default); none: SimHash alone, for comparison")
    p.add_argument("--measure", choices=MEASURES, default=DEFAULT_MEASURE,
                   help="plain: every pair at the similarity is a near-duplicate (default); "
                   "template: different documents built on one template (man pages of one "
                   "generator, one licence under many projects) stay apart although they "
                   "share most of their text")
    p.add_argument("--grouping", choices=GROUPING_MODES, default="linked",
                   help="with --verify none: linked (chains of near pairs) or strict "
                   "(every pair within K)")
    p.add_argument("--against", action="append", default=[], metavar="NAME.simcat",
                   help="also group the scanned files with those of a catalog (`simdup "
                   "catalog save`): a drive that is not plugged in. Its files are shown as "
                   "in the catalog, their similarity estimated from the sketches; nothing "
                   "acts on them (repeatable)")
    p.add_argument("--no-excerpts", action="store_true",
                   help="skip the excerpts step (the texts mostly inside a longer one, "
                   "listed after the groups as 'excerpt: PART is inside WHOLE (93 %%)')")
    p.add_argument("--no-ignore-list", action="store_true",
                   help="show every group, also the files and pairs on the app's ignore list")
    p.add_argument("--format", choices=("json", "csv", "text"), default=None,
                   help="default: from the extension of -o (.json, .csv, else text); text "
                   "on the terminal")
    p.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    p.add_argument("--phase-times", action="store_true",
                   help="print each phase's start on stderr as a line 'simdup: phase NAME T' "
                   "(walk, fingerprint, done, candidates, verify, stars, done, write, end; T in "
                   "seconds since the epoch), for benchmarks")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    k = DEFAULT_DISTANCE[args.bits] if args.distance is None else args.distance
    if not 0 <= k <= args.bits:
        print(f"simdup scan: error: --distance must be between 0 and {args.bits}", file=sys.stderr)
        return 2
    missing = [r for r in args.roots if not os.path.lexists(r)]
    if missing:
        print(f"simdup scan: error: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    session = Session(args.roots, review_settings(args, k))
    for path in args.against:  # read before the scan: a bad catalog fails at once
        try:
            session.compare_with_catalog(path)
        except CatalogError as e:
            print(shown(f"simdup scan: error: {e}"), file=sys.stderr)
            return 2
    try:
        request = session.scan_request()
        if request.options.scheduler:
            parse_scheduler(request.options.scheduler)
            require_dask()
    except ValueError as e:
        print(f"simdup scan: error: {e}", file=sys.stderr)
        return 2
    progress = StderrProgress(phase_times=args.phase_times)
    try:
        session.set_scan(request.run(job=Job(progress)))
    except SchedulerError as e:
        print(f"simdup scan: error: {e}", file=sys.stderr)
        return 2
    warning = chance_warning(len(session.records), args.bits, k, args.verify)
    if warning:
        print(f"simdup scan: warning: {warning}", file=sys.stderr)
    note = scale_warning(len(session.records), request.options.scheduler)
    if note:
        print(f"simdup scan: note: {note}", file=sys.stderr)
    if not args.no_ignore_list:  # as the app shows them; read here, never written
        warning = session.load_ignore(ignore_list.default_path(), keep=False)
        if warning:
            print(f"simdup scan: warning: {warning}", file=sys.stderr)
    # the doubtful pairs' files read on as many processes as the scan used
    session.regroup(job=Job(progress), read_workers=request.options.worker_count())
    progress(ProgressEvent("done"))  # ends the progress line of the grouping phases
    if session.index_plan.startswith("candidate distance lowered"):
        print(f"simdup scan: warning: {session.index_plan.split(';')[0]}", file=sys.stderr)
    progress.mark("write")  # the results made and written
    res = session.results()
    if args.format is None:  # `-o results.json` writes JSON (what apply reads)
        ext = os.path.splitext(args.output or "")[1].lower()
        args.format = {".json": "json", ".csv": "csv"}.get(ext, "text")
    if args.format == "json":  # in pieces, written as they are made
        out: Iterable[str] = iter_json(res)
    else:
        out = [to_csv(res) if args.format == "csv" else to_text(res)]
    if args.output:
        try:  # a temporary file renamed over: a failure never truncates an existing file
            write_atomic(args.output, out)
        except OSError as e:
            print(f"simdup scan: error: cannot write {args.output}: {e.strerror or e}",
                  file=sys.stderr)
            return 2
    else:
        if args.format != "json" and sys.stdout.isatty():  # names harmless on a terminal
            out = [shown(piece) for piece in out]
        for piece in out:
            try:
                sys.stdout.write(piece)
            except UnicodeEncodeError:  # a file name that is not valid UTF-8: its raw bytes
                sys.stdout.flush()
                sys.stdout.buffer.write(piece.encode(sys.stdout.encoding or "utf-8",
                                                     "surrogateescape"))
                sys.stdout.buffer.flush()
        sys.stdout.flush()
    progress.mark("end")
    return 130 if session.cancelled else 0
