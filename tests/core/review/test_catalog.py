"""Catalogs (issue 41, part 2): a drive's files kept as their fingerprints and sketches,
compared with while the drive is not plugged in; never read, marked or acted on."""

from __future__ import annotations

import builtins
import dataclasses
import json
import os
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from simdup_gui.core.act.actions import ActionRefused, CatalogCopiesRefused, plan_action
from simdup_gui.core.act.marking import KeepRule
from simdup_gui.core.group.candidates import find_candidates
from simdup_gui.core.group.classes import fingerprint_words
from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.group.exact import Measurer, read_shingles
from simdup_gui.core.models import catalog_key, split_catalog_key
from simdup_gui.core.review import catalog as cat
from simdup_gui.core.review.results import ResultsError, dumps_json, load_json
from simdup_gui.core.session import ReviewSettings, Session
from tests.actions_helpers import T0, write
from tests.conftest import EN, OTHER, ZH


def settings(**kw) -> ReviewSettings:
    return ReviewSettings(use_cache=False, workers=1, **kw)


def make_drive(root: Path) -> dict[str, str]:
    """The drive: a report, a Chinese note, an unrelated story with a copy and an edited
    copy there (none of them here), and two versions of a short note."""
    return {"report": write(root / "docs" / "report.txt", EN.encode(), T0),
            "zh": write(root / "zh.txt", ZH.encode("utf-8"), T0),
            "other": write(root / "story.txt", OTHER.encode(), T0),
            "other2": write(root / "old" / "story.txt", OTHER.encode(), T0),
            "other3": write(root / "story v2.txt", OTHER.replace("twice", "three times", 1)
                            .encode(), T0),
            "short1": write(root / "setup.cfg", b"[metadata]\nname = demo\nversion = 1.0\n", T0),
            "short2": write(root / "setup2.cfg", b"[metadata]\nname = demo\nversion = 1.1\n",
                            T0)}


def catalogue(tmp_path: Path, name: str = "backup") -> tuple[str, dict[str, str]]:
    """A catalog of a drive that is then unplugged (its folder gone)."""
    drive = tmp_path / "drive"
    p = make_drive(drive)
    s = Session([str(drive)], settings())
    s.scan()
    out = str(tmp_path / f"{name}.simcat")
    assert s.save_catalog(out) == 7
    shutil.rmtree(drive)
    return out, p


def here(tmp_path: Path) -> dict[str, str]:
    """The files on this computer: the report renamed and edited, two copies of the note
    byte for byte (one renamed), something unrelated."""
    root = tmp_path / "here"
    edited = EN.replace("folder by folder", "one folder after another", 1)
    return {"renamed": write(root / "old" / "q3-final.md", edited.encode(), T0 + 10**9),
            "zh1": write(root / "notes.txt", ZH.encode("utf-8"), T0 + 10**9),
            "zh2": write(root / "keep" / "notes copy.txt", ZH.encode("utf-8"), T0 + 2 * 10**9),
            "lone": write(root / "lone.txt", b"nothing like anything else here at all",
                          T0)}


def compared(tmp_path: Path) -> tuple[Session, dict[str, str], dict[str, str]]:
    path, drive = catalogue(tmp_path)
    p = here(tmp_path)
    s = Session([str(tmp_path / "here")], settings())
    s.compare_with_catalog(path)
    s.scan()
    return s, p, drive


def group_of(s: Session, path: str):
    return next(g for g in s.groups if any(s.records[i].path == path for i in g.indices()))


# ---------------------------------------------------------------------------- the format
def test_a_catalog_round_trips_every_field_but_no_text(tmp_path):
    drive = tmp_path / "drive"
    make_drive(drive)
    s = Session([str(drive)], settings())
    s.scan()
    path = str(tmp_path / "my drive.simcat")
    s.save_catalog(path)
    raw = Path(path).read_bytes()
    assert raw.startswith(b"SQLite format 3\x00")
    assert b"lighthouse keeper" not in raw and "照片".encode() not in raw  # no text kept
    c = cat.read_catalog(path)
    assert c.info.name == "my drive" and c.info.roots == (str(drive),)
    assert c.info.files == 7 and c.info.settings == cat.fingerprint_settings("shingles")
    by = {cat.original_path(r): r for r in c.records}
    assert set(by) == {r.path for r in s.records}
    for r in s.records:
        got = by[r.path]
        assert got.catalog == "my drive" and split_catalog_key(got.path) == ("my drive", r.path)
        same = {f.name for f in dataclasses.fields(r)} - {"path", "root", "inode", "dev",
                                                          "catalog"}
        assert {k: getattr(got, k) for k in same} == {k: getattr(r, k) for k in same}
    with sqlite3.connect(path) as db:  # the documented tables and meta entries
        meta = dict(db.execute("SELECT key, value FROM meta"))
        assert meta["format"] == "simdup-catalog" and meta["format_version"] == "1"
        assert json.loads(meta["roots"]) == [str(drive)] and meta["files"] == "7"
        assert db.execute("SELECT count(*) FROM files").fetchone() == (7,)


