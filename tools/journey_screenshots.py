"""Screenshots of the main journeys (scan, review, mark, act, undo, lab) in English and
Chinese, taken from the real window: docs/journey-<step>-<language>.png; the review and the
lab again in the dark theme (View > Theme > Dark): docs/journey-<step>-<language>-dark.png.

Run under a display, e.g.:
    xvfb-run -s "-screen 0 1400x900x24" python3 tools/journey_screenshots.py

The demo folder is copied to a temporary folder first, so acting on it touches nothing in
the repository; settings, cache and data go to a temporary home as well.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
HOME = tempfile.mkdtemp(prefix="simdup-journeys-")
for var in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
    os.environ[var] = os.path.join(HOME, var.lower())

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from simdup_gui.app import dialogs  # noqa: E402
from simdup_gui.app.window import MainWindow  # noqa: E402

DOCS = ROOT / "docs"


def wait(app: QApplication, done, limit_s: float = 120) -> None:
    import time

    end = time.monotonic() + limit_s
    while not done():
        app.processEvents()
        if time.monotonic() > end:
            raise TimeoutError("the window did not finish in time")
        time.sleep(0.02)
    for _ in range(20):
        app.processEvents()


DARK_STEPS = ("2-review", "6-lab")


def journey(app: QApplication, language: str, theme: str = "light") -> list[Path]:
    src = Path(HOME) / theme / f"demo-{language}"
    shutil.copytree(ROOT / "resources" / "demo", src)
    settings = QSettings(os.path.join(HOME, f"settings-{language}-{theme}.ini"),
                         QSettings.Format.IniFormat)
    w = MainWindow(roots=[str(src)], settings=settings, language=language)
    w.theme.set_theme(theme)
    w.resize(1400, 900)
    w.show()
    shots = []

    def shot(step: str, widget=None) -> None:
        if theme == "dark" and step not in DARK_STEPS:
            return
        for _ in range(20):
            app.processEvents()
        suffix = "-dark" if theme == "dark" else ""
        path = DOCS / f"journey-{step}-{language.split('_')[0]}{suffix}.png"
        (widget or w).grab().save(str(path))
        shots.append(path)

    w.start_scan()
    wait(app, lambda: not w.is_scanning() and w.model.rowCount() > 0)
    shot("1-scan")
    w.groups_view.show_file(0, 2)  # a copy beside its reference
    shot("2-review")
    w.results_ui.act_deltas.setChecked(True)  # View > Size and date against the reference
    w.actions.mark_all_but_one("oldest")
    shot("3-mark")
    dialogs.run = lambda box: box.buttons()[0]  # "Move N files": the confirmation answered
    shown = []
    w.actions.actionFinished.connect(shown.append)
    from simdup_gui.app import actions_ui

    actions_ui.ReportDialog.exec = lambda self: self.show() or 0
    w.actions.act_on_marked("move", move_to=os.path.join(HOME, f"dups-{language}"))
    wait(app, lambda: shown and w.actions.worker is None)
    for d in w.findChildren(actions_ui.ReportDialog):  # what happened, file by file
        shot("4-act", d)
        d.close()
    w.actions.undo_last()
    wait(app, lambda: len(shown) == 2 and w.actions.worker is None)
    for d in w.findChildren(actions_ui.ReportDialog):
        d.close()
    shot("5-undo")
    if w.accuracy_tab is not None:
        w.tabs.setCurrentIndex(2)
        tab = w.accuracy_tab
        from simdup_gui.core.lab.experiment import EvalOptions

        tab.start_generated(40, EvalOptions(workers=1))
        wait(app, lambda: tab.worker is None, 600)
        shot("6-lab")
    w.close()
    return shots


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    for theme in ("light", "dark"):
        for language in ("en", "zh_CN"):
            for p in journey(app, language, theme):
                print(p.relative_to(ROOT))
    shutil.rmtree(HOME, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
