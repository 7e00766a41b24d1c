"""Groups of near-duplicates, in stages (like fclones' ``group_files``): candidates ->
measure -> stars -> groups, as :func:`build_groups` lists them.

By default (``verify="sketch"``) groups are verified by text similarity, each a star
around a reference file (verify.py says how). With ``verify="none"``, SimHash alone
("linked" or "strict" grouping), for comparison: the accuracy lab shows both
(simhash_only.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from ..defaults import DEFAULT_MEASURE
from ..job import NULL_JOB, Job
from ..models import FileRecord, Group, ProgressEvent
from ..textsim import DEFAULT_SIMILARITY
from ..validate import one_of
from .candidates import CLUSTER_ABOVE, find_candidates
from .classes import RecordsMemo, fingerprint_words
from .exact import Measurer
from .edges import PairGraph
from .measure import (Measure, VerifyStats, candidate_graph, check_threshold,
                      measure_candidates)
from .simhash_only import simhash_groups
from .stars import star_groups
from .templates import COPY_J, MEASURES, template_pairs
from .verify import VERIFY_MODES

GROUPING_MODES = ("linked", "strict")
# Distinct texts above which members sharing template text are not flagged (the counts of
# every sketch value's documents took 76 of 134 s of grouping a million synthetic records;
# 3 s at 100,000): the plan says so
FLAG_TEMPLATES_UP_TO = 250_000


def build_groups(records: Sequence[FileRecord], bits: int, distance: int,
                 mode: str = "linked", fingerprints: tuple[np.ndarray, np.ndarray] | None = None,
                 *, verify: str = "sketch", similarity: float = DEFAULT_SIMILARITY,
                 measure: Measure | None = None, client=None, job: Job = NULL_JOB,
                 memo: RecordsMemo | None = None,
                 candidates: str | None = None,
                 verdict: str = DEFAULT_MEASURE) -> tuple[list[Group], str]:
    """Group ``records`` with candidates at (bits, distance). Returns the groups and a
    description of the index plan (and of the verification).

    ``verify="sketch"``: candidates are verified at text ``similarity`` (``measure``
    measures doubtful pairs exactly from the files); ``"none"``: SimHash alone, grouped
    by ``mode``. ``fingerprints``: the records' fingerprints as (lo, hi) uint64 arrays,
    when the caller has them already (saves a pass over a million Python ints).
    ``client``: a Dask client; above candidates.CLUSTER_ABOVE texts the LSH band step runs
    there. ``memo``: what a regroup of the same records can reuse (classes.RecordsMemo).
    ``candidates``: the candidate source (candidates.candidate_pairs; None: by size).
    ``verdict``: "template" keeps different documents built on one template apart
    (templates.py), "plain" groups every verified pair and flags the members whose text
    shared with their reference is a template (Member.template).
    ``job`` hears the phases "candidates", "verify" (pairs near the threshold measured
    from the files, counted) and "stars".
    """
    one_of("grouping", mode, GROUPING_MODES)
    one_of("verify", verify, VERIFY_MODES)
    if fingerprints is None:
        fingerprints = (memo.fingerprints(records) if memo is not None
                        else fingerprint_words(records))
    if verify == "none":  # SimHash alone, for comparison
        groups, plan = simhash_groups(records, bits, distance, mode, fingerprints)
        return number_groups(groups, records), plan
    threshold = check_threshold(similarity)
    found = find_candidates(records, bits, distance, fingerprints, candidates, client, job, memo)
    if one_of("measure", verdict, MEASURES) == "template":
        groups, described = _template_stars(records, found, threshold, bits, measure, job)
    else:
        groups, described = _plain_stars(records, found, threshold, bits, measure, job)
    return number_groups(groups, records), f"{found.described}; {described}"


def _plain_stars(records: Sequence[FileRecord], found, threshold: float, bits: int,
                 measure: Measure | None, job: Job) -> tuple[list[Group], str]:
    """Stars on the candidate graph, its doubtful pairs measured as the stars ask; members
    whose text shared with the reference is a template are flagged."""
    stats = VerifyStats()
    graph = candidate_graph(records, found, threshold, measure, stats, job)
    copies = graph.pairs[graph.decided & (graph.sim >= COPY_J)]
    flagged = [0]

    def templates(rows: np.ndarray) -> dict[tuple[int, int], int]:
        kept = template_pairs(records, found.members, graph.pairs[rows], graph.sim[rows],
                              copies)
        flagged[0] = len(kept.pairs)
        return kept.documents()

    job.report(ProgressEvent("stars", 0, len(graph.pairs)))
    flag = len(found.members) <= FLAG_TEMPLATES_UP_TO
    groups = star_groups(records, found.members, graph, bits, templates if flag else None)
    stats.estimated = stats.candidates - stats.measured
    stats.verified = int(((graph.sim >= threshold) & ~graph.doubt).sum())
    apart = f"; {flagged[0]} pairs flagged (a shared template)" if flagged[0] else ""
    if not flag:
        apart = (f"; template text not flagged above {FLAG_TEMPLATES_UP_TO:,} distinct texts "
                 "(--measure template keeps such documents apart)")
    return groups, stats.describe() + apart


def _template_stars(records: Sequence[FileRecord], found, threshold: float, bits: int,
                    measure: Measure | None, job: Job) -> tuple[list[Group], str]:
    """Every candidate verified, the pairs whose shared text is a template kept apart,
    then stars on the rest."""
    verified = measure_candidates(records, found, threshold, measure, job)
    kept = template_pairs(records, found.members, verified.pairs, verified.sim,
                          verified.pairs[verified.sim >= COPY_J])
    if len(kept.pairs):
        verified = kept.without(verified)
    apart = f"; {len(kept.pairs)} pairs kept apart (a shared template)" if len(kept.pairs) else ""
    job.report(ProgressEvent("stars", 0, len(verified.pairs)))
    graph = PairGraph.known(len(found.members), verified.pairs, verified.sim, verified.exact,
                            threshold)
    return (star_groups(records, found.members, graph, bits),
            verified.stats.describe() + apart)


def number_groups(groups: list[Group], records: Sequence[FileRecord]) -> list[Group]:
    """``groups`` sorted largest first, then by the reference's path; ids from 1. A group
    of files of catalogs alone (review/catalog.py: copies within a drive that is not
    plugged in) is left out: a review is about the files here."""
    if any(r.catalog for r in records):
        groups = [g for g in groups if any(not records[i].catalog for i in g.indices())]
    groups.sort(key=lambda g: (-len(g.members), records[g.representative].path))
    for n, g in enumerate(groups, 1):
        g.id = n
    return groups


def group_records(records: Sequence[FileRecord], bits: int, distance: int, mode: str = "linked",
                  fingerprints: tuple[np.ndarray, np.ndarray] | None = None, *,
                  verify: str = "sketch", similarity: float = DEFAULT_SIMILARITY,
                  cache_path: str | None = None, use_cache: bool = True,
                  scheduler: str = "", read_workers: int = 1,
                  job: Job = NULL_JOB, memo: RecordsMemo | None = None,
                  verdict: str = DEFAULT_MEASURE) -> tuple[list[Group], str]:
    """:func:`build_groups` with doubtful pairs measured from the files, and the exact
    similarities remembered in the cache (so a warm regroup reads no file). With a Dask
    ``scheduler`` and more than CLUSTER_ABOVE files, the candidate step's LSH bands
    run on the cluster. ``read_workers`` > 1: the doubtful pairs' files are read on that many
    processes (the CLI, and the app's background groupings; a small regroup on the app's
    GUI thread keeps 1)."""
    if scheduler and verify != "none" and len(records) > CLUSTER_ABOVE:
        from ..scan.distributed import Cluster

        with Cluster(scheduler) as cluster:
            return _group_records(records, bits, distance, mode, fingerprints, verify=verify,
                                  similarity=similarity, cache_path=cache_path,
                                  use_cache=use_cache, client=cluster.client,
                                  read_workers=read_workers, job=job, memo=memo,
                                  verdict=verdict)
    return _group_records(records, bits, distance, mode, fingerprints, verify=verify,
                          similarity=similarity, cache_path=cache_path, use_cache=use_cache,
                          read_workers=read_workers, job=job, memo=memo, verdict=verdict)


def _group_records(records: Sequence[FileRecord], bits: int, distance: int, mode: str,
                   fingerprints, *, verify: str, similarity: float, cache_path: str | None,
                   use_cache: bool, client=None, read_workers: int = 1,
                   job: Job = NULL_JOB, memo: RecordsMemo | None = None,
                   verdict: str = DEFAULT_MEASURE) -> tuple[list[Group], str]:
    with pair_measurer(records, cache_path, use_cache and verify != "none",
                       read_workers) as measure:
        return build_groups(records, bits, distance, mode, fingerprints, verify=verify,
                            similarity=similarity, measure=measure, client=client, job=job,
                            memo=memo, verdict=verdict)


@contextmanager
def pair_measurer(records: Sequence[FileRecord], cache_path: str | None, use_cache: bool,
                  workers: int = 1) -> Iterator[Measurer]:
    """A :class:`Measurer` of ``records`` that remembers what it measures in the
    fingerprint cache (``use_cache``; :func:`pair_store`), closed (with its pool and the
    cache) on the way out."""
    with pair_store(cache_path, use_cache) as store:
        measure = Measurer(records, store, workers=workers)
        try:
            yield measure
        finally:
            measure.close()


@contextmanager
def pair_store(cache_path: str | None, use_cache: bool) -> Iterator[object]:
    """The fingerprint cache at ``cache_path``, where measured pairs are remembered, closed
    on the way out; None when not ``use_cache`` or when it cannot be opened (that only
    costs speed)."""
    store = None
    if use_cache:
        from ..scan.cache import FingerprintCache

        try:
            store = FingerprintCache(cache_path)
        except Exception:  # noqa: BLE001 - no cache (unwritable, corrupt) only costs speed
            store = None
    try:
        yield store
    finally:
        if store is not None:
            store.close()
