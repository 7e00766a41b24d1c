"""Template siblings in the window (issue 37): flagged in the groups, asked about before a
keep rule marks them, each member naming its closest member (issue 38, item 6)."""

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QSettings, Qt  # noqa: E402

from simdup_gui.app import dialogs  # noqa: E402
from simdup_gui.app.window import MainWindow  # noqa: E402
from simdup_gui.core.presenters.tree import COL_CLOSEST, COL_NAME, COL_SIMILARITY  # noqa: E402

from tests.core.group.test_templates import man_pages  # noqa: E402


@pytest.fixture
def win(qtbot, tmp_path):
    pages = man_pages(tmp_path / "src" / "man", 12)
    backup = tmp_path / "src" / "backup"
    backup.mkdir()
    for p in pages[:3]:
        with open(p, encoding="utf-8") as fh:
            (backup / (p.rsplit("/", 1)[1] + ".bak")).write_text(fh.read() + "\nagain\n",
                                                                 encoding="utf-8")
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(roots=[str(tmp_path / "src")], settings=settings, language="en")
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.scanFinished, timeout=60_000):
        w.start_scan()
    qtbot.waitUntil(lambda: not w.is_scanning())
    w.pages = pages
    return w


def _ask(monkeypatch, answer):
    asked = []

    def run(box):
        asked.append(box.text())
        return next((b for b in box.buttons() if b.text() == answer), None)

    monkeypatch.setattr(dialogs, "run", run)
    return asked


def test_template_members_are_flagged_and_the_keep_rule_asks(qtbot, win, monkeypatch):
    files, groups = win.session.template_members()
    assert files >= 6
    m = win.model
    m_text = [m.index(r, COL_NAME).data() for r in range(m.rowCount())]
    assert any("share mostly template text" in t for t in m_text if t and t.startswith("Group"))
    win.tree.expandAll()
    sims = [m.index(r, COL_SIMILARITY).data() for r in range(m.rowCount())]
    assert any(s and s.endswith("template") for s in sims)
    tips = [m.index(r, COL_NAME).data(Qt.ItemDataRole.ToolTipRole) for r in range(m.rowCount())]
    assert any(t and "template found in" in t for t in tips)
    assert any(t and "Closest member:" in t for t in tips)
    closest = [m.index(r, COL_CLOSEST).data() for r in range(m.rowCount())]
    assert sum(1 for c in closest if c and c.endswith("%") and int(c[:-1]) >= 95) >= 6

    asked = _ask(monkeypatch, "Cancel")
    win.actions.mark_all_but_one("oldest")
    assert asked and f"{files} files in {groups} groups" in asked[0]
    assert not win.model.marks  # cancelled: nothing marked

    _ask(monkeypatch, "Leave them unmarked")
    win.actions.mark_all_but_one("oldest")
    qtbot.waitUntil(lambda: len(win.model.marks) == 3, timeout=10_000)
    for p in win.pages[3:]:
        assert p not in win.model.marks  # no page without a backup is marked

    _ask(monkeypatch, "Mark them too")
    win.actions.mark_all_but_one("oldest")
    qtbot.waitUntil(lambda: len(win.model.marks) > 3, timeout=10_000)
