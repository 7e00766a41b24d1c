"""A large tree of real text, scanned cold, alternating, against PyPI ``simhash`` (issue 40).

    python benchmarks/largetree.py build /work/bench/tree --copies 8 --mix /tmp/mix25
    python benchmarks/largetree.py run /work/bench/tree --checkout . --checkout /tmp/old --rounds 2

``build OUT`` makes the tree from text already on this machine, never generated words:

- ``man``: /usr/share/man, every page decompressed (``.gz``);
- ``doc``: /usr/share/doc, ``.gz`` files decompressed, everything else as it is;
- ``python``: the ``.py`` files of this Python installation (``sys.base_prefix``);
- ``NAME=PATH``: any other folder, all its regular files (``.gz`` decompressed);
- ``--copies K`` lightly edited copies (1-3 words inserted, deleted or replaced in about half
  of the files, seeded) of ``--mix DIR`` (a folder made by ``benchmarks/mixcorpus.py``, whose
  manifest names each file's encoding: the tree of issue 40 used ``--mix /tmp/mix25 --copies
  8``), or without ``--mix`` of a seeded 1-in-20 sample of the files taken above (UTF-8 ones
  edited, others copied as they are): the near-duplicate families users have.

``--mb N`` stops at about N MB (files taken in a seeded order, so a smaller tree is a sample of
the larger one's sources; the copies' share counted in). Symbolic links are skipped. The same
seed on the same machine gives the same bytes. ``OUT/manifest.json`` says what went in: the
sources' paths and counts, the copies, the seed, the machine's Python and kernel, and the
totals (files, bytes).

``run TREE`` runs ``python -m simdup_gui.cli scan TREE --no-cache --format json -o FILE
--phase-times`` of each ``--checkout`` (default: this one) in every round, in ABBA order (the
first checkout first in even rounds, last in odd ones), and the peer in the same round. Per run:

- wall time, from outside;
- CPU time of the whole process tree (this process is made subreaper, so the fork server and
  its workers are waited for and counted in RUSAGE_CHILDREN, as in coldscan.py);
- MB per CPU second (the tree's bytes, ``manifest.json`` left out, over that CPU time);
- peak PSS summed over the scan's processes, sampled every ``--interval`` s while it runs
  (``--memory separate``: in a second, watched run, so the timed one is not sampled;
  ``--memory off``: not measured);
- time per phase, from the scan's ``--phase-times`` lines: ``startup`` (process start to the
  walk), ``walk``, ``fingerprint``, ``candidates``, ``verify``, ``stars`` (groups from verified
  pairs), ``write`` (results made and written), ``exit`` (the end of writing to the process's
  end), ``other`` (the rest: the ignore list, warnings, the first scan's ``prepare``). A
  checkout without ``--phase-times`` is run without it and has no phases.

The peer: PyPI ``simhash`` ``Simhash(text)`` on every 16th file (``--peer-sample 16``; chosen by a
hash of the path, so the same files every time), texts decoded beforehand and not timed (BOM,
UTF-8, GB18030, else Latin-1), its hashing time extrapolated to the whole tree by bytes. It runs
in ``benchmarks/.venv/pypi-simhash`` (``simhash==2.1.2``, ``numpy<2``, as run.py makes it) or
``--peer-python``; ``--install-peer`` creates that environment with pip, nothing is installed
otherwise (a missing peer is reported, never estimated). Ratios: the peer's extrapolated
seconds over simdup's wall time and over its CPU time, per round.

It prints a table and writes one JSON line per run to ``--jsonl`` (default
``largetree-runs.jsonl`` in the current folder). Linux only (/proc, prctl).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import coldscan  # noqa: E402  tree(), pss_kb(), _subreaper(), _reap_all(), checkout_env()

MANIFEST = "manifest.json"
PHASES = ("startup", "walk", "fingerprint", "candidates", "verify", "stars", "write", "exit",
          "other")
PEER_VENV = os.path.join(HERE, ".venv", "pypi-simhash")
PEER_PACKAGES = ["numpy<2", "simhash==2.1.2"]

# --- build ------------------------------------------------------------------------------

WORDS = ("the and note see also file data value new old system user text copy edit "
         "文件 数据 系统 用户 修改 说明").split()


def edit(text: str, rnd: random.Random) -> str:
    """1-3 small edits: a word inserted, a few characters deleted or replaced."""
    for _ in range(rnd.randint(1, 3)):
        if len(text) < 10:
            break
        i = rnd.randrange(len(text))
        op = rnd.random()
        if op < 0.4:
            text = text[:i] + " " + rnd.choice(WORDS) + " " + text[i:]
        elif op < 0.7:
            text = text[:i] + text[i + rnd.randint(1, 12):]
        else:
            text = text[:i] + rnd.choice(WORDS) + text[i + rnd.randint(1, 6):]
    return text


def parse_source(spec: str) -> tuple[str, str, bool]:
    """(name, folder, only .py files) of a --source."""
    if "=" in spec:
        name, path = spec.split("=", 1)
        return name, path, False
    if spec == "man":
        return "man", "/usr/share/man", False
    if spec == "doc":
        return "doc", "/usr/share/doc", False
    if spec == "python":
        return "python", sys.base_prefix, True
    raise SystemExit(f"unknown source {spec!r}: man, doc, python or NAME=PATH")


def source_files(folder: str, only_py: bool) -> list[str]:
    """The regular files under ``folder`` (no links), relative, sorted."""
    out = []
    for d, dirs, files in os.walk(folder):
        dirs.sort()
        for f in files:
            p = os.path.join(d, f)
            if os.path.islink(p) or not os.path.isfile(p) or (only_py and not f.endswith(".py")):
                continue
            out.append(os.path.relpath(p, folder))
    out.sort()
    return out


def read_source(path: str) -> tuple[str, bytes] | None:
    """(name in the tree, bytes) of a source file: ``.gz`` decompressed; None if unreadable."""
    try:
        if path.endswith(".gz"):
            with gzip.open(path) as fh:
                return path[:-3], fh.read()
        with open(path, "rb") as fh:
            return path, fh.read()
    except (OSError, EOFError, gzip.BadGzipFile):
        return None


def put(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


def copy_base_from_mix(mix: str) -> list[tuple[str, bytes, str]]:
    """(relative path, bytes, encoding label) of every file of a mixcorpus.py folder."""
    with open(os.path.join(mix, MANIFEST), encoding="utf-8") as fh:
        man = json.load(fh)
    out = []
    for f in man["files"]:
        with open(os.path.join(mix, f["path"]), "rb") as fh:
            out.append((f["path"], fh.read(), f["encoding"]))
    return out


def edited(data: bytes, label: str, rnd: random.Random) -> bytes | None:
    """``data`` lightly edited, in its encoding (a devcorpus label, or "utf-8"); None when it
    cannot be (not text in that encoding, or an inserted word it cannot hold)."""
    import devcorpus

    codec, bom = ("utf-8", b"") if label in ("ascii", "utf-8") else devcorpus.ENCODINGS[label]
    try:
        text = devcorpus.decode(data, label) if label != "utf-8" else data.decode("utf-8")
        return bom + edit(text, rnd).encode(codec)
    except (UnicodeError, KeyError):
        return None


def build(args: argparse.Namespace) -> int:
    out = os.path.abspath(args.out)
    if os.path.exists(out):
        if not os.path.exists(os.path.join(out, MANIFEST)) and os.listdir(out):
            raise SystemExit(f"{out} exists and is not a tree of this script: not removed")
        shutil.rmtree(out)
    os.makedirs(out)
    t0 = time.perf_counter()
    budget = int(args.mb * 1e6) if args.mb else None
    mix = copy_base_from_mix(args.mix) if args.mix and args.copies else None
    if budget is not None and mix is not None:
        budget -= args.copies * sum(len(b) for _, b, _ in mix)
        if budget <= 0:
            raise SystemExit(f"--mb {args.mb} leaves no room for the sources beside "
                             f"{args.copies} copies of {args.mix}")
    elif budget is not None and args.copies:  # the copies are a 1/20 sample of what is taken
        budget = int(budget / (1 + args.copies / 20))
    rnd = random.Random(args.seed)
    pool = []  # (source name, folder, relative path)
    sources = {}
    for spec in args.source:
        name, folder, only_py = parse_source(spec)
        if not os.path.isdir(folder):
            print(f"source {name}: {folder} is not a folder, skipped", flush=True)
            continue
        sources[name] = {"path": folder, "only_py": only_py, "files": 0, "bytes": 0}
        pool.extend((name, folder, rel) for rel in source_files(folder, only_py))
    if budget is not None:  # a seeded order: a smaller tree is a sample of the same sources
        rnd.shuffle(pool)
    taken_bytes = 0
    base: list[tuple[str, bytes, str]] = []
    smallest = None  # the smallest file taken: copied when the 1-in-20 sample drew none
    for name, folder, rel in pool:
        if budget is not None and taken_bytes >= 0.97 * budget:
            break
        got = read_source(os.path.join(folder, rel))
        if got is None or (budget is not None and taken_bytes + len(got[1]) > 1.03 * budget):
            continue  # a file that would overshoot --mb: the next ones may fit
        rel, data = os.path.relpath(got[0], folder), got[1]
        put(os.path.join(out, name, rel), data)
        sources[name]["files"] += 1
        sources[name]["bytes"] += len(data)
        taken_bytes += len(data)
        if mix is None and args.copies and _sampled(f"{name}/{rel}", 20, args.seed):
            base.append((f"{name}/{rel}", data, "utf-8"))
        if smallest is None or len(data) < len(smallest[1]):
            smallest = (f"{name}/{rel}", data, "utf-8")
    if args.mb and mix is None:  # the sample's copies within what --mb leaves: the files
        # that fit, in the sample's order (dropping from the end left none when the first
        # sampled file alone was too large: a machine with large files in /usr/share/doc)
        room, kept = (args.mb * 1e6 - taken_bytes) / args.copies, []
        for item in base:
            if len(item[1]) <= room:
                kept.append(item)
                room -= len(item[1])
        base = kept
    if mix is None and args.copies and not base and smallest is not None:
        base = [smallest]  # (a small tree of a few large files: a sample of none)
    copies = {"of": os.path.abspath(args.mix) if mix is not None else "a 1-in-20 sample of the "
              "sources' files", "copies": args.copies, "files": 0, "bytes": 0, "edited": 0}
    for k in range(1, args.copies + 1):
        crnd = random.Random(f"{args.seed}-copy-{k}")
        for rel, data, label in (mix if mix is not None else base):
            if crnd.random() < 0.5:
                new = edited(data, label, crnd)
                if new is not None:
                    data = new
                    copies["edited"] += 1
            put(os.path.join(out, "copies", f"copy{k}", rel), data)
            copies["files"] += 1
            copies["bytes"] += len(data)
    files = sum(s["files"] for s in sources.values()) + copies["files"]
    nbytes = sum(s["bytes"] for s in sources.values()) + copies["bytes"]
    manifest = {"built_by": "benchmarks/largetree.py build", "argv": sys.argv[1:],
                "seed": args.seed, "mb_asked": args.mb, "sources": sources, "copies": copies,
                "files": files, "bytes": nbytes, "python": platform.python_version(),
                "machine": platform.platform(), "seconds": round(time.perf_counter() - t0, 1)}
    with open(os.path.join(out, MANIFEST), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=1, ensure_ascii=False)
    print(f"{out}: {files} files, {nbytes / 1e6:.1f} MB in {manifest['seconds']} s; "
          + ", ".join(f"{n} {s['files']} files {s['bytes'] / 1e6:.1f} MB"
                      for n, s in sources.items())
          + f", copies {copies['files']} files {copies['bytes'] / 1e6:.1f} MB "
            f"({copies['edited']} edited)")
    return 0


def _sampled(key: str, one_in: int, salt: object = "") -> bool:
    h = hashlib.blake2b(f"{salt}:{key}".encode("utf-8", "surrogateescape"), digest_size=8)
    return int.from_bytes(h.digest(), "big") % one_in == 0


# --- run --------------------------------------------------------------------------------

def tree_files(root: str) -> list[tuple[str, int]]:
    """(path, size) of every regular file the scan sees, the manifest left out."""
    out = []
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if p == os.path.join(root, MANIFEST) or os.path.islink(p):
                continue
            try:
                out.append((p, os.path.getsize(p)))
            except OSError:
                pass
    out.sort()
    return out


def decode_for_peer(data: bytes) -> str:
    if data.startswith(b"\xff\xfe"):
        return data[2:].decode("utf-16-le", "replace")
    if data.startswith(b"\xfe\xff"):
        return data[2:].decode("utf-16-be", "replace")
    for codec in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(codec)
        except UnicodeDecodeError:
            pass
    return data.decode("latin-1")


PEER = r"""
import json, sys, time
from simhash import Simhash
texts = json.load(open(sys.argv[1], encoding="utf-8"))
t = time.perf_counter()
for s in texts:
    Simhash(s)
