"""`simdup eval`: how detection accuracy changes with fingerprint size, on a labelled folder."""

from __future__ import annotations

import argparse
import os
import sys

from simdup_gui.core.group.cluster import GROUPING_MODES
from simdup_gui.core.job import Job
from simdup_gui.core.lab.experiment import (
    EvalOptions,
    TruthSpec,
    run_eval,
    to_csv,
    to_json,
    to_text,
)
from simdup_gui.core.models import ALLOWED_BITS
from simdup_gui.core.scan.features import DEFAULT_MODE, FEATURE_MODES
from simdup_gui.core.textsim import DEFAULT_SIMILARITY, DIFFERENT_BELOW

from .common import StderrProgress, bits_arg, positive_arg


def register(sub) -> None:
    p = sub.add_parser(
        "eval", help="measure detection accuracy at every fingerprint size",
        description="Fingerprint a labelled folder once and report pairwise precision, recall "
        "and F1 for each fingerprint size and Hamming distance k, the best k per size, recall "
        "per transformation, and the chance level (random matches per file).")
    p.add_argument("root", metavar="ROOT", help="the corpus folder")
    truth = p.add_mutually_exclusive_group()
    truth.add_argument("--synthetic", action="store_true",
                       help="use ROOT/manifest.json written by `simdup synth` (the default)")
    truth.add_argument("--truth", metavar="FILE",
                       help="CSV of known duplicates: columns group,path or path_a,path_b[,label]")
    truth.add_argument("--reference", metavar="jaccard:T",
                       help="truth measured on the texts of ROOT: the exact character 5-gram "
                       "Jaccard J of every pair (no sampling). Duplicate at J >= T (`jaccard` "
                       f"alone: {DEFAULT_SIMILARITY}), different below {DIFFERENT_BELOW}, the "
                       "grey zone between is left out of the scores")
    p.add_argument("--manifest", metavar="FILE", help="synthetic manifest elsewhere than ROOT")
    p.add_argument("--sample", type=int, default=0, help=argparse.SUPPRESS)  # old; unused
    p.add_argument("--bits", type=bits_arg, nargs="+", default=list(ALLOWED_BITS),
                   help="sizes to evaluate (default: 16 32 64 128)")
    p.add_argument("--features", choices=FEATURE_MODES, default=DEFAULT_MODE)
    p.add_argument("--grouping", choices=GROUPING_MODES, default="linked")
    p.add_argument("--workers", type=positive_arg, default=0, metavar="N",
                   help="processes, 1 or more (default: one per core)")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    p.add_argument("--brief", action="store_true", help="text: only the summary table")
    p.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    p.set_defaults(func=run)


def truth_spec(args: argparse.Namespace) -> TruthSpec:
    if args.truth:
        return TruthSpec("csv", args.truth)
    if args.reference:
        text = args.reference.strip()
        if text.lower().rstrip(":") == "jaccard":  # no T given: the default threshold
            text = f"jaccard:{DEFAULT_SIMILARITY}"
        spec = TruthSpec.parse_reference(text)
        return TruthSpec("reference", threshold=spec.threshold)
    return TruthSpec("synthetic", args.manifest or "")


def run(args: argparse.Namespace) -> int:
    if not os.path.isdir(args.root):
        print(f"simdup eval: error: not a folder: {args.root}", file=sys.stderr)
        return 2
    try:
        spec = truth_spec(args)
        opts = EvalOptions(tuple(dict.fromkeys(args.bits)), args.features, args.grouping,
                           args.workers)
        report = run_eval(Job(StderrProgress()), args.root, spec, opts)
    except (ValueError, OSError) as e:
        print(f"simdup eval: error: {e}", file=sys.stderr)
        return 2
    if args.format == "json":
        out = to_json(report) + "\n"
    elif args.format == "csv":
        out = to_csv(report)
    else:
        out = to_text(report, full=not args.brief)
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="") as fh:
            fh.write(out)
    else:
        sys.stdout.write(out)
    return 0
