"""`simdup synth`: labelled variants of your own text files, or a generated corpus."""

from __future__ import annotations

import argparse
import os
import sys

from simdup_gui.core.job import Job
from simdup_gui.core.lab.synth import SOURCE_TRANSFORMS, generate_corpus, synthesize
from simdup_gui.core.scan.decode import DecodeError, decode_bytes
from simdup_gui.core.scan.walk import WalkOptions, walk
from simdup_gui.core.textsim import DEFAULT_SIMILARITY, DIFFERENT_BELOW

from .common import StderrProgress, positive_arg, similarity_arg

MAX_SOURCE_BYTES = 2 << 20


def register(sub) -> None:
    p = sub.add_parser(
        "synth", help="write labelled near-duplicate variants of text files",
        description="Write variants of each source text (re-encodings, CRLF, re-wrapping, "
        "token edits at 1-40%%, boilerplate, reordering, truncation, combinations) into OUT, "
        "with OUT/manifest.json holding the truth: every pair labelled by the measured "
        "character 5-gram Jaccard J of the written files' texts (duplicate at J >= 0.7, "
        "different below 0.5, a grey zone between), and each file's recipe as information. "
        "Evaluate them with `simdup eval OUT`.")
    p.add_argument("paths", nargs="*", metavar="SRC... OUT",
                   help="source files or folders, then the output folder")
    p.add_argument("--generate", type=positive_arg, metavar="N", default=None,
                   help="ignore sources: generate N base documents instead")
    p.add_argument("--langs", default="zh,en", help="--generate: zh, en or zh,en (default)")
    p.add_argument("--variants", type=int, default=0, metavar="N",
                   help="variants per source (default: every transformation; "
                   f"{len(SOURCE_TRANSFORMS)} of them)")
    p.add_argument("--max-sources", type=int, default=200,
                   help="use at most this many source files (default 200)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--similarity", type=similarity_arg, default=DEFAULT_SIMILARITY,
                   metavar="T", help="measured J at which two files are labelled duplicates "
                   f"(default {DEFAULT_SIMILARITY}; below {DIFFERENT_BELOW}: different)")
    p.set_defaults(func=run)


def _sources(paths: list[str], limit: int) -> tuple[list[tuple[str, str]], list[str]]:
    w = walk(paths, WalkOptions(max_size=MAX_SOURCE_BYTES))
    out, skipped = [], [f"{p.path}: {p.reason}" for p in w.problems]
    for c in w.files:
        if len(out) >= limit:
            skipped.append(f"more than {limit} sources: the rest were not used")
            break
        try:
            with open(c.path, "rb") as fh:
                text = decode_bytes(fh.read()).text
        except (OSError, DecodeError) as e:
            skipped.append(f"{c.path}: {e}")
            continue
        out.append((os.path.relpath(c.path, c.root) if c.root else c.path, text))
    return out, skipped


def run(args: argparse.Namespace) -> int:
    if args.generate is not None:
        if len(args.paths) != 1:
            print("simdup synth: error: with --generate give only OUT", file=sys.stderr)
            return 2
        out = args.paths[0]
        try:
            langs = tuple(x.strip() for x in args.langs.split(",") if x.strip())
            corpus = generate_corpus(args.generate, seed=args.seed,
                                     variants_per_doc=args.variants or 4, langs=langs)
        except ValueError as e:
            print(f"simdup synth: error: {e}", file=sys.stderr)
            return 2
    else:
        if len(args.paths) < 2:
            print("simdup synth: error: give SRC... OUT (or --generate N OUT)", file=sys.stderr)
            return 2
        *srcs, out = args.paths
        missing = [s for s in srcs if not os.path.exists(s)]
        if missing:
            print(f"simdup synth: error: no such file or folder: {', '.join(missing)}",
                  file=sys.stderr)
            return 2
        sources, skipped = _sources(srcs, args.max_sources)
        if not sources:
            print("simdup synth: error: no readable text among the sources", file=sys.stderr)
            return 2
        try:
            corpus = synthesize(sources, seed=args.seed, per_source=args.variants)
        except ValueError as e:
            print(f"simdup synth: error: {e}", file=sys.stderr)
            return 2
        corpus.notes.extend(skipped)
    if os.path.isdir(out) and os.listdir(out):
        print(f"simdup synth: error: {out} is not empty", file=sys.stderr)
        return 2
    corpus.threshold = args.similarity
    manifest = corpus.write(out, Job(StderrProgress()))
    bases = len({v.base for v in corpus.files})
    print(f"wrote {len(corpus.files)} files from {bases} documents to {out}; truth in {manifest}")
    print(corpus.summary())
    for n in corpus.notes[:10]:
        print(f"note: {n}", file=sys.stderr)
    return 0
