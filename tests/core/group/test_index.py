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
