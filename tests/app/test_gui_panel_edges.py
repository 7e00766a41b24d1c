"""Issue 38, item 11: the 16-bit warning whole at 1280x720, a left panel that does not jump
when a scan starts, Enter on a file nothing can open says so, the dry-run switch seen."""

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QDesktopServices  # noqa: E402

from simdup_gui.core.models import ProgressEvent  # noqa: E402
from simdup_gui.core.presenters.progress import scan_progress  # noqa: E402
from tests.app.conftest import scan, two_pairs  # noqa: E402


@pytest.fixture
def src(tmp_path):
    return two_pairs(tmp_path / "src")


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_16_bit_warning_is_whole_at_1280x720(qtbot, make, src, language):
    w = make([src], language=language)
    w.resize(1280, 720)
    w.bits_box.setCurrentIndex(w.bits_box.findData(16))
    w.panel.set_file_count(20_000)  # many files at 16 bits: the chance warning shows
    label = w.panel.chance_label
    qtbot.waitUntil(lambda: label.isVisible() and label.height() >= label.heightForWidth(
        label.width()))
    assert label.text().startswith("⚠")
    assert label.height() >= label.heightForWidth(label.width())  # every line of it
    assert w.height() <= 720  # the window fits the screen: the settings scroll instead
    w.panel.scroller.ensureWidgetVisible(label)
    top = label.mapTo(w.panel.scroller.viewport(), label.rect().topLeft()).y()
    assert 0 <= top and top + label.height() <= w.panel.scroller.viewport().height()


def test_the_panel_does_not_jump_when_a_scan_starts(qtbot, make, src):
    w = make([src])
    w.resize(1280, 720)
    p = w.panel
    qtbot.waitExposed(w)
    qtbot.wait(200)  # the window laid out at its size

    def where():
        qtbot.wait(10)
        return [x.geometry() for x in (p, p.folders_box, p.settings_box, p.scan_btn, p.progress,
                                     p.progress_label)]

    before = where()
    listing = scan_progress(ProgressEvent("walk", 1364, current=str(src / "zh_gbk.txt")), 1.0)
    p.set_running(True, "")
    p.show_progress(listing)  # two lines: the count and the file
    assert "\n" in p.progress_label.text()
    assert where() == before
    reading = scan_progress(ProgressEvent("fingerprint", 778, 1366, 8 << 20, 20 << 20,
                                          str(src / "en.txt")), 2.0)
    p.show_progress(reading)
    assert where() == before
    p.set_running(False, "Scanned 937 files in 0:02.")
    assert where() == before


def test_enter_on_a_file_nothing_opens_says_so(qtbot, make, src, monkeypatch):
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: False)  # no launcher
    w = make([src])
    scan(qtbot, w)
    path = str(src / "zh_gbk.txt")
    row, child = w.model.positions.of_path[path]
    w.groups_view.show_file(row, child)
    w.activateWindow()
    w.tree.setFocus()
    qtbot.waitUntil(w.tree.hasFocus)
    qtbot.keyClick(w.tree, Qt.Key.Key_Return)
    msg = w.statusBar().currentMessage()
    assert msg.startswith("Nothing opened " + path) and "file manager" in msg
    monkeypatch.delenv("DISPLAY")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    w.statusBar().clearMessage()
    qtbot.keyClick(w.tree, Qt.Key.Key_Return)  # no desktop at all: said too
    assert w.statusBar().currentMessage().startswith("Nothing opened")


def test_the_dry_run_switch_shows_its_state(qtbot, make, src):
    w = make([src])
    badge = w.results_ui.dry_badge
    assert not badge.isVisible()
    w.actions.act_dry.setChecked(True)
    assert badge.isVisible() and badge.text() == "Dry run: actions change nothing"
    w.set_language("zh_CN")
    qtbot.waitUntil(lambda: badge.text() == "演练：操作不改动任何文件")
    assert badge.isVisible()
    w.set_language("en")
    badge.click()  # turns it off
    assert not w.actions.act_dry.isChecked() and not badge.isVisible()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_more_than_a_million_files_say_what_grouping_here_takes(qtbot, make, src, language):
    """Issue 40, item 4: past a million files the settings say what grouping them on this
    machine takes and that a Dask scheduler takes their candidate step; with a scheduler
    set, the note goes."""
    w = make([src], language=language)
    w.bits_box.setCurrentIndex(w.bits_box.findData(128))  # (no chance matches at 128 bits)
    label = w.panel.chance_label
    w.panel.set_file_count(1_000_000)
    assert not label.text()
    w.panel.set_file_count(1_200_000)
    want = "1,200,000 " + ("files, more than a million" if language == "en" else "个文件，超过一百万")
    assert label.text().startswith(want) and "Dask" in label.text()
    w.panel.scheduler_edit.setText("local:2")
    assert not label.text()
