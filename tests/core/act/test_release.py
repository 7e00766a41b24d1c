"""`simdup release`: free the space of the originals a hardlink / symlink action holds in
``held/<journal id>/``, only where their bytes are on disk elsewhere right now."""

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from simdup_gui.core.act.actions import bind_scan_identity, execute, plan_action
from simdup_gui.core.act.fileops import hash_file
from simdup_gui.core.act.journal import (JournalRefused, JournalWriter, held_dir,
                                         journal_to_undo, read_journal)
from simdup_gui.core.act.recovery import RELEASED_REASON, undo
from simdup_gui.core.act.release import (CHANGED_REASON, ReleaseRefused, journal_to_release,
                                         journals_to_release, release)
from simdup_gui.core.session import Refusal, Session

from tests.actions_helpers import T0, results_from_groups, simdup_proc, write
from tests.conftest import EN, ZH

LINKS = ("hardlink", "symlink")


@pytest.fixture
def trio(tmp_path):
    """root/a.txt (kept) and two byte-identical copies root/sub/b.txt, root/c.txt (marked),
    plus a loner pair (z kept, y marked) that is not byte-identical to anything else."""
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0 + 10**9)
    b = write(root / "sub" / "b.txt", EN.encode(), T0)
    c = write(root / "c.txt", EN.encode(), T0 + 2 * 10**9)
    for p in (a, b, c):  # not the default mode; one mode (no hard link joins two modes)
        os.chmod(p, 0o640)
    z = write(root / "z.txt", ZH.encode(), T0)
    y = write(root / "deep" / "y.txt", ZH.encode(), T0 + 10**9)
    res = results_from_groups([[a, b, c], [z, y]], str(root))
    return root, {"a": a, "b": b, "c": c, "z": z, "y": y}, res


def link_action(res, marks, kind, journal=None):
    rep = execute(bind_scan_identity(plan_action(res, set(marks), kind), res), journal=journal)
    assert [o.status for o in rep.outcomes] == ["done"] * len(marks), rep.outcomes
    return rep.journal


def held_files():
    out = []
    for dirpath, _, files in os.walk(held_dir()):
        out += [os.path.join(dirpath, f) for f in files]
    return sorted(out)


def is_link(kind, path, target):
    if kind == "symlink":
        return os.path.islink(path) and os.readlink(path) == target
    return not os.path.islink(path) and os.path.samefile(path, target)


def entries(journal):
    return [json.loads(line) for line in Path(journal).read_text().splitlines()]


@pytest.mark.parametrize("kind", LINKS)
def test_release_frees_the_held_originals_and_the_links_keep_their_bytes(trio, kind):
    root, p, res = trio
    data = {n: Path(x).read_bytes() for n, x in p.items()}
    journal = link_action(res, [p["b"], p["c"], p["y"]], kind)
    assert len(held_files()) == 3
    assert journal_to_release() == journal
    rep = release(journal)
    assert [o.status for o in rep.outcomes] == ["done"] * 3, rep.outcomes
    assert rep.exit_code == 0 and rep.freed == len(data["b"]) + len(data["c"]) + len(data["y"])
    assert "freed" in rep.summary() and rep.to_dict()["bytes_freed"] == rep.freed
    assert held_files() == [] and os.listdir(held_dir()) == []  # held/<journal id>/ pruned
    for n, target in (("b", "a"), ("c", "a"), ("y", "z")):
        assert is_link(kind, p[n], p[target]) and Path(p[n]).read_bytes() == data[n]
    assert Path(p["a"]).read_bytes() == data["a"] and Path(p["z"]).read_bytes() == data["z"]
    released = [e for e in entries(journal) if e["type"] == "released"]
    assert sorted(e["seq"] for e in released) == [0, 1, 2]
    assert journal_to_release() is None
    again = release(journal)
    assert again.outcomes == [] and again.summary() == "release: nothing to do"


