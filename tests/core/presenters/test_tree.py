"""The groups tree rows and cells, without Qt."""

from simdup_gui.core.models import FileRecord, Group, Member
import pytest

from simdup_gui.core.presenters.tree import (COL_AGE_DELTA, COL_DISTANCE, COL_FOLDER, COL_NAME,
                                             COL_SIMILARITY, COL_SIZE, COL_SIZE_DELTA, COLUMNS,
                                             GroupRows, headers, results_summary, signed_age)


def rec(path, size, too_short=False):
    return FileRecord(path, size, 1, 1, 1, "/r", "utf-8", 0, 10, "t", "c", sketch=b"s", shingles=1 if too_short else 50)


def rows():
    records = [rec("/r/a/one.txt", 100), rec("/r/b/two.txt", 300), rec("/r/x/Big.txt", 50),
               rec("/r/x/tiny.txt", 20), rec("/r/x/short.txt", 5, too_short=True)]
    groups = [Group(1, 0, [Member(0, 0, True, 1.0), Member(1, 3, False, 0.91, True)]),
              Group(2, 2, [Member(2, 0, True, 1.0), Member(3, 5, False, None),
                           Member(4, 1, False, 0.8)])]
    v = GroupRows()
    v.set_data(records, groups, 64)
    return v


def test_group_rows_say_count_kind_size_and_largest_distance():
    v = rows()
    assert v.group_text(0, COL_NAME) == "Group 1: 2 files, near-duplicates"
    assert v.group_text(0, COL_SIZE) == "400 B"
    assert v.group_text(1, COL_DISTANCE) == "5"
    assert v.group_text(0, COL_FOLDER) is None


def test_member_cells_star_the_reference_and_show_similarity():
    v = rows()
    g, m = v.member_at(0, 0)
    assert v.member_text(g, m, COL_NAME) == "one.txt ★"
    assert v.member_text(g, m, COL_SIMILARITY) == "100% ="
    g, m = v.member_at(0, 1)
    assert v.member_text(g, m, COL_NAME) == "two.txt"
    assert v.member_text(g, m, COL_FOLDER) == "/r/b"
    assert v.member_text(g, m, COL_SIMILARITY) == "91%"
    assert "measured from both files" in v.member_tooltip(g, m)
    g, m = v.member_at(1, 1)
    assert v.member_text(g, m, COL_SIMILARITY) == "?"
    g, m = v.member_at(1, 2)
    assert v.member_text(g, m, COL_SIMILARITY) == "too short"
    assert "Too short to compare" in v.member_tooltip(g, m)


def test_filter_keeps_groups_with_a_matching_path_in_any_case():
    v = rows()
    v.set_filter("BIG")
    assert [gi for gi, _ in v.rows] == [1]
    v.set_filter("")
    assert len(v.rows) == 2


def test_sorting_orders_groups_and_their_members():
    v = rows()
    v.set_sort(COL_SIZE, descending=True)
    assert [gi for gi, _ in v.rows] == [0, 1]  # 400 B before 75 B
    assert [m.index for m in v.rows[1][1]] == [2, 3, 4]
    v.set_sort(COL_SIZE, descending=False)
    assert [gi for gi, _ in v.rows] == [1, 0]
    assert [m.index for m in v.rows[0][1]] == [4, 3, 2]
    v.set_sort(COL_NAME, descending=False)
    assert [gi for gi, _ in v.rows] == [0, 1]  # by group number
    assert [m.index for m in v.rows[1][1]] == [2, 4, 3]  # big, short, tiny


def test_headers_name_every_column():
    assert headers()[0] == "Name" and len(headers()) == COLUMNS == 10
    assert headers()[-1] == "Closest"


def test_texts_go_through_the_installed_translator():
    from simdup_gui.core.presenters import set_translator

    set_translator(lambda ctx, text: f"[{ctx}]{text}")
    try:
        assert headers()[0] == "[GroupTreeModel]Name"
    finally:
        set_translator(None)
    assert headers()[0] == "Name"


def dated_rows():
    records = [rec("/r/a/one.txt", 100), rec("/r/b/two.txt", 300), rec("/r/x/Big.txt", 50),
               rec("/r/x/tiny.txt", 20), rec("/r/x/short.txt", 5)]
    for r, days in zip(records, (10, 13, 0, -2, 1)):
        r.mtime_ns = int(days * 86400e9)
    groups = [Group(1, 0, [Member(0, 0, True, 1.0), Member(1, 3, False, 0.91, True)]),
              Group(2, 2, [Member(2, 0, True, 1.0), Member(3, 5, False, 0.7),
                           Member(4, 1, False, 0.8)])]
    v = GroupRows()
    v.set_data(records, groups, 64)
    return v


