"""The grouping's steps made in blocks to bound memory (issue 40, item 1) give what they gave
made at once: the same candidate pairs, the same estimates, the same verdicts."""

from __future__ import annotations

import os

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.core.group import graph, lsh, measure, short
from simdup_gui.core.group.candidates import Candidates
from simdup_gui.core.models import FileRecord
from simdup_gui.core.textsim import EMPTY, SKETCH_K, estimate, sketch_array


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 50).flatmap(lambda n: st.tuples(
           st.just(n),
           st.lists(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                             max_size=60), max_size=4))),
       st.sampled_from([1, 2, 5, 1 << 20]))
def test_union_pairs_are_the_unique_rows_of_the_parts(case, block):
    n, parts = case
    arrays = [np.array(p, dtype=np.int64).reshape(-1, 2) for p in parts]
    old = graph.CODE_BLOCK
    graph.CODE_BLOCK = block
    try:
        got = graph.union_pairs(arrays, n)
    finally:
        graph.CODE_BLOCK = old
    whole = np.concatenate(arrays) if arrays else np.zeros((0, 2), dtype=np.int64)
    want = np.unique(whole, axis=0) if len(whole) else whole
    assert got.dtype == np.int32 and np.array_equal(got, want)


def test_sorted_codes_compacted_in_blocks_are_np_unique(monkeypatch):
    rng = np.random.default_rng(2)
    for block in (1, 3, 64, 1 << 20):
        monkeypatch.setattr(graph, "CODE_BLOCK", block)
        for size, top in ((0, 5), (1, 5), (500, 7), (2_000, 10**12)):
            codes = rng.integers(0, top, size).astype(np.int64)
            assert np.array_equal(graph.sorted_codes(codes.copy()), np.unique(codes))


def test_band_pairs_folded_often_are_the_pairs_folded_once(monkeypatch):
    rng = np.random.default_rng(4)
    mh = rng.integers(0, 3, (400, lsh.BUCKETS)).astype(np.uint32)  # many collisions
    keep = lambda p: (p[:, 0] + p[:, 1]) % 3 != 0  # noqa: E731
    want = lsh.band_pairs(mh, keep)
    monkeypatch.setattr(lsh, "PAIR_CHUNK", 50)
    got = lsh.band_pairs(mh, keep)
    assert len(want) > 1000 and np.array_equal(got, want)
    assert (got[:, 0] < got[:, 1]).all()


