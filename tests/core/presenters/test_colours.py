"""The diff and bit-grid colours are readable in the light and the dark scheme."""

import pytest

from simdup_gui.core.presenters import colours
from simdup_gui.core.presenters.colours import DARK, LIGHT, contrast_ratio, scheme_for_window
from simdup_gui.core.presenters.details import render_side
from simdup_gui.core.review.textdiff import diff_rows


@pytest.mark.parametrize("scheme", [LIGHT, DARK], ids=["light", "dark"])
def test_every_foreground_background_pair_has_contrast_of_at_least_4_5(scheme):
    for bg in scheme.backgrounds():
        assert contrast_ratio(scheme.text, bg) >= colours.MIN_CONTRAST, (scheme.name, bg)
    assert contrast_ratio(scheme.bit_diff_text, scheme.bit_diff_bg) >= colours.MIN_CONTRAST
    for word in (scheme.text, *scheme.status.values()):  # an action's report
        assert contrast_ratio(word, scheme.page_bg) >= colours.MIN_CONTRAST, (scheme.name, word)
    assert contrast_ratio(scheme.warning, scheme.window_bg) >= colours.MIN_CONTRAST
    assert set(scheme.status) == {"done", "planned", "skipped", "failed"}



@pytest.mark.parametrize("scheme", [LIGHT, DARK], ids=["light", "dark"])
def test_the_labs_lines_rows_and_charts_are_readable_in_each_scheme(scheme):
    assert set(scheme.lab) == set(colours.LAB_LINES)
    for line in scheme.lab.values():
        for bg in (scheme.chart_bg, scheme.drowned_chart):
            assert contrast_ratio(line, bg) >= colours.MIN_GRAPHICS_CONTRAST, (scheme.name, line)
    assert contrast_ratio(scheme.row_text, scheme.drowned_row) >= colours.MIN_CONTRAST
    assert (colours.luminance(scheme.chart_bg) < 0.18) == (scheme.name == "dark")


def test_contrast_ratio_matches_wcag_examples():
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def test_the_scheme_follows_the_palette_unless_the_platform_says():
    assert scheme_for_window("#ffffff") == "light"
    assert scheme_for_window("#1e1e1e") == "dark"
    assert scheme_for_window("#ffffff", dark_hint=True) == "dark"
    with pytest.raises(ValueError, match="light"):
        colours.set_scheme("sepia")


def test_the_text_diff_uses_the_current_scheme():
    rows = diff_rows("same\nold line\n", "same\nnew line\n")
    try:
        colours.set_scheme("dark")
        dark = render_side(rows, "left")
        assert DARK.row_bg["replace"] in dark and f"color:{DARK.text}" in dark
        colours.set_scheme("light")
        light = render_side(rows, "left")
        assert LIGHT.row_bg["replace"] in light and DARK.row_bg["replace"] not in light
    finally:
        colours.set_scheme("light")
