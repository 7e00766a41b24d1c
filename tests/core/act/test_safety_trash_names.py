"""Item 8 of issue 10: undo from the freedesktop trash of a file whose name is not UTF-8."""

import os
import sys

import pytest
import send2trash.plat_other as plat_other

from simdup_gui.cli import main
from simdup_gui.core.act.actions import bind_scan_identity, execute, plan_action
from simdup_gui.core.act.fileops import hash_file, read_info_path
from simdup_gui.core.act.recovery import undo

from tests.actions_helpers import T0, results_from_groups, write
from tests.conftest import EN

pytestmark = pytest.mark.skipif(sys.platform in ("win32", "darwin"),
                                reason="needs the freedesktop trash and byte file names")


@pytest.fixture
def fake_home_trash(tmp_path, monkeypatch):
    """send2trash's freedesktop trash, pointed at a temporary XDG_DATA_HOME."""
    data = tmp_path / "xdg"
    data.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setattr(plat_other, "XDG_DATA_HOME", os.fsencode(data))
    monkeypatch.setattr(plat_other, "HOMETRASH_B", os.fsencode(data / "Trash"))
    monkeypatch.setattr(plat_other, "get_dev", lambda path: 1)  # same device as "home"
    return data / "Trash"


@pytest.mark.parametrize("raw", [b"bad\xff\xfename.txt", b"latin1-caf\xe9 %41.txt",
                                 "中文名.txt".encode("gbk")])
def test_a_trashed_non_utf8_name_comes_back_with_undo(tmp_path, fake_home_trash, raw):
    root = tmp_path / "src"
    keep = write(root / "keep.txt", EN.encode(), T0)
    bad = os.path.join(str(root), os.fsdecode(raw))
    write(type(root)(bad), EN.replace("five", "six", 1).encode(), T0)
    h = hash_file(bad)
    res = results_from_groups([[keep, bad]], str(root))
    rep = execute(bind_scan_identity(plan_action(res, {bad}, "trash"), res),
                  trash=plat_other.send2trash)
    (o,) = rep.outcomes
    assert o.status == "done" and o.restorable is True, o.reason
    assert not os.path.lexists(bad)
    (note,) = (fake_home_trash / "info").iterdir()
    assert b"Path=" in note.read_bytes() and read_info_path(str(note)) == bad
    back = undo(rep.journal)
    assert [x.status for x in back.outcomes] == ["done"], back.outcomes
    assert hash_file(bad) == h and os.listdir(fake_home_trash / "info") == []


def test_the_note_is_read_as_bytes_and_percent_decoded_to_bytes(tmp_path):
    info = tmp_path / "x.trashinfo"
    info.write_bytes(b"[Trash Info]\nPath=/tmp/d/bad%FF%FEname.txt\n"
                     b"DeletionDate=2020-01-01T00:00:00\n")
    assert os.fsencode(read_info_path(str(info))) == b"/tmp/d/bad\xff\xfename.txt"


def test_trash_and_undo_of_a_non_utf8_name_on_the_command_line(tmp_path, fake_home_trash,
                                                               capsys):
    src = tmp_path / "src"
    src.mkdir()
    bad = os.path.join(str(src), os.fsdecode(b"bad\xff\xfename.txt"))
    with open(bad, "w") as fh:
        fh.write(EN)
    good = str(src / "good.txt")
    with open(good, "w") as fh:
        fh.write(EN.replace("five", "six", 1))
    os.utime(good, ns=(1, 10**18))
    os.utime(bad, ns=(1, 10**17))
    out = tmp_path / "results.json"
    assert main(["scan", str(src), "--format", "json", "-o", str(out), "--no-cache",
                 "--workers", "1"]) == 0
    h = hash_file(bad)
    journal = str(tmp_path / "j.jsonl")
    # the default trash (send2trash's freedesktop trash, pointed at the fake home)
    assert main(["apply", str(out), "--keep", "newest", "--trash", "--yes",
                 "--journal", journal]) == 0
    text = capsys.readouterr().out
    assert "trash: 1 done" in text and "cannot restore" not in text
    assert main(["undo", journal]) == 0
    assert "undo: 1 done" in capsys.readouterr().out and hash_file(bad) == h
