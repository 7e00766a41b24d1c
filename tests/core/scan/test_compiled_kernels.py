"""The compiled kernels (numba) give exactly what the numpy path gives: token ids, feature
counts and weights, pair hashes, the SimHash, the 5-gram sketch and its count; and a scan's
workers use them."""

from __future__ import annotations

import os
import random

import mmh3
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.core import shingles
from simdup_gui.core.scan import kernels, unicode_tables
from simdup_gui.core.scan import vocab as vocab_mod
from simdup_gui.core.scan.features import FeatureBuilder, rechunk
from simdup_gui.core.scan.fingerprint import FeatureSettings, fingerprint_file
from simdup_gui.core.textsim import (SKETCH_K, ShingleBuilder, gram_hashes, make_sketch,
                                     sorted_unique)

from tests.core.scan.test_fast_features import _texts

pytestmark = pytest.mark.skipif(not kernels.available(), reason="numba is not installed")


@pytest.fixture
def compiled(monkeypatch):
    """Switch the kernels on or off for this test (a new vocabulary each time)."""
    def use(on: bool) -> None:
        monkeypatch.setenv("SIMDUP_COMPILED", "1" if on else "0")
        vocab_mod._LOCAL.__dict__.clear()
    yield use
    vocab_mod._LOCAL.__dict__.clear()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80), st.integers(0, 7))
def test_mmh3_kernel_is_mmh3(data, pad):
    buf = np.frombuffer(b"\xaa" * pad + data + b"\x55" * 9, dtype=np.uint8)
    h1, h2 = kernels.impl().mmh3_128(buf, pad, len(data))
    assert int(h1).to_bytes(8, "little") + int(h2).to_bytes(8, "little") == \
        mmh3.hash_bytes(data, 0)


def _outcome(text: str, is_html: bool, mode: str, chunks: int) -> tuple:
    fb = FeatureBuilder(mode, is_html)
    size = max(1, len(text) // chunks)
    for chunk in rechunk([text], size) if chunks > 1 else [text]:
        fb.add(chunk)
    f = fb.finish()
    return (fb.fingerprint(), fb.shingles.sketch(), sorted(zip(f.names, f.weights)),
            fb.n_tokens, fb.text_hash())


@pytest.mark.parametrize("mode", ["shingles", "tokens"])
def test_compiled_path_gives_the_numpy_paths_features(mode, compiled):
    """Every text of the fast-path test (legacy encodings, HTML, no words, a count beyond
    the log table, fullwidth and ligatures), whole and in three chunks, both paths; the
    vocabulary is shared across texts, as in a worker."""
    texts = _texts()
    compiled(False)
    want = [_outcome(t, h, mode, c) for t, h in texts for c in (1, 3)]
    compiled(True)
    assert vocab_mod.thread_vocab().compiled
    got = [_outcome(t, h, mode, c) for t, h in texts for c in (1, 3)]
    assert got == want


def test_the_table_grows_and_ids_stay_the_same(compiled):
    """Tens of thousands of distinct tokens: the token table is rehashed many times while
    a file is read; features stay those of the numpy path."""
    rng = random.Random(5)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
             for _ in range(30000)]
    text = " ".join(rng.choice(words) for _ in range(120000))
    compiled(False)
    want = _outcome(text, False, "shingles", 3)
    compiled(True)
    got = _outcome(text, False, "shingles", 3)
    assert len(vocab_mod.thread_vocab().vals) >= 2 * 25000  # it did grow
    assert got == want


def test_a_token_holding_the_separator_gets_its_own_id(compiled):
    """The kernel splits the joined tokens at 0x1F; a tokenizer that returns a token with
    0x1F in it (the scan's never does) still gets one id per token and the same features."""
    def cut(text: str) -> list[str]:
        return ["ab\x1fcd", "ab", "cd", "ab\x1fcd", "x\x1f"] * 100

    def run() -> tuple:
        fb = FeatureBuilder("shingles", tokenizer=cut)
        fb.add("anything")
        return fb.fingerprint(), sorted(fb.finish().names)

    compiled(False)
    want = run()
    compiled(True)
    assert run() == want
    assert len(want[1]) == 4 + 5  # four distinct words, five distinct pairs


