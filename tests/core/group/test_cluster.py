import pytest

from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.models import FileRecord


def rec(i, fp, text_hash=None, mtime=0):
    return FileRecord(path=f"/x/{i}.txt", size=100, mtime_ns=mtime or i, inode=i, dev=1, root="/x",
                      encoding="utf-8", fingerprint=fp, features=50,
                      text_hash=text_hash or f"h{i}", content_hash=f"c{i}")


def test_chain_is_one_linked_group_but_split_in_strict_mode():
    a, b, c = 0, 0b111, 0b111111  # a~b (3), b~c (3), a far from c (6)
    recs = [rec(0, a), rec(1, b), rec(2, c)]
    linked, _ = build_groups(recs, 64, 3, "linked", verify="none")
    assert [sorted(g.indices()) for g in linked] == [[0, 1, 2]]
    strict, _ = build_groups(recs, 64, 3, "strict", verify="none")
    for g in strict:
        for m in g.members:
            for n in g.members:
                assert (recs[m.index].fingerprint ^ recs[n.index].fingerprint).bit_count() <= 3
    assert sum(len(g.members) for g in strict) == 2


def test_members_carry_distance_to_representative_and_exact_flag():
    recs = [rec(0, 0, "same", mtime=1), rec(1, 0, "same", mtime=2), rec(2, 0b11, "other", 3),
            rec(3, (1 << 64) - 1, "far")]
    groups, _ = build_groups(recs, 64, 3, verify="none")
    assert len(groups) == 1
    g = groups[0]
    assert g.representative == 0  # oldest of the best-connected
    d = {m.index: (m.distance, m.exact) for m in g.members}
    assert d == {0: (0, True), 1: (0, True), 2: (2, False)}
    assert not g.exact


def test_smaller_sizes_use_the_low_bits():
    high_only = 1 << 100
    recs = [rec(0, 0), rec(1, high_only)]
    assert len(build_groups(recs, 64, 0, verify="none")[0]) == 1
    assert build_groups(recs, 128, 0, verify="none")[0] == []


def test_unknown_grouping_mode_is_rejected():
    with pytest.raises(ValueError, match="linked, strict"):
        build_groups([], 64, 3, "loose", verify="none")
