"""benchmarks/largetree.py (issue 40, item 3), small: `build --mb 2` makes a tree of text from
this machine (/usr/share/doc, else this Python's .py files) with a manifest whose counts are
the tree's, the same bytes twice; one round of `run` with this checkout writes a JSON line
with wall, CPU, MB per CPU second, peak PSS and every phase, and the peer's line (a stand-in
`simhash` module here: the benchmark never installs one unasked). Run as child processes: the
benchmark makes itself subreaper and waits for every child it has."""

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "largetree.py"
PHASES = ("walk", "fingerprint", "candidates", "verify", "stars", "write")

pytestmark = [pytest.mark.slow,  # two builds and a scan: 5-10 s on 2 busy cores
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc, prctl")]


def source() -> str:
    doc = Path("/usr/share/doc")
    if doc.is_dir() and sum(1 for _ in doc.rglob("copyright")) >= 20:
        return f"doc={doc}"
    return "python"


def digest(tree: Path) -> str:
    h = hashlib.sha1()
    for p in sorted(tree.rglob("*")):
        if p.is_file() and p.name != "manifest.json":
            h.update(str(p.relative_to(tree)).encode("utf-8", "surrogateescape"))
            h.update(p.read_bytes())
    return h.hexdigest()


def bench(*argv, cwd):
    p = subprocess.run([sys.executable, str(SCRIPT), *map(str, argv)], cwd=cwd,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout


def test_build_then_one_round_has_every_phase_and_positive_cpu(tmp_path):
    tree = tmp_path / "tree"
    bench("build", tree, "--mb", 2, "--copies", 2, "--source", source(), cwd=tmp_path)
    man = json.loads((tree / "manifest.json").read_text(encoding="utf-8"))
    files = [p for p in tree.rglob("*") if p.is_file() and p.name != "manifest.json"]
    assert man["files"] == len(files) > 10
    assert man["bytes"] == sum(p.stat().st_size for p in files)
    assert 1.0e6 < man["bytes"] < 2.5e6
    assert man["copies"]["files"] > 0 and man["copies"]["copies"] == 2
    first = digest(tree)
    bench("build", tree, "--mb", 2, "--copies", 2, "--source", source(), cwd=tmp_path)
    assert digest(tree) == first  # deterministic given the seed

    fake = tmp_path / "peer"
    fake.mkdir()
    (fake / "simhash.py").write_text("class Simhash:\n    def __init__(self, text):\n"
                                     "        self.value = hash(text)\n", encoding="utf-8")
    py = fake / "python"
    py.write_text(f'#!/bin/sh\nPYTHONPATH="{fake}" exec "{sys.executable}" "$@"\n')
    py.chmod(0o755)
    jsonl = tmp_path / "runs.jsonl"
    out = bench("run", tree, "--checkout", ROOT, "--rounds", 1, "--no-warmup",
                "--peer-python", py, "--jsonl", jsonl, cwd=tmp_path)
    rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    scans = [r for r in rows if r["who"] == "simdup"]
    assert len(scans) == 1
    r = scans[0]
    assert r["cpu"] > 0 and r["wall"] > 0 and r["mb_per_cpu_s"] > 0
    assert r["pss_peak_mb"] > 0 and r["groups"] is not None
    assert set(PHASES) <= set(r["phases"])
    assert r["phases"]["walk"] > 0 and r["phases"]["fingerprint"] > 0
    assert sum(r["phases"].values()) <= r["wall"] + 0.05
    assert r["mb"] == pytest.approx(man["bytes"] / 1e6, abs=1e-3)
    peer = [r for r in rows if r["who"] == "peer"]
    assert len(peer) == 1 and peer[0]["sample"] == 16
    assert "| peer 1/16, extrapolated |" in out and "MB/CPU s" in out