@pytest.mark.parametrize("mode", ["shingles", "tokens"])
def test_a_word_holding_the_separator_is_hashed_whole_by_the_named_path(compiled, mode):
    """The named reference (finish() and simhash128 with its pairs) equals the fast
    fingerprint when a tokenizer's word holds U+001F: the word is not taken for a pair."""
    from simdup_gui.core.scan.simhash import simhash128

    def cut(text: str) -> list[str]:
        return ["ab\x1fcd", "ab", "cd", "ab\x1fcd", "x\x1f"] * 100

    for on in (False, True):
        compiled(on)
        fb = FeatureBuilder(mode, tokenizer=cut)
        fb.add("anything")
        f = fb.finish()
        assert fb.fingerprint()[0] == simhash128(f.names, f.weights, pairs=f.pairs)
        assert len(f.pairs) == (5 if mode == "shingles" else 0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30),
                max_size=5))
def test_shingles_and_sketch_equal_textsim(parts):
    """5-gram hashes across chunk borders, the sketch (high halves deduplicated before the
    0xFFFFFFFF fold) and the distinct count, against textsim's numpy code."""
    ref = ShingleBuilder()
    fast = shingles.CompiledShingles()
    for p in parts:
        ref.add_clean(p)
        fast.add_clean(p)
    assert fast.sketch() == ref.sketch()


def test_sketch_keeps_numpys_fold_of_the_top_value():
    h = np.array([(0xFFFFFFFE << 32) | 5, (0xFFFFFFFF << 32) | 1, (0xFFFFFFFF << 32) | 2],
                 dtype=np.uint64)
    out, n = kernels.impl().sketch_sorted(h, SKETCH_K)
    assert (out.astype("<u4").tobytes(), int(n)) == make_sketch(sorted_unique(h))
    assert out.tolist()[:2] == [0xFFFFFFFE, 0xFFFFFFFE] and n == 3
    out2, n2 = kernels.impl().sketch_hashes(h[::-1].copy(), SKETCH_K)
    assert out2.tolist() == out.tolist() and n2 == n


