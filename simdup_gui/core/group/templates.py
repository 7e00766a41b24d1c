"""Stage 2b of verified grouping: different documents built on one template stay apart.

Two man pages made by one generator, or two projects' copies of one licence notice, can share
70-95 % of their 5-grams and still not be copies of each other: the text they share is a
template found in many documents of the collection, and the text that makes each what it is
differs. A user's question is "is this file a copy of that one?", so a pair that reaches the
threshold keeps its place only if the text it shares is not all template.

How, on the 512-byte sketches every record already carries (textsim's bottom-k of its
5-gram hashes):

1. **Documents, not files.** Pairs at COPY_J (0.90) or above are one document (copies, backups,
   re-encodings, light edits); their connected components are the collection's documents, so
   that many backups of one folder do not make its own text look common.
2. **Rare text.** A sketch value found in the sketches of at most RARE_DOCUMENTS documents is
   rare: the text of a few documents, not a template.
3. **The veto.** For each verified pair below SAME_TEXT (the same text under another name is
   a copy, whatever its origin), among the k smallest values of the union of both sketches
   (the estimator of J itself) the rare ones are counted: those of each file, and those in
   both. When at least MIN_RARE are rare and the shared ones are fewer than VETO_BELOW of the
   rare values of the file that has fewer, the pair is kept apart: what the two files share
   is a template, and each one's own text is not in the other. Measured against the file
   with fewer rare values (not the union), a copy with a header or a chapter added keeps its
   place: all of its original's own text is in it. A pair with too few rare values keeps its
   J verdict (a collection of a few documents, or a file that is nearly all template).

The similarity shown stays the measured J; each pair kept apart carries why (how many other
documents hold the shared text). With ``measure="plain"`` (the default) the same pairs are
found and stay grouped, flagged: a member whose text shared with its reference is a template
says so, and keep rules leave it alone unless the user confirms (marking.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..models import FileRecord
from ..textsim import EMPTY, SKETCH_K, sketch_array, sorted_unique, union_sample
from .graph import components, unique_inverse
from .measure import Verified

MEASURES = ("template", "plain")  # template-aware verdict, or J alone (the default: see
# docs/accuracy.md: on the held-out halves the template verdict does not yet reach the origin
# precision (>= 0.97) and recall (>= 0.98) that would make it the default)
COPY_J = 0.90  # pairs at or above: one document (copies, backups, drafts); chosen on the dev halves
SAME_TEXT = 0.95  # at or above: a copy whatever its origin, never kept apart
RARE_DOCUMENTS = 5  # a sketch value in at most this many documents is rare (not a template)
VETO_BELOW = 0.5  # rare values shared below this share of the fewer file's: a template pair
MIN_RARE = 3  # fewer rare values in the union's sample: too little to judge, J decides


@dataclass
class KeptApart:
    """Class pairs whose shared text is a template: their J, the share of their rare sample
    they share, and in how many other documents the text they share is found (on average).
    ``where``: their rows in the Verified they were judged from."""

    pairs: np.ndarray
    sim: np.ndarray
    rare_share: np.ndarray
    template_documents: np.ndarray
    where: np.ndarray

    def why(self, i: int) -> str:
        return (f"kept apart at {self.sim[i]:.0%}: most of the shared text is a template "
                f"found in {int(self.template_documents[i])} other documents")

    def documents(self) -> dict[tuple[int, int], int]:
        """{(class, class): other documents holding the shared template}, both orders."""
        out: dict[tuple[int, int], int] = {}
        for (a, b), d in zip(self.pairs.tolist(), self.template_documents.tolist()):
            out[a, b] = out[b, a] = max(1, int(d))
        return out

    def without(self, verified: Verified) -> Verified:
        """``verified`` less these pairs."""
        keep = np.ones(len(verified.pairs), dtype=bool)
        keep[self.where] = False
        return Verified(verified.pairs[keep], verified.sim[keep], verified.exact[keep],
                        verified.stats)


def template_pairs(records: Sequence[FileRecord], members: list[list[int]],
                   pairs: np.ndarray, sim: np.ndarray, copies: np.ndarray) -> KeptApart:
    """Of the class ``pairs`` at ``sim``, those whose shared text is a template (the module
    docstring says how they are found). ``members``: the records of each class; ``copies``:
    the class pairs at COPY_J or above (whose components are the documents)."""
    n = len(members)
    judge = np.flatnonzero(sim < SAME_TEXT)
    empty = KeptApart(np.zeros((0, 2), np.int64), np.zeros(0), np.zeros(0), np.zeros(0),
                      np.zeros(0, np.int64))
    if n == 0 or not len(judge):
        return empty
    sk = sketch_array((records[m[0]].sketch for m in members), n)
    doc = components(n, copies)
    judged = pairs[judge]
    rows, local = unique_inverse(judged)  # the classes judged
    values, cell = unique_inverse(sk[rows])
    df = _document_counts(sk, doc, values)(values)
    del sk  # (each array let go once used: see CELL_BLOCK)
    rare_union, rare_fewer, rare_both, template_docs = _rare_sample(
        _packed(values, df), cell, local.reshape(-1, 2))
    share = rare_both / np.maximum(rare_fewer, 1)
    veto = (rare_union >= MIN_RARE) & (share < VETO_BELOW)
    if not veto.any():
        return empty
    return KeptApart(judged[veto], sim[judge[veto]], share[veto], template_docs[veto],
                     judge[veto])


def _document_counts(sk: np.ndarray, doc: np.ndarray, values: np.ndarray):
    """A function estimating, for an array of sketch values, in how many documents each is
    found (for the sorted ``values`` asked about; 0 for others).

    A sketch holds a file's k smallest values, so a value shows in the sketch of every
    file that has it and whose k-th value is at least as large, and in no other: the count
    over those documents is exact, and it is scaled up by all documents over those
    (without it a template's larger values, which most of its files' sketches leave out,
    look rare)."""
    vals = values[values != EMPTY]
    counts = _value_documents(sk, doc, vals)
    if not len(vals):
        return lambda x: np.zeros(x.shape, dtype=np.float64)
    # each document's reach: the largest k-th value of its files (a sketch that is not
    # full holds every value of its file)
    kth = np.where(sk[:, -1] == EMPTY, np.uint64(1 << 32), sk[:, -1].astype(np.uint64))
    labels, inv = unique_inverse(doc)
    reach = np.zeros(len(labels), dtype=np.uint64)
    np.maximum.at(reach, inv, kth)
    reach.sort()
    n_docs = len(labels)

    def count(x: np.ndarray) -> np.ndarray:
        at = np.minimum(np.searchsorted(vals, x), len(vals) - 1)
        seen = np.where(vals[at] == x, counts[at], 0).astype(np.float64)
        eligible = n_docs - np.searchsorted(reach, x.astype(np.uint64), side="left")
        return seen * n_docs / np.maximum(eligible, 1)

    return count


CELL_BLOCK = 1 << 18  # sketch cells looked up at once (about 10 MB of temporaries; at
# 1 << 23 the 768 MB tree's 7 million cells were one block: the flags' step peaked at 276 MB
# more Python and numpy memory, 149 MB at 1 << 20, the same pairs). With the sketches let go
# once counted and the packed values looked up by cell a block of pairs at a time
# (_rare_sample), not made for every cell: a cold scan of the 764 MB tree (53,558 files),
# the scan's process under tracemalloc, its peak (in this step) 310 -> 276 MB, the same
# groups and excerpts


def _value_documents(sk: np.ndarray, doc: np.ndarray, values: np.ndarray) -> np.ndarray:
    """How many documents hold each of the sorted ``values`` in the sketches ``sk`` (a row
    per class, its document ``doc``). The rows go by document, about CELL_BLOCK cells at a
    time and never a document split between two blocks, so each block's distinct
    (document, value) are distinct overall and are counted into one array beside
    ``values``: no list of every distinct pair (the cells were looked up by blocks but
    their pairs kept, joined and sorted at the end). A cold scan of the 768 MB tree, the
    scan's process under tracemalloc: its peak, in the template flags, 304 -> 297 MB; with
    graph.unique_inverse's int32, 286 MB; the same groups and excerpts. (numpy's isin of
    all 128 million cells of a million records' sketches took gigabytes.)"""
    counts = np.zeros(len(values), dtype=np.int64)
    if not len(values):
        return counts
    order = np.argsort(doc, kind="stable")
    by_doc = doc[order]
    rows = max(1, CELL_BLOCK // SKETCH_K)
    a = 0
    while a < len(order):
        b = min(len(order), a + rows)  # then on to the end of the document at b - 1
        b = int(np.searchsorted(by_doc, by_doc[b - 1], side="right"))
        f = sk[order[a:b]]
        at = np.minimum(np.searchsorted(values, f), len(values) - 1)
        hit = values[at] == f
        d = np.broadcast_to(by_doc[a:b, None], f.shape)[hit].astype(np.uint64)
        keys = sorted_unique((d << np.uint64(32)) | at[hit].astype(np.uint64))
        np.add.at(counts, (keys & np.uint64(0xFFFFFFFF)).astype(np.intp), 1)
        a = b
    return counts


PAIR_BLOCK = 1 << 12  # pairs judged at once: a few MB of temporaries
DOC_SCALE = 1024  # document counts kept in a sketch value's low 32 bits, in 1/1024ths
PACKED_EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)  # an empty cell, packed


