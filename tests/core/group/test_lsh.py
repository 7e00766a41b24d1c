"""The linear candidate source: sketch LSH bands next to a tight SimHash distance."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.core.group import candidates
from simdup_gui.core.group.classes import fingerprint_words, text_classes
from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.group.measure import VerifyStats, verified_pairs
from simdup_gui.core.group.lsh import BANDS, BUCKETS, ROWS, _mix, band_pairs, minhashes
from simdup_gui.core.scan.pipeline import ScanOptions, scan
from simdup_gui.core.textsim import EMPTY, SKETCH_K

from tests.conftest import EN, ZH


def sketches(n, seed=1):
    rng = np.random.default_rng(seed)
    sk = np.sort(rng.integers(0, 2**32 - 1, (n, SKETCH_K), dtype=np.uint32), axis=1)
    sk[0, 20:] = EMPTY  # a short text: a set of 20 shingles held whole
    sk[1, :] = EMPTY  # no sketch
    return sk


def test_minhashes_are_each_buckets_smallest_value_densified():
    sk = sketches(40)
    mh = minhashes(sk)
    for row, out in zip(sk, mh):
        vals = [int(v) for v in row if v != EMPTY]
        if not vals:
            assert (out == EMPTY).all()
            continue
        b = (_mix(np.array(vals, dtype=np.uint64)) % np.uint64(BUCKETS)).astype(int)
        raw = [min((v for v, bb in zip(vals, b) if bb == j), default=None) for j in range(BUCKETS)]
        for j in range(BUCKETS):
            k = j
            while raw[k % BUCKETS] is None:  # empty: the next non-empty bucket's value
                k += 1
            assert out[j] == raw[k % BUCKETS]


def test_band_pairs_are_exactly_the_pairs_agreeing_on_a_whole_band():
    rng = np.random.default_rng(3)
    mh = rng.integers(0, 4, (60, BUCKETS)).astype(np.uint32)  # few values: many collisions
    mh[5] = EMPTY
    want = set()
    for a in range(60):
        for b in range(a + 1, 60):
            if a == 5 or b == 5:
                continue
            if any((mh[a, i * ROWS:(i + 1) * ROWS] == mh[b, i * ROWS:(i + 1) * ROWS]).all()
                   for i in range(BANDS)):
                want.add((a, b))
    assert set(map(tuple, band_pairs(mh).tolist())) == want


def test_linear_candidates_are_a_subset_of_the_scan_and_keep_its_verified_pairs(tmp_path):
    rng = random.Random(5)
    words_zh, words_en = list(ZH), EN.split()
    n = 0
    for base in range(30):
        zh = base % 2 == 0
        rng.shuffle(words_zh if zh else words_en)
        text = ("".join(words_zh[:300]) if zh else " ".join(words_en[:150])) + str(base)
        for v in range(3):  # an original and two edited copies
            t = list(text)
            for _ in range(v * 4):
                i = rng.randrange(len(t))
                t[i] = rng.choice("abcdefg的是了")
            (tmp_path / f"f{n:03d}.txt").write_text("".join(t), encoding="gbk" if zh and v else
                                                    "utf-8")
            n += 1
    recs = scan([str(tmp_path)], ScanOptions(use_cache=False, workers=1)).records
    fps = fingerprint_words(recs)
    cls, members = text_classes(recs)
    first = np.fromiter((m[0] for m in members), dtype=np.int64, count=len(members))
    for bits, k in ((64, 16), (128, 26)):
        got = {}
        for source in ("scan", "lsh"):
            cp, desc = candidates.candidate_pairs(recs, bits, k, fps, cls, members, first, source)
            pairs, _, _ = verified_pairs(recs, cp, first, 0.7, None, VerifyStats())
            got[source] = (set(map(tuple, cp.tolist())), set(map(tuple, pairs.tolist())))
        assert got["lsh"][0] <= got["scan"][0]
        assert got["lsh"][1] == got["scan"][1] and len(got["scan"][1]) >= 30
    # and build_groups takes the linear source on its own above the size bound
    old = candidates.LSH_ABOVE
    try:
        candidates.LSH_ABOVE = 0
        groups, desc = build_groups(recs, 64, 16)
    finally:
        candidates.LSH_ABOVE = old
    assert "sketch LSH" in desc and len(groups) >= 25


def test_pairs_are_made_in_bounded_chunks_and_filtered_as_they_come(monkeypatch):
    """Files that all share band keys (texts from one small vocabulary) must not hold every
    raw pair at once: runs are turned into pairs PAIR_CHUNK at a time and filtered."""
    import numpy as np

    from simdup_gui.core.group import lsh

    rng = np.random.default_rng(1)
    key = rng.integers(0, 40, 3000).astype(np.uint64)  # 40 runs of ~75: ~110,000 pairs
    ids = np.arange(3000, dtype=np.int64)
    monkeypatch.setattr(lsh, "DENSE_RUN", 2000)  # every pair of each run (no anchors)
    whole = lsh.unique_pairs(lsh.pairs_of_equal_keys(key, ids), 3000)
    seen = []

    def keep(p):
        seen.append(len(p))
        return (p[:, 0] + p[:, 1]) % 7 == 0
    monkeypatch.setattr(lsh, "PAIR_CHUNK", 5000)
    part = lsh.unique_pairs(lsh.pairs_of_equal_keys(key, ids, keep), 3000)
    assert max(seen) < 5000 + 80 * 79 // 2 and len(seen) > 10  # one run over at most
    assert np.array_equal(part, whole[(whole[:, 0] + whole[:, 1]) % 7 == 0])


def _old_unique_pairs(pairs, n):
    """lsh.unique_pairs as it was (np.unique of the codes), the oracle for the one now."""
    if not len(pairs):
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.sort(pairs, axis=1)
    code = np.unique(pairs[:, 0] * np.int64(n) + pairs[:, 1])
    return np.stack((code // n, code % n), axis=1)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60).flatmap(lambda n: st.tuples(
           st.just(n),
           st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=300))),
       st.sampled_from([np.int64, np.intp, np.int32]))
def test_unique_pairs_give_what_np_unique_of_the_codes_gave(case, dtype):
    """Sort and compare (a sort of 1-D int64 releases the GIL; numpy 2's hash-based unique
    held it) gives the same pairs, in the same order, of the same dtype."""
    from simdup_gui.core.group.lsh import unique_pairs

    n, rows = case
    pairs = np.array(rows, dtype=dtype).reshape(-1, 2)
    want, got = _old_unique_pairs(pairs, n), unique_pairs(pairs, n)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want)


def test_unique_pairs_of_many_repeats_match_np_unique_of_the_codes():
    from simdup_gui.core.group.lsh import unique_pairs

    rng = np.random.default_rng(7)
    for n in (2, 1000, 99_615):
        pairs = rng.integers(0, n, (200_000, 2))
        pairs = np.concatenate((pairs, pairs[::3, ::-1]))  # repeats, either way round
        assert np.array_equal(unique_pairs(pairs, n), _old_unique_pairs(pairs, n))


def test_a_dense_band_bucket_pairs_each_file_with_its_anchors_only():
    """A band bucket of a dense family (more than DENSE_RUN files) gives each file pairs
    with the bucket's ANCHORS first files, not every pair; a small bucket every pair."""
    import numpy as np

    from simdup_gui.core.group import index, lsh

    rng = np.random.default_rng(2)
    n_dense, n_small = 500, 20
    key = np.array([1] * n_dense + [2] * n_small, dtype=np.uint64)
    ids = rng.permutation(n_dense + n_small).astype(np.int64)
    pairs = lsh.unique_pairs(lsh.pairs_of_equal_keys(key, ids), n_dense + n_small)
    dense_ids, small_ids = np.sort(ids[:n_dense]), set(ids[n_dense:].tolist())
    anchors = set(dense_ids[:index.ANCHORS].tolist())
    got = set(map(tuple, pairs.tolist()))
    in_dense = {p for p in got if p[0] not in small_ids}
    assert all(p[0] in anchors or p[1] in anchors for p in in_dense)
    every_file = {x for p in in_dense for x in p}
    assert every_file == set(dense_ids.tolist())  # each file has its pairs with the anchors
    assert len(in_dense) == sum(n_dense - j - 1 for j in range(index.ANCHORS))  # not 124,750
    small = {p for p in got if p[0] in small_ids}
    assert len(small) == n_small * (n_small - 1) // 2
