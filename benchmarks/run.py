"""simdup against named peers, in one run, on this machine.

    python benchmarks/run.py                      # everything, generated corpus
    python benchmarks/run.py --markdown docs/perf-table.md
    python benchmarks/run.py --corpus DIR --skip warm,memory

Peers live in their own virtualenvs under benchmarks/.venv (created on first use):
PyPI ``simhash`` 2.1.2 with numpy<2 (it crashes under NumPy 2 on weights > 255) and
``simhash-pybind`` (seomoz's C++ simhash with ``find_all``). Both install a module
called ``simhash``, so each gets its own environment and runs in a subprocess.
A peer that cannot be installed is reported as such, never estimated.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

import numpy as np  # noqa: E402

VENVS = {
    "pypi-simhash": ["numpy<2", "simhash==2.1.2"],
    "simhash-pybind": ["simhash-pybind==0.0.3"],
}
ROWS: list[dict] = []


def log(msg: str) -> None:
    print(msg, flush=True)


def row(what: str, target: str, simdup: str, peer: str, ratio: str, verdict: str) -> None:
    ROWS.append(dict(what=what, target=target, simdup=simdup, peer=peer, ratio=ratio,
                     verdict=verdict))
    log(f"  -> {what}: simdup {simdup} | peer {peer} | ratio {ratio} | {verdict}")


# --- peers' environments ---------------------------------------------------------------

def peer_python(name: str) -> str | None:
    venv = os.path.join(HERE, ".venv", name)
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        log(f"creating {venv} ...")
        try:
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
            subprocess.run([py, "-m", "pip", "install", "-q", *VENVS[name]], check=True)
        except (subprocess.CalledProcessError, OSError) as e:
            log(f"cannot install peer {name}: {e}")
            shutil.rmtree(venv, ignore_errors=True)
            return None
    probe = subprocess.run([py, "-c", "import simhash"], capture_output=True, text=True)
    if probe.returncode != 0:
        log(f"peer {name} does not import: {probe.stderr.strip()[-300:]}")
        return None
    return py


# --- corpora -------------------------------------------------------------------------

def make_corpus(out: str, mb: float, seed: int = 11) -> None:
    """Mixed Chinese/English files: paragraphs of generated documents recombined.

    A quarter of the Chinese files are GB18030, the rest UTF-8; sizes 1-40 KB.
    """
    from simdup_gui.core.lab.synth import Generator, encode

    g = Generator(seed)
    rng = random.Random(seed)
    pool: dict[str, list[str]] = {"zh": [], "en": []}
    for i in range(80):
        lang = "zh" if i % 2 == 0 else "en"
        doc = g.document(lang, 1500, topic=i % 9)
        pool[lang].extend(doc.text().split("\n\n"))
    os.makedirs(out, exist_ok=True)
    total, i = 0, 0
    while total < mb * 1e6:
        lang = "zh" if i % 2 == 0 else "en"
        target = rng.choice((1000, 3000, 8000, 20000, 40000))
        paras, size = [], 0
        while size < target:
            p = rng.choice(pool[lang])
            paras.append(p)
            size += len(p.encode("utf-8"))
        enc = "gb18030" if lang == "zh" and rng.random() < 0.25 else "utf-8"
        data = encode("\n\n".join(paras) + "\n", enc)
        sub = os.path.join(out, f"d{i // 500:03d}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"f{i:06d}.txt"), "wb") as fh:
            fh.write(data)
        total += len(data)
        i += 1


def make_small_files(out: str, n: int, seed: int = 5) -> None:
    """``n`` small UTF-8 files (150-600 bytes of mixed text) in folders of 1,000."""
    from simdup_gui.core.lab.synth import Generator

    g = Generator(seed)
    rng = random.Random(seed)
    words: list[str] = []
    for i in range(20):
        words.extend(g.document("zh" if i % 2 == 0 else "en", 400, topic=i).text().split())
    for i in range(n):
        if i % 1000 == 0:
            d = os.path.join(out, f"d{i // 1000:03d}")
            os.makedirs(d, exist_ok=True)
        a = rng.randrange(0, len(words) - 60)
        text = " ".join(words[a : a + rng.randint(8, 40)]) + f" {i}\n"
        with open(os.path.join(d, f"s{i:06d}.txt"), "w", encoding="utf-8") as fh:
            fh.write(text)


def corpus_bytes(root: str) -> tuple[int, int]:
    n = b = 0
    for d, _, files in os.walk(root):
        for f in files:
            n += 1
            b += os.path.getsize(os.path.join(d, f))
    return n, b


# --- 1. cold scan vs PyPI simhash ----------------------------------------------------------

PEER_SIMHASH = r"""
import os, sys, time, json
from simhash import Simhash
root = sys.argv[1]
texts = []
for d, _, files in sorted(os.walk(root)):
    for f in sorted(files):
        data = open(os.path.join(d, f), "rb").read()
        try:
            texts.append(data.decode("utf-8"))
        except UnicodeDecodeError:
            texts.append(data.decode("gb18030", errors="replace"))
