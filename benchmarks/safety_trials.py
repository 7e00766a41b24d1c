"""Seeded random safety trials of simdup's actions (the proof for issue 10).

    python benchmarks/safety_trials.py --trials 500            # about 20 minutes on 2 cores
    python benchmarks/safety_trials.py --trials 50 --seed 7 --jobs 2 --keep-failures /tmp/f

Each trial, in its own temporary folder (its own HOME and XDG_DATA_HOME: trash, journals,
lock and journal key are the trial's):

1. make a tree of near-duplicate groups (random words, a few word edits per copy) in
   nested folders, loners, files outside the root, and clashing files already in the
   destination; scan it (`simdup scan --format json`);
2. mark: a keep rule, or random hand marks (which may be refused as a whole);
3. plan in a child process (`plan_action` + `bind_scan_identity`), then mutate the tree
   after the plan: edit (other size; same size and mtime), replace by an identical copy
   (new inode), touch, delete, replace by a symlink to an identical copy outside, or swap
   a folder for a symlink to an identical copy outside;
4. act (move / trash / delete / replace by a hard or symbolic link; some moves as "across file systems": link fails with
   EXDEV, so copy-verify-unlink) in that child, its file operations slowed a little, and
   maybe SIGKILL it at a random moment;
5. if it was cut off, maybe `simdup resume` (maybe killed too, then resumed again);
6. maybe `simdup undo` (maybe killed, then undone again);

and checks, after the action and after the undo, the invariants: every group keeps an
unchanged copy (a file simdup removed always has an unmarked, unchanged group member left);
no unmarked or changed-after-the-plan file is acted on; nothing outside the root, the
destination and the trial's trash is touched (files outside, the folder swapped away,
files already in the destination: content and inode); every moved or trashed file is
somewhere with its bytes; a file replaced by a link reads the same bytes as before and its
original is held; undo restores every byte of every moved, trashed or linked file; no
simdup temporary file or held original is left; no child ends in a traceback.

It prints the counts; any violation is listed with its seed (rerun one with --seed S
--trials 1 --keep-failures DIR to keep its folder).
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
if REPO not in sys.path:
    sys.path.insert(0, REPO)

T0 = 1_600_000_000 * 10**9
RULES = ("oldest", "newest", "largest", "smallest", "shortest-path", "longest-path")
ACTIONS = ("move", "trash", "delete", "hardlink", "symlink")
LINKS = ("hardlink", "symlink")
MUTATIONS = ("edit", "edit-same-size-and-mtime", "identical-copy", "touch", "delete",
             "symlink", "swap-folder")


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def fhash(path: str) -> str:
    with open(path, "rb") as fh:
        return digest(fh.read())


def write(path: Path, data: bytes, mtime_ns: int = T0) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.utime(path, ns=(mtime_ns, mtime_ns))
    return str(path)


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry under ``folder``: files by (hash, inode, mtime), links by target."""
    out: dict[str, tuple] = {}
    if not folder.exists():
        return out
    for dirpath, dirs, files in os.walk(folder):
        for n in dirs + files:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            if os.path.islink(p):
                out[p] = ("link", os.readlink(p))
            elif n in files:
                out[p] = ("file", fhash(p), st.st_ino, st.st_mtime_ns)
    return out


# ---- the child: plan then act, or run a CLI command, with slowed file operations ---------

def _slow_down(rng: random.Random, exdev: bool) -> None:
    """Small random sleeps in the file operations (so a kill lands mid-action), and with
    ``exdev`` hard links that fail as across file systems (except simdup's temp copies)."""
    from simdup_gui.core.act.fileops import TMP_PREFIX

    def wrap(name: str) -> None:
        real = getattr(os, name)

        def slow(*a, **kw):
            time.sleep(rng.uniform(0, 0.003))
            if name == "link" and exdev and TMP_PREFIX not in str(a[0]):
                raise OSError(errno.EXDEV, "Invalid cross-device link")
            return real(*a, **kw)

        setattr(os, name, slow)

    for name in ("link", "symlink", "unlink", "rename", "fsync", "write"):
        wrap(name)