def test_records_a_results_file_allows_are_catalogued_readably(tmp_path):
    """A results file may hold values a scan never makes (no encoding, another newline
    word, a short hash): the catalog says "unknown", and reads back."""
    from simdup_gui.core.models import FileRecord

    odd = FileRecord(path=str(tmp_path / "a.txt"), size=3, mtime_ns=-5, inode=1, dev=1,
                     root=str(tmp_path), encoding="", fingerprint=(1 << 127) | 5, features=2,
                     text_hash="ab", content_hash="", newline="weird", sketch=b"")
    out = str(tmp_path / "odd.simcat")
    assert cat.write_catalog(out, [odd], [str(tmp_path)], "shingles") == 1
    (r,) = cat.read_catalog(out).records
    assert (r.encoding, r.newline, r.text_hash, r.content_hash) == ("unknown", "none", "", "")
    assert r.fingerprint == odd.fingerprint and r.mtime_ns == -5


def test_catalog_names_never_hold_the_key_separator():
    assert cat.catalog_name("/x/backup.simcat") == "backup"
    assert cat.catalog_name("/x/a:b\x1b.simcat") == "a_b_"
    assert cat.catalog_name("/y/backup.simcat", ["backup"]) == "backup (2)"
    assert split_catalog_key(catalog_key("n", "/a:b/c")) == ("n", "/a:b/c")
    assert split_catalog_key("/home/a.txt") is None


# ---------------------------------------------------------------------------- comparing
def test_a_renamed_and_edited_copy_on_the_unplugged_drive_is_found(tmp_path):
    s, p, drive = compared(tmp_path)
    g = group_of(s, p["renamed"])
    members = {s.records[m.index].path: m for m in g.members}
    away = catalog_key("backup", drive["report"])
    assert set(members) == {p["renamed"], away}
    assert s.records[g.representative].path == p["renamed"]  # a file here is the reference
    m = members[away]
    assert 0.7 <= m.similarity < 1 and not m.measured  # estimated: its text is not here
    zh = group_of(s, p["zh1"])
    assert {s.records[i].path for i in zh.indices()} == {p["zh1"], p["zh2"],
                                                          catalog_key("backup", drive["zh"])}
    assert all(not s.records[i].catalog or not m.measured
               for m in zh.members for i in [m.index])
    # the drive's own copies have none here: no group of catalogued files alone, and no
    # candidate pair of two catalogued texts (a catalog is not compared with itself)
    assert all(any(not s.records[i].catalog for i in g.indices()) for g in s.groups)
    assert len(s.groups) == 2
    found = find_candidates(s.records, 64, 16, fingerprint_words(s.records))
    away = np.array([all(s.records[i].catalog for i in m) for m in found.members])
    assert len(found.pairs) and not (away[found.pairs[:, 0]] & away[found.pairs[:, 1]]).any()
    with pytest.raises(cat.CatalogError, match="compared with already"):
        s.compare_with_catalog(str(tmp_path / "backup.simcat"))
    alone = Session([str(tmp_path / "nothing")], settings())
    alone.compare_with_catalog(str(tmp_path / "backup.simcat"))
    alone.regroup()
    assert alone.groups == []


def test_grouping_never_reads_a_catalogued_path(tmp_path, monkeypatch):
    """Even a pair in doubt (its estimate near the threshold) is not measured: the
    measurer is never asked about it, and the file is never opened."""
    s, p, drive = compared(tmp_path)
    g = group_of(s, p["renamed"])
    est = next(m.similarity for m in g.members if s.records[m.index].catalog)
    away_root = str(tmp_path / "drive")
    write(Path(drive["report"]), b"a decoy where the drive was mounted", T0)  # (plugged in?)
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open
    monkeypatch.setattr(builtins, "open", lambda f, *a, **k: (opened.append(str(f)),
                                                              real_open(f, *a, **k))[1])
    monkeypatch.setattr(os, "open", lambda f, *a, **k: (opened.append(str(f)),
                                                        real_os_open(f, *a, **k))[1])
    s.settings.similarity = round(est + 0.02, 4)  # within the doubt band: would be measured
    s.regroup()
    asked: list[tuple[int, int]] = []

    def measure(a: int, b: int):
        asked.append((a, b))
        return None

    build_groups(s.records, 64, 16, similarity=round(est + 0.02, 4), measure=measure)
    away = {i for i, r in enumerate(s.records) if r.catalog}
    assert not [pair for pair in asked if away & set(pair)]
    m = Measurer(s.records)
    a, b = (next(i for i, r in enumerate(s.records) if r.path == p["renamed"]),
            next(iter(away)))
    assert m(a, b) is None and read_shingles(s.records[b]) is None
    assert not [f for f in opened if away_root in f or f.startswith("catalog:")]


