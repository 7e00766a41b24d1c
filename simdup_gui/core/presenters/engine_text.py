"""The engine's own English texts in the interface's language: an action's per-file reasons,
why an action was refused before it began, why a file was skipped by the scan (the
Problems tab), how the lab measured its reference truth, and the index plan (the About
box). The engine writes them in English for the CLI, the
journals and the results files; here each known phrase is a template whose ``{n}`` parts are
matched back out of the text and put into its translation. A text is split at "; " (outside
parentheses) when it is not one phrase whole; a piece may start with the path it is about
("/x/a.txt no longer exists"); a piece no template knows stays as the engine wrote it.
"""

from __future__ import annotations

import re

from .i18n import translate


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate knows
    """Marks ``text`` for translation (tools/update_translations.py) without translating."""
    return text


def _pattern(template: str) -> re.Pattern:
    """``template`` as a regular expression: each {n} a group; a repeated {n} the same text."""
    out, seen, pos = [], set(), 0
    for m in re.finditer(r"\{(\d)\}", template):
        out.append(re.escape(template[pos:m.start()]))
        n = m.group(1)
        out.append(f"(?P=g{n})" if n in seen else f"(?P<g{n}>.+?)")
        seen.add(n)
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out))


def _pieces(text: str) -> list[str]:
    """``text`` split at "; " outside parentheses."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and text.startswith("; ", i):
            out.append(text[start:i])
            start = i + 2
    return [*out, text[start:]]


def _balanced(part: str) -> bool:
    """No ")" before its "(" and none left open: a part never spans two phrases' brackets."""
    depth = 0
    for ch in part:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


class Phrasebook:
    """Translates texts made of the ``templates`` (context ``context``)."""

    def __init__(self, context: str, templates: tuple[str, ...]) -> None:
        self.context = context
        self.patterns = [(_pattern(t), t) for t in templates]

    def _exact(self, text: str) -> str | None:
        for pattern, template in self.patterns:
            m = pattern.fullmatch(text)
            if m and all(_balanced(v) for v in m.groupdict().values()):
                args = m.groupdict()
                values = [self(args[f"g{i}"]) for i in range(10) if f"g{i}" in args]
                return translate(self.context, template).format(*values)
        return None

    def _piece(self, piece: str) -> str:
        exact = self._exact(piece)
        if exact is not None or not re.match(r"/|\\|[A-Za-z]:\\", piece):
            return piece if exact is None else exact
        head, sep, rest = piece.partition(" ")  # "/a/path with spaces no longer exists"
        while sep:
            exact = self._exact(rest)
            if exact is not None:
                return f"{head} {exact}"
            more, sep, rest = rest.partition(" ")
            head = f"{head} {more}"
        return piece

    def __call__(self, text: str) -> str:
        """``text`` translated line by line, each line piece by piece (its indent kept)."""
        if "\n" in text:
            return "\n".join(map(self, text.split("\n")))
        body = text.lstrip(" ")
        if not body:
            return text
        pieces = (self._piece(p) for p in _pieces(body))
        return text[:len(text) - len(body)] + translate("Reason", "; ").join(pieces)