print(json.dumps({"seconds": time.perf_counter() - t, "texts": len(texts)}))
"""


def peer_python(args: argparse.Namespace) -> str | None:
    """The peer's interpreter, or None (said why). Installs only with --install-peer."""
    py = args.peer_python or os.path.join(PEER_VENV, "bin", "python")
    if not os.path.exists(py) and args.install_peer and not args.peer_python:
        print(f"creating {PEER_VENV} ({', '.join(PEER_PACKAGES)}) ...", flush=True)
        try:
            subprocess.run([sys.executable, "-m", "venv", PEER_VENV], check=True)
            subprocess.run([py, "-m", "pip", "install", "-q", *PEER_PACKAGES], check=True)
        except (subprocess.CalledProcessError, OSError) as e:
            print(f"peer: cannot install: {e}", flush=True)
            shutil.rmtree(PEER_VENV, ignore_errors=True)
            return None
    if not os.path.exists(py):
        print(f"peer: missing ({py}); --install-peer creates it, --peer-python names another; "
              "running without the peer", flush=True)
        return None
    probe = subprocess.run([py, "-c", "import simhash"], capture_output=True, text=True)
    if probe.returncode:
        print(f"peer: {py} cannot import simhash: {probe.stderr.strip()[-300:]}", flush=True)
        return None
    return py


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def has_phase_times(checkout: str) -> bool:
    p = subprocess.run([sys.executable, "-m", "simdup_gui.cli", "scan", "--help"], cwd=checkout,
                       env=coldscan.checkout_env(checkout), capture_output=True, text=True)
    return "--phase-times" in p.stdout


