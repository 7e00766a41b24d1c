"""The fast fingerprint path (token ids, cached per-token hashes, bincount SimHash) gives
the same features whatever internal path it takes; the values themselves are pinned by
test_golden_fingerprints.py (stored expected output, not a copy of the production code)."""

from __future__ import annotations

import random

import mmh3
import numpy as np
import pytest

import simdup_gui.core.scan.features as features
from simdup_gui.core.scan import unicode_tables
from simdup_gui.core.scan import vocab as vocab_mod
from simdup_gui.core.scan.decode import decode_bytes
from simdup_gui.core.scan.features import (FeatureBuilder, rechunk)
from simdup_gui.core.scan.fingerprint import FeatureSettings, fingerprint_file
from simdup_gui.core.models import FileRecord
from simdup_gui.core.scan.simhash import mmh3_128, simhash128, simhash128_hashed
from simdup_gui.core.lab.synth import generate_corpus

from tests.conftest import EN, OTHER, ZH


def _texts() -> list[tuple[str, bool]]:
    """(text, is_html): generated corpus files decoded from their bytes, plus edge cases."""
    out = []
    corpus = generate_corpus(n_docs=10, seed=3, variants_per_doc=4)
    encodings = set()
    for v in corpus.files:
        dec = decode_bytes(v.data)
        encodings.add(dec.encoding)
        out.append((dec.text, False))
    # the generated variants include legacy and wide encodings
    assert any("gb" in e.lower() for e in encodings), encodings
    assert any("16" in e for e in encodings), encodings
    zh_gbk = decode_bytes(ZH.encode("gbk")).text
    zh_u16 = decode_bytes(ZH.encode("utf-16")).text
    page = ("<!DOCTYPE html><html><head><style>p{color:red}</style><script>var x=1;</script>"
            "</head><body><p>Fish &amp; chips &lt;b&gt; 北京大学</p><!-- note -->"
            + "<p>" + EN + "</p><div>" + ZH + "</div></body></html>")
    out += [
        (zh_gbk, False), (zh_u16, False), (page, True), (page, False),
        ("一个很短的笔记", False), ("hello", False), ("a b", False), ("", False),
        ("，。！？ ... --- !!! \n\n  \t", False),  # no words at all
        ("ＨＥＬＬＯ Ｗｏｒｌｄ ① ﬁne Straße İstanbul 123 4.5", False),
        (EN + OTHER, False), ((ZH + EN) * 3, False),
        (" ".join(["the"] * 70000 + ["end"]), False),  # a count beyond the log table
    ]
    return out


