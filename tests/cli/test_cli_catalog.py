"""`simdup catalog save|info`, `simdup scan --against` and `simdup apply --keep catalog`
(issue 41, part 2)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from simdup_gui.cli import main
from tests.actions_helpers import T0, write
from tests.conftest import EN, ZH


def drive_and_here(tmp_path: Path) -> tuple[str, dict[str, str]]:
    drive = tmp_path / "drive"
    write(drive / "report.txt", EN.encode(), T0)
    write(drive / "zh.txt", ZH.encode("gbk"), T0)
    catalog = str(tmp_path / "backup.simcat")
    assert main(["catalog", "save", str(drive), "-o", catalog, "--no-cache",
                 "--workers", "1"]) == 0
    shutil.rmtree(drive)  # unplugged
    h = tmp_path / "here"
    p = {"renamed": write(h / "renamed.md", EN.replace("folder by folder", "folder after "
                                                       "folder").encode(), T0),
         "zh": write(h / "zh copy.txt", ZH.encode("gbk"), T0)}
    return catalog, p


def test_save_info_scan_against_and_apply(tmp_path, capsys):
    catalog, p = drive_and_here(tmp_path)
    assert "catalogued 2 files" in capsys.readouterr().out
    assert main(["catalog", "info", catalog]) == 0
    out = capsys.readouterr().out
    assert "catalog 'backup' of 2 files" in out and "features shingles" in out
    scan = ["scan", str(tmp_path / "here"), "--against", catalog, "--no-cache", "--workers",
            "1", "--no-ignore-list"]
    assert main([*scan, "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path / 'drive' / 'report.txt'}  (in catalog backup, not connected; " \
           "similarity estimated)" in out
    results = str(tmp_path / "r.json")
    assert main([*scan, "-o", results]) == 0
    files = [f for g in json.loads(Path(results).read_text())["groups"] for f in g["files"]]
    away = [f for f in files if f.get("catalog")]
    assert len(away) == 2 and all(f["catalog"] == "backup" and not f["similarity_measured"]
                                  for f in away)
    assert {f["catalog_path"] for f in away} == {str(tmp_path / "drive" / n)
                                                 for n in ("report.txt", "zh.txt")}
    capsys.readouterr()
    # one file here per group: the catalog rule marks nothing without --last-copies
    dry = ["apply", results, "--keep", "catalog", "--trash", "--dry-run", "--format", "json"]
    assert main(dry) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert main([*dry, "--last-copies"]) == 0
    planned = json.loads(capsys.readouterr().out)["files"]
    assert [f["path"] for f in planned] == [p["zh"]]  # the edited report is not on the drive
    # saved marks on the last copy, without --last-copies: refused, saying why
    doc = json.loads(Path(results).read_text())
    for f in (f for g in doc["groups"] for f in g["files"]):
        f["marked"] = f["path"] == p["zh"] or bool(f.get("catalog"))
    Path(results).write_text(json.dumps(doc))
    assert main(["apply", results, "--delete", "--yes"]) == 2
    err = capsys.readouterr().err
    assert "only the catalog backup says" in err and "--last-copies" in err
    assert os.path.exists(p["zh"])
    assert main(["apply", results, "--hardlink", "--yes", "--last-copies"]) == 2  # no target
    assert "a link needs one here" in capsys.readouterr().err and os.path.exists(p["zh"])
    assert main(["apply", results, "--delete", "--yes", "--last-copies"]) == 2
    assert "never be deleted permanently" in capsys.readouterr().err  # never for good
    assert os.path.exists(p["zh"])
    assert main(["apply", results, "--move-to", str(tmp_path / "gone"), "--yes",
                 "--last-copies", "--journal", str(tmp_path / "j.json")]) == 0
    out = capsys.readouterr()
    assert not os.path.exists(p["zh"]) and "done     move" in out.out
    assert "word of the catalog backup" in out.err
    assert os.path.exists(p["renamed"])  # the catalogued file's mark was dropped on load


def test_a_bad_catalog_is_an_error_line(tmp_path, capsys):
    bad = tmp_path / "bad.simcat"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)
    (tmp_path / "here").mkdir()
    assert main(["scan", str(tmp_path / "here"), "--against", str(bad), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("simdup scan: error: ") and err.count("\n") == 1
    assert "Traceback" not in err
    assert main(["catalog", "info", str(tmp_path / "missing.simcat")]) == 2
    assert "cannot read the catalog" in capsys.readouterr().err