def phases_of(err: str, started: float, ended: float) -> dict[str, float]:
    """Seconds per phase from the scan's 'simdup: phase NAME T' lines (epoch clocks)."""
    marks = []
    for line in err.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[:2] == ["simdup:", "phase"]:
            try:
                marks.append((parts[2], float(parts[3])))
            except ValueError:
                pass
    out = dict.fromkeys(PHASES, 0.0)
    if not marks:
        return out
    out["startup"] = max(0.0, marks[0][1] - started)
    for (name, t), (_, nxt) in zip(marks, marks[1:] + [("", ended)], strict=True):
        key = {"end": "exit"}.get(name, name if name in PHASES else "other")
        out[key] += max(0.0, nxt - t)
    return {k: round(v, 3) for k, v in out.items()}


def scan_once(tree: str, checkout: str, args: argparse.Namespace, phase_flag: bool,
              watch: bool, workdir: str) -> dict:
    results = os.path.join(workdir, "results.json")
    cmd = [sys.executable, "-m", "simdup_gui.cli", "scan", tree, "--no-cache", "--format",
           "json", "-o", results]
    if phase_flag:
        cmd.append("--phase-times")
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    with tempfile.TemporaryFile(dir=workdir) as err:
        cpu0 = _children_cpu()
        started = time.time()
        t = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=checkout, env=coldscan.checkout_env(checkout),
                             stdout=subprocess.DEVNULL, stderr=err)
        peak = procs = 0
        if watch:
            while p.poll() is None:
                pids = coldscan.tree(p.pid)
                s = sum(coldscan.pss_kb(x)[0] for x in pids)
                if s > peak:
                    peak, procs = s, len(pids)
                time.sleep(args.interval)
        p.wait()
        wall = time.perf_counter() - t
        ended = time.time()
        coldscan._reap_all()
        cpu = _children_cpu() - cpu0
        err.seek(0)
        text = err.read().decode(errors="replace")
    if p.returncode not in (0, 1):
        raise SystemExit(f"simdup scan of {checkout} failed ({p.returncode}): {text[-2000:]}")
    groups = None
    try:
        with open(results, encoding="utf-8") as fh:
            groups = len(json.load(fh).get("groups", []))
        os.unlink(results)
    except (OSError, ValueError):
        pass
    return {"wall": round(wall, 3), "cpu": round(cpu, 3),
            "pss_peak_mb": round(peak / 1024, 1) if watch else None,
            "procs_at_peak": procs if watch else None, "groups": groups,
            "phases": phases_of(text, started, ended) if phase_flag else None,
            "warnings": [ln for ln in text.splitlines() if "warning" in ln][:5]}


