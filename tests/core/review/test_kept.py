"""The kept session file (issue 38, item 2): written privately and atomically, read back as
untrusted input with every check of a results file, and compared with a new scan."""

import json
import os
import stat

import pytest

from simdup_gui.core.review import kept
from simdup_gui.core.review.schema import ResultsError
from simdup_gui.core.session import Session
from tests.conftest import EN, OTHER, ZH


@pytest.fixture
def session(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "zh.txt").write_bytes(ZH.encode())
    (src / "zh_gbk.txt").write_bytes(ZH.encode("gbk"))
    (src / "en.txt").write_text(EN)
    (src / "en copy.txt").write_text(EN.replace("five", "six", 1))
    (src / "other.txt").write_text(OTHER)
    s = Session([str(src)])
    s.scan()
    s.mark([str(src / "zh_gbk.txt")])
    return s


def test_a_kept_session_comes_back_with_its_view(session, tmp_path):
    path = str(tmp_path / "data" / "simdup" / "session.json")
    gbk = str(tmp_path / "src" / "zh_gbk.txt")
    view = kept.KeptView(removed=[str(tmp_path / "src" / "other.txt")], selected=[gbk],
                         current=gbk, expanded=[gbk], all_expanded=False)
    kept.save(session.results(), view, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    res, back = kept.load(path)
    assert back == view and "kept" not in res.settings
    assert res.marks == {gbk} and len(res.groups) == 2 and len(res.records) == 5
    s2 = Session()
    s2.set_loaded(res, keep_groups=True)
    assert s2.unsaved_marks() == 0 and s2.marks == {gbk}


def test_a_results_file_without_the_entry_has_an_empty_view(session, tmp_path):
    path = str(tmp_path / "results.json")
    session.save(path)
    assert session.unsaved_marks() == 0  # saved: nothing to ask about
    assert kept.load(path)[1] == kept.KeptView()


@pytest.mark.parametrize("entry, where", [
    ([], "settings.kept: expected an object"),
    ({"selected": ["relative.txt"]}, "settings.kept.selected[0]"),
    ({"removed": "/a"}, "settings.kept.removed"),
    ({"current": 3}, "settings.kept.current"),
    ({"all_expanded": "yes"}, "settings.kept.all_expanded"),
    ({"expanded": ["/a/../b"]}, "settings.kept.expanded[0]"),
])
def test_a_bad_entry_is_refused_saying_where(session, tmp_path, entry, where):
    path = str(tmp_path / "session.json")
    kept.save(session.results(), kept.KeptView(), path)
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    data["settings"]["kept"] = entry
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    with pytest.raises(ResultsError, match=where.replace("[", r"\[").replace("]", r"\]")):
        kept.load(path)


def test_unsaved_marks_count_what_quitting_would_lose(session, tmp_path):
    assert session.unsaved_marks() == 1
    session.save(str(tmp_path / "r.json"))
    assert session.unsaved_marks() == 0
    session.mark([str(tmp_path / "src" / "en copy.txt")])
    assert session.unsaved_marks() == 1
    session.clear_marks()
    assert session.unsaved_marks() == 0  # nothing marked: nothing to lose


def test_changed_since_names_files_gone_and_changed(session, tmp_path):
    before = list(session.records)
    (tmp_path / "src" / "other.txt").unlink()
    (tmp_path / "src" / "en.txt").write_text(EN + "more\n")
    after = Session([str(tmp_path / "src")])
    after.scan()
    gone, changed = kept.changed_since(before, after.records)
    assert gone == [str(tmp_path / "src" / "other.txt")]
    assert changed == [str(tmp_path / "src" / "en.txt")]