def _packed(values: np.ndarray, df: np.ndarray) -> np.ndarray:
    """The sketch ``values``, each in the high 32 bits and its document count ``df``
    (rounded up to 1/DOC_SCALE) in the low ones: a pair's union sample then carries its
    counts, looked up once per value, not once per pair and cell (the lookup took 63 of
    the template stage's 113 s on the 768 MB tree)."""
    code = np.minimum(np.ceil(df * DOC_SCALE), 0xFFFFFFFE).astype(np.uint64)
    packed = (values.astype(np.uint64) << np.uint64(32)) | code
    packed[values == EMPTY] = PACKED_EMPTY
    return packed


def _rare_sample(packed: np.ndarray, cell: np.ndarray,
                 pairs: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per pair of rows of the sketches ``packed[cell]`` (:func:`_packed`): the rare
    values among the k smallest of the union of both sketches, those in both sketches, and
    the mean document count of the shared values that are not rare (how widely the
    template is spread), less the pair's own."""
    n = len(pairs)
    rare_union = np.zeros(n, dtype=np.int64)
    rare_fewer = np.zeros(n, dtype=np.int64)
    rare_both = np.zeros(n, dtype=np.int64)
    spread = np.zeros(n, dtype=np.float64)
    for s in range(0, n, PAIR_BLOCK):
        p = pairs[s : s + PAIR_BLOCK]
        A, B = packed[cell[p[:, 0]]], packed[cell[p[:, 1]]]
        C, in_union, same_next = union_sample(A, B, PACKED_EMPTY)
        docs = _documents(C)
        rare = in_union & (docs <= RARE_DOCUMENTS)
        last = np.where(in_union, C, 0).max(axis=1)[:, None]  # the sample's largest value
        rare_fewer[s : s + PAIR_BLOCK] = np.minimum(_rare_upto(A, last), _rare_upto(B, last))
        common = in_union & same_next & ~rare
        rare_union[s : s + PAIR_BLOCK] = rare.sum(axis=1)
        rare_both[s : s + PAIR_BLOCK] = (rare & same_next).sum(axis=1)
        spread[s : s + PAIR_BLOCK] = (np.where(common, docs, 0).sum(axis=1)
                                      / np.maximum(common.sum(axis=1), 1))
    return rare_union, rare_fewer, rare_both, np.maximum(np.rint(spread) - 1, 0)


def _rare_upto(S: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Per row of packed sketches ``S``: its rare values up to ``last`` (its part of the
    pair's union sample)."""
    return ((S <= last) & (S != PACKED_EMPTY) & (_documents(S) <= RARE_DOCUMENTS)).sum(axis=1)


def _documents(packed: np.ndarray) -> np.ndarray:
    """The document counts carried in packed sketch values' low bits (:func:`_packed`)."""
    return (packed & np.uint64(0xFFFFFFFF)).astype(np.float64) / DOC_SCALE
