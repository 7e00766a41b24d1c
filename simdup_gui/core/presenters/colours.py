"""Colours of the diff, the bit grid, an action's report and the accuracy lab in a light and
a dark scheme (Qt-free); the widgets themselves take the palette's colours.

The app picks the scheme that matches the palette (:func:`scheme_for_window`; the palette
is the system's, or the light or dark one the user chose in View > Theme) and sets it here
with :func:`set_scheme`; the views read :func:`current`. Each text colour is readable on
its backgrounds in its scheme (WCAG contrast ratio >= 4.5, :func:`contrast_ratio`), each
chart line at least 3 against the dark chart (WCAG's bar for graphics); a test checks
every pair.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MIN_CONTRAST = 4.5  # WCAG AA for normal text
MIN_GRAPHICS_CONTRAST = 3.0  # WCAG AA for lines and shapes
LAB_LINES = ("precision", "recall", "f1", "chance", "one_match", "verified", "size16",
             "size32", "size64", "size128")  # the lab's chart lines and bars


@dataclass(frozen=True)
class Scheme:
    name: str
    text: str  # the diff's and the bit grid's text
    row_bg: dict[str, str] = field(default_factory=dict)  # replace / delete / insert rows
    blank_bg: str = ""  # the side that has no line
    word_bg: dict[str, str] = field(default_factory=dict)  # changed words, left / right
    bit_tints: tuple[str, ...] = ()  # one per index block
    bit_diff_bg: str = ""  # a differing bit
    bit_diff_text: str = ""
    block_line: str = ""  # the line between blocks
    frame: str = ""
    page_bg: str = ""  # a text view's background (the report of an action)
    window_bg: str = ""  # the darkest (light scheme: the lightest) usual window background
    status: dict[str, str] = field(default_factory=dict)  # outcome words on page_bg
    warning: str = ""  # a warning label on window_bg
    lab: dict[str, str] = field(default_factory=dict)  # LAB_LINES, on chart_bg
    chart_bg: str = ""  # a chart's plot area (QChart's own theme draws the rest)
    drowned_chart: str = ""  # a chart of a size drowned in chance matches
    drowned_row: str = ""  # its rows in the lab's table, with row_text on them
    row_text: str = ""

    def backgrounds(self) -> list[str]:
        """Every background the scheme's ``text`` is drawn on."""
        return [*self.row_bg.values(), self.blank_bg, *self.word_bg.values(), *self.bit_tints]


LIGHT = Scheme(
    "light", text="#202124",
    row_bg={"replace": "#fef7e0", "delete": "#fce8e6", "insert": "#e6f4ea"},
    blank_bg="#f1f3f4", word_bg={"left": "#f4c7c3", "right": "#b7e1cd"},
    bit_tints=("#e8f0fe", "#fef7e0", "#e6f4ea", "#fce8e6", "#f3e8fd", "#e4f7fb"),
    bit_diff_bg="#c5221f", bit_diff_text="#ffffff", block_line="#1a73e8", frame="#5f6368",
    page_bg="#ffffff", window_bg="#efefef",
    status={"done": "#137333", "planned": "#1967d2", "skipped": "#a85a00",
            "failed": "#c5221f"},
    warning="#b3261e",
    lab={"precision": "#1f77b4", "recall": "#d95f02", "f1": "#2ca02c", "chance": "#7f7f7f",
         "one_match": "#d62728", "verified": "#9467bd", "size16": "#d62728",
         "size32": "#d95f02", "size64": "#2ca02c", "size128": "#1f77b4"},
    chart_bg="#ffffff", drowned_chart="#fff4f2", drowned_row="#fde0dd", row_text="#202124")

DARK = Scheme(
    "dark", text="#e8eaed",
    row_bg={"replace": "#3d3420", "delete": "#4a2527", "insert": "#1f3a28"},
    blank_bg="#2a2b2e", word_bg={"left": "#7a2e2a", "right": "#245c40"},
    bit_tints=("#23314d", "#3d3420", "#1f3a28", "#4a2527", "#3a2a4d", "#1f3d44"),
    bit_diff_bg="#f28b82", bit_diff_text="#202124", block_line="#8ab4f8", frame="#9aa0a6",
    page_bg="#202124", window_bg="#353535",
    status={"done": "#81c995", "planned": "#8ab4f8", "skipped": "#fdd663",
            "failed": "#f28b82"},
    warning="#f28b82",
    lab={"precision": "#8ab4f8", "recall": "#fcad70", "f1": "#81c995", "chance": "#9aa0a6",
         "one_match": "#f28b82", "verified": "#c58af9", "size16": "#f28b82",
         "size32": "#fcad70", "size64": "#81c995", "size128": "#8ab4f8"},
    chart_bg="#202124", drowned_chart="#3c2527", drowned_row="#5c2b29", row_text="#e8eaed")

SCHEMES = {"light": LIGHT, "dark": DARK}
_current = LIGHT


def current() -> Scheme:
    return _current


def set_scheme(name: str) -> Scheme:
    """Use the light or dark scheme from now on (ValueError for another name)."""
    global _current
    if name not in SCHEMES:
        raise ValueError(f"colour scheme must be one of {sorted(SCHEMES)}, not {name!r}")
    _current = SCHEMES[name]
    return _current


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def luminance(colour: str) -> float:
    """WCAG relative luminance of "#rrggbb" (0 black .. 1 white)."""
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = map(lin, _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two "#rrggbb" colours (1 .. 21)."""
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def scheme_for_window(window_bg: str, dark_hint: bool | None = None) -> str:
    """"dark" or "light": the platform's colour-scheme hint when it gives one, else whether
    the palette's window colour is darker than its text would be on white."""
    if dark_hint is not None:
        return "dark" if dark_hint else "light"
    return "dark" if luminance(window_bg) < 0.18 else "light"
