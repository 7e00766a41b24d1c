"""Cold scan of a user-like folder against PyPI ``simhash``, alternating, with peak memory.

    python benchmarks/mixcorpus.py /tmp/mix25 --mb 25
    python benchmarks/coldscan.py /tmp/mix25 --repeat 3

Each round runs, one after the other on the same machine:

- simdup: the whole process ``python -m simdup_gui.cli scan ROOT --no-cache --workers 2
  --format json`` (start-up, walk, decode, features, SimHash, the verification sketches,
  grouping with verification, JSON out), timed from outside with nothing watching it; its CPU
  time is that of the whole process tree (this process is made subreaper, so the fork server,
  and through it the workers, are waited for and counted by getrusage);
- simdup again, for memory only: while it runs, the process tree is sampled every 20 ms and
  the PSS of every process (``/proc/PID/smaps_rollup``) summed; the peak of that sum is the
  scan's memory (shared pages counted once). On two cores that sampling takes 1-2 CPU s from
  the scan, so it is never the timed run;
- the peer: PyPI ``simhash`` 2.1.2 (in benchmarks/.venv/pypi-simhash, numpy<2) computing
  ``Simhash(text)`` for every file's text, decoded beforehand with the encoding the corpus
  manifest names (the decode is not timed: the peer gets the easy half of the work).

Ratios are per round (the peer's time against simdup's in the same round); the summary gives
the range. Besides wall time each run's CPU time is printed: on a machine shared with other
work, wall time of a two-process scan suffers more than that of the one-process peer, and
"peer time / simdup CPU time" is the comparison per core. ``--workers`` and ``--no-peer``
change what runs; ``--baseline CHECKOUT`` also runs an older checkout in each round.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

PEER = r"""
import json, sys, time
from simhash import Simhash
texts = json.load(open(sys.argv[1], encoding="utf-8"))
t = time.perf_counter()
for s in texts:
    Simhash(s)
