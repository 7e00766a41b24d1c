"""Folders of near-duplicate files and their Results, for the marking/actions/apply tests."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.models import FileRecord, Group, Member
from simdup_gui.core.review.results import Results
from simdup_gui.core.scan.pipeline import ScanOptions, scan
from tests.conftest import EN, OTHER, ZH

T0 = 1_600_000_000 * 10**9  # a fixed modification time, in ns


def write(path: Path, data: bytes, mtime_ns: int) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.utime(path, ns=(mtime_ns, mtime_ns))
    return str(path)


def make_corpus(root: Path) -> dict[str, str]:
    """Two groups and one loner under ``root``; returns name -> path.

    en group: a/report.txt (oldest, smallest), bb/report.txt (one word edited),
    ccc/deep/report.txt (newest, largest, longest path).
    zh group: a/zh.txt in UTF-8 and bb/zh-gbk.txt in GBK (older, fewer bytes).
    """
    en = EN.encode()
    p = {
        "en_a": write(root / "a" / "report.txt", en, T0),
        "en_b": write(root / "bb" / "report.txt",
                      EN.replace("folder by folder", "folder after folder", 1).encode(),
                      T0 + 10**9),
        "en_c": write(root / "ccc" / "deep" / "report.txt",
                      en + b"One more closing sentence was added at the end.\n", T0 + 2 * 10**9),
        "zh_utf8": write(root / "a" / "zh.txt", ZH.encode("utf-8"), T0 + 5 * 10**9),
        "zh_gbk": write(root / "bb" / "zh-gbk.txt", ZH.encode("gbk"), T0 + 4 * 10**9),
        "other": write(root / "other.txt", OTHER.encode(), T0),
    }
    return p


def scan_results(root: Path) -> Results:
    """Scan ``root`` with the real engine and group at 64 bits, k=10."""
    r = scan([str(root)], ScanOptions(use_cache=False, workers=1))
    groups, _ = build_groups(r.records, 64, 10)
    return Results(r.records, groups, r.problems, {"bits": 64, "distance": 10}, r.stats)


def corpus_results(tmp_path: Path) -> tuple[Results, dict[str, str]]:
    paths = make_corpus(tmp_path / "src")
    res = scan_results(tmp_path / "src")
    sizes = sorted(len(g.members) for g in res.groups)
    assert sizes == [2, 3], f"test corpus should form groups of 2 and 3 files, got {sizes}"
    return res, paths


def record_for(path: str, root: str, encoding: str = "utf-8") -> FileRecord:
    """A FileRecord with the real size, mtime and content hash, without fingerprinting."""
    st = os.stat(path)
    return FileRecord(path=path, size=st.st_size, mtime_ns=st.st_mtime_ns, inode=st.st_ino,
                      dev=st.st_dev, root=root, encoding=encoding, fingerprint=0, features=1,
                      text_hash="", content_hash=hash_file(path))


def results_from_groups(groups: list[list[str]], root: str) -> Results:
    """Results whose groups are exactly ``groups`` (lists of existing paths)."""
    records: list[FileRecord] = []
    out: list[Group] = []
    for gid, paths in enumerate(groups):
        members = []
        for p in paths:
            members.append(Member(len(records), 0, False))
            records.append(record_for(p, root))
        out.append(Group(gid, members[0].index, members))
    return Results(records, out, [], {"bits": 64, "distance": 10}, {})


def tree_state(root: Path) -> dict[str, str]:
    """path -> content hash of every file under ``root``."""
    return {str(p): hash_file(str(p)) for p in sorted(root.rglob("*")) if p.is_file()}


# ---- real processes (race tests) -------------------------------------------------------

import subprocess  # noqa: E402
import sys  # noqa: E402

REPO = str(Path(__file__).resolve().parent.parent)

HOLD_LOCK = ("import sys; from simdup_gui.core.act.lock import action_lock\n"
             "with action_lock():\n"
             "    print('held', flush=True)\n"
             "    sys.stdin.read()\n")


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a child simdup: this test's isolated XDG folders (conftest set
    them in os.environ), the repository on the path, no Qt display."""
    env = dict(os.environ, PYTHONPATH=REPO, QT_QPA_PLATFORM="offscreen", **extra)
    return env


def simdup_proc(*args: str, **popen) -> subprocess.Popen:
    """``simdup ARGS`` in a new Python process (not a thread)."""
    return subprocess.Popen([sys.executable, "-m", "simdup_gui.cli", *args], cwd=REPO,
                            env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **popen)


class LockHolder:
    """Another process that holds the action lock until closed."""

    def __enter__(self) -> subprocess.Popen:
        self.proc = subprocess.Popen([sys.executable, "-c", HOLD_LOCK], cwd=REPO,
                                     env=child_env(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "held"
        return self.proc

    def __exit__(self, *exc: object) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.proc.stdout.close()


def write_chain(root: Path, n: int = 12, words: int = 300, seed: int = 2,
                step_bits: int = 6) -> list[str]:
    """``n`` docs, each a 4% word edit of the previous: one linked chain, ends far apart.

    Each edit is drawn again until the doc's 64-bit fingerprint is within ``step_bits`` of
    the previous doc's, so the chain links at k=8 whatever the features' hashing (a 4% edit
    moves 2-13 bits), while the ends stay far apart in text."""
    from simdup_gui.core.scan.features import extract
    from simdup_gui.core.scan.simhash import simhash128

    def fp64(words_: list[str]) -> int:
        f = extract(" ".join(words_) + "\n")
        return simhash128(f.names, f.weights) & ((1 << 64) - 1)

    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(5000)]
    doc = [rng.choice(vocab) for _ in range(words)]
    last = fp64(doc)
    paths = []
    for i in range(n):
        if i:
            for _ in range(100):
                new = list(doc)
                for j in rng.sample(range(words), words * 4 // 100):
                    new[j] = rng.choice(vocab)
                fp = fp64(new)
                if (fp ^ last).bit_count() <= step_bits:
                    break
            doc, last = new, fp
        paths.append(write(root / f"doc{i:02d}.txt", (" ".join(doc) + "\n").encode(),
                           T0 + i * 10**9))
    return paths


# ---- other accounts (tests that give files to other uids need root) -----------------------
EVE, ALICE, BOB = 23456, 23457, 23458
root_only = pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0,
                               reason="giving files to other accounts needs root")


def scan_to_results(tmp_path, src) -> str:
    """`simdup scan SRC` (one process, no cache) into tmp_path/results.json; its path."""
    from simdup_gui.cli import main

    out = tmp_path / "results.json"
    assert main(["scan", str(src), "--format", "json", "-o", str(out), "--no-cache",
                 "--workers", "1"]) == 0
    return str(out)
