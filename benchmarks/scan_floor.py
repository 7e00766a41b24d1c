"""How fast could a cold scan be at best? The steps no faster hashing can remove, against the peer.

    python benchmarks/mixcorpus.py /tmp/mix25 --mb 25
    python benchmarks/scan_floor.py /tmp/mix25 --repeat 3

In one process, CPU time (``time.process_time``) of what every simdup scan must do before it
hashes anything, each step on the whole corpus:

- read every file; decode it (BOM, strict trials, chardet last: simdup's decoder);
- NFKC and case folding (the near-duplicate definition, shared/near-duplicate.md);
- the tokenizer's text (whitespace rules of the feature pipeline);
- jieba's dictionary cut (rjieba, HMM off: the brief's tokenizer).

and, in the same round, PyPI ``simhash`` 2.1.2 on the decoded texts (coldscan.py's peer, in
benchmarks/.venv/pypi-simhash), also in CPU time (so a busy machine slows both alike). The floor is the sum of those steps spread over ``--workers``
cores, plus one interpreter start-up with the engine imported per worker (measured here by
starting ``python -c "import simdup_gui.core.scan.fingerprint"``), as if fingerprints, word
pairs, SimHash, the sketches, grouping and the JSON took no time at all. The best ratio any
implementation of these steps could reach is the peer's time over that floor. Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)
sys.path.insert(0, HERE)


PEER = None  # coldscan.PEER timed in CPU seconds (set in main)


def steps(root: str) -> dict[str, float]:
    from simdup_gui.core.scan import features
    from simdup_gui.core.scan.decode import DecodeError, decode_bytes
    from simdup_gui.core.scan.walk import WalkOptions, walk

    cut = features.default_tokenizer()
    cut("预热")  # the dictionary loads once per process; start-up is counted apart
    out: dict[str, float] = {}
    t = time.process_time()
    paths = [c.path for c in walk([root], WalkOptions()).files]
    raw = []
    for p in paths:
        with open(p, "rb") as fh:
            raw.append(fh.read())
    out["walk and read"] = time.process_time() - t
    t = time.process_time()
    texts = []
    for b in raw:
        try:
            texts.append(decode_bytes(b).text)
        except DecodeError:
            pass
    out["decode"] = time.process_time() - t
    t = time.process_time()
    folded = [features.normalise(x) for x in texts]
    out["NFKC, case folding"] = time.process_time() - t
    t = time.process_time()
    ftext = [features.feature_text(x) for x in folded]
    out["tokenizer's text"] = time.process_time() - t
    t = time.process_time()
    for x in ftext:
        cut(x)
    out["jieba cut (rjieba)"] = time.process_time() - t
    return out


def start_up() -> float:
    """Wall seconds to start an interpreter and import the worker's module (min of 3)."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import simdup_gui.core.scan.fingerprint as f; "
                        "f.FeatureSettings()"], cwd=REPO, check=True,
                       env={**os.environ, "PYTHONPATH": REPO})
        best = min(best, time.perf_counter() - t)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    import coldscan
    import mixcorpus

    global PEER
    PEER = coldscan.PEER.replace("time.perf_counter()", "time.process_time()")
    assert "process_time" in PEER

    peer_py = os.path.join(HERE, ".venv", "pypi-simhash", "bin", "python")
    if not os.path.exists(peer_py):
        raise SystemExit("peer missing: python benchmarks/run.py creates "
                         "benchmarks/.venv/pypi-simhash (numpy<2, simhash==2.1.2)")
    fd, texts_path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(mixcorpus.decoded_texts(args.root), fh, ensure_ascii=False)
    mb = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(args.root)
             for f in fs if f != "manifest.json") / 1e6
    print(f"{args.root}: {mb:.1f} MB; {os.cpu_count()} cores; load {os.getloadavg()[0]:.2f}")
    try:
        for i in range(args.repeat):
            st = steps(args.root)
            boot = start_up()
            p = subprocess.run([peer_py, "-c", PEER, texts_path], capture_output=True,
                               text=True, check=True)
            peer = json.loads(p.stdout.strip().splitlines()[-1])["seconds"]
            cpu = sum(st.values())
            floor = cpu / args.workers + boot
            parts = ", ".join(f"{k} {v:.2f}" for k, v in st.items())
            print(f"round {i + 1}: {parts} CPU s; sum {cpu:.2f} CPU s ({mb / cpu:.1f} MB per CPU "
                  f"second at most); start-up {boot:.2f} s; floor on {args.workers} cores "
                  f"{floor:.2f} s; peer {peer:.2f} CPU s; best possible ratio {peer / floor:.1f}x",
                  flush=True)
    finally:
        os.unlink(texts_path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
