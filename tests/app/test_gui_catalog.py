"""File > Save catalog… and File > Compare with catalog… (issue 41, part 2), through the
window (pytest-qt, offscreen): the catalogued members shown as in the catalog, never
checkable nor opened; the keep rule for the catalogued copy; the last copy here marked
and acted on only after questions that say so."""

import os
import shutil

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from simdup_gui.app import actions_ui, catalog_ui, dialogs  # noqa: E402
from simdup_gui.core.presenters.tree import COL_FOLDER, COL_SIMILARITY  # noqa: E402
from tests.actions_helpers import T0, write  # noqa: E402
from tests.app.conftest import scan  # noqa: E402
from tests.conftest import EN, ZH  # noqa: E402


@pytest.fixture
def quiet(monkeypatch):
    notes = []
    for name in ("warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name,
                            lambda *a, **k: notes.append(a[1:3]) or QMessageBox.StandardButton.Ok)
    monkeypatch.setattr(actions_ui.ReportDialog, "exec", lambda self: 0)
    return notes


def rows(w):
    """(path, folder text, similarity text, check state, flags, tooltip) of every file row."""
    m = w.model
    out = []
    for row, (_, members) in enumerate(m.rows):
        for child, x in enumerate(members):
            w.groups_view.show_file(row, child)
            i = m.file_index(row, child)
            out.append((m.records[x.index].path, m.index(i.row(), COL_FOLDER).data(),
                        m.index(i.row(), COL_SIMILARITY).data(),
                        i.data(Qt.ItemDataRole.CheckStateRole), m.flags(i),
                        i.data(Qt.ItemDataRole.ToolTipRole)))
    return out


def test_save_catalog_then_compare_with_it(make, qtbot, tmp_path, monkeypatch, quiet, answers):
    drive = tmp_path / "drive"
    write(drive / "report.txt", EN.encode(), T0)
    write(drive / "zh.txt", ZH.encode(), T0)
    w = make([drive])
    scan(qtbot, w)
    saved = str(tmp_path / "backup.simcat")
    monkeypatch.setattr(dialogs, "pick_save_file", lambda *a, **k: saved[:-len(".simcat")])
    w.file_menu.aboutToShow.emit()
    cats = w.actions.files.catalogs
    assert cats.act_save.isEnabled() and not cats.act_forget.isEnabled()
    cats.act_save.trigger()  # the suffix is added
    qtbot.waitUntil(lambda: cats.worker is None and os.path.exists(saved), timeout=30_000)
    shutil.rmtree(drive)  # unplugged

    here = tmp_path / "here"
    edited = write(here / "renamed.md", EN.replace("folder by folder", "folder after folder")
                   .encode(), T0)
    zh1 = write(here / "zh.txt", ZH.encode(), T0 + 10**9)
    zh2 = write(here / "zh copy.txt", ZH.encode(), T0 + 2 * 10**9)
    v = make([here])
    scan(qtbot, v)
    assert not v.model.groups or all(
        not v.session.records[i].catalog for g in v.model.groups for i in g.indices())
    monkeypatch.setattr(dialogs, "pick_open_file", lambda *a, **k: saved)
    with qtbot.waitSignal(v.groupsChanged, timeout=30_000):
        v.actions.files.catalogs.act_compare.trigger()
    shown = rows(v)
    away = [r for r in shown if r[0].startswith("catalog:backup:")]
    assert len(away) == 2 and {r[0] for r in shown} - {r[0] for r in away} == {edited, zh1, zh2}
    for path, folder, sim, check, flags, tip in away:
        assert folder == "in catalog backup (not connected)"
        assert check is None and not flags & Qt.ItemFlag.ItemIsUserCheckable
        assert sim.startswith("~") and "estimated" in tip
        assert tip.splitlines()[0] == str(drive / os.path.basename(path))
    assert "compared with the catalog backup (2 files)" in v.status_label.text()
    # nothing opens a catalogued file
    from simdup_gui.app.desktop import open_path

    assert not open_path(away[0][0], v)

    # keep the catalogued copy: the note's two copies here, one marked; the report alone
    cats = v.actions.files.catalogs
    cats.act_keep.trigger()
    qtbot.waitUntil(lambda: v.session.marks == {zh2}, timeout=10_000)
    # and the last copy too: a question that says what it means; Cancel marks nothing more
    answers.answers = ["Cancel"]
    cats.act_last.trigger()
    assert "last copy on this computer" in answers.shown[-1].text()
    assert v.session.marks == {zh2}
    cats.act_last.trigger()  # "Mark the last copies too"
    assert v.session.marks == {zh1, zh2}  # never the edited report: not on the drive
    # acting asks again; Cancel does nothing
    answers.answers = ["Cancel"]
    assert not v.actions.act_on_marked("move", move_to=str(tmp_path / "away"), dry_run=False)
    assert "Let them go on the catalog's word?" in answers.shown[-1].text()
    assert os.path.exists(zh1) and os.path.exists(zh2)
    answers.answers = ["Delete 2 files"]  # a permanent delete is refused, saying why
    assert not v.actions.act_on_marked("delete", dry_run=False)
    assert os.path.exists(zh1) and os.path.exists(zh2)
    answers.answers = ["Let them go", "Move 2 files"]
    with qtbot.waitSignal(v.actions.actionFinished, timeout=30_000):
        assert v.actions.act_on_marked("move", move_to=str(tmp_path / "away"), dry_run=False)
    assert not os.path.exists(zh1) and not os.path.exists(zh2) and os.path.exists(edited)

    v.file_menu.aboutToShow.emit()
    assert cats.act_forget.isEnabled()
    cats.act_forget.trigger()
    assert not v.session.catalogs and not [r for r in v.session.records if r.catalog]


def test_a_damaged_catalog_is_a_warning(make, qtbot, tmp_path, monkeypatch, quiet):
    bad = tmp_path / "bad.simcat"
    bad.write_text("not a catalog")
    (tmp_path / "here").mkdir()
    w = make([tmp_path / "here"])
    monkeypatch.setattr(dialogs, "pick_open_file", lambda *a, **k: str(bad))
    cats = w.actions.files.catalogs
    cats.act_compare.trigger()
    qtbot.waitUntil(lambda: cats.worker is None, timeout=10_000)
    assert quiet and "not a simdup catalog" in quiet[-1][1] and "Traceback" not in quiet[-1][1]
    assert not w.session.catalogs
    assert catalog_ui.REMOVING == ("move", "trash")
