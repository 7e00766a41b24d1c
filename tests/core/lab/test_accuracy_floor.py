"""The default 64-bit setting must reach pairwise F1 >= 0.9 on a generated labelled corpus."""

import os

import pytest

from simdup_gui.core.lab.evaluate import score_pairs, sweep, truth_pairs
from simdup_gui.core.lab.evaluate import grouped_pairs
from simdup_gui.core.scan.fingerprint import FeatureSettings, fingerprint_file
from simdup_gui.core.defaults import DEFAULT_DISTANCE
from simdup_gui.core.lab.synth import generate_corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    c = generate_corpus(40, seed=11)
    d = tmp_path_factory.mktemp("corpus")
    c.write(str(d))
    return c, str(d)


def fingerprinted(corpus, mode):
    c, d = corpus
    recs, vs = [], []
    for v in c.files:
        r = fingerprint_file(os.path.join(d, v.name), d, FeatureSettings(mode))
        assert hasattr(r, "fingerprint"), r
        recs.append(r)
        vs.append(v)
    truth = truth_pairs(len(recs), lambda i, j: c.label(vs[i], vs[j]))
    return recs, truth


def test_default_64_bit_setting_reaches_f1_090(corpus):
    recs, truth = fingerprinted(corpus, "shingles")
    s = score_pairs(grouped_pairs(recs, 64, DEFAULT_DISTANCE[64], verify="sketch"), truth, 64)
    assert s.tp > 50
    assert s.f1 >= 0.9, s.to_dict()


def test_16_bit_fingerprints_score_visibly_lower(corpus):
    recs, truth = fingerprinted(corpus, "shingles")
    best16 = max(x.f1 for x in sweep(recs, truth, 16, range(0, 5)))
    s64 = score_pairs(grouped_pairs(recs, 64, DEFAULT_DISTANCE[64], verify="sketch"), truth, 64)
    assert best16 < s64.f1 - 0.1


def test_default_mode_beats_the_seeds_top_k_recipe(corpus):
    ours, truth = fingerprinted(corpus, "shingles")
    seeds, _ = fingerprinted(corpus, "topk")
    best_ours = max(x.f1 for x in sweep(ours, truth, 64, range(0, 17, 2)))
    best_topk = max(x.f1 for x in sweep(seeds, truth, 64, range(0, 17, 2)))
    assert best_ours > best_topk
