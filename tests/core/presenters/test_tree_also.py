"""The groups tree names a member's near-duplicate in another group (issue 37, part 2): on
the group's row, in the member's Closest cell and, with its similarity, in the tooltip."""

from simdup_gui.core.models import Also, FileRecord, Group, Member
from simdup_gui.core.presenters import set_translator
from simdup_gui.core.presenters.tree import COL_CLOSEST, COL_NAME, GroupRows


def _rows():
    recs = [FileRecord(f"/d/v{i}.txt", 10, i, i, 1, "/d", "utf-8", i, 300, str(i), str(i))
            for i in range(1, 6)]
    g1 = Group(1, 1, [Member(1, 0, False, 1.0, True, 2, 0.77), Member(0, 3, False, 0.77, True),
                      Member(2, 4, False, 0.77, True, 1, 0.77)], [Also(2, 3, 0.7681)])
    g2 = Group(2, 3, [Member(3, 0, False, 1.0, True, 4, 0.77),
                      Member(4, 2, False, 0.77, True, 3, 0.77)], [Also(3, 2, 0.7681)])
    rows = GroupRows()
    rows.set_data(recs, [g1, g2], 64)
    return rows, g1, g2


def test_the_group_row_the_closest_cell_and_the_tooltip_name_the_other_group():
    rows, g1, g2 = _rows()
    assert rows.group_text(0, COL_NAME).endswith(" · also similar to group 2")
    assert rows.group_text(1, COL_NAME).endswith(" · also similar to group 1")
    v3 = g1.members[2]
    assert rows.member_text(g1, v3, COL_CLOSEST) == "77% · also group 2"
    assert rows.member_text(g1, g1.members[1], COL_CLOSEST) == "—"  # v1: no note
    tip = rows.member_tooltip(g1, v3)
    assert "Also similar to v4.txt in group 2 (76.8%)" in tip
    assert "Also similar" not in rows.member_tooltip(g1, g1.members[0])


def test_a_note_whose_other_file_left_every_group_is_not_shown():
    rows, g1, g2 = _rows()
    rows.set_data(rows.records, [g1], 64)  # group 2 gone (ignored files, say)
    assert "also" not in rows.group_text(0, COL_NAME)
    assert "Also similar" not in rows.member_tooltip(g1, g1.members[2])


def test_the_notes_are_translated():
    set_translator(lambda ctx, text: f"<{text}>")
    try:
        rows, g1, _ = _rows()
        assert "<also similar to group 2>" in rows.group_text(0, COL_NAME)
        assert "<also group 2>" in rows.member_text(g1, g1.members[2], COL_CLOSEST)
    finally:
        set_translator(None)
