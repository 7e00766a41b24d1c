"""Issue 38, item 8: in Chinese, no English word is left in the window or in any dialog it
can show, Qt's own buttons and pickers included (pytest-qt, offscreen)."""

import os

import pytest

pytest.importorskip("PySide6")

from PySide6.QtWidgets import QDialogButtonBox, QMessageBox  # noqa: E402

from simdup_gui.app import dialogs, i18n  # noqa: E402
from tests.app.conftest import scan, two_pairs  # noqa: E402
from tests.app.shown_texts import english, opened_by, texts  # noqa: E402
from tests.conftest import EN  # noqa: E402

ENCODINGS = ("utf-8-sig", "utf-8", "utf-16", "gb18030", "gbk", "ascii", "cp1252")


@pytest.fixture
def zh(make, qtbot, tmp_path):
    """A window in Chinese over two groups (one with a byte-identical copy), scanned."""
    src = two_pairs(tmp_path / "src")
    (src / "a" / "en same.txt").write_text(EN)
    (src / "empty.txt").write_text("")
    (src / "image.bin").write_bytes(bytes(range(256)) * 8)
    os.utime(src / "en.txt", ns=(1, 1_000_000_000))
    w = make([src], language="zh_CN")
    scan(qtbot, w)
    assert len(w.model.groups) == 2
    w.src = src
    w.scanned = shown_data(w)  # (the files an action then moves are shown in its report)
    return w


def shown_data(w) -> tuple[str, ...]:
    """What the window shows of the files themselves: paths, names, folders, encodings."""
    out = set(ENCODINGS)
    for r in w.records:
        out |= {r.path, os.path.basename(r.path), os.path.dirname(r.path)}
    return tuple(out)


def walked(w) -> list[tuple[str, str]]:
    """The window's texts, but not the files' own text in the diff."""
    return texts(w, skip=(w.textdiff.left, w.textdiff.right))


def no_english(items, w) -> None:
    left = english(items, shown_data(w) + w.scanned)
    assert not left, "\n".join(f"{kind}: {text!r} -> {words}" for kind, text, words in left)


def test_qt_own_buttons_speak_chinese(zh):
    box = QMessageBox(QMessageBox.Icon.Question, "t", "x",
                      QMessageBox.StandardButton.Cancel | QMessageBox.StandardButton.Yes)
    assert {b.text().replace("&", "") for b in box.buttons()} >= {"取消"}
    close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    assert close.buttons()[0].text() == "关闭"
    zh.set_language("en")
    close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    assert close.buttons()[0].text() == "Close"


def test_pickers_are_qt_own_in_the_interface_language(qtbot, zh, monkeypatch):
    monkeypatch.setattr(i18n, "system_language", lambda: "en")  # an English desktop
    assert dialogs.picker_options() & dialogs.QFileDialog.Option.DontUseNativeDialog
    for trigger in (zh.panel.choose_folder, zh.actions.files._save, zh.actions.files._load,
                    lambda: zh.actions.files._export("csv"), zh.actions._choose_resume,
                    zh.accuracy_tab._browse_folder):
        name, items = opened_by(qtbot, trigger, cells=False)
        assert name == "QFileDialog"
        assert any("取消" in t for _k, t in items)
        no_english(items, zh)
    monkeypatch.setattr(i18n, "system_language", lambda: "zh_CN")  # a native one speaks it
    assert not dialogs.picker_options() & dialogs.QFileDialog.Option.DontUseNativeDialog


def test_the_window_shows_no_english_on_any_tab(qtbot, zh, tmp_path):
    from simdup_gui.core.job import Job
    from simdup_gui.core.lab.experiment import EvalOptions, TruthSpec, run_eval
    from simdup_gui.core.lab.synth import generate_corpus

    w = zh
    assert len(w.problems) >= 1
    w.tree.expandAll()
    w.tree.setCurrentIndex(w.model.file_index(0, 1))
    for tab in range(w.tabs.count()):
        w.tabs.setCurrentIndex(tab)
        no_english(walked(w), w)
    generate_corpus(6, seed=2).write(str(tmp_path / "c"))
    report = run_eval(Job(), str(tmp_path / "c"), TruthSpec("reference", threshold=0.7),
                      EvalOptions(bits=(16, 64), workers=1))
    w.accuracy_tab.show_report(report)
    w.accuracy_tab.truth.setCurrentIndex(w.accuracy_tab.truth.findData("reference"))
    no_english(walked(w), w)


def test_the_context_menu_and_the_dialogs_show_no_english(qtbot, zh, monkeypatch):
    w = zh
    w.tree.expandAll()
    rect = w.tree.visualRect(w.model.file_index(0, 1))
    w.tree.setCurrentIndex(w.model.file_index(0, 1))
    shown = [opened_by(qtbot, lambda: w.results_ui.context_menu(rect.center())),
             opened_by(qtbot, w.results_ui.show_ignore_list),
             opened_by(qtbot, w.results_ui._ask_pattern),
             opened_by(qtbot, w._about),
             opened_by(qtbot, w.actions._keep_encoding),
             opened_by(qtbot, w.actions._edit_reference),
             opened_by(qtbot, lambda: w.actions.act_on_marked("delete")),  # nothing marked
             opened_by(qtbot, w.results_ui.review.edit_preferences),  # the settings dialog
             opened_by(qtbot, lambda: w.results_ui.review.rename(w.records[0].path))]
    w.actions._marked(w.session.mark([r.path for r in w.records], True))  # every copy
    shown.append(opened_by(qtbot, lambda: w.actions.act_on_marked("delete")))  # refused
    w.folders.clear()  # (QListWidget.clear)
    shown.append(opened_by(qtbot, w.start_scan))  # nothing to scan
    for _name, items in shown:
        no_english(items, w)


def test_questions_and_reports_show_no_english(qtbot, zh, answers, monkeypatch):
    w = zh
    w.actions.mark_all_but_one("oldest")
    assert len(w.model.marks) == 3
    for action in ("delete", "trash", "hardlink", "symlink"):
        answers.answers = ["-"]  # no such button: the question is cancelled
        assert not w.actions.act_on_marked(action, dry_run=False)
    monkeypatch.setattr(dialogs, "pick_folder", lambda *a: str(w.src.parent / "moved"))
    answers.answers = ["-"]
    w.actions.act_on_marked("move", dry_run=False)
    assert len(answers.shown) == 5
    for box in answers.shown:
        no_english(texts(box), w)
    # the reports of a dry run and of a real one, with the engine's reasons
    for action, dry in (("hardlink", True), ("trash", False)):
        with qtbot.waitSignal(w.actions.actionFinished, timeout=30_000):
            name, items = opened_by(qtbot, lambda a=action, d=dry: w.actions.act_on_marked(
                a, dry_run=d) if d else _confirmed(answers, w, a))
        qtbot.waitUntil(lambda: w.actions.worker is None)
        assert name == "ReportDialog"
        no_english(items, w)


def _confirmed(answers, w, action: str) -> bool:
    answers.answers = []  # the first button: the action
    return w.actions.act_on_marked(action, dry_run=False)
