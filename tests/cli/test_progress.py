"""Each phase reports its own progress (issue 14): the engine's phases during a scan and a
grouping, and the CLI's line for each, with a remaining time where the end is known."""

import random

from simdup_gui.cli.common import StderrProgress
from simdup_gui.core.group.cluster import group_records
from simdup_gui.core.job import Job
from simdup_gui.core.models import ProgressEvent
from simdup_gui.core.scan.pipeline import ScanOptions, scan

from tests.conftest import EN, OTHER


def test_scan_and_grouping_report_their_phases_in_order(tmp_path):
    rng = random.Random(4)
    words = [w for w in (EN + OTHER).lower().split() if w.isalpha()]
    base = " ".join(rng.choice(words) for _ in range(900))
    filler = " ".join(rng.choice(words) for _ in range(900))
    (tmp_path / "base.txt").write_text(base, encoding="utf-8")
    for i, keep in enumerate((0.78, 0.80, 0.82, 0.84, 0.86)):  # near the threshold
        cut = int(len(base) * keep)
        (tmp_path / f"e{i}.txt").write_text(base[:cut] + filler[: len(base) - cut], "utf-8")
    seen = []
    job = Job(seen.append)
    res = scan([str(tmp_path)], ScanOptions(workers=1, use_cache=False), job)
    group_records(res.records, 64, 16, use_cache=False, job=job)
    phases = [e.phase for e in seen]
    order = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]
    assert order == ["walk", "fingerprint", "done", "candidates", "verify", "stars"], order
    verify = [e for e in seen if e.phase == "verify"]
    assert verify[0].files_done == 0 and verify[0].files_total > 0  # pairs to measure, counted
    assert [e for e in seen if e.phase == "candidates"][0].files_total == 6


def test_each_phase_has_its_own_line_and_remaining_time():
    p = StderrProgress(enabled=True)
    assert p.text(ProgressEvent("walk", 3, 0, current="/x"), 0.0).startswith("listing files: 3")
    p.text(ProgressEvent("fingerprint", 0, 10, 0, 4_000_000), 10.0)
    line = p.text(ProgressEvent("fingerprint", 5, 10, 1_000_000, 4_000_000), 12.0)
    assert "5/10 files" in line and "0:06 left" in line  # 1 MB in 2 s, 3 MB to go
    assert p.text(ProgressEvent("candidates", 0, 6), 13.0).startswith("grouping: finding")
    p.text(ProgressEvent("verify", 0, 40), 20.0)
    line = p.text(ProgressEvent("verify", 10, 40), 25.0)  # its own clock: 10 in 5 s
    assert "10/40 pairs" in line and "0:15 left" in line
    assert "12 verified pairs" in p.text(ProgressEvent("stars", 0, 12), 26.0)


def test_progress_writes_nothing_when_stderr_is_not_a_terminal(capsys):
    p = StderrProgress(enabled=False)
    p(ProgressEvent("verify", 1, 2))
    p(ProgressEvent("done"))
    assert capsys.readouterr().err == ""