def _hash_arrays(seed: int):
    """64-bit hash arrays as sketches meet them, and the cases the unsorted kernel must get
    right: repeats (a 5-gram that recurs), a hash 0 (the table's empty slot), high halves
    shared by distinct hashes, the 0xFFFFFFFF fold, sizes around k and 3k, and too few
    distinct halves under the bound (all in one corner of the range)."""
    rng = np.random.default_rng(seed)
    for n in (0, 1, 2, 5, SKETCH_K - 1, SKETCH_K, SKETCH_K + 1, 3 * SKETCH_K,
              3 * SKETCH_K + 1, 1000, 4600, 30000):
        h = rng.integers(0, 2**64, n, dtype=np.uint64)
        yield h
        if n < 2:
            continue
        r = h.copy()
        r[rng.integers(0, n, n // 2)] = h[rng.integers(0, n, n // 2)]  # repeats
        r[0] = 0
        yield r
        s = h.copy()
        s[: n // 2] = (s[: n // 2] & np.uint64(0xFFFFFFFF)) | np.uint64(7 << 32)  # one half
        s[-1] = np.uint64(0xFFFFFFFF00000000)
        s[-2] = np.uint64(0xFFFFFFFEFFFFFFFF)
        yield s
        yield np.uint64(0xFFFFFF0000000000) | (h >> np.uint64(24))  # all above the bound
        yield rng.integers(0, 4, n).astype(np.uint64)  # 0-3 only


@pytest.mark.parametrize("seed", range(3))
def test_the_unsorted_sketch_is_the_sorted_ones(seed):
    k = kernels.impl()
    for h in _hash_arrays(seed):
        want = k.sketch_sorted(np.sort(h), SKETCH_K)
        got = k.sketch_hashes(h.copy(), SKETCH_K)
        assert got[0].tolist() == want[0].tolist() and got[1] == want[1], len(h)
        assert (got[0].astype("<u4").tobytes(), int(got[1])) == make_sketch(sorted_unique(h))


def test_a_huge_files_sketch_takes_the_sort(monkeypatch):
    """Above SKETCH_HASHED_MAX hashes the builder sorts in place (no table beside them):
    the same sketch either way."""
    text = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(5000))
    sketches = []
    for limit in (1 << 20, 100):
        monkeypatch.setattr(kernels.impl(), "SKETCH_HASHED_MAX", limit)
        fast = shingles.CompiledShingles()
        fast.add_clean(text)
        sketches.append(fast.sketch())
    ref = ShingleBuilder()
    ref.add_clean(text)
    assert sketches[0] == sketches[1] == ref.sketch()


@pytest.mark.parametrize("compact", [1, 7, 64])
def test_a_large_chunks_hashes_kept_distinct_by_blocks_give_the_same_sketch(compact,
                                                                         monkeypatch):
    """Above COMPACT_ABOVE hashes a chunk keeps only the distinct hashes of each block of
    that many (repeats across blocks and chunks stay): the same sketch and distinct count,
    by the table's way and by the sort's."""
    monkeypatch.setattr(shingles, "COMPACT_ABOVE", compact)
    rng = np.random.default_rng(compact)
    words = ["中文", "文本", "abc", "de", "ﬁx", "北京", "x", "长一点的句子"]
    for limit in (1 << 20, 50):
        monkeypatch.setattr(kernels.impl(), "SKETCH_HASHED_MAX", limit)
        for _ in range(40):
            parts = ["".join(rng.choice(words, rng.integers(0, 90)))
                     for _ in range(rng.integers(1, 6))]
            ref, fast = ShingleBuilder(), shingles.CompiledShingles()
            for p in parts:
                ref.add_clean(p)
                fast.add_clean(p)
            assert fast.sketch() == ref.sketch(), parts


def test_gram_hashes_kernel_is_textsims():
    for s in ["", "a", "abcd", "abcde", "中文的文本，长一点" * 7, "\U0002070e\U00020731xy"]:
        cps = np.frombuffer(s.encode("utf-32-le"), dtype="<u4")
        assert kernels.impl().gram_hashes(cps).tolist() == gram_hashes(s).tolist()


def test_files_fingerprint_alike_on_both_paths(tmp_path, compiled):
    """Whole files through fingerprint_file: every record field equal, both paths."""
    from tests.conftest import EN, ZH

    paths = []
    for i, (name, data) in enumerate([("zh.txt", ZH.encode("gb18030")),
                                      ("en.txt", EN.encode("utf-16")),
                                      ("mix.txt", (ZH + EN).encode("utf-8") * 40)]):
        p = tmp_path / name
        p.write_bytes(data)
        paths.append(str(p))
    compiled(False)
    want = [fingerprint_file(p, str(tmp_path), FeatureSettings()) for p in paths]
    compiled(True)
    got = [fingerprint_file(p, str(tmp_path), FeatureSettings()) for p in paths]
    assert got == want
    assert all(r.fingerprint for r in got)


def test_scan_workers_use_the_kernels(tmp_path):
    """The pool's workers come from a fork server (where there is one) that loaded the
    kernels once: a worker reports them active."""
    import sys

    from simdup_gui.core.scan.poolctx import pool_context

    ctx = pool_context()
    if sys.platform.startswith("linux"):
        assert ctx.get_start_method() == "forkserver"
    else:
        assert ctx.get_start_method() == "spawn"
    with ctx.Pool(1, initializer=_warm) as pool:
        assert pool.apply(kernels.active) is True


def _warm() -> None:
    from simdup_gui.core.scan.warm import warm

    warm()


_UNICODE_TEXT = st.lists(st.sampled_from(
    list("abcAB 12\t\n，。！？ＡＢＣ１２３ﬁßİ①㎡…") + ["\u0301", "\u0308", "\u3099", "\uff9e", "\u1100",
                                                "\u1161", "\u3131", "\u314f", "\ufeff",
                                                "\u200b", "\u00ad", "e\u0301", "北", "京",
                                                "\U00020000", "\uf900"]), max_size=60).map("".join)


@pytest.mark.parametrize("on", [False, True])
@pytest.mark.parametrize("tabled", [False, True])
def test_the_scans_shingle_set_is_the_definitions(on, tabled, compiled, monkeypatch):
    """shingles.shingle_set (what reading a doubtful pair's files uses: NFKC by runs once a
    process has normalised enough text, compiled 5-grams in a worker) equals
    textsim.shingle_set element for element, on both paths and both NFKC ways."""
    from simdup_gui.core.textsim import shingle_set

    compiled(on)
    monkeypatch.setattr(unicode_tables, "_nfkc_seen",
                        unicode_tables.NFKC_TABLE_AFTER if tabled else 0)
    monkeypatch.setattr(unicode_tables, "NFKC_TABLE_AFTER", 1 << 60 if not tabled else
                        unicode_tables.NFKC_TABLE_AFTER)

    @settings(max_examples=150, deadline=None)
    @given(_UNICODE_TEXT)
    def check(text):
        want = shingle_set(text)
        assert np.array_equal(shingles.shingle_set(text), want)
        assert np.array_equal(np.sort(shingles.distinct_shingles(text)), want)
    check()
    for text, _ in _texts():
        want = shingle_set(text)
        assert np.array_equal(shingles.shingle_set(text), want)
        got = shingles.distinct_shingles(text)
        assert np.array_equal(np.sort(got), want) and len(got) == len(want)


def test_the_compiled_table_keeps_tokens_only_in_arrays(compiled):
    """With the kernels the vocabulary holds no Python str, bytes or float per token (150
    bytes each), yet gives the same tokens, bytes, IDFs and hashed features as the numpy
    path's lists, for short texts (Python counting) and long ones."""
    texts = [t for t, _ in _texts()]
    compiled(False)
    want = []
    for t in texts:
        fb = FeatureBuilder("shingles")
        fb.add(t)
        want.append((fb.hashed_features(), fb.unigrams))
    plain = vocab_mod.thread_vocab()
    compiled(True)
    for t, (w, uni) in zip(texts, want):
        fb = FeatureBuilder("shingles")
        fb.add(t)
        got = fb.hashed_features()
        assert np.array_equal(got[0], w[0]) and np.array_equal(got[1], w[1])
        assert fb.unigrams == uni
    v = vocab_mod.thread_vocab()
    assert v.compiled and v.n > 100
    assert v.tokens == [] and v.tb == [] and v.idf_l == []
    for i in range(v.n):
        j = plain.ids[v.token(i)]
        assert v.token_bytes(i) == plain.tb[j] and v.idf_at(i) == plain.idf_l[j]


# characters where the one-pass preparation could go wrong: every kind of whitespace, the
# invisible ones, CJK at each edge of its blocks (and just outside), astral CJK, surrogates,
# fullwidth forms, ASCII
_EDGES = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f"
          "\u205f\u3000" "\ufeff\u200b\u200c\u200d\u2060\u00ad"
          "\u33ff\u3400\u4dbf\u4dc0\u4dff\u4e00\u9fff\ua000\uf8ff\uf900\ufaff\ufb00"
          "\U0001ffff\U00020000\U0002ffff\U00030000\ud800\udfff" "中文ａＡ１。，ab1 "
          # casefold and NFKC at work: ß İ ŉ ﬁ Σ ς Cherokee, a ligature of 18 characters,
          # the Kelvin sign; risky ones: combining marks, a Hangul vowel
          "ßİŉﬁΣςᏸꭰ\ufdfa\u212a\u0301\u0327e\u1161\u1100가")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(_EDGES), max_size=60))
