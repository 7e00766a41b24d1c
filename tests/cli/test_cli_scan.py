import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simdup_gui.cli import main

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_demo_scan_json_groups_the_demo_near_duplicates(capsys):
    code, out, _ = run(capsys, "scan", str(DEMO), "--format", "json", "--no-cache")
    assert code == 0
    d = json.loads(out)
    assert d["version"] == 1
    assert d["settings"]["bits"] == 64
    assert set(d["stats"]) >= {"files", "bytes", "seconds"}
    groups = {frozenset(os.path.basename(f["path"]) for f in g["files"]) for g in d["groups"]}
    assert frozenset({"笔记_整理文件.txt", "笔记_整理文件_GBK副本.txt", "笔记_整理文件_改过错字.txt",
                      "转载_整理文件.txt"}) in groups
    assert frozenset({"report_copies.txt", "report_copies (1).txt", "report_copies_edited.md",
                      "report_copies_download.txt"}) in groups
    f = d["groups"][0]["files"][0]
    assert os.path.isabs(f["path"])
    assert len(f["fingerprint"]) == 16  # 64 bits = 16 hex digits
    assert set(f) >= {"path", "size", "mtime", "encoding", "fingerprint", "distance"}
    probs = {os.path.basename(p["path"]): p["reason"] for p in d["problems"]}
    assert "empty" in probs["empty.txt"] and "binary" in probs["image.bin"]


def test_fingerprint_hex_width_follows_bits(capsys):
    code, out, _ = run(capsys, "scan", str(DEMO), "--format", "json", "--bits", "128",
                       "--no-cache")
    assert code == 0
    assert all(len(f["fingerprint"]) == 32 for g in json.loads(out)["groups"] for f in g["files"])


def test_bad_bits_exit_2_naming_the_allowed_values(capsys):
    with pytest.raises(SystemExit) as e:
        main(["scan", str(DEMO), "--bits", "48"])
    assert e.value.code == 2
    assert "16, 32, 64, 128" in capsys.readouterr().err


def test_missing_root_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "scan", str(tmp_path / "nope"))
    assert code == 2 and "no such file" in err


def test_unreadable_files_exit_0_and_are_listed(capsys, tmp_path, monkeypatch):
    from simdup_gui.core.scan import fingerprint as fp_module

    (tmp_path / "a.txt").write_text("hello there " * 50)
    real_open = os.open
    monkeypatch.setattr(fp_module.os, "open", lambda p, *a, **k: (_ for _ in ()).throw(
        PermissionError(13, "Permission denied")) if str(p).endswith("a.txt") else real_open(
        p, *a, **k))
    code, out, _ = run(capsys, "scan", str(tmp_path), "--format", "json", "--no-cache")
    assert code == 0
    assert json.loads(out)["problems"][0]["path"].endswith("a.txt")


def test_csv_and_text_output_to_file(capsys, tmp_path):
    out = tmp_path / "r.csv"
    code, _, _ = run(capsys, "scan", str(DEMO), "--format", "csv", "-o", str(out), "--no-cache")
    assert code == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("group,path,size")
    assert len(lines) > 5
    code, text, _ = run(capsys, "scan", str(DEMO), "--no-cache")
    assert "Group 1" in text and "problem:" in text


