"""A speed-benchmark corpus that looks like users' folders, at any size, from real text.

    python benchmarks/mixcorpus.py /tmp/mix25 --mb 25
    python benchmarks/mixcorpus.py /tmp/mix100 --mb 100

The text comes from benchmarks/devcorpus.py's sources (Chinese and English man pages, the
Debian Reference, fortunes, copyright files, changelogs, licences, package descriptions:
nobody on this project wrote it), written with devcorpus's recipes and encoding mix: many
small files (median about 5-6 KB), about 60 % Chinese, about 40 % not UTF-8 (GBK, GB18030,
Big5, UTF-16 with BOM, UTF-8 with BOM, cp1252), CRLF/LF, with copies and edited variants.

Sources are taken in a fixed shuffled order until ``--mb`` is reached; past the end of the
sources, another round draws new variants (other encodings, edits, names) of the same
sources with another seed, so a 100 MB corpus repeats texts more than real folders do (the
per-process token tables see fewer new words than on 100 MB of unrelated text): say so when
quoting it. ``manifest.json`` lists each file with its encoding, so a peer can be given the
decoded texts without a detector.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import devcorpus  # noqa: E402

SEED = 20240615


def build(out: str, mb: float, seed: int = SEED) -> dict:
    sources, _ = devcorpus.collect(seed)
    order = list(sources)
    random.Random(seed).shuffle(order)
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    files, total, used = [], 0, set()
    rnd = 0
    while total < mb * 1e6:
        for src in order:
            if total >= mb * 1e6:
                break
            for f in devcorpus.make_files(src, seed + rnd):
                path = "/".join(devcorpus.safe_name(c) for c in f.path.split("/") if c.strip())
                if rnd:
                    path = f"round{rnd}/{path}"
                stem, ext = os.path.splitext(path)
                n = 2
                while path.lower() in used:
                    path = f"{stem} ({n}){ext}"
                    n += 1
                used.add(path.lower())
                full = os.path.join(out, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "wb") as fh:
                    fh.write(f.data)
                files.append(dict(path=path, encoding=f.encoding, lang=src.lang,
                                  bytes=len(f.data)))
                total += len(f.data)
        rnd += 1
    manifest = dict(built_by="benchmarks/mixcorpus.py", seed=seed, mb=mb, files=files)
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, ensure_ascii=False, indent=0)
    return manifest


def describe(manifest: dict) -> str:
    files = manifest["files"]
    sizes = [f["bytes"] for f in files]
    enc = Counter(f["encoding"] for f in files)
    utf8 = enc["utf-8"] + enc["ascii"]
    zh = sum(f["lang"].startswith("zh") for f in files)
    return (f"{len(files)} files, {sum(sizes) / 1e6:.1f} MB, median {statistics.median(sizes) / 1e3:.1f} KB, "
            f"{zh / len(files):.0%} Chinese, {1 - utf8 / len(files):.0%} not UTF-8 "
            f"({', '.join(f'{k} {v}' for k, v in enc.most_common())})")


def decoded_texts(root: str) -> list[str]:
    """Every file's text, decoded with its known encoding (for peers that take text)."""
    with open(os.path.join(root, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    out = []
    for f in manifest["files"]:
        with open(os.path.join(root, f["path"]), "rb") as fh:
            out.append(devcorpus.decode(fh.read(), f["encoding"]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=25.0)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--install-packages", action="store_true",
                    help="apt-get devcorpus.py's missing Debian source packages first (needs root)")
    ap.add_argument("--no-install", action="store_true",
                    help=argparse.SUPPRESS)  # the old opt-out; never installing is the default now
    args = ap.parse_args()
    # without the Debian packages the sources are whatever the machine has (on a bare one:
    # 5 % Chinese instead of 60 %), a different corpus under the same name: it says so
    devcorpus.ensure_packages(args.install_packages and not args.no_install)
    print(describe(build(args.out, args.mb, args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
