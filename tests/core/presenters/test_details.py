"""The details pane: which pair is compared, the bit diff texts and the text diff HTML."""

from simdup_gui.core.models import FileRecord, Group, Member
from simdup_gui.core.presenters.details import (bit_diff_text, compare_bits, comparison_pair,
                                                render_side, text_diff)
from simdup_gui.core.review.bitdiff import bit_diff
from simdup_gui.core.review.textdiff import DiffRow

GROUP = Group(1, 5, [Member(5, 0, True), Member(7, 2, False), Member(9, 6, False)])


def test_a_file_row_is_compared_with_the_reference():
    assert comparison_pair(GROUP, 7) == (5, 7)


def test_the_group_row_and_the_reference_show_the_farthest_member():
    assert comparison_pair(GROUP, None) == (5, 9)
    assert comparison_pair(GROUP, -1) == (5, 9)
    assert comparison_pair(GROUP, 5) == (5, 9)
    assert comparison_pair(Group(2, 3, [Member(3, 0, True)]), None) == (3, 3)


def test_bit_diff_text_names_both_files_and_the_verdict():
    d = bit_diff(0b1011, 0b0011, 16, 2)
    t = bit_diff_text(d, "a.txt", "b.txt")
    assert t.title_a == f"A: a.txt  <code>{d.hex_a}</code>"
    assert t.title_b.startswith("B: b.txt")
    assert t.summary.startswith("Hamming distance 1 of 16 bits, 93.8% of bits equal "
                                "(within k=2: a candidate pair)")
    far = bit_diff_text(bit_diff(0, 0xFF, 16, 2))
    assert "beyond k=2: not proposed by SimHash" in far.summary


def test_no_diff_asks_for_a_selection():
    t = bit_diff_text(None)
    assert (t.title_a, t.title_b) == ("Reference", "Selected file")
    assert t.summary.startswith("Select a file")


def test_compare_bits_uses_the_records_fingerprints():
    recs = [FileRecord(f"/r/{i}", 1, 1, 1, 1, "/r", "utf-8", fp, 10, "t", "c")
            for i, fp in enumerate((0xF0, 0xF1))]
    d = compare_bits(recs, 0, 1, 64, 4)
    assert d.differing == (0,) and d.bits == 64


def test_render_side_highlights_changed_spans_and_escapes():
    rows = [DiffRow("equal", "same <b>", "same <b>"),
            DiffRow("replace", "one two", "one six", [(4, 7)], [(4, 7)]),
            DiffRow("insert", None, "new", [], [(0, 3)])]
    left = render_side(rows, "left")
    right = render_side(rows, "right")
    assert "same &lt;b&gt;" in left
    assert 'one <span style="background:#f4c7c3; color:#202124">two</span>' in left
    assert 'one <span style="background:#b7e1cd; color:#202124">six</span>' in right
    assert left.count("<div") == right.count("<div") == 3  # a blank line faces the insert
    assert '<div style="background:#f1f3f4">&nbsp;</div>' in left


def test_text_diff_loads_both_files_and_reports_unreadable_ones(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("line one\nline two\n", encoding="utf-8")
    b.write_bytes("line one\r\nline 2\r\n".encode("utf-16"))
    d = text_diff(str(a), str(b))
    assert d.changed_rows() == 1 and not d.truncated
    assert "line endings LF" in d.info_a and "CRLF" in d.info_b and "utf-16" in d.info_b
    missing = text_diff(str(a), str(tmp_path / "gone.txt"))
    assert "cannot read" in missing.info_b


def test_text_diff_says_when_only_the_first_part_is_shown(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("word " * 1000, encoding="utf-8")
    d = text_diff(str(a), str(a), limit=100)
    assert d.truncated and "(first part shown)" in d.info_a
