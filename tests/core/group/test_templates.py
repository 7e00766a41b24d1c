"""Different documents built on one template stay apart (issue 37): man pages of one
generator are not copies of each other, while every kind of real copy stays grouped."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from simdup_gui.core.session import ReviewSettings, Session
from tests.conftest import EN, OTHER, ZH

TEMPLATE = (
    "NAME\n  {cmd} - {desc}\nSYNOPSIS\n  {cmd} [OPTION]... [FILE]...\nDESCRIPTION\n  {body}\n"
    "  --help display this help and exit\n  --version output version information and exit\n"
    "AUTHOR\n  Written by the GNU project team and many contributors over a very long time.\n"
    "REPORTING BUGS\n  GNU coreutils online help: <https://www.gnu.org/software/coreutils/>\n"
    "  Report any translation bugs to <https://translationproject.org/team/>\n"
    "COPYRIGHT\n  Copyright (C) 2024 Free Software Foundation, Inc. License GPLv3+: GNU GPL "
    "version 3 or later <https://gnu.org/licenses/gpl.html>.\n  This is free software: you "
    "are free to change and redistribute it. There is NO WARRANTY, to the extent permitted "
    "by law.\nSEE ALSO\n  Full documentation <https://www.gnu.org/software/coreutils/{cmd}>\n"
    "  or available locally via: info '(coreutils) {cmd} invocation'\n")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))


def man_pages(folder, n: int, seed: int = 1) -> list[str]:
    """``n`` pages of one generator: the same template, each its own name and a few lines
    of its own (J 0.70-0.80 to each other)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        cmd = _word(rng)
        text = TEMPLATE.format(cmd=cmd, desc=" ".join(_word(rng) for _ in range(3)),
                               body=" ".join(_word(rng) for _ in range(7)))
        p = folder / f"{i:02d}-{cmd}.1.txt"
        p.write_text(text, encoding="utf-8")
        out.append(str(p))
    return out


def groups_of(root, measure: str = "template") -> list[set[str]]:
    s = Session([str(root)], ReviewSettings(use_cache=False, workers=1, measure=measure))
    s.scan()
    return [{s.records[m.index].path for m in g.members} for g in s.groups]


def test_pages_of_one_generator_are_not_grouped_but_their_copies_are(tmp_path):
    pages = man_pages(tmp_path / "man", 12)
    rng = random.Random(7)
    copies = []
    for p in pages[:4]:  # a backup with one word changed
        with open(p, encoding="utf-8") as fh:
            words = fh.read().split(" ")
        words[rng.randrange(len(words))] = "changed"
        c = tmp_path / "backup" / (p.rsplit("/", 1)[1] + ".bak.txt")
        c.parent.mkdir(exist_ok=True)
        c.write_text(" ".join(words), encoding="utf-8")
        copies.append(str(c))
    plain = groups_of(tmp_path, "plain")
    assert max(len(g) for g in plain) >= 8  # J alone joins the siblings
    assert sorted(map(sorted, groups_of(tmp_path))) == sorted(
        sorted({p, c}) for p, c in zip(pages[:4], copies))


RECIPES = {
    "copy": lambda t: t,
    "rewrap": lambda t: "\n".join(t.replace("\n", " ")[i:i + 60]
                                  for i in range(0, len(t), 60)),
    "edit": lambda t: t.replace("the", "teh", 2).replace("。", "！", 1),
    "header": lambda t: "Downloaded from the archive, do not redistribute. 转载请注明出处。\n" + t,
    "truncated": lambda t: t[: int(len(t) * 0.9)],
    "reordered": lambda t: "\n".join(reversed(t.split("\n"))),
}


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_every_kind_of_copy_stays_grouped_among_template_siblings(tmp_path, recipe):
    man_pages(tmp_path / "man", 12)
    docs = {"en": EN + OTHER, "zh": ZH + ZH.replace("文件", "资料")}
    for name, text in docs.items():
        (tmp_path / "docs").mkdir(exist_ok=True)
        (tmp_path / "docs" / f"{name}.txt").write_text(text, encoding="utf-8")
        (tmp_path / "docs" / f"{name}-{recipe}.txt").write_text(RECIPES[recipe](text),
                                                                encoding="utf-8")
    (tmp_path / "docs" / "zh-gbk.txt").write_bytes(docs["zh"].encode("gbk"))
    found = groups_of(tmp_path)
    for name in docs:
        a, b = (str(tmp_path / "docs" / f"{name}{s}.txt") for s in ("", f"-{recipe}"))
        assert any({a, b} <= g for g in found), (recipe, name, found)
    assert any({str(tmp_path / "docs" / "zh.txt"), str(tmp_path / "docs" / "zh-gbk.txt")} <= g
               for g in found)