def test_prepare_is_the_steps_it_replaces(text):
    """_kernels.prepare gives textsim's solid(drop_invisible(t)), feature_text's mixed rule
    and the CJK count of the first, character for character."""
    from simdup_gui.core.textsim import drop_invisible, solid

    c = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    flat, feat, cjk, sur = kernels.impl().prepare(c, unicode_tables.char_classes())
    t = drop_invisible(text)
    dec = lambda a: a.tobytes().decode("utf-32-le", "surrogatepass")  # noqa: E731
    assert dec(flat) == solid(t)
    assert dec(feat) == " ".join(unicode_tables.ws_between_cjk().sub("", t).split())
    assert cjk == (unicode_tables.cjk_count(solid(t)) if solid(t) else 0)
    assert sur == sum(0xD800 <= ord(ch) <= 0xDFFF for ch in solid(t))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(_EDGES), max_size=40), max_size=4))
def test_the_one_pass_chunk_gives_the_step_by_step_features(parts):
    """FeatureBuilder.add's compiled one pass against its steps one by one, chunk after
    chunk in one builder: the same fingerprint, sketch, tokens and text hash (the cut falls
    back to rjieba on a chunk with a surrogate, as before)."""
    kernels.enable(True)
    old_seen = unicode_tables._nfkc_seen
    # casefold(NFKC) by table, as in a worker
    unicode_tables._nfkc_seen = unicode_tables.NFKC_TABLE_AFTER
    try:
        out = _fused_and_steps(parts)
        assert out[0] == out[1]
    finally:
        kernels.enable(False)
        unicode_tables._nfkc_seen = old_seen