REASONS = Phrasebook("Reason", (
    QT_TRANSLATE_NOOP("Reason", "would become a hard link to {0}"),
    QT_TRANSLATE_NOOP("Reason", "would become a symbolic link to {0}"),
    QT_TRANSLATE_NOOP("Reason", "now a hard link to {0}"),
    QT_TRANSLATE_NOOP("Reason", "now a symbolic link to {0}"),
    QT_TRANSLATE_NOOP("Reason", "the original is held in {0} for undo"),
    QT_TRANSLATE_NOOP("Reason", "the original is held in {0} for undo (copied: another file "
                                "system)"),
    QT_TRANSLATE_NOOP("Reason", "has {0} other hard link(s)"),
    QT_TRANSLATE_NOOP("Reason", "no space is freed"),
    QT_TRANSLATE_NOOP("Reason", "copied across file systems, verified, original removed"),
    QT_TRANSLATE_NOOP("Reason", "undo cannot restore it on this platform: restore it from the "
                                "system trash"),
    QT_TRANSLATE_NOOP("Reason", "cancelled before this file"),
    QT_TRANSLATE_NOOP("Reason", "the last copy on this computer: only a catalog says a copy is "
                                "on a drive that is not plugged in, and on a catalog's word a "
                                "file is moved or trashed, never deleted permanently"),
    QT_TRANSLATE_NOOP("Reason", "not byte-identical to any kept copy (a near duplicate): a "
                                "link would lose its differences, so only exact copies are "
                                "replaced by links"),
    QT_TRANSLATE_NOOP("Reason", "not touched"),
    QT_TRANSLATE_NOOP("Reason", "another simdup is acting on it or on its kept copy right now "
                                "(another window, user or machine)"),
    QT_TRANSLATE_NOOP("Reason", "not touched, so the two never take both copies"),
    QT_TRANSLATE_NOOP("Reason", "no unchanged kept copy remains ({0})"),
    QT_TRANSLATE_NOOP("Reason", "no unchanged byte-identical kept copy remains ({0})"),
    QT_TRANSLATE_NOOP("Reason", "is the file to remove itself"),
    QT_TRANSLATE_NOOP("Reason", "its kept copy {0} changed just now"),
    QT_TRANSLATE_NOOP("Reason", "no longer exists"),
    QT_TRANSLATE_NOOP("Reason", "is now a symbolic link"),
    QT_TRANSLATE_NOOP("Reason", "is no longer a regular file"),
    QT_TRANSLATE_NOOP("Reason", "size changed since the scan ({0} -> {1} bytes)"),
    QT_TRANSLATE_NOOP("Reason", "modified since the scan (modification time differs)"),
    QT_TRANSLATE_NOOP("Reason", "content changed since the scan (hash differs)"),
    QT_TRANSLATE_NOOP("Reason", "already back (an earlier undo was cut off)"),
    QT_TRANSLATE_NOOP("Reason", "finished an undo that was cut off"),
    QT_TRANSLATE_NOOP("Reason", "restored, but its content had changed since the action"),
    QT_TRANSLATE_NOOP("Reason", "deleted permanently"),
    QT_TRANSLATE_NOOP("Reason", "cannot be restored"),
    QT_TRANSLATE_NOOP("Reason", "finished from the journal after an interruption"),
    # copy and rename (issue 38, item 14: act/copying.py)
    QT_TRANSLATE_NOOP("Reason", "the copy was removed"),
    QT_TRANSLATE_NOOP("Reason", "the copy {0} is gone already"),
    QT_TRANSLATE_NOOP("Reason", "the copy {0} was changed since it was made"),
    QT_TRANSLATE_NOOP("Reason", "{0} is no longer the copy simdup made"),
    QT_TRANSLATE_NOOP("Reason", "left it there"),
    QT_TRANSLATE_NOOP("Reason", "its original {0} is not as it was ({1}), so the copy may be "
                                "the last one of its text"),
    QT_TRANSLATE_NOOP("Reason", "the copy stays at {0}"),
    QT_TRANSLATE_NOOP("Reason", "{0} exists already: a rename never replaces a file"),
    QT_TRANSLATE_NOOP("Reason", "not renamed"),
))

