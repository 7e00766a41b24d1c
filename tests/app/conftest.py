"""Fixtures of the window tests: a window over given folders, a scanned one, and the
answers given to question boxes."""

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings  # noqa: E402

from simdup_gui.app import dialogs  # noqa: E402
from simdup_gui.app.window import MainWindow  # noqa: E402
from tests.conftest import EN, OTHER, ZH  # noqa: E402


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def make(qtbot, settings):
    def make(roots, language="en"):
        w = MainWindow(roots=[str(r) for r in roots], settings=settings, language=language)
        qtbot.addWidget(w)
        w.resize(1400, 900)
        w.show()
        return w

    return make


def scan(qtbot, w):
    with qtbot.waitSignal(w.scanFinished, timeout=60_000) as blocker:
        w.start_scan()
    qtbot.waitUntil(lambda: not w.is_scanning(), timeout=10_000)
    return blocker.args[0]


@pytest.fixture
def answers(monkeypatch):
    """Every question box shown, and the answer given (by button text; default: the first)."""
    shown = []

    def run(box):
        shown.append(box)
        want = run.answers.pop(0) if run.answers else None
        for b in box.buttons():
            if want is None or b.text() == want:
                return b
        return None

    run.answers = []  # button texts to click, in order; then the first button

    monkeypatch.setattr(dialogs, "run", run)
    run.shown = shown
    return run


def two_pairs(src):
    """Under ``src``: a Chinese text in UTF-8 and GBK, an English one and an edited copy, and
    an unrelated file."""
    (src / "a").mkdir(parents=True)
    (src / "a" / "zh.txt").write_bytes(ZH.encode())
    (src / "zh_gbk.txt").write_bytes(ZH.encode("gbk"))
    (src / "en.txt").write_text(EN)
    (src / "a" / "en copy.txt").write_text(EN.replace("five", "six", 1))
    (src / "other.txt").write_text(OTHER)
    return src


@pytest.fixture
def reviewed(make, qtbot, tmp_path, monkeypatch):
    """A window over two duplicate pairs, scanned."""
    from simdup_gui.app import actions_ui

    monkeypatch.setattr(actions_ui.ReportDialog, "exec", lambda self: 0)
    src = two_pairs(tmp_path / "src")
    w = make([src])
    scan(qtbot, w)
    assert len(w.model.groups) == 2
    w.src = src
    return w


