"""A group around the reference the user chose (dupeGuru's "Make selected into reference").

Every member of a verified group is at the threshold against the group's reference, not
necessarily against each other. When the user makes another member the reference, each
member is measured again against it, as grouping measures a candidate pair
(measure.verified_pairs): from the sketches, and exactly from the files when the estimate
is within MARGIN of the threshold. Members that no longer reach the threshold leave the
group (the caller says which); members with the new reference's text are at 1.0.

What each member carries is made consistent with the new reference:

* ``distance`` and ``exact``: against the new reference (stars.members_around);
* ``closest``: kept when that member is still in the group, else the most similar member
  left, by the sketches (``closest_similarity`` with it);
* ``copy_set``: the sets stay as grouping found them (files joined by pairs that are not
  template pairs), renumbered so the new reference's set is 0;
* ``template``: a member outside the new reference's copy set shares template text with
  it (it was kept apart from the reference's copies by such pairs); its count of other
  documents is the largest known in the group for its set or the reference's, at least 1.
  Members of the reference's set are not template members.

With ``verify="none"`` (SimHash alone) the members within the candidate distance of the
new reference stay, with their estimated similarity, as simhash_only groups them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass, field

import numpy as np

from .measure import Measure, VerifyStats, verified_pairs
from .stars import catalogued_estimated, members_around
from ..models import FileRecord, Group, Member
from ..textsim import estimate, sketch_array


@dataclass
class Rereferenced:
    """The group around the new reference (None when no other member reaches the
    threshold), and the record indices of the members that left it."""

    group: Group | None
    left: list[int] = field(default_factory=list)


def rereference(records: Sequence[FileRecord], group: Group, new_ref: int, bits: int,
                threshold: float, measure: Measure | None = None, *, verify: str = "sketch",
                distance: int | None = None) -> Rereferenced:
    """``group`` with ``new_ref`` (a record index of one of its members) as its reference:
    the members measured against it, those below ``threshold`` left out (with
    ``verify="none"``: those farther than ``distance`` bits). ``measure`` measures the
    doubtful pairs exactly from the files (group.exact.Measurer)."""
    if new_ref not in group.indices():
        raise ValueError("the new reference is not a member of the group")
    old = {m.index: m for m in group.members}
    others = [i for i in group.indices() if i != new_ref]
    if verify == "none":
        sims = _estimates(records, new_ref, others)
    else:
        sims = _measured(records, new_ref, others, threshold, measure)
    mem = members_around(records, new_ref, [new_ref], bits, 1.0, True)
    left: list[int] = []
    for i in others:
        m = members_around(records, new_ref, [i], bits)[0]
        s, exact = sims.get(i, (None, False))
        keep = (m.distance <= (bits if distance is None else distance) if verify == "none"
                else s is not None and s >= threshold)
        if not keep:
            left.append(i)
            continue
        m.similarity, m.measured = s, exact
        mem.append(m)
    if len(mem) < 2:
        return Rereferenced(None, left)
    _copy_sets(old, mem)
    _closest(records, old, mem)
    mem.sort(key=lambda m: (m.index != new_ref, -(m.similarity or 0), m.distance,
                            records[m.index].path))
    return Rereferenced(catalogued_estimated(records, Group(group.id, new_ref, mem, group.also)),
                        left)


def _measured(records: Sequence[FileRecord], ref: int, others: list[int], threshold: float,
              measure: Measure | None) -> dict[int, tuple[float, bool]]:
    """{member: (similarity to ``ref``, measured exactly)} of those at the threshold; the
    same text as ``ref`` is 1.0 without measuring."""
    same = [i for i in others if records[i].text_hash and
            records[i].text_hash == records[ref].text_hash]
    out = {i: (1.0, True) for i in same}
    rest = [i for i in others if i not in out]
    if not rest:
        return out
    first = np.array([ref, *rest], dtype=np.int64)
    cpairs = np.array([[0, k + 1] for k in range(len(rest))], dtype=np.int64)
    pairs, sim, exact = verified_pairs(records, cpairs, first, threshold, measure,
                                       VerifyStats())
    for (_, b), s, e in zip(pairs.tolist(), sim.tolist(), exact.tolist(), strict=True):
        out[rest[b - 1]] = (round(s, 4), bool(e))
    return out


def _estimates(records: Sequence[FileRecord], ref: int,
               others: list[int]) -> dict[int, tuple[float | None, bool]]:
    """{member: (its similarity to ``ref`` estimated from the sketches, exact)}."""
    if not others:
        return {}
    idx = [ref, *others]
    sk = sketch_array((records[i].sketch for i in idx), len(idx))
    est, whole = estimate(sk, np.zeros(len(others), dtype=np.int64),
                          np.arange(1, len(idx), dtype=np.int64))
    has = bool(records[ref].sketch)
    return {i: ((round(e, 4), bool(w)) if has and records[i].sketch else (None, False))
            for i, e, w in zip(others, est.tolist(), whole.tolist(), strict=True)}


def _copy_sets(old: dict[int, Member], mem: list[Member]) -> None:
    """Renumber the copy sets so the new reference's (mem[0]) is 0, and flag the members of
    the other sets as template members of the new reference (module docstring)."""
    ref_set = old[mem[0].index].copy_set
    if not any(m.template for m in old.values()) and all(
            m.copy_set == ref_set for m in old.values()):
        for m in mem:
            m.copy_set, m.template = 0, 0
        return
    label = {ref_set: 0}
    for m in mem:
        label.setdefault(old[m.index].copy_set, len(label))
    # the largest count known between two sets (a template pair of the old reference)
    count: dict[int, int] = {}
    for m in old.values():
        if m.template:
            count[m.copy_set] = max(count.get(m.copy_set, 0), m.template)
    base = max(count.get(ref_set, 0), 1)
    for m in mem:
        s = old[m.index].copy_set
        m.copy_set = label[s]
        m.template = 0 if s == ref_set else max(count.get(s, 0), base)


def _closest(records: Sequence[FileRecord], old: dict[int, Member], mem: list[Member]) -> None:
    """Keep each member's closest member when it stayed in the group; else the most similar
    member left, by the sketches (none: -1)."""
    here = {m.index for m in mem}
    redo = []
    for m in mem:
        o = old[m.index]
        m.closest, m.closest_similarity = o.closest, o.closest_similarity
        if o.closest not in here or o.closest == m.index:
            m.closest, m.closest_similarity = -1, None
            redo.append(m)
    if not redo or len(mem) < 2:
        return
    idx = [m.index for m in mem]
    sk = sketch_array((records[i].sketch for i in idx), len(idx))
    for m in redo:
        a = idx.index(m.index)
        rest = np.array([k for k in range(len(idx)) if k != a], dtype=np.int64)
        est, _ = estimate(sk, np.full(len(rest), a, dtype=np.int64), rest)
        same = [k for k in rest.tolist() if records[idx[k]].text_hash
                and records[idx[k]].text_hash == records[m.index].text_hash]
        k, s = (same[0], 1.0) if same else (int(rest[int(np.argmax(est))]),
                                            round(float(est.max()), 4))
        m.closest, m.closest_similarity = idx[k], s


def apply_chosen(groups: Sequence[Group], records: Sequence[FileRecord], chosen: Sequence[str],
                 cache: dict, measurer: Callable[[], AbstractContextManager[Measure]], *,
                 bits: int, threshold: float, verify: str = "sketch",
                 distance: int | None = None) -> list[Group]:
    """``groups`` with the references the user chose (``chosen``: paths, the latest last;
    a group with several takes the latest): each such group :func:`rereference`\\ d, the
    groups left with one file dropped. ``cache`` keeps what was measured, by group and
    settings (the caller empties it when the records change); ``measurer()`` opens the
    measurer of the files, only when something is not in ``cache``."""
    if not chosen:
        return list(groups)
    order = {p: i for i, p in enumerate(chosen)}
    out: list[Group] = []
    with ExitStack() as stack:
        measure: list[Measure] = []
        for g in groups:
            picks = [m.index for m in g.members if records[m.index].path in order]
            new = max(picks, key=lambda i: order[records[i].path]) if picks else None
            if new is None or new == g.representative:
                out.append(g)
                continue
            key = (tuple(g.indices()), g.representative, new, bits, threshold, verify, distance)
            if key not in cache:
                if not measure and verify != "none":
                    measure.append(stack.enter_context(measurer()))
                cache[key] = rereference(records, g, new, bits, threshold,
                                         measure[0] if measure else None, verify=verify,
                                         distance=distance)
            if cache[key].group is not None:
                out.append(cache[key].group)
    return out