def test_delta_columns_compare_each_file_with_its_reference():
    v = dated_rows()
    g, m = v.member_at(0, 0)
    assert v.member_text(g, m, COL_SIZE_DELTA) == "—"
    g, m = v.member_at(0, 1)
    assert v.member_text(g, m, COL_SIZE_DELTA) == "+200 B"
    assert v.member_text(g, m, COL_AGE_DELTA) == "+3 d"
    g, m = v.member_at(1, 1)
    assert v.member_text(g, m, COL_SIZE_DELTA) == "−30 B"
    assert v.member_text(g, m, COL_AGE_DELTA) == "−2 d"
    assert signed_age(0) == "0 s" and signed_age(-7200) == "−2 h"


def test_duplicates_only_hides_each_reference():
    v = dated_rows()
    v.set_dupes_only(True)
    assert [[m.index for m in ms] for _, ms in v.rows] == [[1], [3, 4]]
    v.set_dupes_only(False)
    assert [[m.index for m in ms] for _, ms in v.rows] == [[0, 1], [2, 3, 4]]


@pytest.mark.parametrize("col", range(COLUMNS))
def test_every_column_sorts_groups_and_files_both_ways(col):
    v = dated_rows()
    keys = {}
    for desc in (False, True):
        v.set_sort(col, desc)
        keys[desc] = [[m.index for m in ms] for _, ms in v.rows]
    assert sorted(map(sorted, keys[False])) == sorted(map(sorted, keys[True])) == [[0, 1],
                                                                                   [2, 3, 4]]


def test_sorting_by_size_delta_puts_the_biggest_difference_first():
    v = dated_rows()
    v.set_sort(COL_SIZE_DELTA, True)
    assert [gi for gi, _ in v.rows] == [0, 1]  # +200 B beats 45 B
    assert [m.index for m in v.rows[1][1]] == [2, 3, 4]  # 0, -30 B, -45 B
    assert [m.index for m in v.rows[0][1]] == [1, 0]


def test_results_summary_counts_groups_marks_and_space():
    assert results_summary(4, 4, 2, 2048) == "4 groups · 2 marked, 2.0 KB to reclaim"
    assert results_summary(1, 4, 0, 0) == "1 of 4 groups shown · 0 marked, 0 B to reclaim"


def test_group_rows_sum_their_members_once_and_a_new_view_sums_again():
    from simdup_gui.core.models import Group as G
    from simdup_gui.core.models import Member as M
    from simdup_gui.core.presenters.flat import derive

    records = [rec(f"/r/f{i}.txt", 100 * (i + 1)) for i in range(4)]
    records[3].catalog = "old drive"
    groups = [G(7, 0, [M(0, 0, True, 1.0), M(1, 2, True, 1.0)]),
              G(8, 2, [M(2, 0, True, 1.0), M(3, 9, False, 0.8, template=4)])]
    v = GroupRows()
    v.set_data(records, groups, 64)
    assert [v.group_text(r, COL_SIZE) for r in (0, 1)] == ["300 B", "700 B"]
    assert [v.group_text(r, COL_DISTANCE) for r in (0, 1)] == ["2", "9"]
    assert v.group_text(0, COL_NAME) == "Group 7: 2 files, exact text"
    assert v.group_text(1, COL_NAME) == ("Group 8: 2 files, near-duplicates · 1 share mostly "
                                         "template text · 1 in a catalog")
    # a view of other groups (derived on the pool, or set again) is not told the old sums
    bigger = [G(7, 0, [M(0, 0, True, 1.0), M(1, 2, True, 1.0), M(2, 5, False, 0.9)])]
    new, _ = derive(v, {"groups": bigger})
    assert new.group_text(0, COL_SIZE) == "600 B" and new.group_text(0, COL_DISTANCE) == "5"
    assert new.group_text(0, COL_NAME) == "Group 7: 3 files, near-duplicates"
    assert v.group_text(0, COL_SIZE) == "300 B"  # the view it came from is unchanged
    v.set_data(records, bigger, 64)
    assert v.group_text(0, COL_SIZE) == "600 B"


def test_group_rows_fill_only_the_group_columns():
    from simdup_gui.core.presenters.tree import GROUP_COLUMNS

    v = rows()
    for row in range(len(v.rows)):
        for col in range(COLUMNS):
            assert (v.group_text(row, col) is not None) == (col in GROUP_COLUMNS), (row, col)