def _built(text: str, is_html: bool, mode: str, chunks: int = 1) -> FeatureBuilder:
    fb = FeatureBuilder(mode, is_html)
    size = max(1, len(text) // chunks)
    for chunk in rechunk([text], size) if chunks > 1 else [text]:
        fb.add(chunk)
    return fb


def _outcome(fb: FeatureBuilder) -> tuple:
    """Everything a builder produces: fingerprint and count, each feature's hash with its
    float weight, the finished names and weights, tokens, text hash."""
    hashes, w = fb.hashed_features()
    feats = sorted(zip([row.astype("<u8").tobytes() for row in hashes], w.tolist()))
    f = fb.finish()
    return (fb.fingerprint(), feats, sorted(zip(f.names, f.weights)), fb.n_tokens,
            fb.text_hash())


@pytest.mark.slow
@pytest.mark.parametrize("small_below", [0, 10 ** 9])  # numpy counting, Python counting
@pytest.mark.parametrize("table_after", [0, 10 ** 12])  # run-wise NFKC, whole-text NFKC
@pytest.mark.parametrize("mode", ["shingles", "tokens"])
def test_every_internal_path_gives_the_same_features(mode, table_after, small_below,
                                                     monkeypatch):
    """NFKC by runs or whole, counting in numpy or Python: the same features, weights and
    fingerprint, for the text in one chunk and in three (their values are pinned by the
    golden test)."""
    texts = _texts()
    base = {(i, c): _outcome(_built(text, is_html, mode, c))
            for i, (text, is_html) in enumerate(texts) for c in (1, 3)}
    monkeypatch.setattr(unicode_tables, "NFKC_TABLE_AFTER", table_after)
    monkeypatch.setattr(features, "VECTOR_MIN_TOKENS", small_below)
    for i, (text, is_html) in enumerate(texts):
        for chunks in (1, 3):
            got = _outcome(_built(text, is_html, mode, chunks))
            assert got == base[i, chunks], (text[:60], chunks)
            fp, feats = got[0], got[1]
            if fp is not None:  # the fingerprint is the SimHash of exactly these features
                names_w = got[2]
                assert simhash128([n for n, _ in names_w], [w for _, w in names_w]) == fp[0]
                assert fp[1] == len(feats)


def test_topk_keeps_the_heaviest_features_in_every_chunking():
    for text, is_html in _texts()[:20]:
        one, three = _built(text, is_html, "topk"), _built(text, is_html, "topk", 3)
        f1, f3 = one.finish(), three.finish()
        assert (f1.names, f1.weights) == (f3.names, f3.weights)
        assert one.fingerprint() is None
        assert list(f1.weights) == sorted(f1.weights, reverse=True)


def test_bigrams_span_chunks_and_chunks_without_words():
    chunks = ["alpha beta", "  ,,, ", "", "gamma 北京 alpha", "。", "beta"]
    for mode in ("shingles", "tokens"):
        fb = FeatureBuilder(mode)
        for chunk in chunks:
            fb.add(chunk)
        assert _outcome(fb)[:4] == _outcome(_built("".join(chunks), False, mode))[:4]
        names = fb.finish().names
        if mode == "shingles":  # the pair across the chunk boundary is there
            assert "beta\x1fgamma" in names and "alpha\x1fbeta" in names


def test_a_replaced_vocabulary_keeps_running_builders_valid(monkeypatch):
    vocab_mod._LOCAL.__dict__.pop("vocab", None)
    want_first = _outcome(_built(EN + OTHER, False, "shingles"))
    want_second = _outcome(_built(ZH, False, "shingles"))
    vocab_mod._LOCAL.__dict__.pop("vocab", None)
    monkeypatch.setattr(vocab_mod, "VOCAB_LIMIT", 5)
    first = FeatureBuilder("shingles")
    first.add(EN)  # fills the table past the limit
    second = FeatureBuilder("shingles")  # starts a new table
    assert second._vocab is not first._vocab
    second.add(ZH)
    first.add(OTHER)
    assert _outcome(second) == want_second
    assert _outcome(first)[0] == want_first[0]  # chunked at EN|OTHER: same fingerprint
    vocab_mod._LOCAL.__dict__.pop("vocab", None)


def test_fingerprint_file_fast_path_equals_the_per_feature_path(tmp_path):
    corpus = generate_corpus(n_docs=6, seed=11, variants_per_doc=4)
    page = tmp_path / "page.html"
    page.write_text("<html><body><p>" + EN + "</p><p>" + ZH + "</p></body></html>", "utf-8")
    paths = [str(page)]
    for v in corpus.files:
        p = tmp_path / v.name
        p.write_bytes(v.data)
        paths.append(str(p))
    settings = FeatureSettings("shingles")
    for p in paths:
        fast = fingerprint_file(p, str(tmp_path), settings)
        slow = fingerprint_file(p, str(tmp_path), settings, hash_fn=mmh3_128)
        assert isinstance(fast, FileRecord) and isinstance(slow, FileRecord), p
        assert (fast.fingerprint, fast.features, fast.text_hash) == \
            (slow.fingerprint, slow.features, slow.text_hash)


def test_bincount_simhash_equals_the_bit_unpacking_simhash():
    rng = random.Random(5)
    for n in (1, 2, 7, 300, 5000):
        names = [f"f{rng.random()}" for _ in range(n)]
        weights = [rng.choice([0.0, 0.3, 1.5, 8.0, 1e6 * rng.random(), rng.random()])
                   for _ in range(n)]
        hashes = np.frombuffer(b"".join(mmh3.hash_bytes(x.encode(), 0) for x in names),
                               dtype="<u8").reshape(n, 2)
        assert simhash128_hashed(hashes, weights) == simhash128(names, weights)


def test_feature_parts_of_the_cache_version_are_unchanged():
    # the fast path changes no fingerprint, so the feature settings' version stays; "p": a
    # pair's hash is the mmh3 of its words' hashes (fingerprints changed, so did the version)
    version = FeatureSettings("shingles").version()
    assert version.startswith("n2-shingles-")
    assert "-mmh3x128p-cap4194304" in version
    # modes without pairs kept their fingerprints, and their version
    assert "-mmh3x128-cap4194304" in FeatureSettings("tokens").version()
    assert "-mmh3x128-cap4194304" in FeatureSettings("topk").version()


@pytest.mark.parametrize("block", [unicode_tables.APPLY_BLOCK, 7])
def test_run_wise_nfkc_equals_unicodedata_nfkc(block, monkeypatch):
    """(block: the table maps the code points by blocks of that many, joined)"""
    import unicodedata

    from simdup_gui.core.scan.unicode_tables import nfkc

    monkeypatch.setattr(unicode_tables, "NFKC_TABLE_AFTER", 0)
    monkeypatch.setattr(unicode_tables, "APPLY_BLOCK", block)
    assert unicode_tables._nfkc_risky() is not None  # this Python's Unicode database fits

    alphabet = (
        "aeiouAZ09 \n\t,.-'\"" "中文北京學习" "，。！？：；（）【】「」《》…—·“”　"
        "ＡＢＣａｂｃ０１２" "ﬁﬂ①②™㎏Ⅻ½ｶﾞﾊﾟ" "\u0300\u0301\u0308\u0327\u0323\u0345\u0344\u0340"
        "\u1100\u1112\u1161\u1175\u11a8\u11c2\u3131\u314f\u3163\uac00\ud7a3"
        "\u0f71\u0f72\u0f73\u0f75\u0f81\u0bbe\u0bc6\u09be\u09c7\u0d3e\u0cc2\u0cc6"
        "\u212b\u2126\u00c5\u0385\u1fee\uff9e\uff9f\u309b\u3099\u309a\u304b\u30ab"
        "\uf900\ufa10\U0002f800\U00020000\U0001d15e\U0001d165\U000e0100\ufe0f\u200d"
    )
    rng = random.Random(7)
    for _ in range(3000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        assert nfkc(s) == unicodedata.normalize("NFKC", s), ascii(s)
    for cp in range(0x80, 0x30000, 7):
        s = "e" + chr(cp) + "中" + chr(cp) + chr(0x301) + "ᄀ" + chr(cp)
        assert nfkc(s) == unicodedata.normalize("NFKC", s), hex(cp)
    # long texts: few risky characters (pieces by the table) and many (normalised whole)
    stable = "abc 中文，。！？…ＡＢＣ１２３ﬁ①㎏½\uf900\U00020000"
    for n_risky in (0, 1, 5, unicode_tables.MANY_RISKY, unicode_tables.MANY_RISKY + 1, 400):
        for _ in range(30):
            chars = [rng.choice(stable) for _ in range(rng.randint(1, 3000))]
            for _ in range(n_risky):
                chars.insert(rng.randrange(len(chars) + 1), rng.choice(alphabet))
            s = "".join(chars)
            assert nfkc(s) == unicodedata.normalize("NFKC", s), ascii(s[:80])


def test_vectorised_mmh3_equals_mmh3_for_every_length_and_offset():
    from simdup_gui.core.scan.simhash import mmh3_128_many

    rng = random.Random(9)
    items = [bytes(rng.choice((0, 0, 1, 0x1F, 0x80, 0xFF, rng.randrange(256)))
                   for _ in range(n)) for n in list(range(0, 70)) * 3 + [129, 255, 1000]]
    gap = b"\xaa\xbb\xcc"  # slices that do not start at 0 or end at the buffer's end
    buf = gap + gap.join(items) + gap
    starts, pos = [], len(gap)
    for x in items:
        starts.append(pos)
        pos += len(x) + len(gap)
    lens = [len(x) for x in items]
    got = mmh3_128_many(np.frombuffer(buf, dtype=np.uint8), np.array(starts), np.array(lens))
    for row, x in zip(got, items):
        assert row.astype("<u8").tobytes() == mmh3.hash_bytes(x, 0), len(x)


def test_word_pairs_hashed_in_blocks_give_the_same_fingerprint(monkeypatch):
    texts = _texts()[-6:]
    want = [_outcome(_built(text, is_html, "shingles")) for text, is_html in texts]
    monkeypatch.setattr(features, "PAIR_BLOCK", 7)
    for (text, is_html), w in zip(texts, want):
        assert _outcome(_built(text, is_html, "shingles")) == w


@pytest.mark.parametrize("mode", ["shingles", "tokens"])
def test_cutting_in_slices_gives_the_whole_texts_tokens(mode, monkeypatch):
    """A long chunk is cut in slices that start at a space or a CJK mark (the token list of
    a whole chunk costs a worker tens of megabytes): the same tokens, features and
    fingerprint as one cut, even with slices of a few characters."""
    texts = _texts() + [(("北京大学，" + ZH + "。" + EN + "！") * 40, False)]
    want = {i: _outcome(_built(t, h, mode)) for i, (t, h) in enumerate(texts)}
    for size in (3, 40):
        monkeypatch.setattr(features, "CUT_SLICE", size)
        for i, (t, h) in enumerate(texts):
            assert _outcome(_built(t, h, mode)) == want[i], (size, t[:40])
    assert len(list(features.slice_bounds("ab " * 100, 40))) > 3


def _rechunk_plain(pieces, size):
    """rechunk as first written: the rest of the text sliced off after each chunk."""
    import re

    buf = ""
    for piece in pieces:
        buf += piece
        while len(buf) >= 2 * size:
            cut = buf.rfind("\n", size, 2 * size)
            if cut < 0:
                spaces = list(re.finditer(r"\s", buf[size : 2 * size]))
                cut = size + spaces[-1].start() if spaces else 2 * size
            yield buf[: cut + 1]
            buf = buf[cut + 1 :]
    if buf:
        yield buf


def test_rechunk_cuts_where_the_plain_definition_cuts():
    """rechunk keeps an offset into the text, not a copy of its rest: the same chunks, for
    any pieces (the cuts depend on the text alone) and sizes."""
    import random

    rng = random.Random(5)
    for _ in range(2000):
        n = rng.randrange(0, 300)
        text = "".join(rng.choice("ab\u4e2d \n\t") for _ in range(n))
        cuts = sorted(rng.randrange(0, n + 1) for _ in range(rng.randrange(0, 6)))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, n], strict=True)]
        size = rng.randrange(1, 30)
        got = list(rechunk(pieces, size))
        assert got == list(_rechunk_plain(pieces, size))
        assert "".join(got) == text
