"""Exact reference truth: the prefix-filtered join equals brute force on every pair."""

import itertools
import random

import numpy as np
import pytest

from simdup_gui.core.lab import reference
from simdup_gui.core.job import Cancelled, Job
from simdup_gui.core.lab.reference import reference_truth, similar_pairs
from simdup_gui.core.lab.synth import Generator
from simdup_gui.core.textsim import jaccard, shingle_set


def _texts(seed: int) -> list[str]:
    """Boilerplate families (different documents, one shared header/footer), edited copies
    at 1-40 %, unrelated texts, and the edge cases: empty, shorter than one shingle."""
    rng = random.Random(seed)
    g = Generator(seed)
    out = []
    for fam in range(8):
        lang = rng.choice(["zh", "en"])
        head = g.document(lang, rng.randint(40, 250), topic=fam).text()
        foot = g.document(lang, rng.randint(0, 60), topic=fam).text()
        for _ in range(rng.randint(4, 30)):  # own part from almost nothing to most of it
            own = g.document(lang, rng.randint(3, 300), topic=fam).text()
            out.append(head + own + foot)
    for fam in range(10):
        lang = rng.choice(["zh", "en"])
        doc = g.document(lang, rng.randint(10, 400), topic=fam % 3)
        out.append(doc.text())
        for _ in range(rng.randint(1, 8)):
            out.append(g.edit(doc, rng.choice([0.01, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4])).text())
    out += ["", "", " \n", "abc", "ABC", "abcd", "xxxxxxx", "xxxxx", "hello world"]
    rng.shuffle(out)
    return out


@pytest.fixture(scope="module")
def corpus():
    texts = _texts(7)
    sets = [shingle_set(t) for t in texts]
    exact = {(i, j): jaccard(sets[i], sets[j])
             for i, j in itertools.combinations(range(len(sets)), 2)}
    return texts, sets, exact


def _check(sets, exact, lower):
    sp = similar_pairs(list(sets), lower)
    got = {(int(a), int(b)): float(j) for a, b, j in zip(sp.a, sp.b, sp.j)}
    want = {p: j for p, j in exact.items() if j >= lower}
    assert got.keys() == want.keys()  # no pair at or above the bound missed, none extra
    assert all(got[p] == want[p] for p in got)  # the same float J as textsim.jaccard
    assert sp.measured <= sp.candidates <= sp.total
    return sp


@pytest.mark.parametrize("lower", [0.5, 0.3, 0.7, 0.9, 1.0])
def test_join_equals_brute_force_on_every_pair(corpus, lower):
    _, sets, exact = corpus
    sp = _check(sets, exact, lower)
    if lower == 0.5:
        # the corpus has what it should: grey-zone pairs and boilerplate near the bound
        js = np.array(list(exact.values()))
        assert ((js >= 0.5) & (js < 0.7)).sum() > 20 and ((js > 0.3) & (js < 0.5)).sum() > 20
        assert sp.measured < sp.total / 10  # most pairs are never measured


def test_join_is_exact_across_block_boundaries(corpus, monkeypatch):
    """Tiny blocks: files straddle blocks, one file alone exceeds a block (dense path)."""
    _, sets, exact = corpus
    monkeypatch.setattr(reference, "EMIT_BLOCK", 50)
    monkeypatch.setattr(reference, "VERIFY_BLOCK", 64)
    _check(sets, exact, 0.5)


def test_join_does_not_depend_on_the_order_of_files(corpus):
    _, sets, exact = corpus
    perm = list(range(len(sets)))
    random.Random(1).shuffle(perm)
    sp = similar_pairs([sets[i] for i in perm], 0.5)
    got = {tuple(sorted((perm[a], perm[b]))) for a, b in zip(sp.a.tolist(), sp.b.tolist())}
    assert got == {p for p, j in exact.items() if j >= 0.5}


@pytest.mark.slow
def test_boilerplate_shared_by_many_files_is_exact_and_stays_out_of_most_prefixes():
    g = Generator(3)
    foot = g.document("en", 400).text()  # a long licence notice under 300 short notes
    texts = [g.document("en", 40).text() + foot for _ in range(150)]
    texts += [g.document("en", 600).text() + foot for _ in range(150)]
    sets = [shingle_set(t) for t in texts]
    exact = {(i, j): jaccard(sets[i], sets[j])
             for i, j in itertools.combinations(range(len(sets)), 2)}
    sp = _check(sets, exact, 0.5)
    # short notes + notice are J >= 0.5 with each other; long ones are not
    assert 150 * 149 // 2 <= sp.a.size < len(exact)


def test_reference_truth_labels_duplicates_grey_zone_and_the_rest(corpus):
    texts, _, exact = corpus
    names = [f"f{i}" for i in range(len(texts))]
    t = reference_truth(names, texts, 0.7)
    assert t.closed_world and t.source == "reference Jaccard >= 0.7"
    listed = {(int(a), int(b)): int(lab) for a, b, lab in zip(t.a, t.b, t.label)}
    for p, j in exact.items():
        want = 1 if j >= 0.7 else (-1 if j >= 0.5 else None)
        assert listed.get(p) == want, (p, j)
    assert t.positives == sum(j >= 0.7 for j in exact.values())
    assert "no sampling" in t.sampling and "pairs measured exactly" in t.sampling
    assert " s (" in t.sampling  # the time taken

    # scores: grey pairs left out, every unlisted pair is a negative
    rng = random.Random(2)
    for _ in range(5):
        comp = np.array([rng.randrange(40) for _ in texts])
        c = t.count(comp)
        tp = fp = fn = amb = 0
        for (i, j), jj in exact.items():
            same = comp[i] == comp[j]
            if jj >= 0.7:
                tp += same
                fn += not same
            elif jj >= 0.5:
                amb += same
            else:
                fp += same
        assert (c.tp, c.fp, c.fn, c.ambiguous) == (tp, fp, fn, amb)


def test_a_threshold_below_the_grey_zone_moves_the_bound_down(corpus):
    texts, _, exact = corpus
    t = reference_truth([str(i) for i in range(len(texts))], texts, 0.4)
    assert (t.label == 1).all()
    assert t.a.size == sum(j >= 0.4 for j in exact.values())


def test_small_folders_and_bad_arguments():
    t = reference_truth(["a", "b", "c"], ["same text here", "Same  text\nhere", "other"], 0.8)
    assert [(int(a), int(b), int(x)) for a, b, x in zip(t.a, t.b, t.label)] == [(0, 1, 1)]
    assert reference_truth([], [], 0.7).a.size == 0
    with pytest.raises(ValueError, match="threshold"):
        reference_truth(["a"], ["x"], 1.5)
    with pytest.raises(ValueError, match="one text per name"):
        reference_truth(["a"], [], 0.7)


def test_a_cancelled_job_stops_the_reference():
    job = Job()
    job.cancel()
    with pytest.raises(Cancelled):
        reference_truth(["a", "b"], ["x" * 10, "y" * 10], 0.7, job=job)


def test_shingling_on_two_processes_gives_the_same_sets(corpus, monkeypatch):
    texts, sets, _ = corpus
    monkeypatch.setattr(reference, "PARALLEL_CHARS", 0)
    monkeypatch.setattr(reference, "SHINGLE_CHUNK", 50)
    got = reference.shingle_sets(texts, workers=2)
    assert len(got) == len(sets) and all(np.array_equal(a, b) for a, b in zip(got, sets))
