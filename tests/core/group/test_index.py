import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.core.group.index import all_pairs, brute_force_pairs, near_pairs, plan

SIZES = (16, 32, 64, 128)


@st.composite
def fingerprint_sets(draw):
    bits = draw(st.sampled_from(SIZES))
    k = draw(st.integers(0, bits // 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    kind = draw(st.sampled_from(["random", "clustered", "copies"]))
    n = draw(st.integers(0, 120))
    fps: list[int] = []
    if kind == "random":
        fps = [rng.getrandbits(128) for _ in range(n)]
    else:
        centres = [rng.getrandbits(128) for _ in range(max(1, n // 8))]
        for _ in range(n):
            f = rng.choice(centres)
            flips = 0 if kind == "copies" and rng.random() < 0.5 else rng.randint(0, 2 * k + 1)
            for _ in range(flips):
                f ^= 1 << rng.randrange(bits)
            fps.append(f)
    return bits, k, fps


@settings(max_examples=150, deadline=None)
@given(fingerprint_sets(), st.sampled_from([None, "blocks", "probe", "scan"]))
def test_block_index_finds_exactly_the_pairs_brute_force_finds(case, force):
    bits, k, fps = case
    assert all_pairs(fps, bits, k, force) == brute_force_pairs(fps, bits, k)


def test_identical_fingerprints_of_different_files_are_all_reported():
    fps = [12345] * 5 + [99]
    pairs = all_pairs(fps, 64, 3)
    assert len([p for p in pairs if 5 not in p]) == 10


def test_plan_uses_blocks_for_many_fingerprints_at_small_k():
    p = plan(1_000_000, 64, 3)
    assert p.strategy == "blocks" and p.blocks > 3 and p.tables >= 4


def test_plan_falls_back_to_a_scan_when_k_is_too_large_and_says_so():
    p = plan(50_000, 64, 30)
    assert p.strategy == "scan"
    assert "too large" in p.describe()


def test_many_identical_copies_do_not_make_a_quadratic_bucket():
    fps = [7] * 20000 + [7 ^ 1]
    np_ = near_pairs(fps, 64, 3)
    assert len(np_.lo) == 2  # folded to two distinct fingerprints
    assert np_.pairs.tolist() == [[0, 1]]


def test_clustered_scale_matches_brute_force():
    rng = np.random.default_rng(5)
    centres = rng.integers(0, 2**63, size=300, dtype=np.uint64)
    fps = []
    for c in centres.tolist():
        for _ in range(10):
            f = c
            for b in rng.integers(0, 64, size=rng.integers(0, 5)).tolist():
                f ^= 1 << b
            fps.append(f)
    for k in (3, 10):
        for force in ("blocks", "probe", "scan"):
            assert all_pairs(fps, 64, k, force) == brute_force_pairs(fps, 64, k)


@pytest.mark.parametrize("bits", [48, 0, 65])
def test_bad_size_is_rejected_with_allowed_values(bits):
    with pytest.raises(ValueError, match="16, 32, 64, 128"):
        plan(10, bits, 3)


def _family(rng, centre: int, n: int, flips: int) -> list[int]:
    out = []
    for _ in range(n):
        f = centre
        for b in rng.integers(0, 64, size=rng.integers(0, flips + 1)).tolist():
            f ^= 1 << b
        out.append(f)
    return out


def test_dense_mode_without_a_dense_run_finds_every_pair_of_inputs():
    """dense=True (the LSH path's tight source, one entry a class): no fingerprint folded,
    so identical fingerprints are pairs of their own, and with no run past DENSE_RUN every
    pair within k is found, as brute force."""
    rng = np.random.default_rng(7)
    fps = [f for c in rng.integers(0, 2**63, size=400).tolist() for f in _family(rng, c, 8, 3)]
    np_ = near_pairs(fps, 64, 6, dense=True)
    assert np_.plan.strategy == "blocks"
    assert np.array_equal(np_.inverse, np.arange(len(fps)))
    assert set(map(tuple, np_.pairs.tolist())) == brute_force_pairs(fps, 64, 6)


def test_dense_mode_pairs_a_dense_family_with_its_first_inputs_only():
    """A family of 600 fingerprints all within k of each other costs its anchors' pairs,
    not 179,700; every member keeps a pair with one of the family's first ANCHORS inputs
    (the reference the stars then choose), and the other files' pairs are all found."""
    from simdup_gui.core.group.index import ANCHORS

    rng = np.random.default_rng(8)
    family = _family(rng, int(rng.integers(0, 2**63)), 600, 2)
    others = [f for c in rng.integers(0, 2**63, size=300).tolist() for f in _family(rng, c, 8, 3)]
    fps = others[:1200] + family + others[1200:]
    fam = set(range(1200, 1800))
    np_ = near_pairs(fps, 64, 6, dense=True)
    got = set(map(tuple, np_.pairs.tolist()))
    truth = brute_force_pairs(fps, 64, 6)
    assert got <= truth and all(a < b for a, b in got)
    in_family = {p for p in got if p[0] in fam and p[1] in fam}
    assert len(in_family) < 20 * 600 < len([p for p in truth if p[0] in fam and p[1] in fam])
    anchors = set(range(1200, 1200 + ANCHORS))
    assert {x for p in in_family if p[0] in anchors for x in p} == fam
    assert {p for p in got if not fam & set(p)} == {p for p in truth if not fam & set(p)}


def test_dense_mode_leaves_runs_of_unrelated_fingerprints_on_a_narrow_key_whole():
    """A key so narrow that unrelated fingerprints share it by chance (16 bits, keys of 4
    bits: 125 a run on average among 2,000) is no dense family: every pair within k is
    still found (anchoring such runs lost pairs of classes with one fingerprint)."""
    from simdup_gui.core.group.index import IndexPlan, _pairs_blocks, as_words

    rng = np.random.default_rng(3)
    fps = rng.integers(0, 1 << 16, 2000).tolist()
    lo, hi = as_words(fps, 16)
    got = _pairs_blocks(lo, hi, IndexPlan("blocks", 16, 3, 4, 4, 4), dense=True)
    assert set(map(tuple, got.tolist())) == brute_force_pairs(fps, 16, 3)


def test_the_short_join_of_texts_without_a_sketch_value_is_empty():
    """Short texts whose sketches are all padding (a sketch of the wrong length is read as
    padding) give no prefix entries and no pairs, not a crash."""
    from simdup_gui.core.group import short

    owner, token, sizes = short._prefixes(np.zeros(0, np.int32), np.zeros(0, np.uint32), 3)
    assert len(owner) == len(token) == 0 and sizes.tolist() == [0, 0, 0]
