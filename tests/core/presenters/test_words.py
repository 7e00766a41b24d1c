"""Issue 38, item 12: counts in words ("1 file", not "1 files") and no remaining time before
there is a rate to reckon it from."""

from simdup_gui.core.act.actions import ActionReport, Outcome
from simdup_gui.core.models import ProgressEvent
from simdup_gui.core.presenters.actions import report_summary
from simdup_gui.core.presenters.i18n import counted, files, groups, pairs
from simdup_gui.core.presenters.progress import group_progress, scan_finished, scan_progress


def test_counts_say_one_without_a_plural():
    assert (files(1), files(0), files(3)) == ("1 file", "0 files", "3 files")
    assert (pairs(1), groups(1), groups(2)) == ("1 pair", "1 group", "2 groups")
    assert counted(1, "1 thing", "{0} things") == "1 thing"
    assert scan_finished(1, False, 2) == "Scanned 1 file in 0:02."


def test_no_remaining_time_before_any_byte_is_read():
    ev = ProgressEvent("fingerprint", 0, 10, 0, 4_000_000, "/x/f.txt")
    v = scan_progress(ev, elapsed=0.5)
    assert "remaining" not in v.text and v.text == "0 of 10 files, elapsed 0:00\n/x/f.txt"
    assert "remaining 0:02" in scan_progress(
        ProgressEvent("fingerprint", 5, 10, 2_000_000, 4_000_000, "/x/f.txt"), 2.0).text


def test_no_remaining_time_before_any_pair_is_measured():
    text = group_progress(ProgressEvent("verify", 0, 40), 0.5)
    assert "remaining" not in text and "40 pairs" in text
    assert "remaining 0:02" in group_progress(ProgressEvent("verify", 20, 40), 2.0)


def test_link_actions_are_named_in_words():
    rep = ActionReport("hardlink", [Outcome("/x/a", "done", "hardlink")])
    assert report_summary(rep) == "Replace with hard links: 1 done"
    rep = ActionReport("symlink", [Outcome("/x/a", "planned", "symlink")], dry_run=True)
    assert report_summary(rep) == ("Replace with symbolic links: dry run, nothing touched: "
                                   "1 planned")