def _records(n: int, seed: int) -> list[FileRecord]:
    """Records whose sketches overlap a lot (values from a small range), some short, some
    without a sketch, of various sizes."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        m = int(rng.choice([0, 12, 40, SKETCH_K, SKETCH_K]))
        vals = np.sort(rng.choice(400, m, replace=False)).astype("<u4") if m else None
        sk = b"" if m == 0 else np.concatenate(
            (vals, np.full(SKETCH_K - m, EMPTY, "<u4"))).tobytes()
        out.append(FileRecord(f"/r/{i}", 100, 1, i, 1, "/r", "utf-8", i, 30 + m, f"t{i}",
                              f"c{i}", sketch=sk, shingles=m if m < SKETCH_K else
                              int(rng.integers(SKETCH_K, 600))))
    return out


def test_estimates_made_in_blocks_keep_the_pairs_that_may_reach_the_threshold(monkeypatch):
    """_from_sketches drops, block by block, the pairs whose estimate is below the threshold
    and not in doubt: what it keeps, with its verdicts, is what estimating every pair at
    once and keeping those gives, whatever the block."""
    recs = _records(120, 1)
    first = np.arange(len(recs))
    a, b = np.triu_indices(len(recs), 1)
    pairs = np.stack((a, b), axis=1).astype(np.int32)
    threshold = 0.3
    sk = sketch_array((r.sketch for r in recs), len(recs))
    est, whole = estimate(sk, a, b)
    has = np.array([bool(r.sketch) for r in recs])
    n = np.array([r.shingles for r in recs], dtype=np.float64)
    known = has[a] & has[b]
    sim = np.where(known, est, 0.0)
    exact = whole & known
    too_far = known & (np.minimum(n[a], n[b]) < threshold * np.maximum(n[a], n[b]))
    sim = np.where(too_far, np.minimum(sim, threshold - 1e-9), sim)
    doubt = ~exact & ~too_far & (~known | (np.abs(est - threshold) < measure.MARGIN))
    keep = (sim >= threshold) | doubt
    assert 100 < keep.sum() < len(pairs) - 100
    for block in (1, 7, 1 << 18):
        monkeypatch.setattr(measure, "ESTIMATE_BLOCK", block)
        got = measure._from_sketches(recs, pairs, first, threshold, None)
        for x, y in zip(got, (pairs[keep], sim[keep], exact[keep], doubt[keep])):
            assert np.array_equal(x, y)
        g = measure.candidate_graph(recs, Candidates(pairs, [[i] for i in first], first, ""),
                                    threshold)
        assert np.array_equal(g.pairs, pairs[keep]) and np.array_equal(g.sim, sim[keep])


def test_short_pairs_filtered_by_chunks_are_those_filtered_at_once(monkeypatch):
    recs = _records(300, 3)
    first = np.arange(len(recs))
    within = lambda p: (p[:, 0] * 7 + p[:, 1]) % 5 != 0  # noqa: E731
    wanted = np.arange(len(recs)) % 4 != 0
    want = short.short_pairs(recs, first, within, wanted)
    monkeypatch.setattr(short, "PAIR_CHUNK", 3)
    got = short.short_pairs(recs, first, within, wanted)
    assert len(want) > 100 and np.array_equal(got, want)


def test_closest_members_found_by_blocks_of_groups_are_those_found_at_once(monkeypatch):
    """stars._closest_rows by blocks of whole groups (CLOSEST_BLOCK known rows) gives every
    member the closest member, similarity and row it gets with every group at once."""
    from simdup_gui.core.group import stars
    from simdup_gui.core.group.cluster import build_groups

    rng = np.random.default_rng(9)
    recs = []
    for f in range(12):  # families of near-copies: each member drops and adds a few values
        base = rng.choice(1 << 20, 400, replace=False)
        for i in range(int(rng.integers(2, 9))):
            vals = np.concatenate((rng.permutation(base)[: 400 - 3 * i],
                                   rng.choice(1 << 20, 3 * i) + (1 << 21)))
            sk = np.sort(vals)[:SKETCH_K].astype("<u4").tobytes()
            recs.append(FileRecord(f"/r/{f}/{i}", 100, 1, len(recs), 1, "/r", "utf-8", f,
                                   500, f"t{f}.{i}", f"c{f}.{i}", sketch=sk, shingles=400))

    def closest():
        groups, _ = build_groups(recs, 64, 64)
        return [[(m.index, m.closest, m.closest_similarity, m.copy_set) for m in g.members]
                for g in groups]

    whole = closest()
    assert sum(len(g) > 2 for g in whole) >= 3  # groups with a closest member to choose
    for block in (1, 7):
        monkeypatch.setattr(stars, "CLOSEST_BLOCK", block)
        assert closest() == whole


def test_only_a_grouping_of_many_pairs_loads_the_kernels_into_its_process():
    """The scan's own process imports numba (55-90 MB) for its sketch estimates only from
    measure.COMPILED_PAIRS candidate pairs; the verdicts are the same either way."""
    import subprocess
    import sys
    import textwrap

    import pytest

    pytest.importorskip("numba")
    code = textwrap.dedent("""
        import sys
        import numpy as np
        sys.path.insert(0, sys.argv[2])
        from test_bounded_memory import _records
        from simdup_gui.core.group import measure
        from simdup_gui.core.scan import kernels

        recs = _records(900, 5)
        a, b = np.triu_indices(len(recs), 1)
        pairs = np.stack((a, b), axis=1).astype(np.int32)
        if sys.argv[1] == "many":
            measure.COMPILED_PAIRS = len(pairs)
            kernels.will_compile = lambda: False  # (a fresh install compiles them here)
        got = measure._from_sketches(recs, pairs, np.arange(len(recs)), 0.3, None)
        print(kernels.loaded(), "numba" in sys.modules, len(got[0]),
              float(got[1].sum()), int(got[3].sum()))
    """)
    env = {**os.environ, "SIMDUP_COMPILED": ""}
    out = {how: subprocess.run([sys.executable, "-c", code, how, os.path.dirname(__file__)],
                               capture_output=True, text=True, timeout=300, check=True,
                               env=env).stdout.split()
           for how in ("few", "many")}
    assert out["few"][:2] == ["False", "False"], out
    assert out["many"][:2] == ["True", "True"], out
    assert out["few"][2:] == out["many"][2:] and int(out["few"][2]) > 1000, out


def test_a_dask_workers_estimates_take_the_kernels_even_before_they_are_compiled():
    """A Dask worker's share of the estimates (distributed._estimate_second) loads the
    kernels, compiled when first used on a host where no scan compiled them yet (review:
    settle() returned there before, and every estimate took the numpy path)."""
    import subprocess
    import sys
    import textwrap

    import pytest

    pytest.importorskip("numba")
    code = textwrap.dedent("""
        import numpy as np
        from simdup_gui.core import textsim
        from simdup_gui.core.group import distributed
        from simdup_gui.core.scan import kernels

        kernels.will_compile = lambda: True  # a new host
        rng = np.random.default_rng(3)
        sk = np.sort(rng.integers(0, 2**32 - 2, (300, textsim.SKETCH_K),
                                  dtype=np.uint64), axis=1).astype(np.uint32)
        m = textsim.COMPILED_FROM
        pairs = np.stack((rng.integers(0, 300, m), rng.integers(0, 300, m)), axis=1)
        pieces = [((np.arange(m), pairs.ravel()), sk[pairs[:, 0]].ravel())]
        pos, est, whole = distributed._estimate_second(sk, 0, pieces)
        want = textsim.estimate(sk, pairs[:, 0], pairs[:, 1])
        print(kernels.loaded(), np.array_equal(est, want[0]), np.array_equal(whole, want[1]))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600, check=True, env={**os.environ, "SIMDUP_COMPILED": ""})
    assert out.stdout.split() == ["True", "True", "True"], out
