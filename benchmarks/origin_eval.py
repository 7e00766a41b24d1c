"""Accuracy of simdup's groups by ORIGIN (is it a copy of the same document?) and by measured J.

    python3 benchmarks/origin_eval.py /work/corpora/releases/heldout
    python3 benchmarks/origin_eval.py CORPUS/heldout --scan-args "--measure plain"
    python3 benchmarks/origin_eval.py CORPUS/heldout --compare "--measure plain" \\
        "--measure template"
    python3 benchmarks/origin_eval.py CORPUS/heldout --results out.json   # score a results file
    python3 benchmarks/origin_eval.py CORPUS/heldout --repo /tmp/old-checkout .   # before/after

HALF is one half of a corpus whose ``manifest.json`` (in HALF's parent folder, or
``--manifest``) gives every file's ``path`` (relative to the manifest's folder) and its
``origin`` (or ``source``, as ``devcorpus.py`` writes it): the document it was made from.
Corpora: ``devcorpus.py`` (origin = its source id), ``releases_corpus.py releases`` (origin =
package:path, the same file across released versions) and ``releases_corpus.py docs``
(/usr/share/doc and man pages with planted copies; origin = the original's path).

The half is scanned as a user scans it, by the checkout ``--repo`` (default: this one; with
several, each scan-args variant runs on each; its commit is recorded when it is a git
checkout)::

    python3 -m simdup_gui.cli scan HALF --format json -o OUT --no-cache --workers 2 \\
        --no-ignore-list [SCAN-ARGS]

(``--no-ignore-list``: a user's ignore list must not change the score; SCAN-ARGS, e.g.
``--measure template``, are passed only when given). Every pair of files inside one reported
group is a predicted pair (a group of n files: n(n-1)/2). Truth is measured exactly: each file
decoded by simdup's decoder (``scan.decode.decode_bytes``), its shingle set by the definition
(``textsim.shingle_set``: NFKC, case folding, whitespace deleted, set of 5-grams), and J of
EVERY pair at J >= 0.50 found by the exact all-pairs join of ``lab.reference.similar_pairs``
(pairs it does not return are provably below 0.50). Files that do not decode, and files with
no text once normalised (only whitespace), are left out.
The truth always comes from THIS checkout's definition, whichever ``--repo`` scans.

Two scores over pairs:

* by measured J (``shared/near-duplicate.md``): true pairs are J >= 0.70, different below
  0.50, pairs at 0.50 <= J < 0.70 are "don't care" (counted neither way);
* by ORIGIN (the brief of issue 37): a predicted pair is correct when both files have the
  same origin or their J is >= 0.95 (the same text under another name is a copy, whatever
  its origin). True pairs are the pairs of one origin with J >= 0.50, plus every pair with
  J >= 0.95. A pair of one origin below J 0.50 (a truncation to 10 % of a file, a file
  rewritten between releases) is not a near-duplicate: not a true pair, though a predicted
  one is not counted wrong;
* by origin at J >= 0.70 (``origin@.70``, the wording of ``shared/near-duplicate.md``: "both
  files come from one source (and J >= 0.70)"): the same, except that pairs of one origin at
  0.50 <= J < 0.70 are "don't care", counted neither way (as the grey zone by J). A finder
  that groups at J >= 0.70 cannot find one-origin pairs below 0.70, so its plain origin recall
  is capped by how many such pairs the corpus has; origin@.70 shows the rest.

Also reported: template pairs (predicted pairs joining different origins at 0.70 <= J < 0.95:
right by J, wrong by origin), predicted pairs below 0.50, missed true pairs split into "both
files grouped, in different groups" and "a file in no group", the largest group, and the 10
worst groups (most pairs wrong by origin, then most different origins). ``--json`` gets
everything (default: a file in the temporary folder); a short table goes to the terminal, one
column per scan-args variant. The scan's seconds are wall time on a shared machine, including
a checkout's first numba compilation: not a speed benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from simdup_gui.core.lab.reference import shingle_sets, similar_pairs  # noqa: E402
from simdup_gui.core.scan.decode import decode_bytes  # noqa: E402
from simdup_gui.core.textsim import normalise  # noqa: E402

LOW, POS, COPY = 0.50, 0.70, 0.95


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def key_of(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    lo, hi = np.minimum(a, b).astype(np.int64), np.maximum(a, b).astype(np.int64)
    return lo * n + hi


# --- the corpus and its truth ----------------------------------------------------------------

class Corpus:
    """The files of one half, their origins and the exact J of every pair at J >= 0.50."""

    def __init__(self, half: str, manifest: str | None, workers: int) -> None:
        self.half = os.path.realpath(half)
        manifest = manifest or os.path.join(os.path.dirname(self.half), "manifest.json")
        self.manifest = manifest
        with open(manifest, encoding="utf-8") as fh:
            m = json.load(fh)
        base = os.path.dirname(os.path.realpath(manifest))
        entries = []
        for f in m["files"]:
            p = os.path.realpath(os.path.join(base, f["path"]))
            if p.startswith(self.half + os.sep):
                entries.append((p, str(f.get("origin", f.get("source"))), f))
        t0 = time.perf_counter()
        texts, kept, self.undecodable, self.empty = [], [], [], []
        for p, o, f in entries:
            try:
                with open(p, "rb") as fh:
                    text = decode_bytes(fh.read()).text
            except Exception as e:  # noqa: BLE001 - not text by simdup's decoder
                self.undecodable.append((os.path.relpath(p, self.half), str(e)[:80]))
                continue
            if not normalise(text):  # only spaces: two of them are "J = 1" of nothing
                self.empty.append(os.path.relpath(p, self.half))
                continue
            texts.append(text)
            kept.append((p, o, f))
        self.paths = [p for p, _, _ in kept]
        self.origins = [o for _, o, _ in kept]
        self.langs = ["zh" if str(f.get("lang", "?")).startswith("zh") else str(f.get("lang", "?"))
                      for _, _, f in kept]
        self.bytes = sum(int(f.get("bytes", 0)) for _, _, f in kept)
        self.index = {p: i for i, p in enumerate(self.paths)}
        names = {o: k for k, o in enumerate(sorted(set(self.origins)))}
        self.oid = np.array([names[o] for o in self.origins], dtype=np.int64)
        self.n = n = len(self.paths)
        log(f"{n} files ({len(self.undecodable)} undecodable and {len(self.empty)} with no text "
            f"left out), {len(names)} origins; "
            f"measuring J of every pair ...")
        sets = shingle_sets(texts, workers=workers)
        del texts
        sp = similar_pairs(sets, LOW, consume=True)
        j = sp.j
        k = key_of(sp.a, sp.b, n)
        order = np.argsort(k)
        self.keys, self.j = k[order], j[order]
        a, b = np.minimum(sp.a, sp.b)[order], np.maximum(sp.a, sp.b)[order]
        self.same = self.oid[a] == self.oid[b]
        self.pos_j = self.keys[self.j >= POS]
        self.grey_j = self.keys[(self.j >= LOW) & (self.j < POS)]
        self.pos_o = self.keys[self.same | (self.j >= COPY)]
        self.pos_o7 = self.keys[(self.same & (self.j >= POS)) | (self.j >= COPY)]
        self.seconds = time.perf_counter() - t0
        log(f"truth in {self.seconds:.0f} s: {len(self.keys)} pairs at J >= {LOW}, "
            f"{len(self.pos_j)} at J >= {POS}, {len(self.pos_o)} true by origin")

    def lookup(self, keys: np.ndarray) -> np.ndarray:
        """Exact J of pairs (0.0 for a pair below 0.50, which the join proves)."""
        at = np.searchsorted(self.keys, keys)
        at = np.minimum(at, max(len(self.keys) - 1, 0))
        hit = (self.keys[at] == keys) if len(self.keys) else np.zeros(len(keys), bool)
        return np.where(hit, self.j[at] if len(self.keys) else 0.0, 0.0)

    def truth_summary(self) -> dict:
        diff = ~self.same
        return dict(
            files=self.n, origins=int(len(set(self.origins))), mb=round(self.bytes / 1e6, 2),
            undecodable=len(self.undecodable), undecodable_examples=self.undecodable[:10],
            no_text=len(self.empty), no_text_examples=self.empty[:10],
            pairs_j_ge_050=int(len(self.keys)), true_by_j=int(len(self.pos_j)),
            grey_by_j=int(len(self.grey_j)), true_by_origin=int(len(self.pos_o)),
            true_by_origin_070=int(len(self.pos_o7)),
            same_origin_j_050_070=int((self.same & (self.j < POS)).sum()),
            different_origin_j_070_095=int((diff & (self.j >= POS) & (self.j < COPY)).sum()),
            different_origin_j_ge_095=int((diff & (self.j >= COPY)).sum()),
            seconds=round(self.seconds, 1))


# --- scanning and scoring --------------------------------------------------------------------

def run_scan(half: str, out: str, scan_args: str, repo: str, workers: int) -> float:
    cmd = [sys.executable, "-m", "simdup_gui.cli", "scan", half, "--format", "json", "-o", out,
           "--no-cache", "--workers", str(workers), "--no-ignore-list", *shlex.split(scan_args)]
    log("$ " + " ".join(shlex.quote(c) for c in cmd))
    env = dict(os.environ, PYTHONPATH=repo + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(out):
        sys.exit(f"scan failed ({r.returncode}):\n{r.stderr[-3000:]}")
    return time.perf_counter() - t0


def commit_of(repo: str) -> str | None:
    """The checkout's commit, and "+changes" when simdup_gui/ differs from it."""
    try:
        head = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], text=True,
                              capture_output=True, check=True).stdout.strip()
        top = subprocess.run(["git", "-C", repo, "rev-parse", "--show-toplevel"], text=True,
                             capture_output=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    if os.path.realpath(top) != os.path.realpath(repo):
        return None  # not a checkout of its own (e.g. a git archive under another repo)
    dirty = subprocess.run(["git", "-C", repo, "diff", "--quiet", "HEAD", "--", "simdup_gui"])
    return head + ("+changes" if dirty.returncode else "")


def read_groups(results: str, corpus: Corpus) -> tuple[list[np.ndarray], list[dict], int, int]:
    with open(results, encoding="utf-8") as fh:
        res = json.load(fh)
    groups, heads, unknown = [], [], 0
    for g in res.get("groups", []):
        idx = []
        for f in g["files"]:
            i = corpus.index.get(os.path.realpath(f["path"]))
            if i is None:
                unknown += 1
            else:
                idx.append(i)
        groups.append(np.array(sorted(set(idx)), dtype=np.int64))
        heads.append(dict(id=g.get("id"), reference=g.get("reference"), size=len(g["files"])))
    return groups, heads, unknown, len(res.get("problems", []))


def prf(tp: int, predicted: int, true: int, wrong: int | None = None) -> dict:
    p = (predicted - wrong) / predicted if wrong is not None and predicted else (
        tp / predicted if predicted else 1.0)
    r = tp / true if true else 1.0
    return dict(precision=round(p, 4), recall=round(r, 4),
                f1=round(2 * p * r / (p + r), 4) if p + r else 0.0)


def score(corpus: Corpus, results: str) -> dict:
    n = corpus.n
    groups, heads, unknown, problems = read_groups(results, corpus)
    gid = np.full(n, -1, dtype=np.int64)
    parts = []
    for g, idx in enumerate(groups):
        gid[idx] = g
        if len(idx) > 1:
            ia, ib = np.triu_indices(len(idx), 1)
            parts.append(key_of(idx[ia], idx[ib], n))
    pk = np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)
    pj = corpus.lookup(pk)
    pa, pb = pk // max(n, 1), pk % max(n, 1)
    psame = corpus.oid[pa] == corpus.oid[pb]
    # by measured J: grey pairs count neither way
    tp_j = int(np.isin(pk, corpus.pos_j).sum())
    grey = int(((pj >= LOW) & (pj < POS)).sum())
    by_j = prf(tp_j, len(pk) - grey, len(corpus.pos_j))
    by_j.update(tp=tp_j, fp=int(len(pk) - grey - tp_j), fn=int(len(corpus.pos_j) - tp_j),
                grey_predicted=grey)
    # by origin
    correct = psame | (pj >= COPY)
    tp_o = int(np.isin(pk, corpus.pos_o).sum())
    by_o = prf(tp_o, len(pk), len(corpus.pos_o), wrong=int((~correct).sum()))
    by_o.update(correct=int(correct.sum()), wrong=int((~correct).sum()),
                fn=int(len(corpus.pos_o) - tp_o))
    # by origin at J >= 0.70 (shared/near-duplicate.md): one origin at 0.50-0.70 don't care
    care = ~(psame & (pj >= LOW) & (pj < POS))
    tp_o7 = int(np.isin(pk, corpus.pos_o7).sum())
    by_o7 = prf(tp_o7, int(care.sum()), len(corpus.pos_o7), wrong=int((~correct & care).sum()))
    by_o7.update(fn=int(len(corpus.pos_o7) - tp_o7), dont_care_predicted=int((~care).sum()))
    diff = ~psame
    wrong_bands = {
        "template_j_070_095": int((diff & (pj >= POS) & (pj < COPY)).sum()),
        "grey_j_050_070": int((diff & (pj >= LOW) & (pj < POS)).sum()),
        "below_050": int((diff & (pj < LOW)).sum()),
    }
    same_below = int((psame & (pj < LOW)).sum())

    def missed(true_keys: np.ndarray) -> dict:
        m = true_keys[~np.isin(true_keys, pk)]
        a, b = m // max(n, 1), m % max(n, 1)
        both = (gid[a] >= 0) & (gid[b] >= 0)
        return dict(total=int(len(m)), both_grouped_apart=int(both.sum()),
                    a_file_ungrouped=int((~both).sum()))

    by_lang = {}
    for lang in sorted(set(corpus.langs)):
        lid = np.array([x == lang for x in corpus.langs])
        sel_p = lid[pa]
        tk = corpus.pos_o
        sel_t = lid[tk // max(n, 1)]
        tp_l = int(np.isin(tk[sel_t], pk).sum())
        by_lang[lang] = prf(tp_l, int(sel_p.sum()), int(sel_t.sum()),
                            wrong=int((~correct & sel_p).sum()))
    wrong_in = Counter()  # pairs wrong by origin, per group
    for x, y in zip(pa[~correct], pb[~correct], strict=True):
        if gid[x] == gid[y]:
            wrong_in[int(gid[x])] += 1
    worst = []
    for g, idx in enumerate(groups):
        c = Counter(corpus.origins[i] for i in idx)
        worst.append((wrong_in[g], len(c), len(idx), g, c))
    worst.sort(key=lambda t: (-t[0], -t[1], -t[2], t[3]))
    worst_groups = [dict(wrong_pairs=w, origins=o, size=s, reference=heads[g]["reference"],
                         top_origins=c.most_common(6)) for w, o, s, g, c in worst[:10]]
    sizes = [len(g) for g in groups]
    return dict(
        groups=len(groups), grouped_files=int((gid >= 0).sum()),
        largest_group=max(sizes, default=0), predicted_pairs=int(len(pk)),
        by_j=by_j, by_origin=by_o, by_origin_070=by_o7, wrong_by_origin_bands=wrong_bands,
        template_pairs=wrong_bands["template_j_070_095"],
        same_origin_predicted_below_050=same_below,
        missed_by_j=missed(corpus.pos_j), missed_by_origin=missed(corpus.pos_o),
        by_origin_per_lang=by_lang, files_not_in_manifest=unknown, problems=problems,
        worst_groups=worst_groups)


# --- output ------------------------------------------------------------------------------------

ROWS = [
    ("scan s", lambda s: f"{s['scan_seconds']:.0f}" if s.get("scan_seconds") else "-"),
    ("groups / largest", lambda s: f"{s['groups']} / {s['largest_group']}"),
    ("predicted pairs", lambda s: str(s["predicted_pairs"])),
    ("J: precision", lambda s: f"{s['by_j']['precision']:.4f}"),
    ("J: recall", lambda s: f"{s['by_j']['recall']:.4f}"),
    ("J: F1", lambda s: f"{s['by_j']['f1']:.4f}"),
    ("origin: precision", lambda s: f"{s['by_origin']['precision']:.4f}"),
    ("origin: recall", lambda s: f"{s['by_origin']['recall']:.4f}"),
    ("origin: F1", lambda s: f"{s['by_origin']['f1']:.4f}"),
    ("origin@.70: precision", lambda s: f"{s['by_origin_070']['precision']:.4f}"),
    ("origin@.70: recall", lambda s: f"{s['by_origin_070']['recall']:.4f}"),
    ("origin@.70: F1", lambda s: f"{s['by_origin_070']['f1']:.4f}"),
    ("template pairs (diff. origin, J .70-.95)", lambda s: str(s["template_pairs"])),
    ("diff. origin J .50-.70 / < .50", lambda s: "{grey_j_050_070} / {below_050}".format(
        **s["wrong_by_origin_bands"])),
    ("missed by J (apart / ungrouped)", lambda s: "{total} ({both_grouped_apart} / "
     "{a_file_ungrouped})".format(**s["missed_by_j"])),
    ("missed by origin (apart / ungrouped)", lambda s: "{total} ({both_grouped_apart} / "
     "{a_file_ungrouped})".format(**s["missed_by_origin"])),
]


def table(truth: dict, variants: list[dict]) -> str:
    out = [f"{truth['files']} files, {truth['mb']} MB, {truth['origins']} origins; true pairs: "
           f"{truth['true_by_j']} by J (+{truth['grey_by_j']} grey), {truth['true_by_origin']} "
           f"by origin; different origins at J .70-.95: {truth['different_origin_j_070_095']}"]
    names = [v["scan_args"] or "(none)" for v in variants]
    w0 = max(len(r[0]) for r in ROWS)
    w = [max(len(nm), 16) for nm in names]
    out.append(" " * w0 + "  " + "  ".join(nm.rjust(x) for nm, x in zip(names, w, strict=True)))
    rows = list(ROWS)
    for lang in variants[0]["by_origin_per_lang"] if variants else ():
        rows.append((f"origin P / R, {lang} files", lambda s, lang=lang: "{precision:.3f} / "
                     "{recall:.3f}".format(**s["by_origin_per_lang"].get(lang, {}))))
    w0 = max(len(r[0]) for r in rows)
    out[-1] = " " * w0 + "  " + "  ".join(nm.rjust(x) for nm, x in zip(names, w, strict=True))
    for label, f in rows:
        cells = (f(v).rjust(x) for v, x in zip(variants, w, strict=True))
        out.append(label.ljust(w0) + "  " + "  ".join(cells))
    for v, nm in zip(variants, names, strict=True):
        out.append(f"\nworst groups, {nm} (pairs wrong by origin / origins / files, "
                   f"reference, top origins):")
        for g in v["worst_groups"]:
            tops = ", ".join(f"{o} x{c}" for o, c in g["top_origins"][:3])
            out.append(f"  {g['wrong_pairs']:4} / {g['origins']:3} / {g['size']:<4} "
                       f"{g['reference']}\n"
                       f"              {tops}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[2:]))
    ap.add_argument("half", help="one half of a corpus, e.g. /work/corpora/dev/heldout")
    ap.add_argument("--manifest", help="default: HALF/../manifest.json")
    ap.add_argument("--scan-args", default="",
                    help='extra arguments for simdup scan, e.g. "--measure plain"')
    ap.add_argument("--compare", nargs="+", metavar="SCAN_ARGS",
                    help='two or more scan-args variants, scanned in turn and printed side '
                         'by side ("" for none)')
    ap.add_argument("--results", nargs="+", metavar="FILE",
                    help="score existing results files (simdup scan --format json) instead")
    ap.add_argument("--repo", nargs="+", default=[REPO],
                    help="the checkout(s) whose simdup scans (default: this one); with two or "
                         "more, every scan-args variant runs on each, side by side")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write everything here (default: in the temporary folder)")
    a = ap.parse_args(argv)
    half = os.path.realpath(a.half)
    tag = "-".join(half.split(os.sep)[-2:])
    out_json = a.json or os.path.join(tempfile.gettempdir(), f"origin_eval-{tag}.json")
    corpus = Corpus(half, a.manifest, a.workers)
    truth = corpus.truth_summary()
    variants = []
    if a.results:
        for path in a.results:
            s = score(corpus, path)
            variants.append(dict(scan_args=os.path.basename(path), results=path, **s))
    else:
        repos = [os.path.realpath(r) for r in a.repo]
        runs = [(r, sa) for r in repos for sa in (a.compare or [a.scan_args])]
        for k, (repo, sa) in enumerate(runs):
            res = os.path.splitext(out_json)[0] + f".scan{k}.json"
            secs = run_scan(half, res, sa, repo, a.workers)
            s = score(corpus, res)
            name = (f"{os.path.basename(repo)}: " if len(repos) > 1 else "") + (sa or "(none)")
            variants.append(dict(scan_args=name, repo=repo, commit=commit_of(repo), results=res,
                                 scan_seconds=round(secs, 1), **s))
    report = dict(half=half, manifest=corpus.manifest,
                  rules=dict(by_j=f"true J >= {POS}, grey {LOW} <= J < {POS} not counted",
                             by_origin=f"correct: same origin or J >= {COPY}; true: same origin "
                                       f"and J >= {LOW}, or J >= {COPY}",
                             by_origin_070=f"as by_origin, but one origin at {LOW} <= J < {POS} "
                                           f"is not counted (shared/near-duplicate.md)"),
                  truth=truth, variants=variants)
    with open(out_json, "w", encoding="utf-8") as fh:
        json.dump(report, fh, ensure_ascii=False, indent=1)
    print(table(truth, variants))
    print(f"\nwritten: {out_json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