# ---------------------------------------------------------------------------- acting
def test_catalogued_files_are_never_marked_nor_planned(tmp_path):
    s, p, drive = compared(tmp_path)
    away = [r.path for r in s.records if r.catalog]
    s.mark(away)
    s.invert()
    assert not [m for m in s.marks if m in away]
    for rule in ("oldest", "newest", "largest"):
        s.clear_marks()
        s.mark_keep(rule)
        assert not set(away) & s.marks
    # a forged mark (not through the session's marking) is refused by the plan itself
    s.marks = {away[0], p["zh2"]}
    with pytest.raises(ActionRefused, match="from a catalog"):
        s.plan("delete")
    res = s.results()
    with pytest.raises(ActionRefused, match="from a catalog"):
        plan_action(res, {away[0]}, "trash")


def test_plain_keep_rules_keep_a_file_here(tmp_path):
    """A group with one file here and its copy in the catalog: a plain rule marks nothing
    (the catalogued copy is no kept copy); two files here: one is marked, the other kept."""
    s, p, _ = compared(tmp_path)
    s.mark_keep("oldest")
    assert s.marks == {p["zh2"]}
    plan = s.plan("delete")
    assert [op.path for op in plan.ops] == [p["zh2"]]
    assert [k.path for k in plan.ops[0].kept] == [p["zh1"]] and not plan.ops[0].catalog


def test_the_catalog_rule_keeps_the_catalogued_copy_and_one_here(tmp_path):
    s, p, _ = compared(tmp_path)
    s.mark_keep(KeepRule("catalog"))
    assert s.marks == {p["zh2"]}  # the renamed report is alone here: nothing marked
    assert s.plan("trash").ops[0].kept[0].path == p["zh1"]


def test_the_last_copy_goes_only_by_an_explicit_choice(tmp_path):
    s, p, drive = compared(tmp_path)
    s.mark_keep(KeepRule("catalog", last_copy=True))
    # both copies of the note (their bytes are on the drive); never the edited report,
    # whose differences the drive lacks
    assert s.marks == {p["zh1"], p["zh2"]}
    with pytest.raises(CatalogCopiesRefused) as refused:
        s.plan("delete")
    assert refused.value.files == 2 and refused.value.catalogs == ["backup"]
    with pytest.raises(ActionRefused, match="never be deleted permanently"):
        s.plan("delete", catalog_copies=True)  # the last copy here is never gone for good
    plan = s.plan("trash", catalog_copies=True)
    assert {op.path for op in plan.ops} == {p["zh1"], p["zh2"]}
    assert all(op.catalog == "backup" and not op.kept for op in plan.ops)
    assert any("word of the catalog backup" in n for n in plan.notes)
    with pytest.raises(ActionRefused, match="a link needs one here"):
        s.plan("hardlink", catalog_copies=True)
    s.mark([p["renamed"]])  # by hand: a near duplicate whose only copy is catalogued
    with pytest.raises(ActionRefused, match="no file of a catalog has its bytes"):
        s.plan("trash", catalog_copies=True)


def test_a_catalog_vouched_delete_runs_and_is_journaled(tmp_path):
    s, p, _ = compared(tmp_path)
    s.mark_keep(KeepRule("catalog", last_copy=True))
    journal = str(tmp_path / "journal.json")
    rep = s.execute(s.plan("move", move_to=str(tmp_path / "out"), catalog_copies=True),
                    journal=journal)
    assert rep.count("done") == 2 and not os.path.exists(p["zh1"])
    undone = Session.undo(journal)
    assert undone.count("done") == 2 and os.path.exists(p["zh1"]) and os.path.exists(p["zh2"])