INDEX_PLAN = Phrasebook("IndexPlan", (
    QT_TRANSLATE_NOOP("IndexPlan", "block index: {0} blocks, {1} tables keyed on {2} bits, "
                                   "{3} candidates, {4} pairs"),
    QT_TRANSLATE_NOOP("IndexPlan", "multi-probe block index: {0} blocks, each pair has a block "
                                   "within {1} bits"),
    QT_TRANSLATE_NOOP("IndexPlan", "{0} bucket look-ups per fingerprint, {1} candidates, {2} "
                                   "pairs"),
    QT_TRANSLATE_NOOP("IndexPlan", "vectorised scan of {0} fingerprints ({1}), {2} pairs"),
    QT_TRANSLATE_NOOP("IndexPlan", "exact matches only (k=0), {0} distinct fingerprints"),
    QT_TRANSLATE_NOOP("IndexPlan", "few fingerprints: a scan is cheapest"),
    QT_TRANSLATE_NOOP("IndexPlan", "k={0} is too large at {1} bits for blocks to beat a scan"),
    QT_TRANSLATE_NOOP("IndexPlan", "forced"),
    QT_TRANSLATE_NOOP("IndexPlan", "short texts by their sketches: {0} pairs, {1} new"),
    QT_TRANSLATE_NOOP("IndexPlan", "{0} candidate pairs, {1} verified at the threshold ({2} "
                                   "measured from the files, {3} from sketches)"),
    QT_TRANSLATE_NOOP("IndexPlan", "{0} pairs kept apart (a shared template)"),
    QT_TRANSLATE_NOOP("IndexPlan", "{0} pairs flagged (a shared template)"),
    QT_TRANSLATE_NOOP("IndexPlan", "SimHash k={0} ({1}) plus sketch LSH ({2} bands of {3}) "
                                   "within k={4}: {5} + {6} candidate pairs, {7} distinct"),
    QT_TRANSLATE_NOOP("IndexPlan", "SimHash k={0} ({1}) plus sketch LSH on the Dask cluster "
                                   "({2} bands of {3}) within k={4}: {5} + {6} candidate pairs, "
                                   "{7} distinct"),
    QT_TRANSLATE_NOOP("IndexPlan", "candidate distance lowered from {0} to {1}: at k={0} about "
                                   "{2} pairs of these files would be candidates (more than "
                                   "{3})"),
))

