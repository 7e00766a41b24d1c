import json

import pytest

from simdup_gui.core.review.export import export_results, export_text, load_results, save_results
from simdup_gui.core.act.marking import (
    KEEP_RULES,
    KeepRule,
    choose_keeper,
    clear_marks,
    groups_without_kept_file,
    invert_marks,
    mark_all_but_one,
    mark_selected,
    marked_size,
    toggle_selected,
    unmark_selected,
)
from simdup_gui.core.models import FileRecord, Group, Member
from simdup_gui.core.review.report_html import to_html
from simdup_gui.core.review.results import Results

from tests.actions_helpers import corpus_results


def rec(path: str, size: int = 100, mtime_ns: int = 0, encoding: str = "utf-8") -> FileRecord:
    return FileRecord(path=path, size=size, mtime_ns=mtime_ns, inode=0, dev=0, root="/r",
                      encoding=encoding, fingerprint=0, features=1, text_hash="",
                      content_hash="00")


GROUP = [
    rec("/r/aa/x.txt", size=300, mtime_ns=20, encoding="gbk"),
    rec("/r/b/x.txt", size=100, mtime_ns=30, encoding="utf-8"),
    rec("/r/ccccc/deeper/x.txt", size=200, mtime_ns=10, encoding="UTF-16"),
    rec("/r/keep/x.txt", size=250, mtime_ns=40, encoding="utf_8"),
]


@pytest.mark.parametrize("rule, kept", [
    (KeepRule("oldest"), "/r/ccccc/deeper/x.txt"),
    (KeepRule("newest"), "/r/keep/x.txt"),
    (KeepRule("largest"), "/r/aa/x.txt"),
    (KeepRule("smallest"), "/r/b/x.txt"),
    (KeepRule("shortest-path"), "/r/b/x.txt"),
    (KeepRule("longest-path"), "/r/ccccc/deeper/x.txt"),
    (KeepRule("encoding", encoding="UTF-8"), "/r/b/x.txt"),  # utf-8 and utf_8: older wins
    (KeepRule("encoding", encoding="utf-16"), "/r/ccccc/deeper/x.txt"),
    (KeepRule("folder", folder="/r/keep"), "/r/keep/x.txt"),
    (KeepRule("folder", folder="/r/aa", then="newest"), "/r/aa/x.txt"),
    (KeepRule("catalog"), "/r/ccccc/deeper/x.txt"),  # no catalogued copy: the oldest
])
def test_each_keep_rule_keeps_the_expected_file(rule, kept):
    assert choose_keeper(GROUP, rule).path == kept


def test_every_keep_rule_is_covered_by_the_table():
    assert set(KEEP_RULES) == {"oldest", "newest", "largest", "smallest", "shortest-path",
                               "longest-path", "encoding", "folder", "catalog"}


def test_preference_with_no_match_falls_back_to_the_tie_break_rule():
    rule = KeepRule("encoding", encoding="big5", then="largest")
    assert choose_keeper(GROUP, rule).path == "/r/aa/x.txt"
    rule = KeepRule("folder", folder="/elsewhere", then="smallest")
    assert choose_keeper(GROUP, rule).path == "/r/b/x.txt"


def test_ties_go_to_the_alphabetically_first_path_whatever_the_order():
    a, b = rec("/r/b.txt", mtime_ns=5), rec("/r/a.txt", mtime_ns=5)
    assert choose_keeper([a, b], KeepRule("oldest")).path == "/r/a.txt"
    assert choose_keeper([b, a], KeepRule("oldest")).path == "/r/a.txt"


def test_folder_rule_matches_whole_folder_names_only():
    recs = [rec("/r/keeper/x.txt", mtime_ns=1), rec("/r/keep/x.txt", mtime_ns=2)]
    assert choose_keeper(recs, KeepRule("folder", folder="/r/keep")).path == "/r/keep/x.txt"


@pytest.mark.parametrize("kwargs, words", [
    ({"name": "biggest"}, "oldest, newest, largest"),
    ({"name": "folder"}, "preferred folder"),
    ({"name": "oldest", "then": "encoding"}, "tie-break rule must be one of"),
])
def test_bad_keep_rules_raise_value_error_naming_allowed_values(kwargs, words):
    with pytest.raises(ValueError, match=words):
        KeepRule(**kwargs)


def results_of(*groups: list[FileRecord]) -> Results:
    records, out = [], []
    for gid, g in enumerate(groups):
        members = [Member(len(records) + i, 0, False) for i in range(len(g))]
        records += g
        out.append(Group(gid, members[0].index, members))
    return Results(records, out, [], {"bits": 64, "distance": 10}, {})


def test_mark_all_but_one_leaves_exactly_one_unmarked_file_per_group():
    res = results_of(GROUP, [rec("/s/1.txt", mtime_ns=1), rec("/s/2.txt", mtime_ns=2)])
    marks = mark_all_but_one(res, KeepRule("oldest"))
    assert marks == {"/r/aa/x.txt", "/r/b/x.txt", "/r/keep/x.txt", "/s/2.txt"}
    assert groups_without_kept_file(res, marks) == []