# ---------------------------------------------------------------------------- results
def test_results_keep_the_catalogued_members_and_drop_their_marks(tmp_path):
    s, p, drive = compared(tmp_path)
    text = dumps_json(s.results(), include_ungrouped=True)
    doc = json.loads(text)
    entry = next(f for g in doc["groups"] for f in g["files"] if f.get("catalog"))
    assert entry["catalog"] == "backup" and entry["catalog_path"] in drive.values()
    entry["marked"] = True  # a forged mark on a catalogued file
    back = load_json(json.dumps(doc))
    assert [c["name"] for c in back.settings["catalogs"]] == ["backup"]
    assert sum(1 for r in back.records if r.catalog) == 7 and not back.marks
    t = Session(settings=settings())
    t.set_loaded(back, keep_groups=True)
    assert [c.name for c in t.catalogs] == ["backup"] and len(t.groups) == len(s.groups)
    for bad in ("/elsewhere/x.txt", catalog_key("other", "/x.txt"), "catalog:backup:rel/x"):
        forged = json.loads(text)
        next(f for g in forged["groups"] for f in g["files"] if f.get("catalog"))["path"] = bad
        forged.pop("records", None)
        with pytest.raises(ResultsError):
            load_json(json.dumps(forged))


# ---------------------------------------------------------------------------- bad catalogs
def _edit(path: str, *sql: str) -> None:
    db = sqlite3.connect(path)
    for q in sql:
        db.execute(q)
    db.commit()
    db.close()


BAD = {
    "not sqlite": lambda p: Path(p).write_text("just some text\n" * 100),
    "empty": lambda p: Path(p).write_bytes(b""),
    "truncated": lambda p: Path(p).write_bytes(Path(p).read_bytes()[:9000]),
    "damaged pages": lambda p: Path(p).write_bytes(
        (b := Path(p).read_bytes())[:4096] + bytes(np.random.default_rng(1).integers(
            0, 256, len(b) - 4096, dtype=np.uint8))),
    "newer format": lambda p: _edit(p, "UPDATE meta SET value='2' WHERE key='format_version'"),
    "another format": lambda p: _edit(p, "UPDATE meta SET value='x' WHERE key='format'"),
    "other table": lambda p: _edit(p, "CREATE TABLE extra (x)"),
    "a view": lambda p: _edit(p, "CREATE VIEW v AS SELECT 1"),
    "short fingerprint": lambda p: _edit(p, "UPDATE files SET fingerprint=x'00' WHERE rowid=1"),
    "relative path": lambda p: _edit(p, "UPDATE files SET path=CAST('a/b.txt' AS BLOB) "
                                     "WHERE rowid=1"),
    "path outside its roots": lambda p: _edit(p, "UPDATE files SET path=CAST('/etc/passwd' "
                                              "AS BLOB) WHERE rowid=1"),
    "path listed twice": lambda p: _edit(p, "INSERT INTO files SELECT * FROM files WHERE "
                                         "rowid=1", "UPDATE meta SET value='4' WHERE "
                                         "key='files'"),
    "a count that lies": lambda p: _edit(p, "UPDATE meta SET value='2' WHERE key='files'"),
    "negative size": lambda p: _edit(p, "UPDATE files SET size=-1 WHERE rowid=1"),
    "text for a number": lambda p: _edit(p, "UPDATE files SET chars='many' WHERE rowid=1"),
    "bad roots": lambda p: _edit(p, "UPDATE meta SET value='{\"a\": 1}' WHERE key='roots'"),
    "missing meta": lambda p: _edit(p, "DELETE FROM meta WHERE key='sketch'"),
}


@pytest.mark.parametrize("damage", sorted(BAD))
def test_a_bad_catalog_is_one_line_never_a_traceback(tmp_path, damage):
    path, _ = catalogue(tmp_path)
    BAD[damage](path)
    with pytest.raises(cat.CatalogError) as e:
        cat.read_catalog(path)
    assert "\n" not in str(e.value) and path in str(e.value)
    s = Session(settings=settings())
    with pytest.raises(cat.CatalogError):
        s.compare_with_catalog(path)
    assert not s.catalogs and not s.records


def test_a_catalog_of_other_fingerprint_settings_is_refused(tmp_path):
    path, _ = catalogue(tmp_path)
    s = Session(settings=settings(features="tokens"))
    with pytest.raises(cat.CatalogError, match="features 'shingles'"):
        s.compare_with_catalog(path)
    # compared, then the scan's feature mode changed: dropped, and the problem says so
    root = tmp_path / "here"
    here(tmp_path)
    t = Session([str(root)], settings())
    t.compare_with_catalog(path)
    t.settings.features = "tokens"
    t.scan()
    assert not t.catalogs and not [r for r in t.records if r.catalog]
    assert any(pr.kind == "catalog" and "fingerprint settings" in pr.reason
               for pr in t.problems)
