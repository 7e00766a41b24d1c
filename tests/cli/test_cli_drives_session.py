"""The CLI drives the same Qt-free Session as the app: `scan` and `apply` go through it,
and `apply` acts on the groups of the file it is given (what the user reviewed), never on
a regrouping of them."""

import ast
import json
from pathlib import Path

from simdup_gui.cli import main
from simdup_gui.core.group import ignore as ignore_list
from simdup_gui.core.session import Session

from tests.actions_helpers import make_corpus, tree_state

CLI = Path(__file__).resolve().parents[2] / "simdup_gui" / "cli"
# The engine steps a session runs; a command that imports one of them runs the flow itself.
STEPS = {"scan", "group_records", "build_groups", "plan_action", "bind_scan_identity",
         "execute", "undo", "resume", "mark_all_but_one", "load_results", "save_results"}


def imported_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith("simdup_gui.core") for a in node.names}


def test_scan_and_apply_run_no_engine_step_themselves():
    for name in ("scan_cmd.py", "apply_cmd.py"):
        names = imported_names(CLI / name)
        assert "Session" in names, name
        assert not names & STEPS, (name, names & STEPS)


def scan_json(tmp_path) -> tuple[dict, str]:
    paths = make_corpus(tmp_path / "src")
    out = tmp_path / "results.json"
    assert main(["scan", str(tmp_path / "src"), "--format", "json", "-o", str(out),
                 "--no-cache", "--workers", "1"]) == 0
    return paths, str(out)


def test_apply_acts_on_the_files_groups_not_on_a_regrouping(tmp_path, capsys):
    paths, results = scan_json(tmp_path)
    doc = json.loads(Path(results).read_text(encoding="utf-8"))
    # At distance 0 without verification only the two zh copies (same text) would group;
    # the file's groups hold the en near-duplicates too, and those are what apply acts on.
    doc["settings"].update(distance=0, verify="none")
    Path(results).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    regrouped = Session()
    regrouped.load(results)
    regrouped.regroup()
    assert [len(g.members) for g in regrouped.groups] == [2]
    capsys.readouterr()
    before = tree_state(tmp_path / "src")
    assert main(["apply", results, "--keep", "oldest", "--delete", "--dry-run"]) == 0
    out = capsys.readouterr().out
    planned = [x for x in out.splitlines() if x.startswith("planned")]
    assert len(planned) == 3
    assert any(paths["en_b"] in x for x in planned) and any(paths["en_c"] in x for x in planned)
    assert tree_state(tmp_path / "src") == before


def test_a_loaded_session_keeps_the_files_groups_roots_and_plan(tmp_path):
    _, results = scan_json(tmp_path)
    doc = json.loads(Path(results).read_text(encoding="utf-8"))
    s = Session()
    s.load(results, keep_groups=True)
    assert [[f["path"] for f in g["files"]] for g in doc["groups"]] == \
        [[s.records[m.index].path for m in g.members] for g in s.groups]
    assert s.scanned_roots() == doc["settings"]["roots"]
    assert s.index_plan == doc["settings"]["index"] != ""
    # saved again, the file says the same of roots, settings and groups
    s.save(str(tmp_path / "again.json"))
    again = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    assert again["settings"]["roots"] == doc["settings"]["roots"]
    assert again["settings"]["index"] == doc["settings"]["index"]
    assert again["groups"] == doc["groups"]


def test_scan_reads_the_ignore_list_and_never_writes_it(tmp_path, capsys):
    paths = make_corpus(tmp_path / "src")
    path = Path(ignore_list.default_path())
    path.parent.mkdir(parents=True, exist_ok=True)
    lst = ignore_list.IgnoreList()
    lst.add_files([paths["en_c"]])
    ignore_list.save(lst, str(path))
    saved = path.read_bytes()
    assert main(["scan", str(tmp_path / "src"), "--format", "json", "--no-cache",
                 "--workers", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    shown = {f["path"] for g in doc["groups"] for f in g["files"]}
    assert paths["en_a"] in shown and paths["en_c"] not in shown
    assert path.read_bytes() == saved
    path.write_text("{not json", encoding="utf-8")
    assert main(["scan", str(tmp_path / "src"), "--format", "json", "--no-cache",
                 "--workers", "1"]) == 0
    cap = capsys.readouterr()
    assert "it is not applied" in cap.err and "Traceback" not in cap.err
    assert paths["en_c"] in {f["path"] for g in json.loads(cap.out)["groups"]
                             for f in g["files"]}
    assert path.read_text(encoding="utf-8") == "{not json"  # a broken list is left alone


def test_saved_marks_all_under_a_reference_folder_mean_nothing_to_do(tmp_path, capsys):
    """Marks were saved, all under --reference: nothing to do, not "no marks saved"."""
    paths, results = scan_json(tmp_path)
    doc = json.loads(Path(results).read_text(encoding="utf-8"))
    for g in doc["groups"]:
        for f in g["files"]:
            f["marked"] = f["path"] == paths["en_b"]
    Path(results).write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    rc = main(["apply", results, "--delete", "--dry-run",
               "--reference", str(tmp_path / "src" / "bb")])
    cap = capsys.readouterr()
    assert "no marks saved" not in cap.err
    assert rc == 0 and "nothing to do" in cap.out


def test_an_undo_that_could_not_run_is_an_error_not_nothing_to_do(tmp_path, capsys):
    """The action lock cannot be opened (ENOENT): the files stay moved, and the user is
    told so with exit 2, never "nothing to do"."""
    from simdup_gui.core.act.lock import lock_path

    _, results = scan_json(tmp_path)
    journal = tmp_path / "j.jsonl"
    assert main(["apply", results, "--keep", "oldest", "--move-to", str(tmp_path / "dups"),
                 "--yes", "--journal", str(journal)]) == 0
    moved = tree_state(tmp_path / "src")
    lock = Path(lock_path())
    lock.parent.mkdir(parents=True, exist_ok=True)
    if lock.is_symlink() or lock.exists():
        lock.unlink()
    lock.symlink_to(tmp_path / "no-such-dir" / "lock")
    capsys.readouterr()
    rc = main(["undo", str(journal)])
    cap = capsys.readouterr()
    assert tree_state(tmp_path / "src") == moved
    assert "nothing to do" not in cap.out and rc == 2 and "Traceback" not in cap.err


def test_scan_of_an_empty_folder_still_says_how_it_grouped(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["scan", str(tmp_path / "empty"), "--format", "json", "--no-cache"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["groups"] == [] and "0 fingerprints" in doc["settings"]["index"]


def test_a_refused_journal_key_is_a_clear_error_not_a_traceback(tmp_path, capsys,
                                                                monkeypatch):
    from simdup_gui.core.act import actions
    from simdup_gui.core.act.journal import JournalRefused

    _, results = scan_json(tmp_path)

    def refuse(*a, **k):
        raise JournalRefused("refusing journal key: owned by another user")

    monkeypatch.setattr(actions, "JournalWriter", refuse)
    before = tree_state(tmp_path / "src")
    capsys.readouterr()
    rc = main(["apply", results, "--keep", "oldest", "--delete", "--yes"])
    cap = capsys.readouterr()
    assert rc == 2 and "owned by another user" in cap.err and "Traceback" not in cap.err
    assert tree_state(tmp_path / "src") == before