def test_thirty_backups_of_one_folder_keep_every_copy(tmp_path):
    """Counted over documents, not files: 30 backups of a folder do not make its own text
    look like a template."""
    src = {"a.txt": EN + OTHER, "b.txt": ZH, "c.txt": OTHER * 2 + EN[:200]}
    for k in range(30):
        for name, text in src.items():
            p = tmp_path / f"backup{k:02d}" / name
            p.parent.mkdir(exist_ok=True)
            p.write_text(text if k % 3 else text + f"\nsaved again {k}\n", encoding="utf-8")
    found = groups_of(tmp_path)
    assert sorted(len(g) for g in found) == [30, 30, 30]


def test_a_small_collection_keeps_the_verdict_of_j(tmp_path):
    """Two pages of one generator in a folder of their own: too few documents to call any
    text a template, so J decides, as it always did."""
    pages = man_pages(tmp_path, 2)
    assert groups_of(tmp_path, "plain") == groups_of(tmp_path) == [set(pages)]


def test_each_file_sits_with_the_reference_it_is_closest_to():
    """Issue 37, part 2: C is 0.96 to B and 0.70 to A; A's star is chosen first (most
    neighbours), but C belongs with B. A reference left with no member joins its closest
    star instead of vanishing."""
    import numpy as np

    from simdup_gui.core.group.edges import PairGraph
    from simdup_gui.core.group.stars import star_groups
    from simdup_gui.core.models import FileRecord

    names = "ABCDEFG"
    recs = [FileRecord(f"/d/{n}.txt", 10, i, i, 1, "/d", "utf-8", i, 1, n, n)
            for i, n in enumerate(names)]
    members = [[i] for i in range(len(names))]
    ix = {n: i for i, n in enumerate(names)}
    edges = {("A", "C"): 0.70, ("A", "E"): 0.75, ("A", "F"): 0.74, ("A", "G"): 0.73,
             ("B", "C"): 0.96, ("B", "D"): 0.80}
    pairs = np.array([(ix[a], ix[b]) for a, b in edges], dtype=np.int64)
    v = PairGraph.known(len(names), pairs, np.array(list(edges.values())),
                        np.ones(len(edges), dtype=bool), 0.70)
    groups = star_groups(recs, members, v, 64)
    by_ref = {names[g.representative]: {names[m.index] for m in g.members} for g in groups}
    assert by_ref == {"A": {"A", "E", "F", "G"}, "B": {"B", "C", "D"}}
    # a reference left alone: H's only member goes closer elsewhere, H joins that star
    edges = {("A", "B"): 0.71, ("A", "C"): 0.72, ("A", "D"): 0.73, ("E", "B"): 0.95,
             ("E", "F"): 0.90}
    pairs = np.array([(ix[a], ix[b]) for a, b in edges], dtype=np.int64)
    v = PairGraph.known(len(names), pairs, np.array(list(edges.values())),
                        np.ones(len(edges), dtype=bool), 0.70)
    by_ref = {names[g.representative]: {names[m.index] for m in g.members}
              for g in star_groups(recs, members, v, 64)}
    assert by_ref == {"A": {"A", "C", "D"}, "E": {"E", "B", "F"}}


def _session(root, measure: str = "plain") -> Session:
    s = Session([str(root)], ReviewSettings(use_cache=False, workers=1, measure=measure))
    s.scan()
    return s