@pytest.mark.parametrize("kind", LINKS)
def test_a_dry_run_says_what_would_be_freed_and_touches_nothing(trio, kind):
    root, p, res = trio
    journal = link_action(res, [p["b"], p["y"]], kind)
    before = {h: (hash_file(h), os.stat(h).st_ino) for h in held_files()}
    text = Path(journal).read_bytes()
    rep = release(journal, dry_run=True)
    assert [o.status for o in rep.outcomes] == ["planned"] * 2, rep.outcomes
    assert rep.dry_run and rep.freed == os.path.getsize(p["b"]) + os.path.getsize(p["y"])
    assert "would free" in rep.summary() and "nothing touched" in rep.summary()
    assert {h: (hash_file(h), os.stat(h).st_ino) for h in held_files()} == before
    assert Path(journal).read_bytes() == text


def test_the_default_is_the_newest_link_action_that_still_holds_originals(trio, tmp_path):
    root, p, res = trio
    first = link_action(res, [p["y"]], "symlink")
    second = link_action(res, [p["b"]], "hardlink")
    move = execute(plan_action(res, {p["c"]}, "move", move_to=str(tmp_path / "dups")))
    assert move.journal and journals_to_release() == [second, first]
    rep = release()
    assert rep.journal == second and rep.count("done") == 1
    assert journals_to_release() == [first]
    assert release().journal == first and journals_to_release() == []
    with pytest.raises(FileNotFoundError):
        release()
    assert Session.release().summary() == "release: nothing to do"


def test_a_journal_of_another_action_is_refused(trio, tmp_path):
    root, p, res = trio
    rep = execute(plan_action(res, {p["c"]}, "move", move_to=str(tmp_path / "dups")))
    with pytest.raises(ReleaseRefused, match="a move action: only a replacement by hard or "
                       "symbolic links holds originals"):
        release(rep.journal)
    with pytest.raises(Refusal):
        Session.release(rep.journal)
    assert os.path.exists(tmp_path / "dups" / "c.txt")


def cut_off(journal, keep):
    """The journal as a crash would leave it: only its first ``keep`` lines (each line is
    signed on its own, so what is left still reads as this user's)."""
    lines = Path(journal).read_text().splitlines(keepends=True)
    Path(journal).write_text("".join(lines[:keep]))


@pytest.mark.parametrize("where", ["before its end", "half-way through a file"])
def test_an_interrupted_action_is_refused_until_resumed_or_undone(trio, where):
    root, p, res = trio
    journal = link_action(res, [p["b"], p["c"]], "hardlink")
    kinds = [e["type"] for e in entries(journal)]
    cut_off(journal, kinds.index("end") if where == "before its end"
            else len(kinds) - 2)  # start, begin, done, begin | done, end
    assert read_journal(journal).interrupted
    held = {h: hash_file(h) for h in held_files()}
    for dry in (True, False):
        with pytest.raises(ReleaseRefused, match="interrupted: finish it with `simdup resume"):
            release(journal, dry_run=dry)
    assert {h: hash_file(h) for h in held_files()} == held
    from simdup_gui.core.act.recovery import resume

    resume(journal)  # settles it: now it can be released
    rep = release(journal)
    assert rep.count("done") == 2 and held_files() == []


def forge(journal, entry, mac="0" * 32):
    with open(journal, "a") as fh:
        fh.write(json.dumps(dict(entry, mac=mac)) + "\n")


@pytest.mark.parametrize("how", ["unsigned released line", "edited begin line",
                                 "released a file it never replaced",
                                 "released another held file", "released in a move journal"])