def run_peer(py: str, texts_path: str) -> dict:
    c0 = _children_cpu()
    t = time.perf_counter()
    p = subprocess.run([py, "-c", PEER, texts_path], capture_output=True, text=True)
    wall = time.perf_counter() - t
    if p.returncode:
        raise SystemExit(f"peer failed: {p.stderr[-2000:]}")
    got = json.loads(p.stdout.strip().splitlines()[-1])
    return {"hash_seconds": got["seconds"], "process_wall": round(wall, 3),
            "process_cpu": round(_children_cpu() - c0, 3)}


def run(args: argparse.Namespace) -> int:
    if not coldscan._subreaper():
        raise SystemExit("needs Linux (prctl PR_SET_CHILD_SUBREAPER) to count the workers' CPU")
    tree = os.path.abspath(args.tree)
    checkouts = [os.path.abspath(c) for c in (args.checkout or [REPO])]
    names = [os.path.basename(c.rstrip("/")) or c for c in checkouts]
    if len(set(names)) < len(names):
        names = [f"{i}:{n}" for i, n in enumerate(names)]
    files = tree_files(tree)
    nbytes = sum(s for _, s in files)
    mb = nbytes / 1e6
    flags = {c: has_phase_times(c) for c in checkouts}
    for c, ok in flags.items():
        if not ok:
            print(f"{c}: no 'simdup scan --phase-times' there; its runs have no phases", flush=True)
    print(f"{tree}: {len(files)} files, {mb:.1f} MB; {os.cpu_count()} cores; "
          f"load {os.getloadavg()[0]:.2f}; checkouts: {', '.join(checkouts)}", flush=True)
    log = open(args.jsonl, "a", encoding="utf-8")
    rows = []
    with tempfile.TemporaryDirectory(prefix="largetree-") as work:
        py = None if args.no_peer else peer_python(args)
        texts_path, sample_bytes, sample_n = None, 0, 0
        if py:
            sample = [(p, s) for p, s in files if _sampled(os.path.relpath(p, tree),
                                                            args.peer_sample)]
            texts = []
            for p, _ in sample:
                with open(p, "rb") as fh:
                    texts.append(decode_for_peer(fh.read()))
            sample_bytes, sample_n = sum(s for _, s in sample), len(sample)
            texts_path = os.path.join(work, "peer-texts.json")
            with open(texts_path, "w", encoding="utf-8") as fh:
                json.dump(texts, fh, ensure_ascii=False)
            del texts
            print(f"peer sample: 1/{args.peer_sample}: {sample_n} files, "
                  f"{sample_bytes / 1e6:.1f} MB", flush=True)
        if args.warmup:  # unmeasured: each checkout's caches (tables, compiled kernels)
            small = os.path.join(work, "warmup")
            for p, _ in files[:: max(1, len(files) // 40)][:40]:
                dst = os.path.join(small, os.path.relpath(p, tree))
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(p, dst)
            for c in checkouts:
                coldscan.bytecode(c)
                scan_once(small, c, args, False, False, work)
        for rnd in range(args.rounds):
            order = list(zip(checkouts, names, strict=True))
            if rnd % 2:
                order.reverse()  # ABBA: each checkout first equally often
            for c, name in order:
                watch = args.memory == "same"
                r = scan_once(tree, c, args, flags[c], watch, work)
                if args.memory == "separate":
                    m = scan_once(tree, c, args, False, True, work)
                    r["pss_peak_mb"], r["procs_at_peak"] = m["pss_peak_mb"], m["procs_at_peak"]
                r.update(who="simdup", checkout=c, name=name, round=rnd, mb=round(mb, 3),
                         files=len(files),
                         mb_per_cpu_s=round(mb / r["cpu"], 3) if r["cpu"] else None,
                         memory=args.memory, load=round(os.getloadavg()[0], 2), t=time.time())
                rows.append(r)
                log.write(json.dumps(r, ensure_ascii=False) + "\n")
                log.flush()
                print(line(r), flush=True)
            if texts_path:
                pr = run_peer(py, texts_path)
                scale = nbytes / sample_bytes if sample_bytes else 0.0
                mine = [r for r in rows if r["round"] == rnd and r["who"] == "simdup"]
                pr.update(who="peer", name="pypi-simhash", round=rnd, sample=args.peer_sample,
                          sample_files=sample_n, sample_mb=round(sample_bytes / 1e6, 3),
                          extrapolated_seconds=round(pr["hash_seconds"] * scale, 3),
                          mb_per_cpu_s=round(sample_bytes / 1e6 / pr["hash_seconds"], 3)
                          if pr["hash_seconds"] else None,
                          ratio_wall={r["name"]: round(pr["hash_seconds"] * scale / r["wall"], 3)
                                      for r in mine},
                          ratio_cpu={r["name"]: round(pr["hash_seconds"] * scale / r["cpu"], 3)
                                     for r in mine if r["cpu"]},
                          load=round(os.getloadavg()[0], 2), t=time.time())
                rows.append(pr)
                log.write(json.dumps(pr, ensure_ascii=False) + "\n")
                log.flush()
                print(line(pr), flush=True)
    log.close()
    print(table(rows, names))
    print(f"runs written to {os.path.abspath(args.jsonl)}; load at the end "
          f"{os.getloadavg()[0]:.2f}")
    return 0


def line(r: dict) -> str:
    if r["who"] == "peer":
        return (f"round {r['round']} peer   hashing {r['hash_seconds']:.2f} s on 1/{r['sample']} "
                f"({r['sample_mb']:.1f} MB, {r['mb_per_cpu_s'] or 0:.2f} MB/s), extrapolated "
                f"{r['extrapolated_seconds']:.1f} s; peer/simdup wall "
                + ", ".join(f"{k} {v:.2f}x" for k, v in r["ratio_wall"].items()) + "; CPU "
                + ", ".join(f"{k} {v:.2f}x" for k, v in r["ratio_cpu"].items()))
    ph = r["phases"]
    phases = (" ".join(f"{k} {ph[k]:.2f}" for k in PHASES if ph[k]) if ph else "no phases")
    pss = f"{r['pss_peak_mb']:.0f} MB" if r["pss_peak_mb"] is not None else "-"
    return (f"round {r['round']} {r['name']}: wall {r['wall']:.2f} s, CPU {r['cpu']:.2f} s, "
            f"{r['mb_per_cpu_s'] or 0:.2f} MB/CPU s, peak PSS {pss}, {r['groups']} groups; "
            f"{phases}")


def table(rows: list[dict], names: list[str]) -> str:
    """Median (min-max) per checkout of each measure, then the peer's."""
    def cell(vals: list) -> str:
        vals = [v for v in vals if v is not None]
        if not vals:
            return "-"
        return (f"{statistics.median(vals):.2f}" if len(vals) == 1 else
                f"{statistics.median(vals):.2f} ({min(vals):.2f}-{max(vals):.2f})")

    cols = ["wall s", "CPU s", "MB/CPU s", "peak PSS MB", *(f"{p} s" for p in PHASES)]
    out = ["| run | " + " | ".join(cols) + " |", "| --- |" + " ---: |" * len(cols)]
    for n in names:
        mine = [r for r in rows if r["who"] == "simdup" and r["name"] == n]
        vals = [cell([r["wall"] for r in mine]), cell([r["cpu"] for r in mine]),
                cell([r["mb_per_cpu_s"] for r in mine]), cell([r["pss_peak_mb"] for r in mine])]
        vals += [cell([r["phases"][p] if r["phases"] else None for r in mine]) for p in PHASES]
        out.append(f"| {n} | " + " | ".join(vals) + " |")
    peer = [r for r in rows if r["who"] == "peer"]
    if peer:
        out.append(f"| peer 1/{peer[0]['sample']}, extrapolated | "
                   + cell([r["extrapolated_seconds"] for r in peer]) + " | - | "
                   + cell([r["mb_per_cpu_s"] for r in peer]) + " |" + " - |" * (len(cols) - 3))
        for n in names:
            out.append(f"peer / {n}: wall {cell([r['ratio_wall'].get(n) for r in peer])}x, "
                       f"CPU {cell([r['ratio_cpu'].get(n) for r in peer])}x")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build the tree from text on this machine")
    b.add_argument("out", metavar="OUT")
    b.add_argument("--mb", type=float, default=None, help="about this many MB (default: all)")
    b.add_argument("--copies", type=int, default=8, metavar="K",
                   help="edited copies of --mix, or of a 1-in-20 sample (default 8)")
    b.add_argument("--mix", metavar="DIR", help="a benchmarks/mixcorpus.py folder to copy")
    b.add_argument("--source", nargs="+", default=["man", "doc", "python"],
                   help="man, doc, python and/or NAME=PATH (default: man doc python)")
    b.add_argument("--seed", type=int, default=40)
    b.set_defaults(func=build)
    r = sub.add_parser("run", help="alternating cold scans of the tree, and the peer")
    r.add_argument("tree", metavar="TREE")
    r.add_argument("--checkout", action="append", metavar="DIR",
                   help="a checkout to run (repeat; default: this one)")
    r.add_argument("--rounds", type=int, default=2)
    r.add_argument("--workers", type=int, default=0, help="passed to simdup scan when given")
    r.add_argument("--memory", choices=("same", "separate", "off"), default="same",
                   help="peak PSS sampled in the timed run (default), in a second run, or not")
    r.add_argument("--interval", type=float, default=0.1, help="PSS sampling period, s")
    r.add_argument("--peer-sample", type=int, default=16, metavar="N",
                   help="the peer hashes every Nth file (by a hash of the path)")
    r.add_argument("--peer-python", metavar="PY", help="an interpreter that imports simhash")
    r.add_argument("--install-peer", action="store_true",
                   help=f"create {PEER_VENV} with pip if it is missing")
    r.add_argument("--no-peer", action="store_true")
    r.add_argument("--no-warmup", dest="warmup", action="store_false",
                   help="skip the unmeasured small scan of each checkout first")
    r.add_argument("--jsonl", default="largetree-runs.jsonl", metavar="FILE")
    r.set_defaults(func=run)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