def _fused_and_steps(parts, more: bool = False) -> list:
    """What FeatureBuilder.add makes of ``parts`` by its compiled one pass, then step by
    step (with ``more``, the newlines and token ids too; an error's name when it fails)."""
    out = []
    for fused in (True, False):
        fb = FeatureBuilder("shingles")
        assert fb._fused
        fb._fused = fused
        try:
            for p in parts:
                fb.add(p)
        except Exception as e:  # noqa: BLE001 - both paths must fail alike
            out.append(type(e).__name__)
            continue
        got = (fb.fingerprint(), fb.shingles.sketch(), fb.n_tokens, fb.text_hash(), fb.chars)
        out.append(got + ((fb.newline(), fb._all_ids().tolist()) if more else ()))
    return out


_ASCII = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x00\x01\x7f" "aAzZ019_-+#&.%c#"
          "the of and the ,.;:()'\"<>/")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(_ASCII), max_size=60), max_size=4))
def test_an_ascii_chunk_through_the_one_pass_gives_the_split_and_join_features(parts):
    """An ASCII chunk goes through the compiled one pass too (FeatureBuilder.add): every
    ASCII whitespace of str.split (\\x1c-\\x1f among them) and nothing else dropped, the
    same fingerprint, sketch, tokens, text hash and newlines as the steps by strings."""
    kernels.enable(True)
    try:
        out = _fused_and_steps(parts, more=True)
        assert out[0] == out[1] and not isinstance(out[0], str)
    finally:
        kernels.enable(False)


def test_the_fold_table_is_casefold_of_nfkc_for_every_stable_character():
    import unicodedata

    ft = unicode_tables.fold_table()
    assert ft is not None
    wrong = []
    for cp in range(unicode_tables._TABLE_LIMIT):
        if 0xD800 <= cp < 0xE000 or not ft.stable[cp]:
            continue
        got = "".join(map(chr, ft.buf[ft.start[cp] : ft.start[cp] + ft.size[cp]].tolist()))
        if got != unicodedata.normalize("NFKC", chr(cp)).casefold():
            wrong.append(cp)
    assert not wrong
    assert not ft.stable[unicode_tables._TABLE_LIMIT] and not ft.stable[0x0301]


