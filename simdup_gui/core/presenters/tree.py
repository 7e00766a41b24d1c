"""The groups tree as rows and cells: groups at the top, their files below.

Filtering and sorting work on plain lists here (a Qt proxy model calls back into Python for
every row and comparison, which took tens of seconds at 100,000 files). The Qt model in
``app/tree_models.py`` only maps indexes onto :class:`GroupRows`.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from typing import NamedTuple

from ..group import also
from ..models import FileRecord, Group, Member, Problem, human_size
from ..review.catalog import original_path
from . import engine_text
from .i18n import translate

COL_NAME, COL_FOLDER, COL_SIZE, COL_MODIFIED, COL_ENCODING, COL_DISTANCE, COL_SIMILARITY = range(7)
COL_SIZE_DELTA, COL_AGE_DELTA = 7, 8  # against the group's reference (dupeGuru's delta values)
COL_CLOSEST = 9  # similarity to the member's closest other member (its name in the tooltip)
COLUMNS = 10
DELTA_COLUMNS = (COL_SIZE_DELTA, COL_AGE_DELTA)
RIGHT_ALIGNED = (COL_SIZE, COL_DISTANCE, COL_SIMILARITY, COL_SIZE_DELTA, COL_AGE_DELTA,
                 COL_CLOSEST)
GROUP_COLUMNS = (COL_NAME, COL_SIZE, COL_DISTANCE)  # the columns a group's own row fills
CTX = "GroupTreeModel"


def headers() -> list[str]:
    return [translate("GroupTreeModel", "Name"), translate("GroupTreeModel", "Folder"),
            translate("GroupTreeModel", "Size"), translate("GroupTreeModel", "Modified"),
            translate("GroupTreeModel", "Encoding"), translate("GroupTreeModel", "Distance"),
            translate("GroupTreeModel", "Similarity"),
            translate("GroupTreeModel", "Δ Size"),
            translate("GroupTreeModel", "Δ Modified"),
            translate("GroupTreeModel", "Closest")]


def signed_size(n: int) -> str:
    """A size difference: "+1.2 KB", "−340 B", "0 B"."""
    return ("+" if n > 0 else "−" if n < 0 else "") + human_size(abs(n))


def signed_age(seconds: float) -> str:
    """A modification time difference: "+3 d" (newer than the reference), "−2 h" (older)."""
    sign = "+" if seconds > 0 else "−" if seconds < 0 else ""
    s = abs(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if s >= size:
            return f"{sign}{s / size:.0f} {unit}"
    return f"{sign}{s:.0f} s"


def _sim(m: Member) -> float:
    return -1.0 if m.similarity is None else m.similarity


def _closest(m: Member) -> float:
    return -1.0 if m.closest_similarity is None else m.closest_similarity


class GroupSummary(NamedTuple):
    """What a group's own row says of its members, found in one pass over them."""

    exact: bool  # every member has the reference's normalised text
    templates: int  # members that share mostly template text with the reference
    away: int  # members in a catalog (a drive that is not connected)
    size: int  # the members' bytes
    distance: int  # the largest distance to the reference


