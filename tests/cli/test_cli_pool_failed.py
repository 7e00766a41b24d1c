"""A scan whose worker processes cannot be started (every fork server killed as it
appears: the OOM killer, a watchdog) goes on in its own process: the same groups, one
warning line, no traceback (issue 40's review: it ended with EOFError's traceback)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.core.scan.test_pool import _children

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _corpus(root) -> None:
    """About 5 MB of text (more than pipeline.IN_PROCESS_BELOW, so a pool is used): 24
    documents of words, each with an edited copy."""
    rng = random.Random(7)
    words = [f"w{rng.randrange(50_000)}" for _ in range(20_000)]
    root.mkdir()
    for i in range(24):
        text = " ".join(rng.choice(words) for _ in range(18_000))
        (root / f"doc{i}.txt").write_text(text)
        (root / f"doc{i}-copy.txt").write_text("edited: " + text[: len(text) // 2]
                                                + " one more line " + text[len(text) // 2:])


def _scan(root, *extra, kill_servers: bool = False):
    cmd = [sys.executable, "-c", "import sys; from simdup_gui.cli import main; "
           "sys.exit(main(sys.argv[1:]))", "scan", str(root), "--no-cache",
           "--format", "json", *extra]
    p = subprocess.Popen(cmd, cwd=root.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env={**os.environ, "PYTHONPATH": _ROOT})
    killed: list[int] = []

    def killer() -> None:
        while p.poll() is None:
            for server in [pid for pid, cmd in _children(p.pid) if b"forkserver" in cmd]:
                os.kill(server, signal.SIGKILL)
                killed.append(server)
            time.sleep(0.005)

    if kill_servers:
        threading.Thread(target=killer, daemon=True).start()
    out, err = p.communicate(timeout=600)
    return p.returncode, out, err, killed


def _groups(out: str) -> list:
    return sorted(sorted(os.path.basename(m["path"]) for m in g["files"])
                  for g in json.loads(out)["groups"])


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork servers: Linux")
def test_a_scan_whose_fork_servers_are_killed_goes_on_in_its_own_process(tmp_path):
    _corpus(tmp_path / "c")
    rc, out, err, _ = _scan(tmp_path / "c", "--workers", "1")
    assert rc == 0, err
    alone = _groups(out)
    assert len(alone) == 24
    rc, out, err, killed = _scan(tmp_path / "c", "--workers", "2", kill_servers=True)
    assert killed, "no fork server was started"
    assert rc == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    assert err.count("simdup: warning: the worker processes could not be started") == 1, err
    assert _groups(out) == alone