def test_fold_steps_aside_for_a_risky_character():
    """A combining mark may compose with the letter before it: no table for that chunk."""
    ft = unicode_tables.fold_table()
    fold = kernels.impl().fold
    pts = lambda t: np.frombuffer(t.encode("utf-32-le"), dtype="<u4")  # noqa: E731
    assert fold(pts("Straße ﬁ"), ft.stable, ft.start, ft.size, ft.buf).tobytes().decode(
        "utf-32-le") == "strasse fi"
    assert fold(pts("e\u0301"), ft.stable, ft.start, ft.size, ft.buf) is None
    assert fold(pts("\U00030000"), ft.stable, ft.start, ft.size, ft.buf) is None


def test_no_whitespace_above_the_bmp():
    """The one pass assumes it (and steps aside if a Unicode database breaks it)."""
    assert unicode_tables.char_classes() is not None
    classes = unicode_tables.char_classes()
    assert int(classes[0x3000]) == 1 and int(classes[0xFEFF]) == 2


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=50), st.lists(st.integers(0, 60), max_size=50),
       st.booleans())
def test_intersect_count_is_the_size_of_the_intersection(xs, ys, top):
    """The merge kernel against numpy, values near 2**64 too (no sign trouble)."""
    base = (1 << 64) - 64 if top else 0
    a = np.array(sorted({base + x for x in xs}), dtype=np.uint64)
    b = np.array(sorted({base + y for y in ys}), dtype=np.uint64)
    assert kernels.impl().intersect_count(a, b) == len(np.intersect1d(a, b))
    assert kernels.impl().intersect_count(b, a) == len(np.intersect1d(a, b))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=80), st.lists(st.integers(0, 60), max_size=80),
       st.booleans(), st.randoms(use_true_random=False))
def test_the_unsorted_set_kernels_are_numpys(xs, ys, top, rnd):
    """distinct_hashes is np.unique in first-seen order; intersect_hashed the size of the
    intersection of two such sets in any order; 0 (the tables' empty slot) and values near
    2**64 included; jaccard_distinct is jaccard."""
    from simdup_gui.core.textsim import jaccard, jaccard_distinct

    base = (1 << 64) - 64 if top else 0
    h = np.array([base + x for x in xs], dtype=np.uint64)
    d = kernels.impl().distinct_hashes(h)
    assert d.tolist() == list(dict.fromkeys(h.tolist()))
    b = np.array(rnd.sample(sorted({base + y for y in ys}), len(set(ys))), dtype=np.uint64)
    want = len(np.intersect1d(d, b))
    assert kernels.impl().intersect_hashed(d, b) == kernels.impl().intersect_hashed(b, d) == want
    assert jaccard_distinct(d, b) == jaccard(np.sort(d), np.sort(b))
    table, zero = kernels.impl().hashed_table(d)  # one table, looked up by several sets
    assert kernels.impl().count_hashed(table, zero, b) == want
    assert kernels.impl().count_hashed(table, zero, d) == len(d)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=80), st.lists(st.integers(0, 60), max_size=80),
       st.booleans(), st.integers(0, 200))
def test_containment_in_a_whole_is_the_same_on_every_path(ps, ws, top, limit):
    """textsim.containment_in: |P & W| / |P| whether the whole is in the kernels' table,
    sorted (no kernels, or more shingles than WHOLE_TABLE_MAX), or in any order."""
    from simdup_gui.core import textsim

    base = (1 << 64) - 64 if top else 0
    part = np.array(list(dict.fromkeys(base + x for x in ps)), dtype=np.uint64)
    whole = np.array(list(dict.fromkeys(base + x for x in reversed(ws))), dtype=np.uint64)
    want = len(np.intersect1d(part, whole)) / len(part) if len(part) else 1.0
    saved, env = textsim.WHOLE_TABLE_MAX, os.environ.get("SIMDUP_COMPILED")
    try:
        for on in ("1", "0"):
            os.environ["SIMDUP_COMPILED"] = on
            textsim.WHOLE_TABLE_MAX = limit
            lookup = textsim.whole_lookup(whole)
            assert (lookup[1] is not None) == (on == "1" and len(whole) <= limit)
            assert textsim.containment_in(part, lookup) == want
    finally:
        os.environ.pop("SIMDUP_COMPILED", None)
        if env is not None:
            os.environ["SIMDUP_COMPILED"] = env
        textsim.WHOLE_TABLE_MAX = saved


