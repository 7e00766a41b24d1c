"""Issue 38, item 12: the words the app says (plurals, times, titles) (pytest-qt, offscreen)."""

import pytest

pytest.importorskip("PySide6")

from simdup_gui.core.textsim import DEFAULT_SIMILARITY  # noqa: E402


def test_the_labs_reference_truth_defaults_to_the_apps_threshold(make):
    w = make([])
    assert w.accuracy_tab.threshold.value() == pytest.approx(DEFAULT_SIMILARITY)
    assert w.panel.threshold_box.value() == round(100 * DEFAULT_SIMILARITY)


def test_one_file_is_one_file_in_the_questions(qtbot, reviewed, answers):
    w = reviewed
    w.actions._marked(w.session.mark([str(w.src / "zh_gbk.txt")], True))
    for action, words in (("hardlink", "Replace 1 file"), ("delete", "Delete 1 file"),
                          ("trash", "Send 1 file to the trash")):
        answers.answers = ["-"]  # no such button: cancelled
        assert not w.actions.act_on_marked(action, dry_run=False)
        box = answers.shown[-1]
        assert words in box.text() or words.replace(" to the trash", "") in box.text()
        assert any(b.text() == words for b in box.buttons())
        assert "1 files" not in box.text()


def test_the_ignore_list_counts_in_words(qtbot, reviewed):
    from simdup_gui.app.results_ui import IgnoreListDialog

    w = reviewed
    w.session.ignore_with_reference([str(w.src / "zh_gbk.txt")])
    d = IgnoreListDialog(w.session, w)
    assert d.where.text().startswith("0 files and 1 pair are never shown as duplicates")


def test_the_bit_diff_says_one_whole_block(qtbot, reviewed):
    w = reviewed  # 64 bits, k=16: 17 blocks, so a pair within k shares at least one
    w.tree.setCurrentIndex(w.model.file_index(0, 1))
    text = w.bitdiff.summary.text()
    assert "at least 1 whole block and" in text and "blocks and" not in text


def test_the_report_names_link_actions_in_words(qtbot, reviewed):
    from simdup_gui.app.dialogs import ReportDialog
    from simdup_gui.core.act.actions import ActionReport, Outcome

    rep = ActionReport("hardlink", [Outcome("/x/a.txt", "done", "hardlink")])
    d = ReportDialog(rep, reviewed)
    assert "hardlink" not in d.windowTitle()
    assert d.findChild(__import__("PySide6.QtWidgets", fromlist=["QLabel"]).QLabel).text() == \
        "<b>Replace with hard links: 1 done</b>"
