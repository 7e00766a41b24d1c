"""candidates.class_pairs against a brute force."""

from __future__ import annotations

import itertools

import numpy as np

from simdup_gui.core.group.candidates import class_pairs


def test_class_pairs_gives_every_pair_of_classes_of_candidate_fingerprints():
    """class_pairs against a brute force: classes sharing a fingerprint, and every class of
    one fingerprint with every class of the other in each fingerprint pair."""
    rng = np.random.default_rng(7)
    for _ in range(30):
        n_fp = int(rng.integers(1, 12))
        n_cls = int(rng.integers(1, 40))
        n_fp = min(n_fp, n_cls)
        fp_of_cls = rng.integers(0, n_fp, n_cls)
        fp_of_cls[:n_fp] = np.arange(n_fp)  # every fingerprint is some record's
        cls = np.repeat(np.arange(n_cls), rng.integers(1, 3, n_cls))  # records of each class
        rng.shuffle(cls)
        inverse = fp_of_cls[cls]  # each record's fingerprint number
        fp_pairs = np.array([p for p in itertools.combinations(range(n_fp), 2)
                             if rng.random() < 0.3], dtype=np.int64).reshape(-1, 2)
        want = set()
        for a, b in itertools.combinations(range(n_cls), 2):
            fa, fb = fp_of_cls[a], fp_of_cls[b]
            if fa == fb or (min(fa, fb), max(fa, fb)) in set(map(tuple, fp_pairs.tolist())):
                want.add((a, b))
        got = class_pairs(inverse, fp_pairs, cls, n_cls)
        assert sorted(map(tuple, got.tolist())) == sorted(want)