def test_a_forged_or_edited_journal_is_refused_and_nothing_is_deleted(trio, tmp_path, how):
    root, p, res = trio
    if how == "released in a move journal":
        journal = execute(plan_action(res, {p["c"]}, "move", move_to=str(tmp_path / "d"))).journal
        victim = str(tmp_path / "d" / "c.txt")  # the moved file
    else:
        journal = link_action(res, [p["b"]], "symlink")
        (victim,) = held_files()
    before = hash_file(victim)
    if how == "unsigned released line":
        forge(journal, {"type": "released", "seq": 0, "held": victim})
    elif how == "edited begin line":
        lines = Path(journal).read_text().splitlines(keepends=True)
        i = next(i for i, x in enumerate(lines) if '"begin"' in x)
        lines[i] = lines[i].replace(os.path.basename(p["a"]), "z.txt")
        Path(journal).write_text("".join(lines))
    else:
        jid = read_journal(journal).start["id"]
        entry = {"type": "released", "seq": 0, "held": victim}
        if how == "released a file it never replaced":  # rewritten: file 0 was skipped
            lines = [e for e in entries(journal) if e["type"] not in ("begin", "done")]
            Path(journal).unlink()
            with JournalWriter(journal, new=True) as w:
                for e in lines:
                    e.pop("mac", None)
                    w.write(e)
                    if e["type"] == "start":
                        w.write({"type": "skipped", "seq": 0, "reason": "test"})
                w.write(entry)
        else:
            if how == "released another held file":
                entry["held"] = os.path.join(held_dir(jid), "0", "other.txt")
            with JournalWriter(journal) as w:
                w.write(entry)
    with pytest.raises(JournalRefused, match="refusing journal"):
        release(journal)
    with pytest.raises(JournalRefused):
        release(journal, dry_run=True)
    assert hash_file(victim) == before


@pytest.mark.parametrize("kind", LINKS)
def test_a_kept_copy_edited_after_the_action_keeps_the_held_original(trio, kind):
    """Hard link: an edit in place through the path changes both names (one file), so the
    held original is the only copy of the old bytes. Symbolic link: the kept copy edited."""
    root, p, res = trio
    old = Path(p["b"]).read_bytes()
    journal = link_action(res, [p["b"]], kind)
    with open(p["b"] if kind == "hardlink" else p["a"], "r+b") as fh:
        fh.write(b"EDITED")
    assert Path(p["a"]).read_bytes().startswith(b"EDITED")
    (held,) = held_files()
    rep = release(journal)
    (o,) = rep.outcomes
    assert o.status == "skipped" and o.reason == CHANGED_REASON, o
    assert rep.exit_code == 0 and rep.freed == 0
    assert held_files() == [held] and Path(held).read_bytes() == old
    assert not [e for e in entries(journal) if e["type"] == "released"]
    u = undo(journal)  # the held original is still there: undo puts the old bytes back
    assert [x.status for x in u.outcomes] == ["done"], u.outcomes
    assert Path(p["b"]).read_bytes() == old and not os.path.islink(p["b"])
    assert Path(p["a"]).read_bytes().startswith(b"EDITED")


def test_a_kept_copy_deleted_after_a_symlink_action_keeps_the_held_original(trio):
    root, p, res = trio
    old = Path(p["b"]).read_bytes()
    journal = link_action(res, [p["b"]], "symlink")
    os.unlink(p["a"])  # the symbolic link now leads nowhere
    (o,) = release(journal).outcomes
    assert o.status == "skipped" and f"the kept copy {p['a']} is gone" in o.reason, o
    (held,) = held_files()
    assert Path(held).read_bytes() == old


@pytest.mark.parametrize("kind", LINKS)
def test_a_path_that_is_no_longer_the_link_keeps_the_held_original(trio, kind):
    root, p, res = trio
    journal = link_action(res, [p["b"]], kind)
    os.unlink(p["b"])
    Path(p["b"]).write_bytes(Path(p["a"]).read_bytes())  # same bytes, but not our link
    (o,) = release(journal).outcomes
    assert o.status == "skipped" and "no longer the" in o.reason and "simdup made" in o.reason
    assert len(held_files()) == 1


