"""Scan progress, the status line and the distance hint as texts."""

from simdup_gui.core.models import ProgressEvent
from simdup_gui.core.presenters.progress import (clock, distance_hint, scan_finished,
                                                 scan_progress, status_line)
from simdup_gui.core.session import Session


def test_clock_shows_minutes_then_hours():
    assert clock(0) == "0:00" and clock(75.9) == "1:15" and clock(3725) == "1:02:05"
    assert clock(-3) == "0:00"


def test_fingerprint_progress_has_rate_and_remaining_time():
    ev = ProgressEvent("fingerprint", 5, 10, 2_000_000, 4_000_000, "/x/f.txt")
    v = scan_progress(ev, elapsed=2.0)
    assert (v.done, v.total, v.bar_format) == (5, 10, "5 / 10")
    assert v.text == "5 of 10 files, 1.0 MB/s, elapsed 0:02, remaining 0:02\n/x/f.txt"


def test_listing_is_busy_and_other_phases_leave_the_display():
    v = scan_progress(ProgressEvent("walk", 7, 0, current="/x"), elapsed=1.0)
    assert v.total == 0 and v.text == "Listing files: 7 found\n/x"
    assert scan_progress(ProgressEvent("done", 1, 1), elapsed=1.0) is None


def test_finished_and_status_texts():
    assert scan_finished(12, False, 61) == "Scanned 12 files in 1:01."
    assert scan_finished(3, True, 1).startswith("Cancelled, partial results: 3 files")
    assert status_line(Session()) == ("0 groups, 0 files in groups, 0 marked (0 B); "
                                      "0 files scanned, 0 problems")
    assert distance_hint(64, 16, "sketch") == "k=16 of 64 bits proposes candidates; their text decides"
    assert "unchecked" in distance_hint(16, 2, "none")


def test_grouping_phases_have_their_own_status_with_remaining_time():
    from simdup_gui.core.models import ProgressEvent
    from simdup_gui.core.presenters.progress import group_progress

    assert group_progress(ProgressEvent("candidates", 0, 500), 1.0) == \
        "Grouping 500 files: finding candidate pairs…"
    assert group_progress(ProgressEvent("verify", 10, 40), 5.0) == \
        "Grouping: 10 of 40 pairs near the threshold measured from the files, remaining 0:15"
    assert "12 verified pairs" in group_progress(ProgressEvent("stars", 0, 12), 6.0)
    assert group_progress(ProgressEvent("fingerprint", 1, 2), 1.0) is None