t = time.perf_counter()
for s in texts:
    Simhash(s)
print(json.dumps({"seconds": time.perf_counter() - t}))
"""


def bench_cold(corpus: str, workers: int) -> None:
    n, nbytes = corpus_bytes(corpus)
    mb = nbytes / 1e6
    log(f"cold scan: {n} files, {mb:.1f} MB")
    cmd = [sys.executable, "-m", "simdup_gui.cli", "scan", corpus, "--no-cache", "--format",
           "json"]
    if workers:
        cmd += ["--workers", str(workers)]
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, env={**os.environ, "PYTHONPATH": REPO})
    dt = time.perf_counter() - t
    if r.returncode not in (0, 1):
        log(r.stderr[-2000:])
        raise SystemExit("simdup scan failed")
    ours = mb / dt
    py = peer_python("pypi-simhash")
    if py is None:
        row("cold scan, mixed zh/en, no cache", ">= 8x PyPI simhash", f"{ours:.2f} MB/s "
            f"({dt:.1f} s whole process)", "not installable", "-", "peer missing")
        return
    p = subprocess.run([py, "-c", PEER_SIMHASH, corpus], capture_output=True, text=True)
    if p.returncode != 0:
        row("cold scan, mixed zh/en, no cache", ">= 8x PyPI simhash", f"{ours:.2f} MB/s",
            f"failed: {p.stderr.strip()[-200:]}", "-", "peer failed")
        return
    peer_s = json.loads(p.stdout.strip().splitlines()[-1])["seconds"]
    peer = mb / peer_s
    ratio = ours / peer
    row(f"cold scan, {n} mixed zh/en files, {mb:.0f} MB, no cache",
        ">= 8x PyPI simhash `Simhash(text)`",
        f"{ours:.2f} MB/s ({dt:.1f} s, whole `simdup scan` process, {os.cpu_count()} cores)",
        f"{peer:.2f} MB/s ({peer_s:.1f} s, Simhash(text) on decoded text, 1 process)",
        f"{ratio:.1f}x", "met" if ratio >= 8 else f"SHORT ({ratio:.1f}x of 8x)")


# --- 2. warm rescan -------------------------------------------------------------------

def bench_warm(root: str, n: int, work: str) -> None:
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    log(f"warm rescan: {n} small files")
    make_small_files(root, n)
    cache = os.path.join(work, "warm-cache.sqlite")
    t = time.perf_counter()
    cold = scan([root], ScanOptions(cache_path=cache))
    cold_s = time.perf_counter() - t
    t = time.perf_counter()
    warm = scan([root], ScanOptions(cache_path=cache))
    warm_s = time.perf_counter() - t
    assert warm.stats["cached"] == cold.stats["candidates"], warm.stats
    rate = warm.stats["candidates"] / warm_s
    row(f"warm rescan, {n:,} unchanged files", ">= 20,000 files/s",
        f"{rate:,.0f} files/s (scan(): walk, stat, cache look-up; {warm_s:.2f} s)",
        f"cold scan of the same files: {cold_s:.1f} s ({n / cold_s:,.0f} files/s)", "-",
        "met" if rate >= 20000 else "SHORT")


# --- 3. grouping at scale ------------------------------------------------------------------

def planted(n: int, bits: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """n fingerprints: 90% random, 10% near copies (0..k+1 bits flipped) of random ones."""
    rng = np.random.default_rng(seed)
    m = n - n // 10
    lo = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    hi = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    if bits <= 64:
        hi[:] = 0
    src = rng.integers(0, m, n - m)
    lo[m:], hi[m:] = lo[src], hi[src]
    for j in range(k + 1):
        rows = np.flatnonzero(rng.random(n - m) < 0.6) + m
        pos = rng.integers(0, bits, rows.size)
        one = np.uint64(1)
        low = pos < 64
        lo[rows[low]] ^= one << pos[low].astype(np.uint64)
        hi[rows[~low]] ^= one << (pos[~low] - 64).astype(np.uint64)
    return lo, hi


def oracle_check(np_, bits: int, k: int, samples: int, seed: int) -> tuple[bool, int]:
    """Brute force (numpy popcount against every distinct fingerprint) for a sample."""
    from simdup_gui.core.group.index import _popcount

    ulo, uhi, pairs = np_.lo, np_.hi, np_.pairs
    rng = np.random.default_rng(seed)
    # half the sample from fingerprints that have neighbours, half at random
    with_nb = np.unique(pairs.ravel()) if len(pairs) else np.zeros(0, dtype=np.int64)
    qs = np.concatenate((rng.choice(with_nb, min(samples // 2, with_nb.size), replace=False)
                         if with_nb.size else np.zeros(0, dtype=np.int64),
                         rng.integers(0, len(ulo), samples // 2)))
    qs = np.unique(qs)
    found: dict[int, set[int]] = {int(q): set() for q in qs}
    sel = np.isin(pairs[:, 0], qs) | np.isin(pairs[:, 1], qs)
    for a, b in pairs[sel].tolist():
        if a in found:
            found[a].add(b)
        if b in found:
            found[b].add(a)
    checked = 0
    for q in qs.tolist():
        d = _popcount(ulo, uhi, ulo[q], uhi[q])
        brute = set(np.flatnonzero(d <= k).tolist()) - {q}
        checked += len(brute)
        if brute != found[q]:
            return False, checked
    return True, checked


PEER_FINDALL = r"""
import sys, time, json, array
from simhash import find_all
a = array.array("Q")
with open(sys.argv[1], "rb") as fh:
    a.frombytes(fh.read())
