"""`simdup scan --phase-times` (issue 40, item 3): one stderr line per phase's start, in the
order the scan goes through them, with a clock another process can compare with its own
(benchmarks/largetree.py times the phases from these lines); nothing without the flag."""

import json
import time
from pathlib import Path

from simdup_gui.cli import main

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


def phase_lines(err: str) -> list[tuple[str, float]]:
    out = []
    for line in err.splitlines():
        if line.startswith("simdup: phase "):
            name, t = line.split()[2:]
            out.append((name, float(t)))
    return out


def test_phase_times_name_each_phase_once_in_order(capsys, tmp_path):
    t0 = time.time()
    out = tmp_path / "r.json"
    code = main(["scan", str(DEMO), "--no-cache", "--format", "json", "-o", str(out),
                 "--phase-times"])
    t1 = time.time()
    assert code == 0
    marks = phase_lines(capsys.readouterr().err)
    names = [n for n, _ in marks]
    assert names[:2] == ["walk", "fingerprint"] and names[-2:] == ["write", "end"], names
    for phase in ("candidates", "stars"):
        assert names.count(phase) == 1, names
    assert names.index("fingerprint") < names.index("candidates") < names.index("stars")
    times = [t for _, t in marks]
    assert times == sorted(times) and t0 <= times[0] and times[-1] <= t1
    assert json.loads(out.read_text(encoding="utf-8"))["groups"]  # the results still written


def test_no_phase_lines_without_the_flag(capsys):
    assert main(["scan", str(DEMO), "--no-cache", "--format", "json"]) == 0
    assert not phase_lines(capsys.readouterr().err)
