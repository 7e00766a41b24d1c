"""The review's own commands without Qt (issue 38, items 15 and 16): a custom command run
without a shell, remove marked from results, folder-scoped marks and excludes."""

import json
import os
import sys
from pathlib import Path

import pytest

from simdup_gui.core.command import command_args, run_detached
from simdup_gui.core.scan.walk import WalkOptions, folder_pattern, walk
from simdup_gui.core.session import Refusal, ReviewSettings, Session

from tests.actions_helpers import make_corpus, write

NASTY = ["my file; rm -rf ~.txt", "it's \"quoted\" $(x).txt", "a  b\tc.txt"]


def test_placeholders_fill_whole_arguments():
    assert command_args("meld %a %b", "/x/a b.txt", "/y/r;f.txt") == [
        "meld", "/x/a b.txt", "/y/r;f.txt"]
    assert command_args("'/opt/my tool' --left=%a --right %b 100%%", "A", "B") == [
        "/opt/my tool", "--left=A", "--right", "B", "100%"]
    assert command_args("kdiff3 %a", "a", None) == ["kdiff3", "a"]
    for bad in ("", "   ", "meld 'unclosed"):
        with pytest.raises(ValueError):
            command_args(bad, "a", "b")
    with pytest.raises(ValueError, match="second file"):
        command_args("meld %a %b", "a", None)


def test_a_file_name_with_spaces_quotes_or_semicolons_stays_one_argument(tmp_path):
    out = tmp_path / "argv.json"
    script = tmp_path / "show args.py"
    script.write_text("import json, sys\n"
                      f"open({str(out)!r}, 'w').write(json.dumps(sys.argv[1:]))\n")
    a = write(tmp_path / NASTY[0], b"a\n", 0)
    b = write(tmp_path / NASTY[1], b"b\n", 0)
    args = command_args(f"{sys.executable} '{script}' %a %b", a, b)
    proc = run_detached(args)
    assert proc.wait(timeout=30) == 0
    assert json.loads(out.read_text()) == [a, b]  # nothing split, nothing run by a shell
    assert not (Path.home() / "~.txt").exists()


def test_a_tool_started_while_our_workers_hold_the_safe_path_gets_the_users_environment(
        tmp_path, monkeypatch):
    """While a local Dask cluster holds PYTHONSAFEPATH in the app's environment
    (poolctx.safe_path), a diff tool the user opens gets the environment the user set: a
    Python tool run from its own folder would not find its modules in safe-path mode."""
    from simdup_gui.core.scan import poolctx

    out = tmp_path / "env.txt"
    show = ["sh", "-c", f'printf "%s" "${{PYTHONSAFEPATH-unset}}" > "{out}"']
    for before, want in ((None, "unset"), ("x", "x")):
        if before is None:
            monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
        else:
            monkeypatch.setenv("PYTHONSAFEPATH", before)
        with poolctx.safe_path():
            assert os.environ["PYTHONSAFEPATH"] == "1" and poolctx.holds_safe_path()
            assert run_detached(show).wait(timeout=30) == 0
        assert out.read_text() == want
        assert os.environ.get("PYTHONSAFEPATH") == before and not poolctx.holds_safe_path()


def test_a_missing_program_is_an_oserror():
    with pytest.raises(OSError):
        run_detached(command_args("/no/such/simdup-tool %a", "x"))


@pytest.fixture
def session(tmp_path):
    p = make_corpus(tmp_path / "src")
    s = Session([str(tmp_path / "src")], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    return s, p, tmp_path


def grouped(s):
    return {s.records[i].path for g in s.groups for i in g.indices()}


def test_remove_marked_from_results_shrinks_groups_and_keeps_the_files(session):
    s, p, _ = session
    s.mark([p["en_b"], p["zh_gbk"]])
    gone = s.remove_marked_from_results()
    assert gone == {p["en_b"], p["zh_gbk"]} and not s.marks
    assert grouped(s) == {p["en_a"], p["en_c"]}  # the zh group had two: it is gone
    assert all(os.path.exists(x) for x in gone)  # the files stay on disk
    assert len(s.groups) == 1 and len(s.groups[0].members) == 2


def test_mark_unmark_and_remove_everything_in_a_folder(session):
    s, p, tmp = session
    bb = str(tmp / "src" / "bb")
    assert s.grouped_under(bb) == {p["en_b"], p["zh_gbk"]}
    assert s.grouped_under(str(tmp / "src" / "ccc")) == {p["en_c"]}  # recursively
    s.mark(s.grouped_under(bb))
    assert s.marks == {p["en_b"], p["zh_gbk"]}
    s.mark(s.grouped_under(bb), False)
    assert not s.marks
    s.remove_from_results(s.grouped_under(str(tmp / "src" / "a")))
    assert grouped(s) == {p["en_b"], p["en_c"]}


def test_exclude_a_folder_from_later_scans(session):
    s, p, tmp = session
    folder = tmp / "src" / "my docs [old]"
    write(folder / "report.txt", Path(p["en_a"]).read_bytes(), 0)
    s.scan()
    assert str(folder / "report.txt") in grouped(s)
    pattern = s.exclude_folder(str(folder))
    assert pattern in s.settings.exclude and " " not in pattern  # one word of the field
    assert str(folder / "report.txt") not in grouped(s)  # out of these results too
    s.scan()
    assert not any(r.path.startswith(str(folder)) for r in s.records)
    assert len(s.records) == 6  # nothing else left out
    with pytest.raises(Refusal):
        s.exclude_folder(str(tmp / "src"))  # a scanned folder itself
    with pytest.raises(Refusal):
        s.exclude_folder(str(tmp / "elsewhere"))


def test_a_folder_pattern_matches_that_folder_only(tmp_path):
    for name in ("keep", "ke?p*", "keep two", "[keep]"):
        write(tmp_path / name / "f.txt", b"x\n", 0)
        write(tmp_path / "other" / name / "f.txt", b"x\n", 0)
    found = walk([str(tmp_path)], WalkOptions(exclude=(folder_pattern(str(tmp_path / "ke?p*")),
                                                       folder_pattern(str(tmp_path / "keep two")))))
    names = sorted(os.path.relpath(c.path, tmp_path) for c in found.files)
    assert names == sorted([os.path.join("keep", "f.txt"), os.path.join("[keep]", "f.txt")]
                           + [os.path.join("other", n, "f.txt")
                              for n in ("keep", "ke?p*", "keep two", "[keep]")])