REFUSALS = Phrasebook("Refusal", (
    # make reference, copy, rename, exclude, custom command (issue 38, items 7, 14-16)
    QT_TRANSLATE_NOOP("Refusal", "{0} is in no group"),
    QT_TRANSLATE_NOOP("Refusal", "{0} exists already: a rename never replaces a file"),
    QT_TRANSLATE_NOOP("Refusal", "{0} has that name already"),
    QT_TRANSLATE_NOOP("Refusal", "the new name is empty"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is not a file name (a name has no folder in it)"),
    QT_TRANSLATE_NOOP("Refusal", "destination is not a folder: {0}"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is not inside a scanned folder"),
    QT_TRANSLATE_NOOP("Refusal", "to stop scanning a scanned folder, remove it from the folders "
                                 "to scan"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is inside the scanned folder {1}: the copies will be found "
                                 "as duplicates by its next scan"),
    QT_TRANSLATE_NOOP("Refusal", "a folder outside keeps them out"),
    QT_TRANSLATE_NOOP("Refusal", "the custom command cannot be read: {0}"),
    QT_TRANSLATE_NOOP("Refusal", "no custom command is set (Preferences)"),
    QT_TRANSLATE_NOOP("Refusal", "the custom command needs a second file (%b), and there is "
                                 "none"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is under a reference folder, and files there are never "
                                 "touched"),
    QT_TRANSLATE_NOOP("Refusal", "Refused, nothing was done: this would leave files with no "
                                 "copy (or none similar enough)."),
    QT_TRANSLATE_NOOP("Refusal", "group {0}: all {1} files are marked"),
    QT_TRANSLATE_NOOP("Refusal", "unmark at least one to keep"),
    QT_TRANSLATE_NOOP("Refusal", "group {0}: {1} has no kept copy at least {2} similar in text"),
    QT_TRANSLATE_NOOP("Refusal", "the most similar kept copy is {0} at {1}"),
    QT_TRANSLATE_NOOP("Refusal", "Unmark a file similar to each of these (the group's reference "
                                 "★ is similar to every member)."),
    QT_TRANSLATE_NOOP("Refusal", "{0} marked files are in no group, so no copy of them is known "
                                 "to stay (first: {1})"),
    QT_TRANSLATE_NOOP("Refusal", "Refused, nothing was done: {0} marked files are under a "
                                 "reference folder, and files there are never touched (first: "
                                 "{1}). Unmark them or change the reference folders."),
    # catalogs (issue 41, part 2: review/catalog.py, act/actions.py)
    QT_TRANSLATE_NOOP("Refusal", "Refused, nothing was done: {0} marked files are from a "
                                 "catalog, not on this computer, and files there are never "
                                 "touched (first: {1})."),
    QT_TRANSLATE_NOOP("Refusal", "group {0}: {1} keeps no copy on this computer, and a link "
                                 "needs one here (its copy is in the catalog {2})"),
    QT_TRANSLATE_NOOP("Refusal", "group {0}: {1} keeps no copy on this computer, and no file of "
                                 "a catalog has its bytes (a near duplicate's differences are "
                                 "not on that drive)"),
    QT_TRANSLATE_NOOP("Refusal", "{0} marked files would keep no copy on this computer: only "
                                 "the catalog {1} says a byte-identical copy is on a drive that "
                                 "is not plugged in (first: {2}). Relying on a catalog for the "
                                 "last copy here must be chosen explicitly."),
    QT_TRANSLATE_NOOP("Refusal", "Refused, nothing was done: {0}"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is in a catalog, not on this computer"),
    QT_TRANSLATE_NOOP("Refusal", "the file is in a catalog, on a drive that is not connected"),
    QT_TRANSLATE_NOOP("Refusal", "cannot read the catalog {0}: {1}"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is not a simdup catalog (not an SQLite file)"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is not a simdup catalog (other tables in it)"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is damaged or not a simdup catalog: {1}"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is damaged: {1}"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is a catalog of format version {1}"),
    QT_TRANSLATE_NOOP("Refusal", "this simdup reads version {0}"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is not compared: {1}"),
    QT_TRANSLATE_NOOP("Refusal", "{0} is compared with already"),
    QT_TRANSLATE_NOOP("Refusal", "another catalog is called {0} already"),
    QT_TRANSLATE_NOOP("Refusal", "compare again"),
    QT_TRANSLATE_NOOP("Refusal", "group {0}: {1} is the last copy on this computer"),
    QT_TRANSLATE_NOOP("Refusal", "on a catalog's word it may be moved or trashed, never be "
                                 "deleted permanently (its copy is in the catalog {0})"),
    QT_TRANSLATE_NOOP("Refusal", "it was made with other fingerprint settings ({0}), so its "
                                 "fingerprints cannot be compared"),
    QT_TRANSLATE_NOOP("Refusal", "scan with the features setting {0} to compare with it"),
))

PROBLEMS = Phrasebook("ProblemsModel", (
    QT_TRANSLATE_NOOP("ProblemsModel", "empty file (0 bytes)"),
    QT_TRANSLATE_NOOP("ProblemsModel", "empty file"),
    QT_TRANSLATE_NOOP("ProblemsModel", "not fingerprinted"),
    QT_TRANSLATE_NOOP("ProblemsModel", "binary content (NUL bytes)"),
    QT_TRANSLATE_NOOP("ProblemsModel", "binary content (control bytes)"),
    QT_TRANSLATE_NOOP("ProblemsModel", "binary content ({0} NUL bytes after the first {1} bytes)"),
    QT_TRANSLATE_NOOP("ProblemsModel", "binary or unknown encoding ({0} undecodable characters, "
                                       "best guess {1})"),
    QT_TRANSLATE_NOOP("ProblemsModel", "no words to fingerprint (only spaces or punctuation)"),
    QT_TRANSLATE_NOOP("ProblemsModel", "permission denied"),
    QT_TRANSLATE_NOOP("ProblemsModel", "vanished during the scan"),
    QT_TRANSLATE_NOOP("ProblemsModel", "broken symbolic link"),
    QT_TRANSLATE_NOOP("ProblemsModel", "symbolic link loop"),
    QT_TRANSLATE_NOOP("ProblemsModel", "cannot open: {0}"),
    QT_TRANSLATE_NOOP("ProblemsModel", "read error: {0}"),
    QT_TRANSLATE_NOOP("ProblemsModel", "cannot stat: {0}"),
    QT_TRANSLATE_NOOP("ProblemsModel", "cannot list folder: {0}"),
    QT_TRANSLATE_NOOP("ProblemsModel", "cannot read root: {0}"),
    QT_TRANSLATE_NOOP("ProblemsModel", "not a regular file (FIFO, socket or device)"),
    QT_TRANSLATE_NOOP("ProblemsModel", "not a regular file or folder"),
    QT_TRANSLATE_NOOP("ProblemsModel", "not read"),
    QT_TRANSLATE_NOOP("ProblemsModel", "too large to fingerprint in memory"),
    QT_TRANSLATE_NOOP("ProblemsModel", "folder already visited through a symbolic link (a loop "
                                       "or an alias)"),
    QT_TRANSLATE_NOOP("ProblemsModel", "not entered again"),
    QT_TRANSLATE_NOOP("ProblemsModel", "same file as {0} (hard link or followed symlink)"),
    QT_TRANSLATE_NOOP("ProblemsModel", "read once"),
    QT_TRANSLATE_NOOP("ProblemsModel", "catalog not compared: it was made with other "
                                       "fingerprint settings ({0}), so its fingerprints cannot "
                                       "be compared"),
    QT_TRANSLATE_NOOP("ProblemsModel", "scan with the features setting {0} to compare with it"),
    QT_TRANSLATE_NOOP("ProblemsModel", "the worker processes could not be started ({0})"),
    QT_TRANSLATE_NOOP("ProblemsModel", "the worker processes keep ending as they start (the "
                                       "last exit code {0})"),
    QT_TRANSLATE_NOOP("ProblemsModel", "the scan went on in its own process, more slowly"),
))
_PROBLEM_KINDS = {
    "empty": QT_TRANSLATE_NOOP("ProblemsModel", "empty"),
    "binary": QT_TRANSLATE_NOOP("ProblemsModel", "binary"),
    "undecodable": QT_TRANSLATE_NOOP("ProblemsModel", "undecodable"),
    "no_text": QT_TRANSLATE_NOOP("ProblemsModel", "no text"),
    "unreadable": QT_TRANSLATE_NOOP("ProblemsModel", "unreadable"),
    "vanished": QT_TRANSLATE_NOOP("ProblemsModel", "vanished"),
    "special": QT_TRANSLATE_NOOP("ProblemsModel", "special file"),
    "symlink": QT_TRANSLATE_NOOP("ProblemsModel", "symbolic link"),
    "symlink_loop": QT_TRANSLATE_NOOP("ProblemsModel", "link loop"),
    "same_file": QT_TRANSLATE_NOOP("ProblemsModel", "same file"),
    "too_large": QT_TRANSLATE_NOOP("ProblemsModel", "too large"),
    "too_small": QT_TRANSLATE_NOOP("ProblemsModel", "too small"),
    "document": QT_TRANSLATE_NOOP("ProblemsModel", "document"),
    "cache": QT_TRANSLATE_NOOP("ProblemsModel", "cache"),
    "catalog": QT_TRANSLATE_NOOP("ProblemsModel", "catalog"),
    "error": QT_TRANSLATE_NOOP("ProblemsModel", "error"),
}


def problem_kind(kind: str) -> str:
    """A problem's kind (core.models.Problem.kind) as the Problems tab names it."""
    name = _PROBLEM_KINDS.get(kind)
    return kind if name is None else translate("ProblemsModel", name)

LAB_SAMPLING = Phrasebook("AccuracyTab", (
    QT_TRANSLATE_NOOP("AccuracyTab", "exact, no sampling: all {0} pairs of {1} files"),
    QT_TRANSLATE_NOOP("AccuracyTab", "prefix filtering at J >= {0} gave {1} candidate pairs, {2} "
                                     "candidate pairs measured exactly after the size and "
                                     "position filters"),
    QT_TRANSLATE_NOOP("AccuracyTab", "the other {0} pairs are provably below {1} (different)"),
    QT_TRANSLATE_NOOP("AccuracyTab", "{0} duplicate pairs, {1} grey-zone pairs ({2} <= J < {3}) "
                                     "left out of the scores"),
    QT_TRANSLATE_NOOP("AccuracyTab", "{0} duplicate pairs, no grey zone"),
    QT_TRANSLATE_NOOP("AccuracyTab", "{0} s ({1} s shingling, {2} s join)"),
))


def outcome_reason(reason: str) -> str:
    """An action's reason for one file (core/act), in the interface's language."""
    return REASONS(reason)


def index_plan(plan: str) -> str:
    """How the groups were found (core/group: the index and the verification), translated."""
    return INDEX_PLAN(plan)
