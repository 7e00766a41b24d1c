"""The LSH candidate step on a Dask cluster (issue 11, item 2) finds exactly the local LSH
path's candidate pairs, and verified groups built from them are the same."""

import numpy as np
import pytest

from simdup_gui.core.group.classes import fingerprint_words
from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.group.index import as_words
from simdup_gui.core.group.lsh import band_pairs, minhashes
from simdup_gui.core.models import FileRecord
from simdup_gui.core.textsim import EMPTY, SKETCH_K

distributed = pytest.importorskip("distributed")
from simdup_gui.core.group.distributed import cluster_band_pairs  # noqa: E402


@pytest.fixture(scope="module")
def client():
    lc = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0")
    c = distributed.Client(lc)
    yield c
    c.close()
    lc.close()


def _records(n_orig=400, copies=400, seed=5):
    """Originals with random sketches and fingerprints; copies sharing most of an
    original's sketch (an edit) and a few flipped fingerprint bits; some short texts whose
    sketches have empty slots."""
    rng = np.random.default_rng(seed)
    sk = np.sort(rng.integers(0, 2**32 - 2, (n_orig, SKETCH_K), dtype=np.uint64), axis=1)
    sk = sk.astype(np.uint32)
    sk[:20, 60:] = EMPTY  # short texts
    src = rng.integers(0, n_orig, copies)
    cp = sk[src].copy()
    for i in range(copies):
        k = int(rng.integers(0, 40))  # replace up to 40 of 128 values
        cp[i, SKETCH_K - k:] = np.sort(rng.integers(0, 2**32 - 2, k)).astype(np.uint32)
        cp[i] = np.sort(cp[i])
    fps = [int(x) for x in rng.integers(0, 2**63, n_orig)]
    fps += [fps[s] ^ (1 << int(b)) for s, b in zip(src, rng.integers(0, 64, copies))]
    allsk = np.concatenate((sk, cp))
    recs = []
    for i, fp in enumerate(fps):
        row = allsk[i]
        recs.append(FileRecord(f"/r/f{i}.txt", 1000, 1, i + 1, 1, "/r", "utf-8", fp, 100,
                               f"{i:032x}", f"{i:032x}", sketch=row.astype("<u4").tobytes(),
                               shingles=int((row != EMPTY).sum()) if i >= 20 else 60))
    return recs, allsk


def test_cluster_band_pairs_equal_the_local_band_pairs(client):
    recs, sk = _records()
    lo, hi = as_words(fingerprint_words(recs), 64)
    local = band_pairs(minhashes(sk))
    d = np.bitwise_count(lo[local[:, 0]] ^ lo[local[:, 1]]) + \
        np.bitwise_count(hi[local[:, 0]] ^ hi[local[:, 1]])
    local = local[d <= 16]
    assert len(local) >= 300  # the copies are found
    for parts in (1, 3, 8):
        remote = cluster_band_pairs(client, sk, lo, hi, 16, parts=parts)
        assert np.array_equal(remote, local)


def test_groups_from_the_cluster_candidate_step_equal_the_local_ones(client):
    recs, _ = _records()
    fps = fingerprint_words(recs)
    here = build_groups(recs, 64, 16, fingerprints=fps, candidates="lsh")
    there = build_groups(recs, 64, 16, fingerprints=fps, candidates="cluster", client=client)
    assert "on the Dask cluster" in there[1]
    assert [[(m.index, m.similarity) for m in g.members] for g in there[0]] == \
        [[(m.index, m.similarity) for m in g.members] for g in here[0]]
    assert len(here[0]) > 100


def test_the_cluster_source_without_a_client_is_an_error():
    recs, _ = _records(20, 5)
    with pytest.raises(ValueError, match="needs a Dask client"):
        build_groups(recs, 64, 16, fingerprints=fingerprint_words(recs), candidates="cluster")


def test_sketch_estimates_on_the_cluster_equal_the_local_ones(client, monkeypatch):
    from simdup_gui.core.group import distributed as dist
    from simdup_gui.core.textsim import estimate

    _, sk = _records()
    rng = np.random.default_rng(2)
    pairs = np.unique(np.sort(rng.integers(0, len(sk), (3000, 2)), axis=1), axis=0)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    want = estimate(sk, pairs[:, 0], pairs[:, 1])
    monkeypatch.setattr(dist, "ROWS_PER_SLICE", 97)  # many slices: pairs cross between them
    got = dist.cluster_estimates(client, sk, pairs)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert len(dist.cluster_estimates(client, sk, pairs[:0])[0]) == 0