hashes = set(a.tolist())
out = {}
for blocks in (int(b) for b in sys.argv[3].split(",")):
    best = None
    for _ in range(int(sys.argv[4])):
        t = time.perf_counter()
        pairs = find_all(hashes, blocks, int(sys.argv[2]))
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    out[blocks] = {"seconds": best, "pairs": len(pairs)}
print(json.dumps(out))
"""


def timed_best(fn, repeat: int):
    best, res = None, None
    for _ in range(repeat):
        t = time.perf_counter()
        res = fn()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best, res


def bench_grouping(n: int, work: str, repeat: int, oracle: int) -> None:
    from simdup_gui.core.group.graph import components
    from simdup_gui.core.group.index import near_pairs

    def group(lo, hi, bits, k):
        np_ = near_pairs((lo, hi), bits, k)
        components(len(np_.lo), np_.pairs)
        return np_

    for bits, k, target_s in ((64, 3, 1.0), (128, 6, 3.0)):
        lo, hi = planted(n, bits, k, seed=bits)
        log(f"grouping {n:,} {bits}-bit fingerprints at k={k} (10% planted near copies)")
        secs, np_ = timed_best(lambda: group(lo, hi, bits, k), repeat)
        ok, checked = oracle_check(np_, bits, k, oracle, seed=1)
        exact = f"exact on {oracle} sampled queries vs numpy brute force ({checked} neighbours)" \
            if ok else "MISMATCH with brute force"
        ours = f"{secs:.2f} s, {len(np_.pairs):,} pairs; {np_.plan.describe()}; {exact}"
        peer, ratio, verdict = "-", "-", ("met" if secs < target_s and ok else "SHORT")
        if bits == 64:
            py = peer_python("simhash-pybind")
            if py is None:
                peer, verdict = "simhash-pybind not installable", verdict + " (no peer)"
            else:
                path = os.path.join(work, "fps64.bin")
                lo.astype("<u8").tofile(path)
                p = subprocess.run([py, "-c", PEER_FINDALL, path, str(k), "4,5,6", str(repeat)],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    peer = f"failed: {p.stderr.strip()[-200:]}"
                else:
                    res = json.loads(p.stdout.strip().splitlines()[-1])
                    blocks, best = min(res.items(), key=lambda kv: kv[1]["seconds"])
                    peer = (f"{best['seconds']:.2f} s with {blocks} blocks (fastest of 4/5/6: "
                            + ", ".join(f"{b}: {v['seconds']:.2f} s" for b, v in res.items())
                            + f"); {best['pairs']:,} pairs of distinct values")
                    r = best["seconds"] / secs
                    ratio = f"{r:.1f}x faster"
                    if r < 2:
                        verdict = f"SHORT ({r:.1f}x of 2x)" if ok else "SHORT"
        row(f"grouping {n:,} {bits}-bit fingerprints, k={k}",
            f"under {target_s:.0f} s, exact" + (", >= 2x simhash-pybind find_all"
                                                 if bits == 64 else ""),
            ours, peer, ratio, verdict)


# --- 4. memory ------------------------------------------------------------------------

MEMORY_SCRIPT = r"""
import sys, time

def rss():
    # VmRSS now, VmHWM peak (per process, reset at exec unlike ru_maxrss)
    vals = {}
    for line in open("/proc/self/status"):
        k, _, v = line.partition(":")
        if k in ("VmRSS", "VmHWM"):
            vals[k] = int(v.split()[0])
    return vals["VmRSS"], vals["VmHWM"]