def test_jaccard_distinct_without_the_kernels_takes_sorted_sets(monkeypatch):
    """In a process that never loaded the kernels the sets come sorted (the numpy path):
    the merge by binary search then; the same J."""
    from simdup_gui.core.textsim import jaccard, jaccard_distinct, shingle_set

    a, b = shingle_set("北京欢迎你的到来，欢迎光临本店"), shingle_set("北京欢迎你的到来，谢谢光临")
    monkeypatch.setattr(kernels, "_impl", None)
    assert not kernels.loaded()
    assert jaccard_distinct(a, b) == jaccard(a, b) and 0 < jaccard(a, b) < 1


def test_a_large_texts_distinct_shingles_come_sorted(compiled, monkeypatch):
    """Above SKETCH_HASHED_MAX hashes no table is made beside them: np.unique's way, sorted;
    below, the table's; the same set either way, and the same J."""
    from simdup_gui.core.textsim import jaccard_distinct, shingle_set

    compiled(True)
    text = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(3000))
    other = text[:2000] + "另一段不同的文字" * 50
    small = shingles.distinct_shingles(text)
    monkeypatch.setattr(kernels.impl(), "SKETCH_HASHED_MAX", 100)
    large = shingles.distinct_shingles(text)
    want = shingle_set(text)
    assert np.array_equal(large, want) and not np.array_equal(small, want)
    assert np.array_equal(np.sort(small), want)
    j_large = jaccard_distinct(large, shingles.distinct_shingles(other))
    monkeypatch.setattr(kernels.impl(), "SKETCH_HASHED_MAX", 1 << 17)
    assert jaccard_distinct(small, shingles.distinct_shingles(other)) == j_large
    # two sets above the limit came sorted: merged, no table of their size
    monkeypatch.setattr(kernels.impl(), "SKETCH_HASHED_MAX", 100)
    monkeypatch.setattr(kernels.impl(), "intersect_hashed",
                        lambda a, b: pytest.fail("a table for two large sets"))
    assert jaccard_distinct(large, shingle_set(other)) == j_large


@pytest.mark.parametrize("kind", ["distinct", "repeats", "short", "unsorted"])
def test_the_compiled_estimate_is_the_numpy_estimate(kind, monkeypatch):
    """textsim.estimate's merge (many pairs) equals its sorts, bit for bit: real sketches,
    repeated values and sketches that are not full (as a damaged cache could hand over),
    and rows out of order (which take the numpy path)."""
    from simdup_gui.core import textsim

    rng = np.random.default_rng(7)
    n = 300
    high = {"distinct": 2**31, "repeats": 200, "short": 2**31, "unsorted": 2**31}[kind]
    sk = np.sort(rng.integers(0, high, size=(n, SKETCH_K)).astype(np.uint32), axis=1)
    if kind == "short":
        for i in range(0, n, 3):
            sk[i, rng.integers(0, SKETCH_K):] = textsim.EMPTY
    if kind == "unsorted":
        sk[5] = sk[5][::-1]
    sk[7] = textsim.EMPTY  # an empty text's sketch
    a, b = rng.integers(0, n, 5000), rng.integers(0, n, 5000)
    a[:50] = b[:50]  # a sketch with itself
    kernels.impl()  # (an estimate never loads them: a process that uses them has)
    monkeypatch.setattr(textsim, "COMPILED_FROM", 1)
    fast = textsim.estimate(sk, a, b)
    monkeypatch.setattr(textsim, "COMPILED_FROM", 10**12)
    slow = textsim.estimate(sk, a, b)
    assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])
    assert kernels.loaded()
