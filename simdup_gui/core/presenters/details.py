"""The details pane: which pair to compare, and the bit diff and text diff as texts.

The views paint; everything they write (titles, the summary, each side of the text diff as
HTML, the file info lines) comes from here.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from dataclasses import dataclass

from ..models import FileRecord, Group, human_size, split_catalog_key
from ..review.bitdiff import BitDiff, bit_diff
from ..review.textdiff import DiffRow, LoadedText, diff_rows, load_text
from . import colours
from .i18n import counted, translate

INITIAL_BYTES = 128 * 1024  # the text diff loads this much of each file, then 4x per "more"


def comparison_pair(group: Group, record: int | None) -> tuple[int, int]:
    """(reference, other): a file row compares with the group's reference; the group row
    or the reference itself compares the reference with its farthest member."""
    other = record if record is not None and record >= 0 else None
    if other is None or other == group.representative:
        cand = [m for m in group.members if m.index != group.representative]
        other = max(cand, key=lambda m: m.distance).index if cand else group.representative
    return group.representative, other


@dataclass(frozen=True)
class BitDiffText:
    title_a: str
    title_b: str
    summary: str


def compare_bits(records: Sequence[FileRecord], i: int, j: int, bits: int,
                 distance: int) -> BitDiff:
    """The bit diff of records ``i`` and ``j`` with the blocks the index uses for them all."""
    return bit_diff(records[i].fingerprint, records[j].fingerprint, bits, distance,
                    n=len(records))


def bit_diff_text(diff: BitDiff | None, name_a: str = "", name_b: str = "") -> BitDiffText:
    if diff is None:
        return BitDiffText(
            translate("BitDiffView", "Reference"), translate("BitDiffView", "Selected file"),
            translate("BitDiffView", "Select a file in a group to compare its fingerprint "
                      "with the group's reference."))
    verdict = (translate("BitDiffView", "within k={0}: a candidate pair").format(
        diff.distance_limit) if diff.within_limit else
        translate("BitDiffView", "beyond k={0}: not proposed by SimHash").format(
            diff.distance_limit))
    summary = translate(
        "BitDiffView",
        "Hamming distance {0} of {1} bits, {2:.1%} of bits equal ({3}). Differing bits are red. "
        "The index splits the {1} bits into {4} blocks (blue lines); {5} of them match "
        "exactly (shaded): by the pigeonhole principle a pair within k differs in at most k "
        "blocks, so it shares at least {6} and the index finds it.").format(
            diff.distance, diff.bits, diff.similarity, verdict, len(diff.blocks),
            len(diff.matching_blocks), counted(max(0, len(diff.blocks) - diff.distance_limit),
                                               translate("BitDiffView", "1 whole block"),
                                               translate("BitDiffView", "{0} whole blocks")))
    return BitDiffText(f"A: {name_a}  <code>{diff.hex_a}</code>",
                       f"B: {name_b}  <code>{diff.hex_b}</code>", summary)


@dataclass
class TextDiff:
    """Both files' info lines (HTML), each side as HTML, and whether there is more."""

    info_a: str
    info_b: str
    left: str
    right: str
    rows: list[DiffRow]
    truncated: bool

    def changed_rows(self) -> int:
        return sum(1 for r in self.rows if r.tag != "equal")


def render_side(rows: Sequence[DiffRow], side: str) -> str:
    """One side of the diff as HTML: a line per row, changed words highlighted."""
    out = []
    c = colours.current()  # light or dark, as the system palette is
    for r in rows:
        text, spans = (r.left, r.left_spans) if side == "left" else (r.right, r.right_spans)
        if text is None:
            out.append(f'<div style="background:{c.blank_bg}">&nbsp;</div>')
            continue
        parts, pos = [], 0
        for s, e in spans:
            parts.append(html.escape(text[pos:s]))
            parts.append(f'<span style="background:{c.word_bg[side]}; color:{c.text}">'
                         f'{html.escape(text[s:e])}</span>')
            pos = e
        parts.append(html.escape(text[pos:]))
        body = "".join(parts) or "&nbsp;"
        style = (f"background:{c.row_bg[r.tag]}; color:{c.text}; " if r.tag in c.row_bg
                 else "")  # an equal row: the view's own colours
        out.append(f'<div style="{style}white-space:pre-wrap">{body}</div>')
    return "".join(out)


def file_info(t: LoadedText | None, err: str | None) -> str:
    if t is None:
        return translate("TextDiffView", "cannot read: {0}").format(err)
    s = translate("TextDiffView", "{0}, line endings {1}, {2}").format(
        t.encoding, t.newline, human_size(t.size))
    return s + (translate("TextDiffView", " (first part shown)") if t.truncated else "")


def text_diff(path_a: str, path_b: str, limit: int = INITIAL_BYTES) -> TextDiff:
    """Load up to ``limit`` bytes of both files and diff them; unreadable files say why."""
    loaded: list[tuple[LoadedText | None, str | None]] = []
    for p in (path_a, path_b):
        away = split_catalog_key(p)
        if away:  # never read: its text is not here
            loaded.append((None, translate("TextDiffView", "it is in catalog {0}, on a drive "
                                           "that is not connected").format(away[0])))
            continue
        try:
            loaded.append((load_text(p, limit), None))
        except (OSError, ValueError) as e:
            loaded.append((None, str(e)))
    (ta, ea), (tb, eb) = loaded
    rows = diff_rows(ta.text if ta else "", tb.text if tb else "")
    return TextDiff("<b>A</b> " + html.escape(file_info(ta, ea)),
                    "<b>B</b> " + html.escape(file_info(tb, eb)),
                    render_side(rows, "left"), render_side(rows, "right"), rows,
                    bool((ta and ta.truncated) or (tb and tb.truncated)))


def names(records: Sequence[FileRecord], i: int, j: int) -> tuple[str, str]:
    return os.path.basename(records[i].path), os.path.basename(records[j].path)