def test_plain_groups_flag_template_siblings_and_keep_rules_leave_them(tmp_path):
    """The default verdict (plain J) keeps the siblings grouped but says which members share
    mostly template text, and "keep one" leaves them alone unless told otherwise; the
    backups of four pages are marked as always."""
    pages = man_pages(tmp_path / "man", 12)
    for p in pages[:4]:
        c = tmp_path / "backup" / (p.rsplit("/", 1)[1] + ".bak.txt")
        c.parent.mkdir(exist_ok=True)
        c.write_text(Path(p).read_text(encoding="utf-8") + "\nsaved again\n", encoding="utf-8")
    s = _session(tmp_path)
    flagged = {s.records[m.index].path for g in s.groups for m in g.members if m.template}
    assert len(flagged) >= 6
    assert all(m.template > 1 for g in s.groups for m in g.members if m.template)
    files, groups = s.template_members()
    assert files == len(flagged) and groups >= 1
    s.mark_keep("oldest")
    # each page with a backup: one of the two is marked; no other page is
    for p in pages:
        c = str(tmp_path / "backup" / (p.rsplit("/", 1)[1] + ".bak.txt"))
        assert len(s.marks & {p, c}) == (p in pages[:4]), (p, c, s.marks)
    assert len(s.marks) == 4
    s.mark_keep("oldest", templates=True)  # told: every group keeps one file
    assert len(s.marks) > 8  # a file with no kept copy near enough stays (as always)
    # the mark survives a results file; template counts and closest members too
    path = tmp_path / "r.json"
    s.save(str(path))
    from simdup_gui.core.review.results import load_json

    back = load_json(path.read_text(encoding="utf-8"))
    got = {back.records[m.index].path: (m.template, m.copy_set, back.records[m.closest].path
                                         if m.closest >= 0 else None, m.closest_similarity)
           for g in back.groups for m in g.members}
    want = {s.records[m.index].path: (m.template, m.copy_set, s.records[m.closest].path
                                      if m.closest >= 0 else None, m.closest_similarity)
            for g in s.groups for m in g.members}
    assert got == want and any(v[0] for v in got.values())


def test_template_verdict_flags_nothing_it_kept_apart(tmp_path):
    man_pages(tmp_path / "man", 12)
    s = _session(tmp_path, "template")
    assert s.template_members() == (0, 0)


def test_each_member_names_its_closest_member(tmp_path):
    """A re-wrapped copy of B shown in A's group at 75 % says it is 100 % to B (issue 38,
    item 6): the closest member and its similarity, files of one text at 100 %."""
    rng = random.Random(3)
    words = [_word(rng) for _ in range(400)]
    a = " ".join(words)
    b = " ".join(words[:375] + [_word(rng) for _ in range(25)])
    c = textwrap.fill(b, 50)  # b re-wrapped
    for name, text in (("a", a), ("b", b), ("c", c), ("a2", a)):
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    s = _session(tmp_path)
    assert len(s.groups) == 1
    g = s.groups[0]
    by = {s.records[m.index].path.rsplit("/", 1)[1]: m for m in g.members}
    name = lambda m: s.records[m.closest].path.rsplit("/", 1)[1]  # noqa: E731
    assert name(by["c.txt"]) == "b.txt" and by["c.txt"].closest_similarity == 1.0
    assert name(by["b.txt"]) == "c.txt"
    assert {name(by["a.txt"]), name(by["a2.txt"])} == {"a2.txt", "a.txt"}
    assert by["a.txt"].closest_similarity == 1.0
    assert 0.7 <= by["b.txt"].similarity < 0.95 and by["b.txt"].closest_similarity == 1.0


