import random

import numpy as np
import pytest

from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.group.graph import components
from simdup_gui.core.scan.features import FeatureBuilder, extract
from simdup_gui.core.group.index import near_pairs
from simdup_gui.core.models import FileRecord
from simdup_gui.core.scan.simhash import mmh3_128_many, simhash128

from tests.conftest import EN, ZH


def clustered(n, bits, k, seed):
    rng = np.random.default_rng(seed)
    centres = rng.integers(0, 2**63, size=(n // 20, 2), dtype=np.uint64)
    pick = rng.integers(0, len(centres), n)
    lo, hi = centres[pick, 0].copy(), centres[pick, 1].copy()
    if bits <= 64:
        hi[:] = 0
    for _ in range(k + 2):
        rows = np.flatnonzero(rng.random(n) < 0.5)
        pos = rng.integers(0, min(bits, 64), rows.size).astype(np.uint64)
        lo[rows] ^= np.uint64(1) << pos
    return lo, hi


def brute_pairs_arrays(lo, hi, k):
    """All index pairs within k, by numpy popcount in row blocks."""
    n = len(lo)
    out = set()
    for i in range(0, n, 500):
        d = (np.bitwise_count(lo[i:i + 500, None] ^ lo[None, :]).astype(np.int16)
             + np.bitwise_count(hi[i:i + 500, None] ^ hi[None, :]))
        a, b = np.nonzero(d <= k)
        a = a + i
        keep = a < b
        out.update(zip(a[keep].tolist(), b[keep].tolist()))
    return out


@pytest.mark.parametrize("bits,k", [(64, 3), (128, 6)])
def test_block_index_at_twelve_thousand_clustered_fingerprints_equals_brute_force(bits, k):
    lo, hi = clustered(12_000, bits, k, seed=bits)
    np_ = near_pairs((lo, hi), bits, k)
    assert np_.plan.strategy == "blocks"
    inv = np_.inverse
    members = {}
    for i, u in enumerate(inv.tolist()):
        members.setdefault(u, []).append(i)
    got = set()
    for g in members.values():
        got.update((a, b) for x, a in enumerate(g) for b in g[x + 1:])
    for a, b in np_.pairs.tolist():
        for i in members[a]:
            for j in members[b]:
                got.add((min(i, j), max(i, j)))
    assert got == brute_pairs_arrays(lo, hi, k)


def test_components_join_chains_and_leave_isolated_nodes_alone():
    pairs = np.array([[5, 6], [1, 2], [2, 3], [6, 7], [3, 9]])
    labels = components(11, pairs)
    assert labels.tolist() == [0, 1, 1, 1, 4, 5, 5, 5, 8, 1, 10]


def group_labels(fps, bits: int, distance: int) -> np.ndarray:
    """Linked grouping on arrays alone: for each input a group label, -1 when alone (the
    component ids of build_groups' "linked" mode). ``fps``: (lo, hi) uint64 arrays."""
    npairs = near_pairs(fps, bits, distance)
    n_u = len(npairs.lo)
    lab = components(n_u, npairs.pairs)[npairs.inverse]
    size = np.bincount(lab, minlength=n_u)
    return np.where(size[lab] > 1, lab, -1)


def test_group_labels_from_arrays_match_build_groups_on_records():
    lo, hi = clustered(3000, 64, 3, seed=3)
    fps = [int(a) | (int(b) << 64) for a, b in zip(lo.tolist(), hi.tolist())]
    recs = [FileRecord(f"/r/{i:05d}", 1, i, i, 1, "/r", "utf-8", f, 10, f"t{i}", f"c{i}")
            for i, f in enumerate(fps)]
    groups, _ = build_groups(recs, 64, 3, verify="none")
    labels = group_labels((lo, hi), 64, 3)
    from_labels = {}
    for i, lab in enumerate(labels.tolist()):
        if lab >= 0:
            from_labels.setdefault(lab, set()).add(i)
    assert sorted(map(sorted, from_labels.values())) == sorted(sorted(g.indices()) for g in groups)


def test_build_groups_accepts_precomputed_arrays_and_gives_the_same_groups():
    rng = random.Random(4)
    fps = [rng.choice([0, 0b1011, 1 << 70, 12345]) ^ (1 << rng.randrange(64)) for _ in range(300)]
    recs = [FileRecord(f"/r/{i:04d}", 1, i, i, 1, "/r", "utf-8", f, 10, "t", "c")
            for i, f in enumerate(fps)]
    lo = np.array([f & (2**64 - 1) for f in fps], dtype=np.uint64)
    hi = np.array([f >> 64 for f in fps], dtype=np.uint64)
    for mode in ("linked", "strict"):
        a, _ = build_groups(recs, 64, 3, mode, verify="none")
        b, _ = build_groups(recs, 64, 3, mode, fingerprints=(lo, hi), verify="none")
        assert [(g.representative, g.indices()) for g in a] == \
               [(g.representative, g.indices()) for g in b]


def test_thousands_of_identical_copies_are_one_group_without_a_quadratic_pair_list():
    lo = np.full(30_000, 7, dtype=np.uint64)
    hi = np.zeros_like(lo)
    np_ = near_pairs((lo, hi), 64, 3)
    assert len(np_.lo) == 1 and len(np_.pairs) == 0
    assert set(group_labels((lo, hi), 64, 3).tolist()) == {0}


def test_vectorised_murmur3_equals_mmh3_for_every_length():
    import mmh3

    rng = random.Random(9)
    items = [bytes(rng.getrandbits(8) for _ in range(n)) for n in list(range(0, 70)) + [255, 1000]]
    buf = np.frombuffer(b"".join(items), dtype=np.uint8)
    lens = np.array([len(x) for x in items])
    h = mmh3_128_many(buf, np.cumsum(lens) - lens, lens)
    for row, x in zip(h, items):
        assert row.astype("<u8").tobytes() == mmh3.hash_bytes(x, 0)


@pytest.mark.parametrize("mode", ["shingles", "tokens"])
def test_fast_fingerprint_equals_simhash_of_the_feature_list(mode):
    text = (ZH + EN) * 4
    fb = FeatureBuilder(mode)
    fb.add(text)
    fast = fb.fingerprint()
    feats = extract(text, mode)
    assert fast == (simhash128(feats.names, feats.weights), len(feats.names))
