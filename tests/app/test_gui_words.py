"""Issue 38, item 12: the words the app says (plurals, times, titles) (pytest-qt, offscreen)."""

import pytest

pytest.importorskip("PySide6")

from simdup_gui.core.textsim import DEFAULT_SIMILARITY  # noqa: E402


def test_the_labs_reference_truth_defaults_to_the_apps_threshold(make):
    w = make([])
    assert w.accuracy_tab.threshold.value() == pytest.approx(DEFAULT_SIMILARITY)
    assert w.panel.threshold_box.value() == round(100 * DEFAULT_SIMILARITY)