def test_a_chain_of_versions_gives_groups_a_user_understands(tmp_path):
    """Versions v1 ~ v2 ~ ... ~ v5, each about 0.72 like its neighbours and v1 far from v5
    (0.34), as the README says: every version is in a group, every member is at least the
    threshold like its group's reference, and each file's closest member is a neighbouring
    version."""
    rng = random.Random(3)
    versions = [[_word(rng) for _ in range(600)]]
    for _ in range(4):
        w = list(versions[-1])
        for i in rng.sample(range(len(w)), 60):
            w[i] = _word(rng)
        versions.append(w)
    for i, w in enumerate(versions, 1):
        (tmp_path / f"v{i}.txt").write_text(" ".join(w), encoding="utf-8")
    s = _session(tmp_path)
    name = lambda i: int(s.records[i].path[-5])  # noqa: E731 - "…/v3.txt" -> 3
    seen = {name(m.index) for g in s.groups for m in g.members}
    assert seen == {1, 2, 3, 4, 5}
    for g in s.groups:
        for m in g.members:
            assert m.similarity >= 0.70
            if len(g.members) > 1:
                assert abs(name(m.closest) - name(m.index)) == 1


def test_members_of_one_text_show_as_a_same_text_set(tmp_path):
    """Issue 38, item 6: members with identical text are shown as one set (≡ beside their
    closest similarity, the others named in the tooltip) and sort next to each other."""
    from simdup_gui.core.presenters.tree import COL_CLOSEST, GroupRows

    rng = random.Random(4)
    words = [_word(rng) for _ in range(400)]
    base = " ".join(words)
    edited = " ".join(words[:370] + [_word(rng) for _ in range(30)])
    for name, text in (("a", base), ("b", edited), ("c", textwrap.fill(edited, 40)),
                       ("d", edited.upper())):
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    s = _session(tmp_path)
    rows = GroupRows()
    rows.set_data(s.records, s.groups, 64)
    g = s.groups[0]
    names = [s.records[m.index].path[-5] for m in g.members]
    marked = {s.records[m.index].path[-5] for m in g.members
              if rows.member_text(g, m, COL_CLOSEST).endswith("≡")}
    assert marked == {"b", "c", "d"}
    assert "".join(n for n in names if n in marked) in ("bcd", "bdc", "cbd", "cdb", "dbc", "dcb")
    pos = [i for i, n in enumerate(names) if n in marked]
    assert pos == list(range(pos[0], pos[0] + 3))  # next to each other
    tip = rows.member_tooltip(g, next(m for m in g.members if s.records[m.index].path[-5] == "b"))
    assert "2 other member(s)" in tip and "c.txt" in tip and "d.txt" in tip


def test_above_the_bound_template_text_is_not_flagged_and_the_plan_says_so(tmp_path,
                                                                          monkeypatch):
    from simdup_gui.core.group import cluster

    man_pages(tmp_path / "man", 12)
    monkeypatch.setattr(cluster, "FLAG_TEMPLATES_UP_TO", 5)
    s = _session(tmp_path)
    assert s.groups and s.template_members() == (0, 0)
    assert "template text not flagged above 5 distinct texts" in s.index_plan


@pytest.mark.parametrize("block", [128, 256 * 7, 1 << 20])
def test_document_counts_by_blocks_are_the_plain_counts(monkeypatch, block):
    """_value_documents counts, for each value asked about, the distinct documents whose
    rows hold it: the same as counting each value's documents one by one, whatever the
    blocks (a document never split between two: many rows of one document in a row)."""
    import numpy as np

    from simdup_gui.core.group import templates
    from simdup_gui.core.textsim import EMPTY, SKETCH_K

    monkeypatch.setattr(templates, "CELL_BLOCK", block)
    rng = np.random.default_rng(3)
    n = 300
    sk = np.sort(rng.integers(0, 5000, size=(n, SKETCH_K), dtype=np.uint32), axis=1)
    sk[rng.random(n) < 0.1, -20:] = EMPTY  # some sketches not full
    doc = rng.integers(0, 40, size=n)
    doc[50:90] = 7  # one document of many rows, split by any small block
    values = np.unique(sk[rng.random(n) < 0.5])
    values = values[values != EMPTY]
    got = templates._value_documents(sk, doc, values)
    rows = [set(row) for row in sk.tolist()]
    want = [len({int(doc[r]) for r in range(n) if v in rows[r]}) for v in values.tolist()]
    assert got.tolist() == want
