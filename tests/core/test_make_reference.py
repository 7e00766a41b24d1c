"""Make selected reference (issue 38, item 7): the group measured again around the file the
user chose; members below the threshold leave; keep rules keep it."""

import os

import pytest

from simdup_gui.core.group.exact import PairSimilarity
from simdup_gui.core.group.measure import MARGIN
from simdup_gui.core.group.rereference import rereference
from simdup_gui.core.models import Group, Member
from simdup_gui.core.session import Refusal, ReviewSettings, Session

from tests.actions_helpers import make_corpus, write_chain


@pytest.fixture
def chain(tmp_path):
    """Twelve versions of a document, each a 4 % edit of the one before: two groups of six,
    each around a middle version."""
    write_chain(tmp_path / "src", n=12)
    s = Session([str(tmp_path / "src")], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    return s


def paths(s, g):
    return [s.records[i].path for i in g.indices()]


def test_members_below_the_threshold_against_the_new_reference_leave(chain):
    s = chain
    g = max(s.groups, key=lambda g: len(g.members))
    far = min(g.members, key=lambda m: m.similarity).index  # the version farthest from it
    new = s.records[far].path
    before = set(paths(s, g))
    change = s.make_reference(new)
    now = next(x for x in s.groups if x.id == g.id)
    assert s.records[now.representative].path == new and now.members[0].index == far
    assert change.left and set(change.left) == before - set(paths(s, now))
    exact = PairSimilarity()
    for m in now.members[1:]:  # every member measured against the new reference
        j = exact.measured(s.records[far], s.records[m.index])
        assert m.similarity >= s.settings.similarity and abs(m.similarity - j) < MARGIN
        rec, ref = s.records[m.index], s.records[far]
        assert m.distance == (rec.fp(s.group_bits) ^ ref.fp(s.group_bits)).bit_count()
    for m in now.members:  # closest members are members of the group
        assert m.closest in now.indices() and m.closest != m.index
    for p in change.left:  # each that left is below the threshold against the new reference
        r = next(x for x in s.records if x.path == p)
        assert exact.measured(s.records[far], r) < s.settings.similarity


def test_the_choice_holds_across_a_regroup_and_the_old_reference_brings_all_back(chain):
    s = chain
    g = max(s.groups, key=lambda g: len(g.members))
    old_ref = s.records[g.representative].path
    members = set(paths(s, g))
    new = s.records[min(g.members, key=lambda m: m.similarity).index].path
    s.make_reference(new)
    s.regroup()
    assert new in {s.records[x.representative].path for x in s.groups}
    s.make_reference(old_ref)
    back = next(x for x in s.groups if s.records[x.representative].path == old_ref)
    assert set(paths(s, back)) == members and s.chosen_references == []


def test_keep_rules_keep_the_chosen_reference_and_it_is_never_marked(tmp_path):
    p = make_corpus(tmp_path / "src")
    s = Session([str(tmp_path / "src")], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    s.mark([p["en_b"]])
    change = s.make_reference(p["en_b"])
    assert p["en_b"] in change.marks_changed and p["en_b"] not in s.marks
    s.mark_keep("newest")  # would keep ccc/deep/report.txt
    assert p["en_b"] not in s.marks and {p["en_a"], p["en_c"]} <= s.marks
    s.mark([p["en_b"]])
    s.toggle([p["en_b"]])
    s.invert()
    assert p["en_b"] not in s.marks


def test_a_file_in_no_group_cannot_be_the_reference(tmp_path):
    p = make_corpus(tmp_path / "src")
    s = Session([str(tmp_path / "src")], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    with pytest.raises(Refusal):
        s.make_reference(p["other"])


def test_doubtful_pairs_are_measured_from_the_files(chain):
    s = chain
    g = max(s.groups, key=lambda g: len(g.members))
    far = min(g.members, key=lambda m: m.similarity).index
    asked = []
    exact = PairSimilarity()

    def measure(a, b):
        asked.append((a, b))
        return exact.measured(s.records[a], s.records[b])

    out = rereference(s.records, g, far, s.group_bits, s.settings.similarity, measure)
    assert asked, "the pairs near the threshold are measured exactly"
    measured = {b for a, b in asked} & set(out.group.indices())
    assert measured
    for m in out.group.members:
        if m.index in measured:  # its similarity is the files' own, not the estimate
            j = exact.measured(s.records[far], s.records[m.index])
            assert m.measured and abs(m.similarity - j) < 1e-3


def test_copy_sets_and_template_flags_follow_the_new_reference(chain):
    s = chain
    g = max(s.groups, key=lambda g: len(g.members))
    ms = g.members
    # the old reference's copy set (0) holds the first half; the rest is a template sibling
    # set (1), whose members share template text with the old reference
    half = len(ms) // 2
    members = [Member(m.index, m.distance, m.exact, m.similarity, m.measured, m.closest,
                      m.closest_similarity, 0 if k < half else 7, 0 if k < half else 1)
               for k, m in enumerate(ms)]
    fake = Group(g.id, g.representative, members)
    new = members[-1].index  # a member of set 1 becomes the reference
    out = rereference(s.records, fake, new, s.group_bits, 0.5).group
    by = {m.index: m for m in out.members}
    assert by[new].copy_set == 0 and by[new].template == 0
    for m in members:
        if m.index in by and m.index != new:
            stayed = by[m.index]
            if m.copy_set == 1:  # the new reference's own set: its copies
                assert stayed.copy_set == 0 and stayed.template == 0
            else:  # the old reference's set: template siblings of the new reference
                assert stayed.copy_set == 1 and stayed.template == 7
    assert out.templates == sum(1 for m in out.members if m.template)


def test_unverified_groups_keep_the_members_within_the_distance(chain):
    s = chain
    g = max(s.groups, key=lambda g: len(g.members))
    far = min(g.members, key=lambda m: m.similarity).index
    out = rereference(s.records, g, far, s.group_bits, 0.7, verify="none", distance=0)
    assert out.group is None or all(m.distance == 0 for m in out.group.members)
    everyone = rereference(s.records, g, far, s.group_bits, 0.7, verify="none", distance=64)
    assert len(everyone.group.members) == len(g.members) and not everyone.left
    assert os.path.basename(s.records[everyone.group.representative].path).startswith("doc")
