"""`simdup catalog`: keep what a scan knows of a drive's files, to compare with it later
while the drive is not plugged in (`simdup scan FOLDER --against NAME.simcat`)."""

from __future__ import annotations

import argparse
import os
import time

from simdup_gui.core.job import Job
from simdup_gui.core.models import ProgressEvent, human_size
from simdup_gui.core.review.catalog import SUFFIX, CatalogError, read_catalog
from simdup_gui.core.scan.distributed import SchedulerError
from simdup_gui.core.session import Session

from .common import StderrProgress, error, shown
from .scan_cmd import add_scan_options, review_settings


def register(sub) -> None:
    p = sub.add_parser("catalog", help="save a catalog of folders (a drive) to compare with "
                       "later, or describe one",
                       description="'save' scans the folders (the fingerprint cache makes a "
                       "rescan cheap) and writes what the scan knows of every file (path, "
                       "size, time, hashes, fingerprint, sketch, encoding; not the texts) to "
                       "NAME" + SUFFIX + ". Later, `simdup scan FOLDER --against NAME" + SUFFIX
                       + "` groups the files of FOLDER with the catalogued ones, although the "
                       "drive is not plugged in. 'info' says what a catalog holds.")
    csub = p.add_subparsers(dest="catalog_action", required=True, metavar="ACTION")
    save = csub.add_parser("save", help="scan folders and write their catalog")
    add_scan_options(save)
    save.add_argument("--output", "-o", required=True, metavar="NAME" + SUFFIX,
                      help="the catalog file to write (replaced if it exists)")
    save.set_defaults(func=run_save)
    info = csub.add_parser("info", help="say what a catalog holds")
    info.add_argument("catalog", metavar="NAME" + SUFFIX)
    info.set_defaults(func=run_info)


def run_save(args: argparse.Namespace) -> int:
    missing = [r for r in args.roots if not os.path.lexists(r)]
    if missing:
        return error("catalog", f"no such file or folder: {shown(', '.join(missing))}")
    session = Session(args.roots, review_settings(args))
    progress = StderrProgress()
    try:
        result = session.scan_request().run(job=Job(progress))
    except (SchedulerError, ValueError) as e:
        return error("catalog", shown(str(e)))
    progress(ProgressEvent("done"))
    if result.cancelled:
        return error("catalog", "the scan was cancelled; no catalog written")
    session.set_scan(result)
    try:
        n = session.save_catalog(args.output)
    except OSError as e:
        return error("catalog", shown(f"cannot write {args.output}: {e.strerror or e}"))
    size = os.path.getsize(args.output)
    print(shown(f"catalogued {n} files of {', '.join(session.scanned_roots())} in "
                f"{args.output} ({human_size(size)}); {len(result.problems)} files not "
                "catalogued (problems: see `simdup scan`)"))
    return 0


def run_info(args: argparse.Namespace) -> int:
    try:
        cat = read_catalog(args.catalog)
    except CatalogError as e:
        return error("catalog", shown(str(e)))
    i = cat.info
    made = time.strftime("%Y-%m-%d %H:%M", time.localtime(i.created))
    print(shown(f"{i.file}: catalog {i.name!r} of {i.files} files, "
                f"{human_size(sum(r.size for r in cat.records))}, made {made} by simdup "
                f"{i.simdup_version}"))
    for root in i.roots:
        print(shown(f"  root: {root}"))
    print("  fingerprints: " + ", ".join(f"{k} {v}" for k, v in i.settings.items()))
    return 0

