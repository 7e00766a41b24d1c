"""Item 5 of issue 10: journals are untrusted input. A journal must be this user's (signed
with the key in the user data folder, owned by the user) and may only ask for what an
action does: files inside their recorded roots, moves between the roots and the recorded
destination, real trash notes; anything else is refused with `simdup undo: error: ...`."""

import json
import os
import uuid
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.act import journal as jmod
from simdup_gui.core.act.actions import execute, plan_action
from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.act.journal import JOURNAL_VERSION, JournalRefused, JournalWriter, read_journal
from simdup_gui.core.act.recovery import resume, undo

from tests.actions_helpers import T0, results_from_groups, write
from tests.conftest import EN, OTHER


@pytest.fixture
def world(tmp_path):
    """A scanned root with a group (a kept, b marked), a destination folder, and a victim
    file outside both that no journal may touch."""
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0)
    b = write(root / "b.txt", EN.replace("five", "six", 1).encode(), T0)
    victim = write(tmp_path / "outside" / "victim.txt", OTHER.encode(), T0)
    res = results_from_groups([[a, b]], str(root))
    return tmp_path, root, a, b, victim, res


def op(seq, action, path, root, content_hash, kept=(), dest=None, size=1, mtime_ns=T0):
    return {"seq": seq, "action": action, "path": path, "size": size, "mtime_ns": mtime_ns,
            "content_hash": content_hash, "group_id": 0, "root": root, "dest": dest,
            "kept": [dict(k) for k in kept], "ino": 0, "dev": 0}


def start(action, ops, move_to=None):
    return {"type": "start", "version": JOURNAL_VERSION, "id": uuid.uuid4().hex,
            "time": 1.0, "action": action, "move_to": move_to, "flat": False, "ops": ops}


def signed(path: Path, *entries: dict) -> str:
    """A journal written (and signed) by simdup's own writer: passes the signature check,
    so the content checks are what is tested."""
    with JournalWriter(str(path), new=True) as w:
        for e in entries:
            w.write(e)
    return str(path)


def unsigned(path: Path, *entries: dict) -> str:
    """A journal crafted by hand (no signatures)."""
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    return str(path)


def refused(capsys, cmd, journal, *expect):
    assert main([cmd, journal]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"simdup {cmd}: error: refusing journal {journal}"), err
    assert "Traceback" not in err
    for text in expect:
        assert text in err, err
    return err


def snapshot(*paths):
    return {p: (hash_file(p), os.stat(p).st_ino) for p in paths}


# ---- not this user's ---------------------------------------------------------------------

def test_a_hand_made_journal_that_moves_an_arbitrary_file_is_refused(world, capsys):
    tmp, root, a, b, victim, res = world
    gone = str(root / "gone.txt")  # undo would "move back" the victim to here
    j = unsigned(tmp / "evil.jsonl",
                 start("move", [op(0, "move", gone, str(root), "0" * 32)], str(tmp / "dups")),
                 {"type": "done", "seq": 0, "dest": victim})
    before = snapshot(victim)
    refused(capsys, "undo", j, "was not written by simdup for this user")
    assert snapshot(victim) == before and not os.path.exists(gone)


def test_a_real_journal_edited_by_hand_is_refused(world, capsys):
    tmp, root, a, b, victim, res = world
    rep = execute(plan_action(res, {b}, "move", move_to=str(tmp / "dups")),
                  journal=str(tmp / "j.jsonl"))
    assert rep.count("done") == 1
    lines = Path(rep.journal).read_text().splitlines()
    edited = []
    for line in lines:
        e = json.loads(line)
        if e.get("type") == "done":
            e["dest"] = victim  # keeps its old signature
        edited.append(json.dumps(e))
    Path(rep.journal).write_text("\n".join(edited) + "\n")
    before = snapshot(victim)
    refused(capsys, "undo", rep.journal, "line 3", "signature")
    refused(capsys, "resume", rep.journal)
    assert snapshot(victim) == before