def test_a_symbolic_link_whose_kept_copy_was_replaced_by_a_link_is_kept(trio, tmp_path):
    root, p, res = trio
    journal = link_action(res, [p["b"]], "symlink")
    elsewhere = write(tmp_path / "elsewhere.txt", Path(p["a"]).read_bytes(), T0)
    os.unlink(p["a"])
    os.symlink(elsewhere, p["a"])  # same bytes, through a link simdup did not make
    (o,) = release(journal).outcomes
    assert o.status == "skipped" and "no longer a regular file" in o.reason
    assert len(held_files()) == 1


def test_a_held_original_that_cannot_be_read_is_kept(trio, monkeypatch):
    from simdup_gui.core.act import release as rmod

    root, p, res = trio
    journal = link_action(res, [p["b"]], "hardlink")
    real = rmod.hash_at

    def unreadable(a, st=None):
        if str(a).startswith(held_dir()):
            raise PermissionError(13, "Permission denied", str(a))
        return real(a, st)

    monkeypatch.setattr(rmod, "hash_at", unreadable)
    (o,) = release(journal).outcomes
    assert o.status == "skipped" and "cannot read its held original" in o.reason
    assert len(held_files()) == 1


@pytest.mark.parametrize("kind", LINKS)
def test_undo_after_a_release_says_skipped_and_loses_nothing(trio, kind):
    root, p, res = trio
    data = {n: Path(x).read_bytes() for n, x in p.items()}
    journal = link_action(res, [p["b"], p["y"]], kind)
    with open(p["z"], "r+b") as fh:
        fh.write(b"EDITED")  # the kept copy of y (for a hard link, y itself too)
    rep = release(journal)
    assert [(o.path, o.status) for o in rep.outcomes] == [(p["b"], "done"), (p["y"], "skipped")]
    assert journal_to_undo() == journal
    u = undo()
    by_path = {o.path: o for o in u.outcomes}
    assert u.exit_code == 0 and not u.failed, u.outcomes
    assert by_path[p["b"]].status == "skipped" and by_path[p["b"]].reason == RELEASED_REASON
    assert is_link(kind, p["b"], p["a"]) and Path(p["b"]).read_bytes() == data["b"]
    assert by_path[p["y"]].status == "done"
    assert Path(p["y"]).read_bytes() == data["y"] and not os.path.islink(p["y"])
    assert Path(p["z"]).read_bytes().startswith(b"EDITED")
    assert held_files() == []
    assert journal_to_undo() is None  # an undo has said so: plain undo walks past it


def test_undo_of_a_fully_released_journal_skips_each_file(trio):
    root, p, res = trio
    data = Path(p["b"]).read_bytes()
    journal = link_action(res, [p["b"], p["c"]], "symlink")
    release(journal)
    u = undo(journal)
    assert [(o.status, o.reason) for o in u.outcomes] == [("skipped", RELEASED_REASON)] * 2
    assert u.exit_code == 0 and u.summary() == "undo: 2 skipped"
    assert is_link("symlink", p["b"], p["a"]) and Path(p["b"]).read_bytes() == data


def test_a_release_cut_off_after_its_journal_entry_finishes_next_time(trio):
    """Killed between journaling "released" and the unlink: the next release checks
    again and deletes it; an undo before that still puts it back."""
    root, p, res = trio
    journal = link_action(res, [p["b"]], "hardlink")
    (held,) = held_files()
    with JournalWriter(journal) as w:
        w.write({"type": "released", "seq": 0, "held": held, "hash": hash_file(held),
                 "size": 1, "time": 1.0})
    rep = release(journal)
    assert [o.status for o in rep.outcomes] == ["done"] and held_files() == []


def test_an_undo_cut_off_half_way_keeps_the_held_original(trio):
    root, p, res = trio
    journal = link_action(res, [p["b"]], "hardlink")
    with JournalWriter(journal) as w:
        w.write({"type": "undo-begin", "seq": 0, "tmp": os.path.join(
            os.path.dirname(p["b"]), ".simdup-tmp-x"), "hash": hash_file(p["b"])})
    (o,) = release(journal).outcomes
    assert o.status == "skipped" and "an undo of it was cut off" in o.reason
    assert len(held_files()) == 1


