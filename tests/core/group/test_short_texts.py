"""Short texts get candidates from their sketches (issue 37, part 2): a fingerprint resting on
a few dozen words is unstable, so tiny files at J >= 0.70 can lie far apart in SimHash."""

from __future__ import annotations

import json
import random

import numpy as np

from simdup_gui.core.group import candidates
from simdup_gui.core.session import ReviewSettings, Session
from simdup_gui.core.textsim import normalise, shingle_set, jaccard


def _fixture(rng: random.Random) -> dict:
    word = lambda: "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 9)))  # noqa: E731
    return {word(): word() for _ in range(rng.randint(8, 14))}


def _edit(d: dict, rng: random.Random) -> dict:
    """One value changed, one key added: a fixture's next version."""
    d = dict(d)
    k = rng.choice(sorted(d))
    d[k] = d[k][::-1]
    d["added"] = "yes"
    return d


def tiny_family(root, n: int = 40, seed: int = 5) -> list[tuple[str, str]]:
    """``n`` tiny JSON fixtures and a next version of each: the true pairs (J >= 0.70)."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    pairs = []
    for i in range(n):
        base = _fixture(rng)
        a, b = root / f"f{i:02d}.json", root / f"f{i:02d}.v2.json"
        a.write_text(json.dumps(base, indent=2), encoding="utf-8")
        b.write_text(json.dumps(_edit(base, rng), indent=2), encoding="utf-8")
        ja = shingle_set(normalise(a.read_text(encoding="utf-8")))
        jb = shingle_set(normalise(b.read_text(encoding="utf-8")))
        if jaccard(ja, jb) >= 0.70:
            pairs.append((str(a), str(b)))
    return pairs


def _grouped(s: Session) -> set[frozenset[str]]:
    return {frozenset(s.records[m.index].path for m in g.members) for g in s.groups}


def _found(pairs, s: Session) -> int:
    groups = _grouped(s)
    return sum(1 for a, b in pairs if any({a, b} <= g for g in groups))


def test_every_version_of_a_tiny_fixture_is_grouped_at_64_and_128_bits(tmp_path):
    pairs = tiny_family(tmp_path / "fx")
    assert len(pairs) >= 30
    for bits in (64, 128):
        s = Session([str(tmp_path)], ReviewSettings(use_cache=False, workers=1, bits=bits))
        s.scan()
        assert _found(pairs, s) == len(pairs), bits
        assert all(len(g) == 2 for g in _grouped(s))  # nothing else joins them


def test_without_the_sketch_join_the_fingerprints_miss_some(tmp_path, monkeypatch):
    """The test above is not vacuous: the fingerprint index alone misses some pairs."""
    pairs = tiny_family(tmp_path / "fx")
    monkeypatch.setattr(candidates, "short_pairs",
                        lambda *a, **k: np.zeros((0, 2), dtype=np.int64))
    s = Session([str(tmp_path)], ReviewSettings(use_cache=False, workers=1, bits=64))
    s.scan()
    assert _found(pairs, s) < len(pairs)


def _prefixes_by_lexsort(owner, vals, n):
    """The join's prefix entries as first written (np.unique and two lexsorts): the oracle."""
    import numpy as np

    from simdup_gui.core.group.short import JOIN_J

    uniq, inv, freq = np.unique(vals, return_inverse=True, return_counts=True)
    order = np.lexsort((vals, freq[inv], owner))
    owner, token = owner[order], inv[order]
    sizes = np.bincount(owner, minlength=n)
    start = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    prefix = sizes - np.ceil(JOIN_J * sizes).astype(np.int64) + 1
    inside = np.arange(len(owner)) - start[owner] < prefix[owner]
    owner, token = owner[inside], token[inside]
    by = np.lexsort((owner, token))
    return owner[by], token[by], sizes


def test_the_joins_packed_sorts_order_prefixes_as_lexsort_does(monkeypatch):
    """The prefix entries (rarest values first, ties by value; then by value rank and text)
    are the same with the packed sorts, with their lexsort fallback, and with the oracle,
    on skewed values with ties of frequency and texts of 1 to 128 values."""
    import numpy as np

    from simdup_gui.core.group import short

    rng = np.random.default_rng(11)
    n = 3000
    sizes = rng.integers(1, 129, n)
    owner = np.repeat(np.arange(n), sizes)
    pool = np.concatenate((rng.integers(0, 2**32 - 1, 400), rng.integers(0, 2**32 - 1, 40000)))
    vals = pool[np.minimum(rng.zipf(1.3, len(owner)) - 1, len(pool) - 1)].astype(np.uint32)
    want = _prefixes_by_lexsort(owner, vals, n)
    got = short._prefixes(owner, vals, n)
    monkeypatch.setattr(short, "PACK_BITS", 0)
    fallback = short._prefixes(owner, vals, n)
    for w, g, f in zip(want, got, fallback, strict=True):
        assert np.array_equal(w, g) and np.array_equal(w, f)