class GroupRows:
    """What the tree shows: ``rows`` is [(position in ``groups``, members in display order)]."""

    def __init__(self) -> None:
        self.records: Sequence[FileRecord] = []
        self.groups: list[Group] = []  # every group, in the engine's order
        self.bits = 64
        self.rows: list[tuple[int, list[Member]]] = []
        self.filter_text = ""
        self.sort_column = -1
        self.descending = False
        self.dupes_only = False  # hide each group's reference (dupeGuru's "dupes only")
        self.notes: dict[int, list[also.Note]] = {}  # id(group): its "also similar to" notes
        self.summaries: dict[int, GroupSummary] = {}  # by position in groups, once shown

    def set_data(self, records: Sequence[FileRecord], groups: list[Group], bits: int) -> None:
        self.records, self.groups, self.bits = records, groups, bits
        self.rebuild()

    def set_filter(self, text: str) -> None:
        """Show only groups with a file whose path contains ``text`` (any case)."""
        self.filter_text = text
        self.rebuild()

    def set_dupes_only(self, on: bool) -> None:
        """Show only the duplicates, not the reference each is compared with."""
        self.dupes_only = on
        self.rebuild()

    def size_delta(self, g: Group, m: Member) -> int:
        return self.records[m.index].size - self.records[g.representative].size

    def age_delta(self, g: Group, m: Member) -> float:
        """Seconds this file was modified after (+) or before (-) the reference."""
        return (self.records[m.index].mtime_ns - self.records[g.representative].mtime_ns) / 1e9

    def set_sort(self, column: int, descending: bool) -> None:
        self.sort_column, self.descending = column, descending
        self.rebuild()

    def _group_key(self, gi: int):
        g = self.groups[gi]
        col = self.sort_column
        if col == COL_SIZE:
            return sum(self.records[m.index].size for m in g.members)
        if col == COL_DISTANCE:
            return max(m.distance for m in g.members)
        if col == COL_SIMILARITY:
            return min(_sim(m) for m in g.members)
        if col == COL_CLOSEST:
            return min(_closest(m) for m in g.members)
        if col == COL_MODIFIED:
            return max(self.records[m.index].mtime_ns for m in g.members)
        if col == COL_SIZE_DELTA:
            return max(abs(self.size_delta(g, m)) for m in g.members)
        if col == COL_AGE_DELTA:
            return max(abs(self.age_delta(g, m)) for m in g.members)
        if col in (COL_FOLDER, COL_ENCODING):  # the reference's
            r = self.records[g.representative]
            return (os.path.dirname(r.path).lower() if col == COL_FOLDER else r.encoding, g.id)
        return g.id  # the name column: the group number it shows

    def _member_key(self, g: Group, m: Member):
        r = self.records[m.index]
        col = self.sort_column
        if col == COL_SIZE_DELTA:
            return self.size_delta(g, m)
        if col == COL_AGE_DELTA:
            return self.age_delta(g, m)
        if col == COL_CLOSEST:
            return _closest(m)
        return [os.path.basename(r.path).lower(), os.path.dirname(r.path).lower(), r.size,
                r.mtime_ns, r.encoding, m.distance, _sim(m)][col]

    def rebuild(self) -> None:
        self.summaries = {}  # a new dict: a copy (flat.derive) must not share the old one
        self.notes = {id(g): n for g, n in zip(self.groups, also.resolve(self.groups)) if n}
        needle = self.filter_text.casefold()
        rows = []
        for gi, g in enumerate(self.groups):
            if needle and not any(needle in self.records[m.index].path.casefold()
                                  for m in g.members):
                continue
            rows.append((gi, [m for m in g.members if not (
                self.dupes_only and m.index == g.representative)]))
        if self.sort_column >= 0:
            rows.sort(key=lambda r: self._group_key(r[0]), reverse=self.descending)
            for gi, members in rows:
                g = self.groups[gi]
                members.sort(key=lambda m, g=g: self._member_key(g, m), reverse=self.descending)
        self.rows = rows

    def group_at(self, row: int) -> Group:
        return self.groups[self.rows[row][0]]

    def summary(self, gi: int) -> GroupSummary:
        """Group ``gi``'s :class:`GroupSummary`, kept once made: the view asks for a group
        row's texts at each paint and size hint (about 8 times a cell), and each went over
        every member again (the largest groups of the 768 MB tree have 375 and 311)."""
        s = self.summaries.get(gi)
        if s is None:
            g, recs = self.groups[gi], self.records
            exact, templates, away, size, distance = True, 0, 0, 0, 0
            for m in g.members:
                r = recs[m.index]
                exact = exact and m.exact
                templates += bool(m.template)
                away += bool(r.catalog)
                size += r.size
                distance = max(distance, m.distance)
            s = self.summaries[gi] = GroupSummary(exact, templates, away, size, distance)
        return s

    def notes_of(self, g: Group, m: Member | None = None) -> list[also.Note]:
        """The group's "also similar to" notes (of member ``m`` alone, when given)."""
        notes = self.notes.get(id(g), [])
        return notes if m is None else also.member_notes(notes, m.index)

    @staticmethod
    def also_groups(notes: list[also.Note]) -> str:
        """The other groups' ids of ``notes``: "3, 5" (at most three, then "…")."""
        ids = sorted({n.group for n in notes})
        return ", ".join(map(str, ids[:3])) + (", …" if len(ids) > 3 else "")

    def member_at(self, row: int, child: int) -> tuple[Group, Member]:
        gi, members = self.rows[row]
        return self.groups[gi], members[child]

    # ---- cells ----------------------------------------------------------------------
    def group_text(self, row: int, col: int) -> str | None:
        """The text of group row ``row`` in column ``col``: None outside GROUP_COLUMNS."""
        gi = self.rows[row][0]
        g, s = self.groups[gi], self.summary(gi)
        if col == COL_NAME:
            kind = (translate("GroupTreeModel", "exact text") if s.exact
                    else translate("GroupTreeModel", "near-duplicates"))
            text = translate("GroupTreeModel", "Group {0}: {1} files, {2}").format(
                g.id, len(g.members), kind)
            if s.templates:
                text += " · " + translate("GroupTreeModel",
                                          "{0} share mostly template text").format(s.templates)
            notes = self.notes_of(g)
            if notes:
                text += " · " + translate("GroupTreeModel", "also similar to group {0}").format(
                    self.also_groups(notes))
            if s.away:
                text += " · " + translate("GroupTreeModel", "{0} in a catalog").format(s.away)
            return text
        if col == COL_SIZE:
            return human_size(s.size)
        if col == COL_DISTANCE:
            return str(s.distance)
        return None

    def member_text(self, g: Group, m: Member, col: int) -> str | None:
        r = self.records[m.index]
        if col == COL_NAME:
            return os.path.basename(r.path) + (" ★" if m.index == g.representative else "")
        if col == COL_FOLDER:
            return (translate("GroupTreeModel", "in catalog {0} (not connected)").format(
                r.catalog) if r.catalog else os.path.dirname(r.path))
        if col == COL_SIZE:
            return human_size(r.size)
        if col == COL_MODIFIED:
            return time.strftime("%Y-%m-%d %H:%M", time.localtime(r.mtime_ns / 1e9))
        if col == COL_ENCODING:
            return r.encoding
        if col == COL_DISTANCE:
            return str(m.distance)
        if col in DELTA_COLUMNS:
            if m.index == g.representative:
                return "—"
            return (signed_size(self.size_delta(g, m)) if col == COL_SIZE_DELTA
                    else signed_age(self.age_delta(g, m)))
        if col == COL_SIMILARITY:
            if r.too_short:
                return translate("GroupTreeModel", "too short")
            if m.similarity is None:
                return "?"
            guess = "~" if self.estimated_by_catalog(g, m) else ""  # (no text to measure)
            return (f"{guess}{m.similarity:.0%}" + (" =" if m.exact else "")
                    + (" · " + translate("GroupTreeModel", "template") if m.template else ""))
        if col == COL_CLOSEST:
            notes = self.notes_of(g, m)
            more = (" · " + translate("GroupTreeModel", "also group {0}").format(
                self.also_groups(notes))) if notes else ""
            if m.closest_similarity is None:
                return "—" + more
            return f"{m.closest_similarity:.0%}" + (" ≡" if self.same_text(g, m) else "") + more
        return None

    def same_text(self, g: Group, m: Member) -> list[int]:
        """The other members whose normalised text is this member's (one "same text" set:
        shown with ≡ and named in the tooltip; they sort next to each other)."""
        h = self.records[m.index].text_hash
        if not h:
            return []
        return [x.index for x in g.members
                if x.index != m.index and self.records[x.index].text_hash == h]

    def estimated_by_catalog(self, g: Group, m: Member) -> bool:
        """The member's similarity involves a catalogued file (review/catalog.py), whose
        text is not here: it is the sketches' estimate."""
        return m.index != g.representative and not m.measured and bool(
            self.records[m.index].catalog or self.records[g.representative].catalog)

    def member_tooltip(self, g: Group, m: Member) -> str:
        r = self.records[m.index]
        tip = [original_path(r)]
        if r.catalog:
            tip.append(translate("GroupTreeModel",
                                 "In catalog {0}, on a drive that is not connected: only its "
                                 "fingerprint and sketch are known, so its similarity is "
                                 "estimated, and it is never marked, moved or deleted").format(
                                     r.catalog))
        if m.index == g.representative:
            tip.append(translate("GroupTreeModel",
                                 "Reference of the group: every member is compared with it"))
        if m.exact:
            tip.append(translate("GroupTreeModel", "Same normalised text as the reference"))
        if m.similarity is not None and m.index != g.representative:
            how = (translate("GroupTreeModel", "measured from both files") if m.measured else
                   translate("GroupTreeModel", "estimated from sketches"))
            tip.append(translate("GroupTreeModel",
                                 "Text similarity to the reference: {0:.1%} ({1})").format(
                                     m.similarity, how))
        if m.closest >= 0 and m.closest_similarity is not None:
            tip.append(translate("GroupTreeModel", "Closest member: {0} ({1:.1%})").format(
                os.path.basename(self.records[m.closest].path), m.closest_similarity))
        for n in self.notes_of(g, m):
            tip.append(translate("GroupTreeModel", "Also similar to {0} in group {1} ({2:.1%}): "
                                                   "a near-duplicate shown in that group (each "
                                                   "file is in one group only)").format(
                os.path.basename(self.records[n.other].path), n.group, n.similarity))
        twins = self.same_text(g, m)
        if twins:
            names = ", ".join(os.path.basename(self.records[i].path) for i in twins[:5])
            tip.append(translate("GroupTreeModel", "Same text (≡) as {0} other member(s): "
                                                   "{1}").format(len(twins), names
                                                                 + (", …" if len(twins) > 5
                                                                    else "")))
        if m.template:
            tip.append(translate("GroupTreeModel",
                                 "Most of the text it shares with the reference is a template "
                                 "found in {0} other documents (pages of one generator, one "
                                 "licence in many projects): maybe not a copy. Keep rules "
                                 "leave it unmarked unless you say otherwise.").format(
                                     m.template))
        if r.too_short:
            tip.append(translate("GroupTreeModel",
                                 "Too short to compare (five characters or fewer): "
                                 "grouped only with the same text"))
        if r.low_confidence:
            tip.append(translate("GroupTreeModel",
                                 "Short text: few words, so the fingerprint is less reliable"))
        return "\n".join(tip)


