"""Dask addresses that cannot work are one line and exit 2, an address that never answers
is a time-out, and a worker that sees another file under a path is a problem (issue 39,
item 6)."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading

import pytest

from simdup_gui.cli import main
from simdup_gui.core.models import FileRecord, Problem
from simdup_gui.core.scan import distributed
from simdup_gui.core.scan.walk import Candidate
from tests.actions_helpers import REPO

BAD = ["ucx://h:8786", "tls://h:8786", "file:///etc/passwd", "tcp://[::1", "tcp://h",
       "tcp://h:99999", "tcp://:8786", "tcp://h:1/x", "inproc://x", "http://h:8786",
       "local:0", "local:x", "h:8786"]


@pytest.mark.parametrize("address", BAD)
def test_an_address_that_cannot_work_is_one_line_and_exit_2(address, tmp_path, capsys):
    (tmp_path / "a.txt").write_text("some text to scan", encoding="utf-8")
    assert main(["scan", str(tmp_path), "--scheduler", address, "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simdup scan: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_an_address_that_accepts_but_never_answers_times_out(tmp_path):
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(5)
    held = []
    threading.Thread(target=lambda: [held.append(srv.accept()) for _ in range(5)],
                     daemon=True).start()
    (tmp_path / "a.txt").write_text("some text to scan", encoding="utf-8")
    code = (f"import sys\nfrom simdup_gui.core.scan import distributed\n"
            f"distributed.CONNECT_DEADLINE = 2\nfrom simdup_gui.cli import main\n"
            f"sys.exit(main(['scan', {str(tmp_path)!r}, '--scheduler', "
            f"'tcp://127.0.0.1:{srv.getsockname()[1]}', '--no-cache']))")
    try:
        out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                             text=True, timeout=240)
    finally:
        srv.close()
    assert out.returncode == 2, out.stderr
    assert "accepts connections but did not answer" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_worker_that_sees_another_file_under_a_path_gives_a_problem():
    c = Candidate("/data/a.txt", "/data", 100, 5_000, 1, 1)
    same = FileRecord("/data/a.txt", 100, 5_000, 1, 1, "/data", "utf-8", 1, 1, "t", "c")
    other = FileRecord("/data/a.txt", 120, 9_000, 7, 2, "/data", "utf-8", 2, 1, "u", "d")
    assert distributed._checked([same], [c]) == [same]
    (p,) = distributed._checked([other], [c])
    assert isinstance(p, Problem) and "saw another file at this path" in p.reason
