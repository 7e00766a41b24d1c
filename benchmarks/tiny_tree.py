"""A hostile tree for issue 40: 100,000 tiny files that are all near-copies of each other in
large families, scanned cold and then warm (every fingerprint cached).

    python3 benchmarks/tiny_tree.py build /tmp/tiny100k --files 100000
    python3 benchmarks/tiny_tree.py run /tmp/tiny100k [--repo CHECKOUT]

``build``: ``--families`` (200) snippets of 300-800 bytes cut from the text files of
/usr/share/doc (real text, not generated words), each copied ``files / families`` times with
one to three small edits (a number changed, a word doubled, a line dropped), 100 files a
folder. Every family is one dense cluster: each file a candidate of most of its family.

``run``: ``python3 -m simdup_gui.cli scan TREE --format json -o OUT --phase-times`` with the
fingerprint cache in the tree's sibling folder ``TREE.cache`` (emptied first: the first scan
is cold, the second warm), from CHECKOUT (default: this one). For each scan: wall time, the
CPU time of the whole process tree (user + system, fork server and workers included: less
sensitive than wall time to a busy machine), the main process's peak RSS and the whole
process tree's peak summed PSS (sampled every 0.5 s, benchmarks/coldscan.py), the phases'
start times, the groups found and the files in them.
Nothing is asserted; the figures go to docs/performance.md with the command.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import coldscan  # noqa: E402 - tree(), pss_kb()


def snippets(n: int, seed: int) -> list[str]:
    """``n`` pieces of 300-800 characters of real text from /usr/share/doc."""
    rng = random.Random(seed)
    paths = []
    for d, _, files in os.walk("/usr/share/doc"):
        paths += [os.path.join(d, f) for f in files if f.endswith((".gz", ".txt", "README",
                                                                  "copyright", "NEWS"))]
    paths.sort()
    rng.shuffle(paths)
    out: list[str] = []
    for p in paths:
        try:
            raw = gzip.open(p).read() if p.endswith(".gz") else open(p, "rb").read()
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError, EOFError):
            continue
        if len(text) < 1200:
            continue
        start = rng.randrange(0, len(text) - 900)
        out.append(text[start:start + rng.randint(300, 800)])
        if len(out) == n:
            break
    return out


def edited(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(3)
        i = rng.randrange(len(lines))
        if kind == 0:
            lines[i] = f"{lines[i]} {rng.randint(0, 99999)}"
        elif kind == 1:
            words = lines[i].split(" ")
            j = rng.randrange(len(words))
            words.insert(j, words[j])
            lines[i] = " ".join(words)
        elif len(lines) > 4:
            del lines[i]
    return "\n".join(lines)


def build(root: str, files: int, families: int, seed: int = 11) -> None:
    rng = random.Random(seed)
    base = snippets(families, seed)
    os.makedirs(root, exist_ok=True)
    for i in range(files):
        folder = os.path.join(root, f"d{i // 100:04d}")
        if i % 100 == 0:
            os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"f{i:06d}.txt"), "w", encoding="utf-8") as fh:
            fh.write(edited(base[i % len(base)], rng))
    print(f"{files:,} files of {len(base)} families under {root}")


def scan_once(root: str, repo: str, out: str, env: dict) -> dict:
    cmd = [sys.executable, "-m", "simdup_gui.cli", "scan", root, "--format", "json", "-o", out,
           "--phase-times"]
    t0 = time.time()
    cpu0 = coldscan._children_cpu()
    p = subprocess.Popen(cmd, cwd=repo, env=env, stderr=subprocess.PIPE, text=True)
    phases, errors = [], []

    def read() -> None:
        for line in p.stderr:
            if line.startswith("simdup: phase "):
                _, _, name, t = line.split()
                phases.append((name, round(float(t) - t0, 1)))
            else:
                errors.append(line.rstrip())

    threading.Thread(target=read, daemon=True).start()
    rss = pss = 0.0
    while p.poll() is None:
        rss = max(rss, coldscan.pss_kb(p.pid)[1] / 1024)
        pss = max(pss, sum(coldscan.pss_kb(x)[0] for x in coldscan.tree(p.pid)) / 1024)
        time.sleep(0.5)
    wall = time.time() - t0
    coldscan._reap_all()  # the fork server and its workers too (we are their subreaper)
    cpu = coldscan._children_cpu() - cpu0
    time.sleep(0.2)
    try:
        with open(out, encoding="utf-8") as fh:
            groups = json.load(fh).get("groups", [])
    except (OSError, ValueError):
        groups = []
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "main_rss_peak_mb": round(rss),
            "tree_pss_peak_mb": round(pss), "phases": phases, "groups": len(groups),
            "files_in_groups": sum(len(g.get("files", [])) for g in groups),
            "exit": p.returncode, "stderr": errors[-5:]}


def run(root: str, repo: str) -> None:
    root = os.path.abspath(root)
    cache = root.rstrip("/") + ".cache"
    shutil.rmtree(cache, ignore_errors=True)
    # its modules first on the path, the workers' too: the fork server does not look in the
    # working folder (poolctx.safe_path), and used the installed checkout's beside this one's
    env = dict(os.environ, XDG_CACHE_HOME=cache, PYTHONPATH=os.path.abspath(repo))
    coldscan._subreaper()
    for kind in ("cold", "warm"):
        r = scan_once(root, repo, os.path.join(cache, f"{kind}.json"), env)
        print(kind, json.dumps(r), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("root")
    b.add_argument("--files", type=int, default=100_000)
    b.add_argument("--families", type=int, default=200)
    r = sub.add_parser("run")
    r.add_argument("root")
    r.add_argument("--repo", default=os.path.dirname(HERE))
    a = ap.parse_args()
    if a.cmd == "build":
        build(a.root, a.files, a.families)
    else:
        run(a.root, os.path.abspath(a.repo))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
