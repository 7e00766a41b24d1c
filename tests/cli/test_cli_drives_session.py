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