sys.path.insert(0, sys.argv[2])
from simdup_gui.core.models import FileRecord
from simdup_gui.core.scan.walk import Candidate
from simdup_gui.core.group.cluster import build_groups
import random
n = int(sys.argv[1])
base = rss()[0]
rng = random.Random(0)
cands = [Candidate(f"/home/user/archive/folder{i // 1000:04d}/document-{i:07d}.txt",
                   "/home/user/archive", 8000 + i % 5000, 1_700_000_000_000_000_000 + i, i, 2049)
         for i in range(n)]
recs = [FileRecord(c.path, c.size, c.mtime_ns, c.inode, c.dev, c.root, "utf-8",
                   rng.getrandbits(128), 1200, "%032x" % rng.getrandbits(128),
                   "%032x" % rng.getrandbits(128), 0, "LF", False, 4000) for c in cands]
after_records = rss()[0]
groups, _ = build_groups(recs, 64, 3)
peak = rss()[1]
print(base, after_records, peak)
"""


def bench_memory(n: int) -> None:
    log(f"memory: scan state of {n:,} files (walk candidates + records + grouping)")
    p = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, str(n), REPO], capture_output=True,
                       text=True)
    if p.returncode != 0:
        row(f"memory, {n:,} files", "under 1 GB", f"failed: {p.stderr[-300:]}", "-", "-", "?")
        return
    base, rec, peak = (int(x) / 1024 for x in p.stdout.split())
    row(f"memory, scan state of {n:,} files", "under 1 GB resident",
        f"peak {peak:,.0f} MB resident (interpreter + numpy {base:,.0f} MB; candidates + "
        f"records {rec - base:,.0f} MB; grouping at 64 bits k=3 brings the peak to "
        f"{peak:,.0f} MB)", "-", "-", "met" if peak < 1024 else "SHORT")


# --- 5. cancel ------------------------------------------------------------------------

def bench_cancel(corpus: str, after: float = 2.0) -> None:
    from simdup_gui.core.job import Job
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    log("cancel: scan the cold corpus on the pool, cancel after 2 s")
    job = Job()
    done = threading.Event()
    box = {}

    def run():
        box["result"] = scan([corpus], ScanOptions(use_cache=False), job)
        done.set()

    th = threading.Thread(target=run)
    th.start()
    time.sleep(after)
    t = time.perf_counter()
    job.cancel()
    done.wait()
    latency = time.perf_counter() - t
    th.join()
    res = box["result"]
    row("cancel during a pooled scan", "stops within 1 s",
        f"{latency:.2f} s from cancel() to scan() returning ({res.stats['files']} files kept, "
        f"cancelled={res.cancelled})", "-", "-", "met" if latency < 1 and res.cancelled else
        "SHORT")


# --- report ---------------------------------------------------------------------------

def markdown(env: str) -> str:
    lines = [env, "", "| what | target | simdup | peer | ratio | verdict |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in ROWS:
        lines.append("| " + " | ".join(r[c].replace("|", "/") for c in
                                        ("what", "target", "simdup", "peer", "ratio", "verdict"))
                     + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", help="folder of text files for the cold scan (default: generate)")
    ap.add_argument("--mb", type=float, default=20.0, help="size of the generated corpus")
    ap.add_argument("--warm-files", type=int, default=100_000)
    ap.add_argument("--fingerprints", type=int, default=1_000_000)
    ap.add_argument("--memory-files", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3, help="grouping: best of N")
    ap.add_argument("--oracle", type=int, default=400, help="queries checked by brute force")
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--skip", default="", help="comma list of: cold,warm,grouping,memory,cancel")
    ap.add_argument("--work", help="scratch folder (default: a temporary one, removed)")
    ap.add_argument("--markdown", metavar="FILE", help="also write the table as markdown")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    work = args.work or tempfile.mkdtemp(prefix="simdup-bench-")
    os.makedirs(work, exist_ok=True)
    load = os.getloadavg()
    env = (f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {os.cpu_count()} cores, Python "
           f"{sys.version.split()[0]}, numpy {np.__version__}; load average at start "
           f"{load[0]:.2f}.")
    log(env)
    try:
        corpus = args.corpus
        if corpus is None and not {"cold", "cancel"} <= skip:
            corpus = os.path.join(work, "corpus")
            log(f"generating a {args.mb:.0f} MB mixed corpus in {corpus} ...")
            make_corpus(corpus, args.mb)
        if "cold" not in skip:
            bench_cold(corpus, args.workers)
        if "warm" not in skip:
            bench_warm(os.path.join(work, "small"), args.warm_files, work)
        if "grouping" not in skip:
            bench_grouping(args.fingerprints, work, args.repeat, args.oracle)
        if "memory" not in skip:
            bench_memory(args.memory_files)
        if "cancel" not in skip:
            bench_cancel(corpus)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    load = os.getloadavg()
    env += f" Load average at the end {load[0]:.2f}."
    text = markdown(env)
    print()
    print(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    _ = resource
    raise SystemExit(main())
