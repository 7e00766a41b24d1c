"""Issue 38, item 9: View > Theme (System, Light, Dark), remembered; in the dark every colour
the app draws has a dark twin readable on it, and the widgets take a dark palette whose
placeholders, disabled text and check boxes can be seen (pytest-qt, offscreen)."""

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QPalette  # noqa: E402
from PySide6.QtWidgets import QCheckBox, QStyle, QStyleOptionButton  # noqa: E402

from simdup_gui.app import options as opt  # noqa: E402
from simdup_gui.app import theme  # noqa: E402
from simdup_gui.app.window import MainWindow  # noqa: E402
from simdup_gui.core.presenters import colours  # noqa: E402
from simdup_gui.core.presenters.colours import DARK, LIGHT, contrast_ratio  # noqa: E402

R = QPalette.ColorRole


@pytest.fixture(autouse=True)
def _back_to_system():
    yield
    theme.apply_theme("system")  # the palette and style are the whole application's
    colours.set_scheme("light")


def colour(role, group=QPalette.ColorGroup.Active) -> str:
    return QGuiApplication.palette().color(group, role).name()


def lab_report(tmp_path):
    from simdup_gui.core.job import Job
    from simdup_gui.core.lab.experiment import EvalOptions, TruthSpec, run_eval
    from simdup_gui.core.lab.synth import generate_corpus

    generate_corpus(20, seed=2).write(str(tmp_path / "c"))
    return run_eval(Job(), str(tmp_path / "c"), TruthSpec("synthetic"),
                    EvalOptions(bits=(16, 64), workers=1))


def test_the_theme_is_chosen_in_the_view_menu_and_remembered(qtbot, make, settings):
    w = make([])
    assert w.theme.actions["system"].isChecked() and colours.current().name == "light"
    assert w.theme.menu.menuAction() in w.results_ui.view_menu.actions()
    w.theme.actions["dark"].trigger()
    assert colours.current() is DARK and colour(R.Window) == "#353535"
    assert w.prefs.get(opt.THEME) == "dark"
    w.close()
    theme.apply_theme("system")
    w2 = MainWindow(settings=settings, language="en")
    qtbot.addWidget(w2)
    assert w2.theme.actions["dark"].isChecked() and colour(R.Base) == DARK.page_bg
    w2.theme.actions["light"].trigger()
    assert colours.current() is LIGHT and colour(R.Window) == "#efefef"
    w2.theme.actions["system"].trigger()
    assert not QGuiApplication.palette().isBrushSet(QPalette.ColorGroup.Active, R.Base)
    assert w2.prefs.get(opt.THEME) == "system"


def test_the_dark_palette_shows_placeholders_disabled_text_and_check_boxes(qtbot, make):
    w = make([])
    w.theme.set_theme("dark")
    assert contrast_ratio(colour(R.PlaceholderText), colour(R.Base)) >= 4.5
    assert contrast_ratio(colour(R.Text), colour(R.Base)) >= 4.5
    assert contrast_ratio(colour(R.ToolTipText), colour(R.ToolTipBase)) >= 4.5
    disabled = colour(R.Text, QPalette.ColorGroup.Disabled)
    assert contrast_ratio(disabled, colour(R.Window)) >= 3
    box = QCheckBox("x")
    qtbot.addWidget(box)
    box.resize(80, 30)
    opt_ = QStyleOptionButton()
    opt_.initFrom(box)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, opt_, box)
    img = box.grab().toImage()
    edge = img.pixelColor(rect.left(), rect.center().y()).name()
    inside = img.pixelColor(rect.center().x(), rect.center().y()).name()
    assert contrast_ratio(edge, inside) >= 2.5, (edge, inside)  # Fusion alone: about 1.1


def test_the_lab_in_the_dark_has_readable_rows_charts_and_legend(qtbot, make, tmp_path):
    w = make([])
    tab = w.accuracy_tab
    tab.show_report(lab_report(tmp_path))
    w.theme.set_theme("dark")
    m = tab.model
    drowned = [r for r in range(m.rowCount()) if m.table.drowned(r)]
    assert drowned, "a 16-bit size drowned in chance matches"
    ix = m.index(drowned[0], 0)
    bg = m.data(ix, Qt.ItemDataRole.BackgroundRole).name()
    fg = m.data(ix, Qt.ItemDataRole.ForegroundRole).name()
    assert bg == DARK.drowned_row and contrast_ratio(fg, bg) >= 4.5
    for chart in (*tab.size_charts.values(), tab.best_chart, tab.pr_chart):
        back = chart.backgroundBrush().color().name()
        assert back in (DARK.chart_bg, DARK.drowned_chart)
        assert contrast_ratio(chart.titleBrush().color().name(), back) >= 4.5
        for s in chart.series():
            pens = [s.pen().color().name()] if hasattr(s, "pen") else [
                b.color().name() for b in s.barSets()]
            assert all(contrast_ratio(p, back) >= 3 for p in pens), (chart.title(), pens)
    assert DARK.lab["precision"] in tab.legend.text()
    assert LIGHT.lab["precision"] not in tab.legend.text()
    w.theme.set_theme("light")
    assert tab.size_charts[64].backgroundBrush().color().name() == LIGHT.chart_bg
    assert LIGHT.lab["precision"] in tab.legend.text()


def test_the_report_and_the_warning_take_the_dark_twins(qtbot, reviewed):
    from simdup_gui.app.dialogs import ReportDialog
    from simdup_gui.core.act.actions import ActionReport, Outcome

    reviewed.theme.set_theme("dark")
    d = ReportDialog(ActionReport("trash", [Outcome("/x/a.txt", "failed", "trash")]), reviewed)
    html = d.findChild(__import__("PySide6.QtWidgets", fromlist=["QTextBrowser"]).QTextBrowser
                       ).toHtml()
    assert DARK.status["failed"] in html and LIGHT.status["failed"] not in html
    assert DARK.warning in reviewed.panel.chance_label.styleSheet()
