"""Stage 1 of verified grouping: candidate pairs of distinct texts.

Files with identical text (text hash and sketch) are one class (classes.py); a pair of
classes is a candidate when their SimHash fingerprints are within the distance (the
pigeonhole block index, index.py), and on large folders also when their sketches collide
in an LSH band (lsh.py) within that distance; short texts, whose fingerprints rest on too few
words, also when their sketches are similar (short.py). Candidates are only proposals: stage 2
(measure.py) verifies each by its text similarity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import index as _index
from .classes import RecordsMemo, text_classes
from .graph import index_dtype, union_pairs, unique_pairs
from .index import near_pairs, safe_distance
from .short import LOOSER, short_pairs
from ..job import NULL_JOB, Job
from ..models import FileRecord, ProgressEvent
from ..textsim import sketch_array

# Above this many distinct texts, the loose candidate distance (which the block index can
# only serve by a quadratic scan or a costly probe) is served by a tight SimHash distance
# plus sketch LSH within the loose distance (lsh.py).
LSH_ABOVE = 20_000
# With a Dask scheduler, above this many distinct texts the band step runs on the cluster;
# without one, above this many files the scan says what grouping them here takes
# (benchmarks/grouping.py: a million records, 2.0 GB resident, the records 1.15 GB of it).
CLUSTER_ABOVE = 1_000_000
TIGHT_DISTANCE = {16: 1, 32: 3, 64: 6, 128: 10}


@dataclass
class Candidates:
    """Pairs of classes of identical texts to verify, and what stage 2 needs with them."""

    pairs: np.ndarray  # (n, 2) class pairs, a < b, each once, sorted (int32 below 2**31)
    members: list[list[int]]  # the records of each class
    first: np.ndarray  # the first record of each class
    described: str  # how they were found (and a lowered distance, said)
    estimates: tuple[np.ndarray, np.ndarray] | None = None  # sketch estimates made on a cluster


def find_candidates(records: Sequence[FileRecord], bits: int, distance: int,
                    fingerprints: tuple[np.ndarray, np.ndarray], source: str | None = None,
                    client=None, job: Job = NULL_JOB,
                    memo: RecordsMemo | None = None) -> Candidates:
    """The candidate pairs of ``records`` within ``distance`` (lowered, and said, where the
    files are too alike for it), from ``source`` (:func:`candidate_pairs`; None: chosen by
    :func:`choose_source`). With the "cluster" source the pairs' sketch estimates are made
    on the Dask workers too. ``job`` hears the phase "candidates"."""
    job.report(ProgressEvent("candidates", 0, len(records)))
    distance, note = bounded_distance(fingerprints, bits, distance)
    cls, members = memo.classes(records) if memo is not None else text_classes(records)
    first = np.fromiter((m[0] for m in members), dtype=np.int64, count=len(members))
    source = choose_source(len(members), bits, distance, source, client)
    cpairs, described = candidate_pairs(records, bits, distance, fingerprints, cls, members,
                                        first, source, client)
    away = catalogued_classes(records, members)
    short = short_pairs(records, first, _within(fingerprints, first, bits,
                                                min(bits // 2, LOOSER * distance)),
                        None if away is None else ~away)
    if len(short):  # short texts' candidates from their sketches (short.py)
        more = len(cpairs)
        cpairs = union_pairs((cpairs, short), len(members))
        described += (f"; short texts by their sketches: {len(short)} pairs, "
                      f"{len(cpairs) - more} new")
        del short
    if away is not None and len(cpairs):  # two files of catalogs: not about the files here
        cpairs = cpairs[~(away[cpairs[:, 0]] & away[cpairs[:, 1]])]
    cpairs = cpairs.astype(index_dtype(len(members)), copy=False)
    estimates = None
    if source == "cluster" and len(cpairs):  # the sketch estimates on the workers too
        from .distributed import cluster_estimates

        used, local = np.unique(cpairs, return_inverse=True)
        sk = sketch_array((records[first[c]].sketch for c in used.tolist()), len(used))
        estimates = cluster_estimates(client, sk, local.reshape(-1, 2))
    return Candidates(cpairs, members, first, note + described, estimates)


def catalogued_classes(records: Sequence[FileRecord], members: list[list[int]]
                       ) -> np.ndarray | None:
    """Which classes hold only files of a catalog (review/catalog.py: a drive that is not
    plugged in); None when no record is catalogued. A pair of two such classes is no
    candidate: a review compares the files here with the catalogs, not a catalog with
    itself (5 files scanned against a catalog of 36,533 took 19 s and 1 GB to group with
    those pairs, 3.5 s and 300 MB without them and the short texts' join among them)."""
    if not any(r.catalog for r in records):
        return None
    return np.fromiter((all(records[i].catalog for i in m) for m in members), dtype=bool,
                       count=len(members))


def bounded_distance(fingerprints: tuple[np.ndarray, np.ndarray], bits: int,
                     distance: int) -> tuple[int, str]:
    """(the distance to use, a note when it is lower than ``distance``): files too alike at
    ``distance`` would make more than index.MAX_CANDIDATES candidates."""
    k, expected = safe_distance(fingerprints, bits, distance, _index.MAX_CANDIDATES)
    if k >= distance:
        return distance, ""
    return k, (f"candidate distance lowered from {distance} to {k}: at k={distance} about "
               f"{expected:,.0f} pairs of these files "
               f"would be candidates (more than {_index.MAX_CANDIDATES:,}); ")


def class_pairs(inverse: np.ndarray, fp_pairs: np.ndarray, cls: np.ndarray,
                n_cls: int) -> np.ndarray:
    """Pairs of classes whose fingerprints are candidates (or equal), each once, a < b."""
    rep = np.full(n_cls, -1, dtype=np.int64)
    rep[cls[::-1]] = np.arange(len(cls))[::-1]  # first record of each class
    fp_of_cls = inverse[rep]
    order = np.argsort(fp_of_cls, kind="stable")
    n_fp = int(inverse.max()) + 1 if len(inverse) else 0
    counts = np.bincount(fp_of_cls, minlength=n_fp)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    out = []
    if len(fp_pairs):
        pa, pb = fp_pairs[:, 0], fp_pairs[:, 1]
        single = (counts[pa] == 1) & (counts[pb] == 1)
        out.append(np.stack((order[starts[pa[single]]], order[starts[pb[single]]]), axis=1))
        if not single.all():  # every class of p with every class of q, in numpy
            p, q = pa[~single], pb[~single]
            cq = counts[q]
            sizes = counts[p] * cq
            k = np.repeat(np.arange(len(p)), sizes)
            off = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
            out.append(np.stack((order[starts[p][k] + off // cq[k]],
                                 order[starts[q][k] + off % cq[k]]), axis=1))
    for f in np.flatnonzero(counts > 1).tolist():  # distinct texts with one fingerprint
        cs = order[starts[f] : starts[f] + counts[f]]
        ia, ib = np.triu_indices(len(cs), 1)
        out.append(np.stack((cs[ia], cs[ib]), axis=1))
    if not out:
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.concatenate(out).astype(np.int64)
    pairs.sort(axis=1)
    return unique_pairs(pairs)


def choose_source(n_texts: int, bits: int, distance: int, source: str | None = None,
                  client=None) -> str:
    """The candidate source for ``n_texts`` distinct texts (see :func:`candidate_pairs`)."""
    if source is not None:
        return source
    tight = min(distance, TIGHT_DISTANCE.get(bits, distance))
    # distinct texts (about the distinct fingerprints): past LSH_ABOVE, a loose distance
    # costs a quadratic scan or a probe index with millions of candidates
    source = "lsh" if n_texts > LSH_ABOVE and tight < distance else "scan"
    if source == "lsh" and client is not None and n_texts > CLUSTER_ABOVE:
        source = "cluster"
    return source


def candidate_pairs(records: Sequence[FileRecord], bits: int, distance: int,
                    fingerprints: tuple[np.ndarray, np.ndarray], cls: np.ndarray,
                    members: list[list[int]], first: np.ndarray, source: str | None = None,
                    client=None) -> tuple[np.ndarray, str]:
    """Class pairs to verify, and how they were found.

    ``source``: "scan" (every pair within ``distance``, by the index's plan), "lsh" (pairs
    within the tight distance, plus sketch-LSH pairs within ``distance``), or None: "lsh" on
    more than LSH_ABOVE distinct texts when the tight distance is smaller than ``distance``,
    else "scan". On the real corpora measured (benchmarks/grouping.py --corpus) "lsh" kept
    every verified pair of "scan". With a Dask ``client``, "cluster" is "lsh" with the band
    step run on the cluster (distributed.py), chosen by None above CLUSTER_ABOVE texts.
    """
    tight = min(distance, TIGHT_DISTANCE.get(bits, distance))
    source = choose_source(len(members), bits, distance, source, client)
    if source == "cluster" and client is None:
        raise ValueError("the cluster candidate step needs a Dask client")
    if source == "scan":
        npairs = near_pairs(fingerprints, bits, distance)
        return (class_pairs(npairs.inverse, npairs.pairs, cls, len(members)),
                npairs.plan.describe())
    from .lsh import BANDS, ROWS

    # one fingerprint a class, the classes first in the scan the anchors of a dense family
    n_cls = len(members)
    npairs = near_pairs(tuple(np.asarray(w)[first] for w in fingerprints), bits, tight,
                        dense=True)
    near = class_pairs(npairs.inverse, npairs.pairs, np.arange(n_cls), n_cls)
    lp = _lsh_pairs(records, bits, distance, fingerprints, first, client if source == "cluster"
                    else None)
    n_lsh = len(lp)
    both = union_pairs((near, lp), len(members))
    del lp
    where = " on the Dask cluster" if source == "cluster" else ""
    return both, (f"SimHash k={tight} ({npairs.plan.describe()}) plus sketch LSH{where} "
                  f"({BANDS} bands of {ROWS}) within k={distance}: {len(near)} + {n_lsh} "
                  f"candidate pairs, {len(both)} distinct")


def _within(fingerprints: tuple[np.ndarray, np.ndarray], first: np.ndarray, bits: int,
            distance: int):
    """A test of class pairs: their first records' fingerprints within ``distance``."""
    from .index import as_words

    lo, hi = as_words(tuple(np.asarray(w)[first] for w in fingerprints), bits)

    def within(p: np.ndarray) -> np.ndarray:
        return (np.bitwise_count(lo[p[:, 0]] ^ lo[p[:, 1]]).astype(np.int16)
                + np.bitwise_count(hi[p[:, 0]] ^ hi[p[:, 1]])) <= distance
    return within


def _lsh_pairs(records: Sequence[FileRecord], bits: int, distance: int,
               fingerprints: tuple[np.ndarray, np.ndarray], first: np.ndarray,
               client=None) -> np.ndarray:
    """Class pairs whose sketches collide in an LSH band and whose fingerprints are within
    ``distance`` (both classes with a sketch); the band step on the Dask ``client``, if
    given."""
    from .index import as_words
    from .lsh import band_pairs, record_minhashes

    reps = [records[i] for i in first.tolist()]
    has = np.fromiter((len(r.sketch) > 0 for r in reps), dtype=bool, count=len(reps))
    if client is not None:
        from .distributed import cluster_band_pairs

        lo, hi = as_words(tuple(np.asarray(w)[first] for w in fingerprints), bits)
        lp = cluster_band_pairs(client, sketch_array((r.sketch for r in reps), len(reps)),
                                lo, hi, distance)
    else:  # the distance applied as pairs are made: bounded memory
        lp = band_pairs(record_minhashes(reps), _within(fingerprints, first, bits, distance))
    if len(lp):
        lp = lp[has[lp[:, 0]] & has[lp[:, 1]]]
    return lp
