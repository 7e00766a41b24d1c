"""Recall and precision of the excerpt pairs ("A is inside B", issue 41 part 3) on real text.

    python3 benchmarks/excerpts_eval.py [--out /tmp/excerpts_corpus] [--half dev|heldout]
                                         [--per-half 160] [--seed 41]

Builds a corpus from the text files under /usr/share/doc (``.gz`` decompressed; UTF-8 only,
4,000 to 300,000 characters), split into two halves by package (a package's files are all in
one half). In each half, from ``--per-half`` originals:

* truncations: the first 20-60 % of an original (cut at a line end);
* chapters: a section of 20-50 % of a long original cut out of its middle (paragraph ends);
* quotes: one to three paragraphs (300-3,000 characters) of an original, as a file of their
  own and pasted into another original (a letter that quotes it);
* near-copies: an original with a few lines changed (the same length: never an excerpt);
* the originals themselves (their own natural containments count too: a copyright file
  that holds the GPL, a changelog that holds an older one).

Truth is exact: every pair of files of the half, its 5-gram sets by the definition
(``textsim.shingle_set``), containment |P & W| / |P| >= 0.90 with |P| <= 0.60 |W| and
|P| >= excerpts.MIN_PART. The half is scanned as the CLI does (``Session.scan``, no cache,
two workers) and its excerpts scored against that truth. Thresholds were chosen on "dev";
"heldout" is reported in docs/accuracy.md.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simdup_gui.core.group import excerpts as ex  # noqa: E402
from simdup_gui.core.session import ReviewSettings, Session  # noqa: E402
from simdup_gui.core.textsim import _sorted_intersection, shingle_set  # noqa: E402

SOURCE = "/usr/share/doc"


def sources() -> dict[str, list[tuple[str, str]]]:
    """Texts of /usr/share/doc by half: {half: [(origin path, text)]}."""
    out: dict[str, list[tuple[str, str]]] = {"dev": [], "heldout": []}
    for dirpath, _, files in sorted(os.walk(SOURCE)):
        for f in sorted(files):
            p = os.path.join(dirpath, f)
            if os.path.islink(p) or os.path.getsize(p) > 400_000:
                continue
            try:
                data = gzip.open(p).read() if f.endswith(".gz") else open(p, "rb").read()
                text = data.decode("utf-8")
            except (OSError, UnicodeDecodeError, EOFError, gzip.BadGzipFile):
                continue
            if not 4_000 <= len(text) <= 300_000 or "\x00" in text:
                continue
            package = os.path.relpath(p, SOURCE).split(os.sep)[0]
            half = "dev" if hashlib.sha1(package.encode()).digest()[0] % 2 else "heldout"
            out[half].append((p, text))
    return out


def paragraphs(text: str) -> list[tuple[int, int]]:
    """(start, end) of the blank-line separated blocks of ``text``."""
    spans, start = [], 0
    for part in text.split("\n\n"):
        if part.strip():
            spans.append((start, start + len(part)))
        start += len(part) + 2
    return spans


def build_half(texts: list[tuple[str, str]], folder: Path, n: int, rnd: random.Random) -> dict:
    """Write the half's files into ``folder``; {file name: how it was made}."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = list({t: (p, t) for p, t in texts}.values())  # one of each text
    rnd.shuffle(texts)
    chosen = texts[:n]
    made: dict[str, str] = {}

    def write(name: str, text: str, kind: str) -> None:
        (folder / name).write_text(text, encoding="utf-8")
        made[name] = kind

    for k, (origin, text) in enumerate(chosen):
        write(f"o{k:03d}.txt", text, "original")
    for k, (_, text) in enumerate(chosen[: n // 4]):
        cut = text.rfind("\n", 0, int(len(text) * rnd.uniform(0.2, 0.6)))
        if cut > 300:
            write(f"t{k:03d}.txt", text[:cut], "truncation")
    longs = [t for _, t in chosen if len(paragraphs(t)) >= 8]
    for k, text in enumerate(longs[: n // 5]):
        spans = paragraphs(text)
        share = rnd.uniform(0.2, 0.5)
        a = rnd.randrange(1, len(spans) // 2)
        b = a
        while b + 1 < len(spans) and spans[b][1] - spans[a][0] < share * len(text):
            b += 1
        write(f"c{k:03d}.txt", text[spans[a][0]:spans[b][1]], "chapter")
    for k in range(n // 5):
        (_, src), (_, host) = rnd.sample(chosen, 2)
        spans = [s for s in paragraphs(src) if 300 <= s[1] - s[0] <= 3_000]
        if not spans:
            continue
        i = rnd.randrange(len(spans))
        j = i
        while j + 1 < len(spans) and spans[j + 1][1] - spans[i][0] <= 3_000 and rnd.random() < 0.5:
            j += 1
        quote = src[spans[i][0]:spans[j][1]]
        write(f"q{k:03d}.txt", quote, "quote")
        at = host.find("\n\n", rnd.randrange(len(host)))
        at = len(host) if at < 0 else at
        write(f"h{k:03d}.txt", host[:at] + "\n\n" + quote + "\n\n" + host[at:], "host")
    for k, (_, text) in enumerate(chosen[n // 2: n // 2 + n // 8]):
        lines = text.split("\n")
        for _ in range(5):
            r = rnd.randrange(len(lines))
            lines[r] = lines[r][::-1]
        write(f"n{k:03d}.txt", "\n".join(lines), "near-copy")
    return made


def truth(folder: Path) -> dict[tuple[str, str], float]:
    """Every excerpt pair of the folder, exactly: {(part, whole): containment}."""
    names = sorted(os.listdir(folder))
    sets = {f: shingle_set((folder / f).read_text(encoding="utf-8")) for f in names}
    out = {}
    for p in names:
        sp = sets[p]
        if sp.size < ex.MIN_PART:
            continue
        for w in names:
            sw = sets[w]
            if w == p or sp.size > ex.PART_AT_MOST * sw.size:
                continue
            c = _sorted_intersection(sp, sw) / sp.size
            if c >= ex.CONTAINED:
                out[(p, w)] = c
    return out


def scan(folder: Path) -> tuple[dict[tuple[str, str], float], float, float]:
    """(the excerpts simdup finds, seconds of the excerpts step, seconds of the scan)."""
    s = Session([str(folder)], ReviewSettings(use_cache=False, workers=2))
    t0 = time.monotonic()
    s.scan()
    t1 = time.monotonic()
    found = ex.find_excerpts(s.records)
    t2 = time.monotonic()
    _, _, est, sample = ex.excerpt_candidates(s.records)
    sure = (sample < 0) | ((est >= ex.SURE) & (sample >= ex.SURE_SAMPLE))
    print(f"  {len(est)} candidates, {int((~sure).sum())} measured from the files")
    name = lambda i: os.path.basename(s.records[i].path)  # noqa: E731
    return {(name(e.part), name(e.whole)): e.containment for e in found}, t2 - t1, t1 - t0


def score(folder: Path, made: dict[str, str]) -> None:
    t = truth(folder)
    got, step, total = scan(folder)
    hit = set(t) & set(got)
    print(f"{folder.name}: {len(made)} files; true pairs {len(t)}, found {len(got)}, "
          f"correct {len(hit)}; recall {len(hit) / max(1, len(t)):.3f}, precision "
          f"{len(hit) / max(1, len(got)):.3f}; excerpts step {step:.2f} s "
          f"(scan with grouping and excerpts {total:.2f} s)")
    kinds: dict[str, list[int]] = {}
    for pair in t:
        k = kinds.setdefault(made.get(pair[0], "?"), [0, 0])
        k[0] += 1
        k[1] += pair in got
    for kind, (n, found) in sorted(kinds.items()):
        print(f"  part is a {kind}: {found}/{n}")
    for pair in sorted(set(t) - hit)[:15]:
        print(f"  missed {pair} {t[pair]:.3f}")
    for pair in sorted(set(got) - hit)[:15]:
        print(f"  wrong {pair} {got[pair]:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="/tmp/excerpts_corpus")
    ap.add_argument("--half", choices=("dev", "heldout"), action="append")
    ap.add_argument("--per-half", type=int, default=160)
    ap.add_argument("--seed", type=int, default=41)
    args = ap.parse_args()
    texts = sources()
    for half in args.half or ("dev", "heldout"):
        folder = Path(args.out) / half
        made_file = folder.parent / f"{half}.kinds"
        if not folder.is_dir():
            made = build_half(texts[half], folder, args.per_half, random.Random(args.seed))
            made_file.write_text("\n".join(f"{k}\t{v}" for k, v in sorted(made.items())))
        made = dict(line.split("\t") for line in made_file.read_text().splitlines())
        score(folder, made)


if __name__ == "__main__":
    main()