def test_reference_folder_files_are_never_marked_and_are_the_kept_copies():
    res = results_of(GROUP)
    marks = mark_all_but_one(res, KeepRule("oldest"), reference=["/r/aa", "/r/b"])
    assert marks == {"/r/ccccc/deeper/x.txt", "/r/keep/x.txt"}
    assert "/r/aa/x.txt" not in invert_marks(res, set(), reference=["/r/aa"])
    assert mark_selected(set(), ["/r/aa/x.txt", "/r/b/x.txt"], reference=["/r/aa"]) == \
        {"/r/b/x.txt"}
    assert toggle_selected(set(), ["/r/aa/x.txt"], reference=["/r/aa"]) == set()


def test_invert_clear_select_and_toggle_return_new_sets():
    res = results_of(GROUP)
    marks = {"/r/aa/x.txt"}
    inverted = invert_marks(res, marks)
    assert inverted == {"/r/b/x.txt", "/r/ccccc/deeper/x.txt", "/r/keep/x.txt"}
    assert marks == {"/r/aa/x.txt"}  # not mutated
    assert clear_marks() == set()
    assert unmark_selected(inverted, ["/r/b/x.txt"]) == {"/r/ccccc/deeper/x.txt", "/r/keep/x.txt"}
    assert toggle_selected(marks, ["/r/aa/x.txt", "/r/b/x.txt"]) == {"/r/b/x.txt"}
    assert groups_without_kept_file(res, invert_marks(res, set())) == res.groups
    assert marked_size(res, {"/r/aa/x.txt", "/r/b/x.txt"}) == (2, 400)


def test_mark_all_but_one_keeps_marks_outside_groups_and_replaces_those_inside():
    res = results_of(GROUP)
    marks = mark_all_but_one(res, KeepRule("newest"), marks={"/elsewhere.txt", "/r/keep/x.txt"})
    assert "/elsewhere.txt" in marks and "/r/keep/x.txt" not in marks


def test_encoding_rule_keeps_the_utf8_copy_of_a_real_gbk_pair(tmp_path):
    res, p = corpus_results(tmp_path)
    marks = mark_all_but_one(res, KeepRule("encoding", encoding="utf-8", then="oldest"))
    assert p["zh_utf8"] not in marks and p["zh_gbk"] in marks
    marks = mark_all_but_one(res, KeepRule("oldest"))
    assert p["zh_gbk"] not in marks and p["zh_utf8"] in marks


def test_marks_survive_save_and_load(tmp_path):
    res, p = corpus_results(tmp_path)
    res.marks = mark_all_but_one(res, KeepRule("shortest-path"))
    f = tmp_path / "review.json"
    save_results(res, str(f))
    back = load_results(str(f))
    assert back.marks == res.marks
    assert [g.indices() for g in back.groups] != []
    assert {r.path: r.content_hash for r in back.records} == \
        {r.path: r.content_hash for r in res.records}
    assert len(back.groups) == len(res.groups)


def test_exports_write_csv_json_and_self_contained_html(tmp_path):
    res, p = corpus_results(tmp_path)
    res.marks = {p["en_b"]}
    for fmt in ("csv", "json", "html"):
        export_results(res, str(tmp_path / f"out.{fmt}"))
    csv_text = (tmp_path / "out.csv").read_text(encoding="utf-8")
    assert f"{p['en_b']}," in csv_text and csv_text.count("\n") == 1 + 5
    doc = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert sum(f["marked"] for g in doc["groups"] for f in g["files"]) == 1
    page = (tmp_path / "out.html").read_text(encoding="utf-8")
    assert p["en_b"] in page and "<script" not in page and "http" not in page
    with pytest.raises(ValueError, match="json, csv, html"):
        export_text(res, "pdf")


def test_html_report_escapes_paths():
    nasty = '/r/<b>bold</b> & "q".txt'
    res = results_of([rec(nasty), rec("/r/plain.txt")])
    res.marks = {nasty}
    page = to_html(res, title="<title>")
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt; &amp; &quot;q&quot;" in page
    assert "<title>&lt;title&gt;</title>" in page


def test_preferred_gbk_matches_the_gb18030_label():
    from simdup_gui.core.act.marking import _norm_encoding

    assert _norm_encoding("GBK") == _norm_encoding("gb18030") == _norm_encoding("GB2312")


def test_keep_rule_also_keeps_a_member_not_similar_to_the_kept_file():
    from simdup_gui.core.models import FileRecord, Group, Member
    from simdup_gui.core.review.results import Results

    def r(name, mtime):
        return FileRecord(f"/c/{name}", 100, mtime, mtime, 1, "/c", "utf-8", 0, 50,
                          f"t{name}", f"h{name}")

    # b is the reference; a and c are each 75 % similar to b but only 50 % to each other
    recs = [r("a", 1), r("b", 2), r("c", 3)]
    g = Group(1, 1, [Member(1, 0, False, 1.0), Member(0, 3, False, 0.75),
                     Member(2, 6, False, 0.75)])
    res = Results(recs, [g], [], {"bits": 64, "distance": 3, "similarity": 0.7})
    marks = mark_all_but_one(res, KeepRule("oldest"))
    assert marks == {"/c/b"}  # a is kept by the rule, c because a is not similar to it
    marks = mark_all_but_one(res, KeepRule("newest"))
    assert marks == {"/c/b"}