def problems_headers() -> list[str]:
    return [translate("ProblemsModel", "Kind"), translate("ProblemsModel", "Reason"),
            translate("ProblemsModel", "Path")]


def problem_reason(p: Problem) -> str:
    """A problem's reason as the app says it: where the engine's text names a command-line
    option, this names the setting to click instead."""
    if p.kind == "symlink":
        return translate("ProblemsModel", "symbolic link not followed: tick \"Follow symbolic "
                                          "links\" in Settings and scan again to include it")
    size = re.search(r"\((\d+) bytes\)", p.reason)
    if p.kind == "too_large" and size:
        return translate("ProblemsModel", "larger than the maximum size ({0}): raise \"Maximum "
                                          "size\" in Settings to include it").format(
            human_size(int(size.group(1))))
    if p.kind == "too_small" and size:
        return translate("ProblemsModel", "smaller than the minimum size ({0}): lower \"Minimum "
                                          "size\" in Settings to include it").format(
            human_size(int(size.group(1))))
    return engine_text.PROBLEMS(p.reason)


def results_summary(shown: int, groups: int, marked: int, marked_bytes: int) -> str:
    """Above the tree: the groups, how many the filter shows, the marks and the space that
    acting on them would reclaim."""
    text = translate("GroupTreeModel", "{0} groups").format(groups) if shown == groups else \
        translate("GroupTreeModel", "{0} of {1} groups shown").format(shown, groups)
    return text + " · " + translate("GroupTreeModel", "{0} marked, {1} to reclaim").format(
        marked, human_size(marked_bytes))