def child_main(argv: list[str]) -> int:
    mode, seed, exdev = argv[0], int(argv[1]), argv[2] == "1"
    rng = random.Random(seed)
    if mode == "plan-act":
        results, action, move_to, journal = argv[3:7]
        from simdup_gui.core.act import actions
        from simdup_gui.core.act.actions import ActionRefused, execute, plan_action
        from simdup_gui.core.review.export import load_results

        bind_scan_identity = getattr(actions, "bind_scan_identity", lambda p, r: p)

        res = load_results(results)
        try:
            plan = bind_scan_identity(plan_action(res, res.marks, action,
                                                  move_to=None if move_to == "-" else move_to),
                                      res)
        except ActionRefused as e:
            print("refused", flush=True)
            print(str(e), file=sys.stderr)
            return 3
        print(f"planned {len(plan.ops)}", flush=True)
        sys.stdin.readline()  # the parent mutates the tree meanwhile
        _slow_down(rng, exdev)
        print("go", flush=True)
        rep = execute(plan, journal=journal)
        print(json.dumps(rep.to_dict(), ensure_ascii=True), flush=True)
        return rep.exit_code
    from simdup_gui.cli import main

    _slow_down(rng, exdev)
    print("go", flush=True)
    sys.stdout.flush()
    return main(argv[3:])


# ---- the parent --------------------------------------------------------------------------

