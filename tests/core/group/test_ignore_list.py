"""The ignore list: files and pairs that are not duplicates, remembered across scans."""

import json
import os
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.group import ignore as ignore_list
from simdup_gui.core.group.ignore import IgnoreList, IgnoreListError
from simdup_gui.core.models import FileRecord, Group, Member
from simdup_gui.core.session import Session

DEMO = Path(__file__).resolve().parents[3] / "resources" / "demo"


def rec(path: str) -> FileRecord:
    return FileRecord(path, 10, 0, 0, 0, "/", "utf-8", 0, 0, "", "")


def star(gid: int, rep: int, *others: tuple[int, int]) -> Group:
    return Group(gid, rep, [Member(rep, 0, True, 1.0)] +
                 [Member(i, d, False, 0.9) for i, d in others])


RECS = [rec(f"/d/{c}") for c in "abcdef"]


def names(groups):
    return [sorted(os.path.basename(RECS[m.index].path) for m in g.members) for g in groups]


def test_an_ignored_file_leaves_its_group_and_a_group_of_one_disappears():
    groups = [star(1, 0, (1, 2), (2, 3)), star(2, 3, (4, 1))]
    ign = IgnoreList()
    ign.add_files(["/d/c", "/d/e"])
    assert names(ignore_list.apply(groups, RECS, ign)) == [["a", "b"]]


def test_an_ignored_pair_with_the_reference_drops_the_other_file():
    groups = [star(1, 0, (1, 2), (2, 3))]
    ign = IgnoreList()
    ign.add_pairs([("/d/c", "/d/a")])
    out = ignore_list.apply(groups, RECS, ign)
    assert names(out) == [["a", "b"]] and out[0].representative == 0


def test_of_an_ignored_pair_of_two_copies_the_farther_one_leaves():
    groups = [star(1, 0, (1, 2), (2, 3))]
    ign = IgnoreList()
    ign.add_pairs([("/d/b", "/d/c")])
    assert names(ignore_list.apply(groups, RECS, ign)) == [["a", "b"]]


def test_removing_the_reference_makes_the_nearest_file_the_reference():
    groups = [star(1, 0, (1, 2), (2, 3))]
    out = ignore_list.apply(groups, RECS, IgnoreList(), removed={"/d/a"})
    assert names(out) == [["b", "c"]] and out[0].representative == 1


def test_the_list_round_trips_through_its_file(tmp_path):
    ign = IgnoreList()
    ign.add_files(["/d/a"])
    ign.add_pairs([("/d/c", "/d/b")])
    path = str(tmp_path / "sub" / "ignore.json")
    ignore_list.save(ign, path)
    assert ignore_list.load(path) == ign
    assert ignore_list.load(str(tmp_path / "none.json")) == IgnoreList()


@pytest.mark.parametrize("content, says", [
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe", "not valid JSON"),
    (b"[]", "expected a JSON object"),
    (b'{"version": 7}', "unknown version"),
    (b'{"version": 1, "files": "x"}', '"files" must be a list'),
    (b'{"version": 1, "pairs": [["a"]]}', '"pairs" must be a list'),
    (b'{"version": 1, "pairs": [[1, 2]]}', '"pairs" must be a list'),
])
def test_a_bad_file_is_a_clear_error_naming_it(tmp_path, content, says):
    path = tmp_path / "ignore.json"
    path.write_bytes(content)
    with pytest.raises(IgnoreListError, match=says) as e:
        ignore_list.load(str(path))
    assert str(path) in str(e.value)


def test_session_applies_the_list_after_grouping_and_keeps_it_for_the_next_scan(tmp_path):
    path = str(tmp_path / "ignore.json")
    s = Session([str(DEMO)])
    assert s.load_ignore(path) == ""
    s.scan()
    before = len(s.groups)
    first = s.groups[0]
    other = s.records[first.members[-1].index].path
    s.ignore_with_reference([other])
    assert other not in s._grouped and s.file_count() < sum(len(g.members) for g in s._all_groups)
    s2 = Session([str(DEMO)])
    s2.load_ignore(path)
    s2.scan()
    assert other not in {s2.records[m.index].path for g in s2.groups for m in g.members}
    s2.clear_ignore()
    assert len(s2.groups) == before and json.loads(Path(path).read_text())["pairs"] == []


def test_removed_from_results_is_for_this_session_only(tmp_path):
    path = str(tmp_path / "ignore.json")
    s = Session([str(DEMO)])
    s.load_ignore(path)
    s.scan()
    n = len(s.groups)
    small = next(g for g in s.groups if len(g.members) == 2)
    s.remove_from_results([s.records[small.members[1].index].path])
    assert len(s.groups) == n - 1
    assert not os.path.exists(path)  # nothing remembered


def test_session_with_a_bad_list_warns_and_starts_empty(tmp_path):
    path = tmp_path / "ignore.json"
    path.write_text("[1, 2")
    s = Session([str(DEMO)])
    warning = s.load_ignore(str(path))
    assert "not valid JSON" in warning and "starts empty" in warning
    assert len(s.ignore) == 0


def test_cli_scan_honours_the_ignore_list_unless_told_not_to(capsys):
    def groups(*extra):
        assert main(["scan", str(DEMO), "--format", "json", "--no-cache", *extra]) == 0
        out = capsys.readouterr()
        return [sorted(f["path"] for f in g["files"]) for g in json.loads(out.out)["groups"]], \
            out.err

    every, _ = groups()
    ign = IgnoreList()
    ign.add_files([every[0][0]])
    ignore_list.save(ign, ignore_list.default_path())
    honoured, _ = groups()
    assert every[0][0] not in {p for g in honoured for p in g}
    assert groups("--no-ignore-list")[0] == every
    Path(ignore_list.default_path()).write_text("{oops")
    kept, err = groups()
    assert kept == every and "warning" in err and "not valid JSON" in err


def test_mark_by_name_pattern_glob_or_regex():
    s = Session([str(DEMO)])
    s.scan()
    s.mark_matching("*.MD")
    assert {os.path.basename(p) for p in s.marks} == {"report_copies_edited.md"}
    s.clear_marks()
    s.mark_matching(r"副本|\(1\)", regex=True)
    assert {os.path.basename(p) for p in s.marks} == {"笔记_整理文件_GBK副本.txt",
                                                      "report_copies (1).txt"}
    with pytest.raises(ValueError, match="regular expression"):
        s.mark_matching("(", regex=True)