def test_a_journal_copied_from_another_users_data_folder_is_refused(world, capsys,
                                                                    monkeypatch, tmp_path):
    tmp, root, a, b, victim, res = world
    rep = execute(plan_action(res, {b}, "move", move_to=str(tmp / "dups")),
                  journal=str(tmp / "j.jsonl"))
    # another user: their own data folder, so their own key
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "other-user-data"))
    assert jmod.journal_key(create=True) is not None
    refused(capsys, "undo", rep.journal, "signature")
    assert not os.path.exists(b)  # still moved: nothing was done


def test_a_journal_owned_by_another_user_is_refused(world, capsys, monkeypatch):
    tmp, root, a, b, victim, res = world
    rep = execute(plan_action(res, {b}, "move", move_to=str(tmp / "dups")),
                  journal=str(tmp / "j.jsonl"))
    if os.geteuid() == 0:
        os.chown(rep.journal, 12345, 12345)
    else:  # cannot give a file away: be someone else instead
        monkeypatch.setattr(jmod, "_uid", lambda: os.getuid() + 1)
    refused(capsys, "undo", rep.journal, "belongs to another user")
    assert not os.path.exists(b)


def test_without_the_users_key_no_journal_is_trusted(world, capsys):
    tmp, root, a, b, victim, res = world
    rep = execute(plan_action(res, {b}, "move", move_to=str(tmp / "dups")),
                  journal=str(tmp / "j.jsonl"))
    os.unlink(jmod.key_path())
    refused(capsys, "undo", rep.journal, "journal key")


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000 + "\n",
    '{"type": "start", "version": 1, "ops": 7}\n',
    "\xff\xfe garbage\n",
    "",
])
def test_garbage_journals_are_errors_not_tracebacks(tmp_path, capsys, text):
    j = tmp_path / "bad.jsonl"
    j.write_bytes(text.encode("utf-8", "surrogateescape") if text else b"")
    for cmd in ("undo", "resume"):
        assert main([cmd, str(j)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"simdup {cmd}: error: ") and "Traceback" not in err


# ---- signed, but asking for what an action never does --------------------------------------

def test_undo_never_moves_a_file_from_outside_the_recorded_destination(world, capsys):
    tmp, root, a, b, victim, res = world
    gone = str(root / "gone.txt")
    j = signed(tmp / "j.jsonl",
               start("move", [op(0, "move", gone, str(root), hash_file(victim))],
                     str(tmp / "dups")),
               {"type": "done", "seq": 0, "dest": victim, "how": "link"})
    before = snapshot(victim)
    refused(capsys, "undo", j, f"went to '{victim}', outside {tmp / 'dups'}")
    assert snapshot(victim) == before and not os.path.exists(gone)


def test_undo_never_unlinks_a_file_named_as_a_trash_note(world, capsys):
    tmp, root, a, b, victim, res = world
    tf = write(tmp / "xdg-trash-lookalike" / "files" / "b.txt", b"x", T0)
    j = signed(tmp / "j.jsonl",
               start("trash", [op(0, "trash", b + ".gone", str(root), "0" * 32)]),
               {"type": "done", "seq": 0, "trash_file": tf, "trash_info": victim,
                "restorable": True})
    before = snapshot(victim, tf)
    refused(capsys, "undo", j, "is not a .trashinfo note in a trash info/ folder")
    assert snapshot(victim, tf) == before


def test_a_trash_note_in_the_real_trash_about_another_file_is_left_alone(world, capsys):
    """Shaped like a trash entry, in the real home trash, but the note is about another
    file: the file is not restored and the note is not removed."""
    tmp, root, a, b, victim, res = world
    trash = Path(os.environ["XDG_DATA_HOME"]) / "Trash"
    tf = write(trash / "files" / "b.txt", b"someone else's trashed file", T0)
    note = trash / "info" / "b.txt.trashinfo"
    note.parent.mkdir(parents=True)
    note.write_text("[Trash Info]\nPath=/somewhere/else/b.txt\nDeletionDate=2020-01-01T00:00:00\n")
    target = str(root / "restored-here.txt")
    j = signed(tmp / "j.jsonl",
               start("trash", [op(0, "trash", target, str(root), hash_file(tf))]),
               {"type": "done", "seq": 0, "trash_file": tf, "trash_info": str(note),
                "restorable": True})
    assert main(["undo", j]) == 1
    out = capsys.readouterr().out
    assert "is not about" in out and note.exists() and os.path.exists(tf)
    assert not os.path.exists(target)


def test_resume_never_unlinks_a_source_outside_its_root(world, capsys):
    tmp, root, a, b, victim, res = world
    copy = write(tmp / "dups" / "victim.txt", Path(victim).read_bytes(), T0)
    for path, r in ((victim, str(root)),  # outside the root
                    (str(root / ".." / "outside" / "victim.txt"), str(root))):  # via ..
        j = signed(tmp / f"j-{uuid.uuid4().hex}.jsonl",
                   start("move", [op(0, "move", path, r, hash_file(victim))],
                         str(tmp / "dups")),
                   {"type": "begin", "seq": 0, "path": path, "dest": copy, "tmp": None})
        before = snapshot(victim)
        refused(capsys, "resume", j, "not a plain path inside its recorded scan root")
        refused(capsys, "undo", j)
        assert snapshot(victim) == before


def test_resume_refuses_a_forged_kept_list(world, capsys):
    tmp, root, a, b, victim, res = world
    for kept, why in (
            ([{"path": victim, "size": os.path.getsize(victim), "mtime_ns": T0,
               "content_hash": hash_file(victim)}], "is not inside a scanned root"),
            ([{"path": b, "size": 1, "mtime_ns": T0, "content_hash": "0" * 32}],
             "is itself a file the action removes"),
            ([], "has no kept copy")):
        ops = [op(0, "delete", a, str(root), hash_file(a), kept, size=os.path.getsize(a)),
               op(1, "delete", b, str(root), hash_file(b),
                  [{"path": a, "size": 1, "mtime_ns": T0, "content_hash": "0" * 32}],
                  size=os.path.getsize(b))]
        j = signed(tmp / f"j-{uuid.uuid4().hex}.jsonl", start("delete", ops))
        before = snapshot(a, b, victim)
        refused(capsys, "resume", j, why)
        assert snapshot(a, b, victim) == before


def test_a_temporary_name_that_is_not_simdups_is_never_removed(world, capsys):
    tmp, root, a, b, victim, res = world
    dest = str(tmp / "dups" / "b.txt")
    j = signed(tmp / "j.jsonl",
               start("move", [op(0, "move", b, str(root), hash_file(b))], str(tmp / "dups")),
               {"type": "begin", "seq": 0, "path": b, "dest": dest, "tmp": victim})
    before = snapshot(victim, b)
    refused(capsys, "resume", j, "is not a simdup temporary file")
    assert snapshot(victim, b) == before


def test_refusals_are_journal_refused_in_the_core(world):
    tmp, root, a, b, victim, res = world
    j = unsigned(tmp / "evil.jsonl", start("delete", []))
    with pytest.raises(JournalRefused):
        undo(j)
    with pytest.raises(JournalRefused):
        resume(j)
    with pytest.raises(JournalRefused):
        read_journal(j)


def test_a_plain_undo_passes_over_a_crafted_journal_in_the_data_folder(world):
    tmp, root, a, b, victim, res = world
    rep = execute(plan_action(res, {b}, "move", move_to=str(tmp / "dups")))
    folder = os.path.dirname(rep.journal)
    gone = str(root / "gone.txt")
    evil = unsigned(Path(folder) / "zzzz-newest.jsonl",
                    start("move", [op(0, "move", gone, str(root), "0" * 32)],
                          str(tmp / "dups")),
                    {"type": "done", "seq": 0, "dest": victim})
    os.utime(evil, (2**31, 2**31))
    back = undo()
    assert back.journal == rep.journal and os.path.exists(b)
    assert os.path.exists(victim) and not os.path.exists(gone)


def test_journals_written_by_simdup_still_undo_and_resume(world):
    tmp, root, a, b, victim, res = world
    journal = str(tmp / "elsewhere" / "j.jsonl")  # --journal outside the data folder
    rep = execute(plan_action(res, {b}, "move", move_to=str(tmp / "dups")), journal=journal)
    assert rep.count("done") == 1
    assert undo(journal).count("done") == 1 and os.path.exists(b)
    assert oct(os.stat(jmod.key_path()).st_mode & 0o777) == "0o600"