# ---- two processes at once --------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_a_release_and_an_undo_of_the_same_journal_never_both_act(tmp_path):
    """Run `simdup release` and `simdup undo` of one journal in two processes at once, many
    times: each file is released or put back, never both, never half of each, and its
    bytes are always at its path."""
    big = (EN * 3000).encode()  # ~4 MB a file: the hashing widens the race window
    for round_ in range(6):
        root = tmp_path / f"r{round_}"
        a = write(root / "a.txt", big, T0 + 10**9)
        marked = [write(root / f"m{i}.txt", big, T0) for i in range(3)]
        res = results_from_groups([[a, *marked]], str(root))
        journal = link_action(res, marked, "hardlink" if round_ % 2 else "symlink",
                              journal=str(tmp_path / f"j{round_}.jsonl"))
        procs = [simdup_proc("release", journal, "--yes"), simdup_proc("undo", journal)]
        if round_ % 3 == 1:
            procs.reverse()
        outs = [(pr.communicate(timeout=120), pr.returncode) for pr in procs]
        for (_out, err), code in outs:
            assert "Traceback" not in err, err
            assert code == 0 or (code == 2 and "another simdup action is running" in err), err
        st = read_journal(journal)
        kinds = [e["type"] for e in entries(journal)]
        assert "undo-failed" not in kinds and "release-failed" not in kinds, kinds
        for seq in range(3):
            assert (seq in st.released) + (seq in st.undone) <= 1, (seq, kinds)
        for m in marked:
            assert Path(m).read_bytes() == big
        assert Path(a).read_bytes() == big
        # what was neither released nor put back (the other one refused) is still held
        left = [s for s in range(3) if s not in st.released and s not in st.undone]
        assert len(held_files()) == len(left), (kinds, held_files())
        for s in left:
            assert stat.S_ISREG(os.lstat(st.begun[s]["held"]).st_mode)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_two_releases_of_the_same_journal_at_once_release_each_file_once(tmp_path):
    big = (EN * 3000).encode()
    for round_ in range(3):
        root = tmp_path / f"r{round_}"
        a = write(root / "a.txt", big, T0 + 10**9)
        marked = [write(root / f"m{i}.txt", big, T0) for i in range(3)]
        res = results_from_groups([[a, *marked]], str(root))
        journal = link_action(res, marked, "symlink" if round_ % 2 else "hardlink",
                              journal=str(tmp_path / f"j{round_}.jsonl"))
        procs = [simdup_proc("release", journal, "--yes") for _ in range(2)]
        for pr in procs:
            _, err = pr.communicate(timeout=120)
            assert "Traceback" not in err, err
            assert pr.returncode == 0 or (pr.returncode == 2
                                          and "another simdup action is running" in err), err
        released = [e["seq"] for e in entries(journal) if e["type"] == "released"]
        assert sorted(released) == [0, 1, 2]  # each once: the second found nothing to do
        assert held_files() == [] and all(Path(m).read_bytes() == big for m in marked)


def test_a_release_killed_before_its_prune_leaves_no_empty_folder_after_the_next(trio):
    """A release cut off between deleting a held original and pruning its folder leaves
    held/<journal id>/<seq>/ empty; the next release of that journal removes it (and only
    empty folders: a dry run touches nothing)."""
    root, p, res = trio
    journal = link_action(res, [p["b"], p["c"]], "hardlink")
    rep = release(journal)
    assert [o.status for o in rep.outcomes] == ["done"] * 2
    held = [e["held"] for e in entries(journal) if e["type"] == "released"]
    os.makedirs(os.path.dirname(held[0]))  # as the kill left it: released, folder still there
    assert os.listdir(held_dir()) != []
    dry = release(journal, dry_run=True)
    assert dry.outcomes == [] and os.path.isdir(os.path.dirname(held[0]))
    again = release(journal)
    assert again.outcomes == [] and os.listdir(held_dir()) == []