def test_console_script_runs_as_a_module():
    r = subprocess.run([sys.executable, "-m", "simdup_gui.cli", "scan", "--help"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "--bits" in r.stdout


def test_cache_info_and_clear(capsys, tmp_path):
    cache = str(tmp_path / "c.sqlite")
    assert main(["scan", str(DEMO), "--cache", cache, "--format", "json"]) == 0
    capsys.readouterr()
    assert main(["cache", "info", "--cache", cache]) == 0
    n = int(capsys.readouterr().out.split(": ")[1].split()[0])
    assert n >= 12  # every demo text file (and the remembered binary one)
    assert main(["cache", "clear", "--cache", cache]) == 0
    assert f"cleared {n} " in capsys.readouterr().out
    assert main(["cache", "info", "--cache", cache]) == 0
    assert " 0 cached" in capsys.readouterr().out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_small_scan_leaves_no_fork_server_behind(tmp_path):
    """A scan small enough to run in the command's own process starts no fork server: none
    is left warming up (on a fresh install, compiling for many seconds) after the command
    returned."""
    import uuid

    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.txt").write_text("一段很短的中文文本。" * 20, encoding="utf-8")
    mark = uuid.uuid4().hex
    # an empty numba cache: the fork server compiles for seconds, as on a fresh install
    env = {**os.environ, "SIMDUP_TEST_MARK": mark, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    env.pop("SIMDUP_COMPILED", None)  # the scan's own process cuts with rjieba, as by default
    subprocess.run([sys.executable, "-m", "simdup_gui.cli", "scan", str(tmp_path / "d"), "--no-cache",
                    "--workers", "2", "--format", "json"], check=True, env=env,
                   capture_output=True, timeout=300)
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                if f"SIMDUP_TEST_MARK={mark}".encode() in fh.read():
                    left.append(pid)
        except OSError:
            pass
    assert left == []


def test_each_command_is_registered_by_the_module_it_is_mapped_to():
    """The command -> module map (only the module of the command asked for is imported)
    names every command the modules register, and each module registers its commands."""
    from simdup_gui import cli

    full = cli.build_parser()
    sub = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == set(cli.COMMANDS)
    for name in cli.COMMANDS:
        one = cli.build_parser(name)
        sub = next(a for a in one._actions if isinstance(a, argparse._SubParsersAction))
        assert name in sub.choices


def test_a_scan_imports_no_other_commands_engine():
    code = ("import sys\n"
            "from simdup_gui import cli\n"
            "cli.build_parser('scan').parse_args(['scan', '.'])\n"
            "print(sorted(m for m in sys.modules if m.startswith(('simdup_gui.core.lab', "
            "'simdup_gui.cli.'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    loaded = eval(out.stdout.strip())  # noqa: S307 - our own child's printed list
    assert "simdup_gui.cli.scan_cmd" in loaded
    # (the session, which a scan uses, holds the actions: simdup_gui.core.act comes anyway)
    assert not [m for m in loaded if m.startswith(("simdup_gui.core.lab", "simdup_gui.cli.apply",
                                                   "simdup_gui.cli.eval", "simdup_gui.cli.synth",
                                                   "simdup_gui.cli.release",
                                                   "simdup_gui.cli.cache"))]


def test_a_caller_that_goes_on_gets_its_process_back(capsys, tmp_path, monkeypatch):
    """main(argv) in a process that goes on (tests, a script): twice in a row, each scan on
    the pool; nothing was frozen out of the collector's reach (the command line
    does that only when its process is about to exit, main() without arguments)."""
    import gc

    from simdup_gui.core.scan import pipeline

    monkeypatch.setattr(pipeline, "IN_PROCESS_BELOW", 0)  # the demo: on the pool too,
    monkeypatch.setattr(pipeline, "CHUNK_FILES", 1)  # in chunks enough for two workers
    frozen = gc.get_freeze_count()
    outs = []
    for _ in range(2):
        code, out, _ = run(capsys, "scan", str(DEMO), "--no-cache", "--format", "json",
                           "--workers", "2")
        assert code == 0
        outs.append(json.loads(out))
    assert outs[0]["groups"] and outs[0]["groups"] == outs[1]["groups"]
    assert outs[0]["stats"]["workers"] == 2
    # a freeze would move every object alive into the permanent generation; objects frozen
    # before (other tests) may have been freed since, which only lowers the count
    assert gc.get_freeze_count() <= frozen


def test_the_output_format_follows_the_files_extension(tmp_path, capsys):
    """`simdup scan ROOT -o results.json` writes JSON, which `apply` reads; `.csv` CSV;
    another extension text; --format still decides when given."""
    import json

    from tests.conftest import EN

    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.txt").write_text(EN, encoding="utf-8")
    (tmp_path / "d" / "b.txt").write_text(EN, encoding="utf-8")
    base = ["scan", str(tmp_path / "d"), "--no-cache", "--workers", "1"]
    for name, fmt in (("r.json", None), ("r.csv", None), ("r.txt", None), ("r2.json", "text")):
        assert main(base + ["-o", str(tmp_path / name)] + (["--format", fmt] if fmt else [])) == 0
    assert len(json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["groups"]) == 1
    assert (tmp_path / "r.csv").read_text(encoding="utf-8").startswith("group")
    for name in ("r.txt", "r2.json"):
        with pytest.raises(ValueError):
            json.loads((tmp_path / name).read_text(encoding="utf-8"))
    assert main(["apply", str(tmp_path / "r.json"), "--keep", "oldest", "--delete",
                 "--dry-run"]) == 0


def test_a_file_dated_before_1970_keeps_the_results_loadable(tmp_path, capsys):
    from tests.conftest import EN

    (tmp_path / "d").mkdir()
    for name in ("a.txt", "b.txt"):
        (tmp_path / "d" / name).write_text(EN, encoding="utf-8")
    os.utime(tmp_path / "d" / "a.txt", ns=(-86_400 * 10**9, -86_400 * 10**9))  # 1969-12-31
    out = tmp_path / "r.json"
    assert main(["scan", str(tmp_path / "d"), "--no-cache", "--workers", "1", "-o",
                 str(out)]) == 0
    capsys.readouterr()
    assert main(["apply", str(out), "--keep", "newest", "--delete", "--dry-run"]) == 0
    assert "planned  delete" in capsys.readouterr().out


def test_escape_sequences_in_names_never_reach_the_terminal():
    from simdup_gui.cli.common import shown

    name = "/d/\x1b]0;pwned\x07\x1b[2Jnotes\x9b.txt"
    assert "\x1b" not in shown(name) and "\x07" not in shown(name)
    assert "\x9b" not in shown(name)
    assert shown(name) == "/d/\\x1b]0;pwned\\x07\\x1b[2Jnotes\\x9b.txt"
    assert shown("笔记 notes.txt") == "笔记 notes.txt"


@pytest.mark.parametrize("argv", [["scan", "d", "--workers", "0"],
                                  ["scan", "d", "--workers=-3"],
                                  ["eval", "d", "--workers", "0"],
                                  ["synth", "--generate", "0", "out"]])
def test_counts_below_one_are_refused_with_one_line(argv, capsys):
    """Issue 38, item 13: --workers 0 and -3 were accepted; synth --generate 0 fell through
    to a message about sources."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "give a whole number of at least 1" in capsys.readouterr().err


def test_a_move_into_a_scanned_folder_is_said(tmp_path, capsys):
    from tests.conftest import EN

    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text(EN, encoding="utf-8")
    (src / "b.txt").write_text(EN, encoding="utf-8")
    out = tmp_path / "r.json"
    assert main(["scan", str(src), "--no-cache", "--workers", "1", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["apply", str(out), "--keep", "oldest", "--move-to", str(src / "dups"),
                 "--dry-run"]) == 0
    assert "will be found again by its next scan" in capsys.readouterr().err


def test_scan_names_a_near_duplicate_in_another_group_in_text_and_json(capsys, tmp_path):
    """Issue 37, part 2: versions v1 ~ ... ~ v5 in two groups; v3 (group 1) and v4
    (group 2) are near-duplicates: each is named beside the other, "also similar to"."""
    from tests.core.group.test_also_similar import chain

    files = chain(tmp_path / "c")
    code, out, _ = run(capsys, "scan", str(tmp_path), "--no-cache", "--workers", "1")
    assert code == 0
    said = [line.strip() for line in out.splitlines() if "also similar to" in line]
    assert said and all(line.startswith("also similar to /") and " in group " in line
                        and line.endswith("%)") for line in said)
    code, out, _ = run(capsys, "scan", str(tmp_path), "--no-cache", "--workers", "1",
                       "--format", "json")
    d = json.loads(out)
    ids = {f["path"]: g["id"] for g in d["groups"] for f in g["files"]}
    notes = [(g["id"], n) for g in d["groups"] for n in g.get("also_similar", [])]
    assert notes
    for gid, n in notes:
        assert ids[n["file"]] == gid and ids[n["other"]] == n["other_group"] != gid
        assert n["file"] in files and 0.7 <= n["similarity"] <= 1