class Trial:
    def __init__(self, seed: int, base: Path) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.dir = Path(tempfile.mkdtemp(prefix=f"trial-{seed}-", dir=base))
        self.root = self.dir / "root"
        self.dest = self.dir / "dups"
        self.outside = self.dir / "outside"
        self.xdg = self.dir / "xdg"
        self.env = dict(os.environ, HOME=str(self.dir), XDG_DATA_HOME=str(self.xdg),
                        XDG_CACHE_HOME=str(self.dir / "cache"),
                        XDG_CONFIG_HOME=str(self.dir / "config"), PYTHONPATH=REPO,
                        QT_QPA_PLATFORM="offscreen")
        self.counts: Counter = Counter()
        self.violations: list[str] = []
        self.tracebacks: list[str] = []
        self.procs: list[subprocess.Popen] = []

    # -- setup
    def make_tree(self) -> None:
        rng = self.rng
        vocab = [f"w{i}" for i in range(4000)]
        folders = ["", "a", "a/b", "c", "sub", "sub/deep"]
        n = 0
        for g in range(rng.randint(1, 4)):
            base = [rng.choice(vocab) for _ in range(rng.randint(150, 300))]
            for i in range(rng.randint(2, 4)):
                words = list(base)
                exact = not i or rng.random() < 0.6  # byte-identical copies (for links)
                for _ in range(0 if exact else rng.randint(1, 3)):
                    words[rng.randrange(len(words))] = rng.choice(vocab)
                folder = rng.choice(folders)
                write(self.root / folder / f"g{g}-{i}-{n}.txt", (" ".join(words) + "\n").encode(),
                      T0 + rng.randrange(5) * 10**9)
                n += 1
        for i in range(rng.randint(0, 2)):
            write(self.root / rng.choice(folders) / f"loner-{i}.txt",
                  " ".join(rng.choice(vocab) for _ in range(200)).encode(), T0)
        (self.root / "sub").mkdir(parents=True, exist_ok=True)
        write(self.outside / "bait.txt", b"never touch me\n")

    def scan(self) -> None:
        from simdup_gui.cli import main as cli
        from simdup_gui.core.review.export import load_results

        results = self.dir / "results.json"
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = cli(["scan", str(self.root), "--format", "json", "-o", str(results),
                        "--no-cache", "--workers", "1"])
        assert code == 0, f"scan failed ({code})"
        self.results_path = results
        self.res = load_results(str(results))
        self.scan_hash = {r.path: r.content_hash for r in self.res.records}
        self.groups = [[self.res.records[m.index].path for m in g.members]
                       for g in self.res.groups]

    def mark(self) -> None:
        from simdup_gui.core.review.export import save_results
        from simdup_gui.core.act.marking import KeepRule, mark_all_but_one

        if self.rng.random() < 0.75:
            rule = self.rng.choice(RULES)
            self.marks = set(mark_all_but_one(self.res, KeepRule(rule)))
            self.counts["marks: keep rule"] += 1
        else:
            grouped = [p for g in self.groups for p in g]
            self.marks = {p for p in grouped if self.rng.random() < 0.45}
            self.counts["marks: by hand"] += 1
        self.res.marks = self.marks
        save_results(self.res, str(self.results_path))

    def outside_state(self) -> dict:
        state = snapshot(self.outside)
        for p in self.dir.glob("moved-*"):
            state.update(snapshot(p))
        return state

    # -- mutations after the plan
    def mutate(self) -> None:
        rng = self.rng
        paths = [r.path for r in self.res.records]
        self.changed: dict[str, tuple] = {}  # path -> its state after the mutation
        for kind in MUTATIONS:
            if rng.random() >= 0.18:
                continue
            if kind == "swap-folder":
                sub = self.root / "sub"
                if not sub.is_dir() or sub.is_symlink():
                    continue
                copy = self.outside / "sub-copy"
                shutil.copytree(sub, copy, symlinks=True)
                for dirpath, _, files in os.walk(sub):
                    for f in files:
                        src = os.path.join(dirpath, f)
                        st = os.lstat(src)
                        dst = os.path.join(copy, os.path.relpath(src, sub))
                        os.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns))
                os.rename(sub, self.dir / "moved-sub")
                os.symlink(copy, sub)
                self.counts[f"mutation: {kind}"] += 1
                for p in paths:  # their real files moved away with the folder
                    if p.startswith(str(sub) + os.sep):
                        self.changed[p] = ("via-swapped-folder",)
                continue
            cands = [p for p in paths if p not in self.changed and os.path.isfile(p)
                     and not os.path.islink(p) and not self._in_swapped(p)]
            if not cands:
                continue
            p = rng.choice(cands)
            st = os.stat(p)
            data = Path(p).read_bytes()
            if kind == "edit":
                with open(p, "ab") as fh:
                    fh.write(b" an edit made after the plan")
            elif kind == "edit-same-size-and-mtime":
                flipped = bytes([data[0] ^ 0x20]) + data[1:]
                Path(p).write_bytes(flipped)
                os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
            elif kind == "identical-copy":
                write(Path(p + ".new"), data, st.st_mtime_ns)
                os.replace(p + ".new", p)
            elif kind == "touch":
                os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
            elif kind == "delete":
                os.unlink(p)
            elif kind == "symlink":
                target = write(self.outside / f"link-target-{len(self.changed)}.txt", data,
                               st.st_mtime_ns)
                os.unlink(p)
                os.symlink(target, p)
            self.changed[p] = self._state(p)
            self.counts[f"mutation: {kind}"] += 1

    def _in_swapped(self, p: str) -> bool:
        sub = str(self.root / "sub")
        return (p.startswith(sub + os.sep)) and os.path.islink(sub)

    @staticmethod
    def _state(p: str) -> tuple:
        if os.path.islink(p):
            return ("link", os.readlink(p))
        if not os.path.lexists(p):
            return ("absent",)
        st = os.lstat(p)
        return ("file", fhash(p), st.st_ino, st.st_mtime_ns)

    # -- children
    def _spawn(self, mode: str, *args: str, exdev: bool = False) -> subprocess.Popen:
        proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--child", mode,
             str(self.rng.randrange(10**9)), "1" if exdev else "0", *args],
            cwd=REPO, env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self.procs.append(proc)
        return proc

    def stop_children(self) -> None:
        """Kill (by its pid) any child this trial started that is still running."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            try:
                proc.communicate(timeout=30)
            except (ValueError, subprocess.TimeoutExpired):
                pass

    def _finish(self, proc: subprocess.Popen, kill: bool, window: float, what: str
                ) -> tuple[bool, str, str]:
        """Wait for ``proc`` (after its "go"), SIGKILLing it after a random moment in
        ``window`` seconds if ``kill``. Returns (killed, stdout, stderr)."""
        line = proc.stdout.readline()
        if line.strip() != "go":
            out, err = proc.communicate(timeout=300)
            self._check_err(err, what)
            return False, line + out, err
        if kill:
            time.sleep(self.rng.uniform(0, window))
            try:
                os.kill(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        out, err = proc.communicate(timeout=300)
        killed = proc.returncode == -signal.SIGKILL
        if killed:
            self.counts[f"killed during {what}"] += 1
        elif kill:
            self.counts[f"kill too late ({what} had finished)"] += 1
        self._check_err(err, what)
        return killed, out, err

    def _check_err(self, err: str, what: str) -> None:
        if "Traceback" in err:
            self.tracebacks.append(f"{what}: {err[-2000:]}")

    def _cli(self, *args: str, kill: bool, exdev: bool, what: str) -> tuple[bool, str, str]:
        proc = self._spawn("cli", *args, exdev=exdev)
        proc.stdin.close()
        proc.stdin = None
        return self._finish(proc, kill, 0.25, what)

    # -- one trial
    def run(self) -> None:
        rng = self.rng
        self.make_tree()
        self.scan()
        self.mark()
        action = rng.choice(ACTIONS)
        exdev = action == "move" and rng.random() < 0.3
        self.counts[f"action: {action}"] += 1
        if exdev:
            self.counts["moves across file systems (copy, verify, unlink)"] += 1
        for i in range(rng.randint(0, 2)):  # files already where moves would go
            g = rng.choice(self.groups) if self.groups else None
            if g:
                rel = os.path.relpath(rng.choice(g), self.root)
                write(self.dest / rel, f"already here {i}\n".encode())
        self.dest_before = snapshot(self.dest)
        journal = str(self.dir / "journal.jsonl")
        proc = self._spawn("plan-act", str(self.results_path), action,
                           str(self.dest) if action == "move" else "-", journal, exdev=exdev)
        first = proc.stdout.readline().strip()
        if not first.startswith("planned"):
            out, err = proc.communicate(timeout=300)
            self._check_err(err, "plan")
            if first == "refused":
                self.counts["plans refused (a group would lose its last copy)"] += 1
                self.check(action, after_undo=False, acted=False)
            else:
                self.violations.append(f"plan child said {first!r}: {err[-500:]}")
            return
        n_ops = int(first.split()[1])
        self.mutate()
        self.outside_before = self.outside_state()
        proc.stdin.write("\n")
        proc.stdin.flush()
        proc.stdin.close()
        proc.stdin = None  # communicate() would flush it
        kill = rng.random() < 0.5
        killed, out, err = self._finish(proc, kill, 0.05 + 0.015 * n_ops, "apply")
        if not killed:
            self._tally(out)
        if os.path.exists(journal) and killed:
            from simdup_gui.core.act.journal import read_journal

            old = os.environ.get("XDG_DATA_HOME")
            os.environ["XDG_DATA_HOME"] = str(self.xdg)
            try:
                st = read_journal(journal)
                if st.pending():
                    self.counts["cut off with a file half-done"] += 1
            except ValueError:  # killed before its start entry was written
                self.counts["cut off before the journal's start entry"] += 1
            finally:
                if old is None:
                    os.environ.pop("XDG_DATA_HOME", None)
                else:
                    os.environ["XDG_DATA_HOME"] = old
        if killed and os.path.exists(journal) and rng.random() < 0.7:
            self.counts["resumes"] += 1
            k2, _, _ = self._cli("resume", journal, kill=rng.random() < 0.3, exdev=exdev,
                                 what="resume")
            if k2:
                self._cli("resume", journal, kill=False, exdev=exdev, what="resume")
        self.check(action, after_undo=False, acted=os.path.exists(journal))
        if os.path.exists(journal) and rng.random() < 0.5:
            self.counts["undos"] += 1
            k3, _, _ = self._cli("undo", journal, kill=rng.random() < 0.3, exdev=exdev,
                                 what="undo")
            if k3:
                self._cli("undo", journal, kill=False, exdev=exdev, what="undo")
            self.check(action, after_undo=True, acted=True)

    def _tally(self, out: str) -> None:
        try:
            doc = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return
        for status, n in doc.get("counts", {}).items():
            self.counts[f"files {status} by apply"] += n

    # -- invariants
    def check(self, action: str, after_undo: bool, acted: bool) -> None:
        when = "after undo" if after_undo else "after the action"
        bad = self.violations.append
        if acted and self.outside_state() != getattr(self, "outside_before", None):
            bad(f"{when}: something outside the root changed")
        if snapshot(self.dest) != self.dest_before and not acted:
            bad(f"{when}: the destination changed without an action")
        for p, (kind, *rest) in self.dest_before.items():
            now = self._state(p)
            if now[:2] != (kind, rest[0]) or (kind == "file" and now[2] != rest[1]):
                bad(f"{when}: {p}, already in the destination, was overwritten or touched")
        changed = getattr(self, "changed", {})
        for p, state in changed.items():
            if state == ("via-swapped-folder",):
                continue  # its real file moved away with the folder: checked as outside
            if self._state(p) != state:
                bad(f"{when}: {p} was changed after the plan and then acted on")
        removed = set()
        for r in self.res.records:
            p = r.path
            if p in changed:
                continue
            here = os.path.isfile(p) and not os.path.islink(p) and fhash(p) == r.content_hash
            if here and action in LINKS and os.lstat(p).st_ino != r.inode:
                here = False  # replaced by a hard link to its kept copy
            if action in LINKS and not here and os.path.isfile(p) \
                    and fhash(p) != r.content_hash:
                bad(f"{when}: {p} was replaced by a link to different bytes")
            if not here:
                removed.add(p)
                if p not in self.marks:
                    bad(f"{when}: {p} was not marked, yet it is gone or changed")
        if not after_undo:
            self.removed_by_action = set(removed)
            self.counts[f"files removed by the {action}"] += len(removed)
        for g in self.groups:
            if any(p in removed for p in g):
                if not any(p not in removed and p not in changed for p in g):
                    bad(f"{when}: a group lost every unchanged copy: {g}")
        # a moved or trashed file is somewhere with its bytes; none is lost
        if action in ("move", "trash") + LINKS:
            pool = Counter()
            where = self.dest if action == "move" else self.xdg / "Trash" / "files" \
                if action == "trash" else self.xdg / "simdup" / "held"
            for q in snapshot(where).values():
                if q[0] == "file":
                    pool[q[1]] += 1
            for p in removed:
                if pool[self.scan_hash[p]] == 0:
                    bad(f"{when}: {p} was {action}d but its bytes are nowhere")
                else:
                    pool[self.scan_hash[p]] -= 1
        if after_undo:
            if action in ("move", "trash") + LINKS and removed:
                bad(f"{when}: {len(removed)} files not restored: {sorted(removed)[:3]}")
            if action == "delete":
                self.counts["deleted files (undo says: cannot be restored)"] += len(removed)
            else:
                self.counts["files restored by undo"] += len(self.removed_by_action - removed)
            leftovers = {p for p, q in snapshot(self.dest).items() if q[0] == "file"} - set(
                self.dest_before)
            if action in ("move", "trash") and leftovers:
                bad(f"{when}: files left in the destination: {sorted(leftovers)[:3]}")
            held = [f for q, v in snapshot(self.xdg / "simdup" / "held").items()
                    if v[0] == "file" for f in [q]]
            if held and not any(p in changed for g in self.groups for p in g):
                bad(f"{when}: held originals left after undo: {held[:3]}")
            tmp = [f for top in (self.dest, self.root) for _, _, fs in os.walk(top)
                   for f in fs if f.startswith(".simdup-tmp-")]
            if tmp:
                bad(f"{when}: simdup temporary files left: {tmp[:3]}")
        if self.tracebacks:
            bad(f"{when}: a child ended in a traceback: {self.tracebacks[0]}")
            self.tracebacks = []


def run_trial(seed: int, base: Path, keep: Path | None = None) -> tuple[Counter, list[str]]:
    t = Trial(seed, base)
    try:
        t.run()
    except Exception as e:  # a harness failure is reported, not hidden
        import traceback

        t.violations.append(f"harness error: {e!r}\n{traceback.format_exc()}")
    finally:
        t.stop_children()
    if t.violations and keep is not None:
        shutil.copytree(t.dir, keep / t.dir.name, symlinks=True)
    shutil.rmtree(t.dir, ignore_errors=True)
    return t.counts, [f"seed {seed}: {v}" for v in t.violations]


def run_trials(n: int, seed: int = 1, base: str | None = None, jobs: int = 1,
               keep: str | None = None) -> tuple[Counter, list[str]]:
    base_dir = Path(tempfile.mkdtemp(prefix="simdup-safety-", dir=base))
    keep_dir = Path(keep) if keep else None
    if keep_dir:
        keep_dir.mkdir(parents=True, exist_ok=True)
    total: Counter = Counter()
    violations: list[str] = []
    seeds = [seed * 100_003 + i for i in range(n)]
    try:
        if jobs > 1:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(jobs) as ex:
                for counts, bad in ex.map(run_trial, seeds, [base_dir] * n, [keep_dir] * n):
                    total.update(counts)
                    violations += bad
        else:
            for s in seeds:
                counts, bad = run_trial(s, base_dir, keep_dir)
                total.update(counts)
                violations += bad
    finally:
        shutil.rmtree(base_dir, ignore_errors=True)
    total["trials"] = n
    return total, violations


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        return child_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="trials run side by side")
    ap.add_argument("--keep-failures", metavar="DIR", help="copy a failing trial's folder here")
    ap.add_argument("--only", type=int, metavar="SEED", help="run the one trial of this seed "
                    "(as printed with a violation)")
    args = ap.parse_args()
    t0 = time.monotonic()
    if args.only is not None:
        base = Path(tempfile.mkdtemp(prefix="simdup-safety-"))
        keep = Path(args.keep_failures) if args.keep_failures else None
        if keep:
            keep.mkdir(parents=True, exist_ok=True)
        counts, violations = run_trial(args.only, base, keep)
        shutil.rmtree(base, ignore_errors=True)
        print(dict(counts))
        print("\n".join(violations) or "no violation")
        return 1 if violations else 0
    counts, violations = run_trials(args.trials, args.seed, jobs=args.jobs,
                                    keep=args.keep_failures)
    print(f"simdup safety trials: {args.trials} trials, seed {args.seed}, "
          f"{time.monotonic() - t0:.0f} s")
    for k in sorted(counts):
        print(f"  {k}: {counts[k]}")
    print(f"  invariant violations: {len(violations)}")
    for v in violations[:50]:
        print("    " + v.replace("\n", "\n      "))
    return 1 if violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