print(json.dumps({"seconds": time.perf_counter() - t}))
"""


def tree(pid: int) -> list[int]:
    """pid and all its descendants (from /proc/*/stat)."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as fh:
                    s = fh.read()
                parent[int(d)] = int(s[s.rindex(b")") + 2 :].split()[1])
            except (OSError, ValueError):
                pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(c for c, pp in parent.items() if pp == p)
    return out


def pss_kb(pid: int) -> tuple[int, int]:
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


_TICK = os.sysconf("SC_CLK_TCK")


def own_cpu(pid: int) -> float:
    """User + system CPU seconds of one process so far (/proc/PID/stat), 0 if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            f = fh.read().rsplit(b")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / _TICK
    except (OSError, ValueError, IndexError):
        return 0.0


def _children_cpu() -> float:
    """User + system CPU seconds of every waited-for descendant (the pool's workers are
    waited for by the scan, so they count too): less sensitive to a busy machine than wall
    time."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux prctl
    PR_SET_CHILD_SUBREAPER), so the fork server, which the scan never waits for, and through it
    the workers it forked, end up waited for by us and in our RUSAGE_CHILDREN."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _reap_all() -> None:
    """Wait for every descendant left (orphans handed to us as subreaper)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


def bytecode(repo: str) -> None:
    """Compile the checkout's modules to bytecode (``compileall``), as pip does when it installs
    a package and as Python does on a first import: the timed scans then load it, as a user's
    do. Where PYTHONDONTWRITEBYTECODE is set (this benchmark's own machine sets it) a module
    edited since its .pyc was written is otherwise compiled from source by every process
    that imports it, at every run: 30 ms of the fork server's warm-up alone (measured)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(repo, "simdup_gui")],
                   check=True, stdout=subprocess.DEVNULL)


def checkout_env(repo: str) -> dict[str, str]:
    """The environment a checkout's runs get: its modules first on the path, and a cache
    folder of its own (XDG_CACHE_HOME, kept between runs under the temporary folder). The
    scan keeps tables it derives from jieba's dictionary and from its own features.py there
    (jiebadict.cached_arrays), named by their sources' mtimes: two checkouts sharing the
    user's folder each found the other's Unicode tables, and a checkout older than
    2026-11-25 removes them (it kept only the newest copy), so that in a before/after each
    run built them again in its fork server (0.03-0.05 CPU s; whole scans of the 25 MB mix
    showed no difference above noise: medians 1.256 / 1.247 s shared, 1.263 / 1.265 s own
    folders, 8 rounds)."""
    import hashlib

    real = os.path.realpath(repo)
    key = hashlib.blake2b(real.encode("utf-8"), digest_size=6).hexdigest()
    return {**os.environ, "PYTHONPATH": repo,
            "XDG_CACHE_HOME": os.path.join(tempfile.gettempdir(), "simdup-bench-cache", key)}


def _popen(root: str, workers: int, repo: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "simdup_gui.cli", "scan", root, "--no-cache", "--format", "json",
           "--workers", str(workers)]
    return subprocess.Popen(cmd, cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=checkout_env(repo))


def _check(p: subprocess.Popen) -> None:
    err = p.stderr.read().decode(errors="replace")
    if p.returncode not in (0, 1):
        raise SystemExit(f"simdup scan failed ({p.returncode}): {err[-2000:]}")


def time_simdup(root: str, workers: int, repo: str = REPO) -> dict:
    """Wall and CPU time of one scan, with nothing watching it: on two cores a sampler reading
    /proc every 20 ms takes 1-2 CPU s from the scan's two workers (measured: 3.4-4.7 s
    unwatched against 4.3-6.1 s watched, same rounds). CPU time is exact: as subreaper we wait
    for the fork server, which waited for its workers, so all of them are in RUSAGE_CHILDREN."""
    cpu0 = _children_cpu()
    t = time.perf_counter()
    p = _popen(root, workers, repo)
    p.wait()
    dt = time.perf_counter() - t
    _reap_all()
    _check(p)
    return {"seconds": dt, "cpu": _children_cpu() - cpu0}


def watch_simdup(root: str, workers: int, repo: str = REPO) -> dict:
    """Peak memory of one scan: the process tree sampled every 20 ms, the PSS of every process
    (``/proc/PID/smaps_rollup``) summed. A run of its own, so the sampling costs no time to
    the timed one."""
    p = _popen(root, workers, repo)
    peak_sum = peak_one = procs = 0
    at_peak: list = []
    while p.poll() is None:
        pids = tree(p.pid)
        vals = [pss_kb(x) for x in pids]
        s = sum(v[0] for v in vals)
        if s > peak_sum:
            peak_sum, procs = s, len(pids)
            at_peak = sorted(((v[0] // 1024, _name(x)) for x, v in zip(pids, vals)), reverse=True)
        peak_one = max([peak_one] + [v[1] for v in vals])
        time.sleep(0.02)
    _reap_all()
    _check(p)
    return {"pss_mb": peak_sum / 1024, "rss_max_mb": peak_one / 1024, "processes": procs,
            "at_peak": ", ".join(f"{n} {mb} MB" for mb, n in at_peak)}


def run_simdup(root: str, workers: int, repo: str = REPO) -> dict:
    """One timed run, then one watched run for memory."""
    return {**time_simdup(root, workers, repo), **watch_simdup(root, workers, repo)}


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().decode(errors="replace").replace("\0", " ")
    except OSError:
        return ""


def _ppid(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return int(fh.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _name(pid: int) -> str:
    """What a process of the scan is: the scan itself, the fork server, a worker, ... The
    command line's fork server is a fork of the scan (poolctx._fork_server), and its workers
    forks of that: they have the scan's command line, and are told apart by their parents."""
    text = _cmdline(pid)
    server = "forkserver import main"  # a server multiprocessing started, and its workers
    if server in text or "simdup_gui.cli" in text:
        key = server if server in text else text
        parent = _ppid(pid)
        if key not in _cmdline(parent):
            return "fork server" if key == server else "scan"
        return "worker" if key in _cmdline(_ppid(parent)) else "fork server"
    for key, name in (("resource_tracker", "tracker"), ("spawn_main", "worker")):
        if key in text:
            return name
    return "?"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--baseline", metavar="CHECKOUT",
                    help="also run simdup from another checkout (e.g. a git worktree of an older "
                         "commit) in each round, for a before/after in the same run")
    args = ap.parse_args()
    if not _subreaper():
        raise SystemExit("needs Linux (prctl PR_SET_CHILD_SUBREAPER) to count the workers' CPU")
    sys.path.insert(0, HERE)
    import mixcorpus

    for repo in (REPO, args.baseline):
        if repo:
            bytecode(repo)
            time_simdup(args.root, args.workers, repo)  # unmeasured: the checkout's caches

    with open(os.path.join(args.root, "manifest.json"), encoding="utf-8") as fh:
        files = json.load(fh)["files"]
    mb = sum(f["bytes"] for f in files) / 1e6
    print(f"{args.root}: {len(files)} files, {mb:.1f} MB; {os.cpu_count()} cores; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    peer_py = os.path.join(HERE, ".venv", "pypi-simhash", "bin", "python")
    texts_path = None
    if not args.no_peer:
        if not os.path.exists(peer_py):
            raise SystemExit("peer missing: python benchmarks/run.py creates "
                             "benchmarks/.venv/pypi-simhash (numpy<2, simhash==2.1.2)")
        fd, texts_path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(mixcorpus.decoded_texts(args.root), fh, ensure_ascii=False)
    ratios, secs, pss, base_secs, base_pss, cpus, cpu_ratios = [], [], [], [], [], [], []
    try:
        for i in range(args.repeat):
            r = run_simdup(args.root, args.workers)
            secs.append(r["seconds"])
            pss.append(r["pss_mb"])
            cpus.append(r["cpu"])
            line = (f"round {i + 1}: simdup {r['seconds']:.2f} s ({mb / r['seconds']:.2f} MB/s, "
                    f"{mb / r['seconds'] / args.workers:.2f} MB/s per worker; {r['cpu']:.1f} CPU s, "
                    f"{mb / r['cpu']:.2f} MB per CPU second), peak PSS "
                    f"{r['pss_mb']:.0f} MB over {r['processes']} processes ({r['at_peak']}), "
                    f"largest RSS {r['rss_max_mb']:.0f} MB")
            if texts_path:
                c0 = _children_cpu()
                p = subprocess.run([peer_py, "-c", PEER, texts_path], capture_output=True,
                                   text=True, check=True)
                peer_cpu = _children_cpu() - c0
                ps = json.loads(p.stdout.strip().splitlines()[-1])["seconds"]
                ratios.append(ps / r["seconds"])
                cpu_ratios.append(ps / r["cpu"])
                line += (f"; peer Simhash(text) {ps:.2f} s ({mb / ps:.2f} MB/s; its process "
                         f"{peer_cpu:.1f} CPU s with start-up and loading the texts): "
                         f"{ratios[-1]:.2f}x wall, {cpu_ratios[-1]:.2f}x simdup's CPU")
            if args.baseline:
                b = run_simdup(args.root, args.workers, args.baseline)
                base_secs.append(b["seconds"])
                base_pss.append(b["pss_mb"])
                line += (f"; baseline {b['seconds']:.2f} s ({b['cpu']:.1f} CPU s), peak PSS "
                         f"{b['pss_mb']:.0f} MB, largest "
                         f"RSS {b['rss_max_mb']:.0f} MB")
            print(line, flush=True)
    finally:
        if texts_path:
            os.unlink(texts_path)
    summary = (f"simdup {min(secs):.2f}-{max(secs):.2f} s ({min(cpus):.1f}-{max(cpus):.1f} CPU s), "
               f"peak PSS {min(pss):.0f}-{max(pss):.0f} MB")
    if ratios:
        summary += (f"; peer time / simdup wall time {min(ratios):.2f}x-{max(ratios):.2f}x, "
                    f"peer time / simdup CPU time {min(cpu_ratios):.2f}x-{max(cpu_ratios):.2f}x")
    if base_secs:
        summary += (f"; baseline {min(base_secs):.2f}-{max(base_secs):.2f} s, peak PSS "
                    f"{min(base_pss):.0f}-{max(base_pss):.0f} MB")
    print(summary + f"; load at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
