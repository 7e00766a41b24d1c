"""The fast fingerprint path (token ids, cached per-token hashes, bincount SimHash) must
give exactly the fingerprints of the original string/Counter implementation."""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter

import mmh3
import numpy as np
import pytest

import simdup_gui.core.scan.features as features
from simdup_gui.core.scan.decode import decode_bytes
from simdup_gui.core.scan.features import (FeatureBuilder, _is_word, default_tokenizer,
                                      feature_text, idf, normalise, rechunk)
from simdup_gui.core.scan.fingerprint import FeatureSettings, fingerprint_file
from simdup_gui.core.models import FileRecord
from simdup_gui.core.scan.simhash import mmh3_128, simhash128, simhash128_hashed
from simdup_gui.core.lab.synth import generate_corpus
from simdup_gui.core.textsim import drop_invisible

from tests.conftest import EN, OTHER, ZH


class ReferenceBuilder:
    """The feature builder as it was before token ids (strings and Counters), verbatim."""

    def __init__(self, mode: str, is_html: bool = False) -> None:
        self.mode, self.is_html = mode, is_html
        self.unigrams: Counter[str] = Counter()
        self.bigrams: Counter[tuple[str, str]] = Counter()
        self.n_tokens = self.chars = 0
        self._last: str | None = None
        self._hash = hashlib.blake2b(digest_size=16)

    def add(self, raw: str) -> None:
        self.chars += len(raw)
        # the text the tokenizer sees is production's (feature_text): this builder checks
        # the counting and hashing that follow it
        text = drop_invisible(normalise(raw, self.is_html))
        text = feature_text(text)
        self._hash.update(text.encode("utf-8", "surrogatepass"))
        toks = [t for t in default_tokenizer()(text) if _is_word(t)]
        if not toks:
            return
        self.n_tokens += len(toks)
        self.unigrams.update(toks)
        if self.mode == "shingles":
            prev = [self._last] + toks[:-1] if self._last is not None else toks[:-1]
            nxt = toks if self._last is not None else toks[1:]
            self.bigrams.update(zip(prev, nxt))
        self._last = toks[-1]

    def finish(self) -> tuple[list[str], list[float]]:
        names: list[str] = []
        weights: list[float] = []
        uni_idf = {t: idf(t) for t in self.unigrams}
        for t, c in self.unigrams.items():
            names.append(t)
            weights.append((1.0 + math.log(c)) * uni_idf[t])
        if self.mode == "topk":
            k = max(5, min(200, self.chars * 3 // 120))
            best = sorted(zip(weights, names), key=lambda p: (-p[0], p[1]))[:k]
            names = [n for _, n in best]
            weights = [w for w, _ in best]
        elif self.mode == "shingles":
            for (a, b), c in self.bigrams.items():
                names.append(a + "\x1f" + b)
                weights.append((1.0 + math.log(c)) * 0.5 * (uni_idf[a] + uni_idf[b]))
        return names, weights


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


def _both(text: str, is_html: bool, mode: str, chunks: int = 1):
    ref, fast = ReferenceBuilder(mode, is_html), FeatureBuilder(mode, is_html)
    size = max(1, len(text) // chunks)
    for chunk in rechunk([text], size) if chunks > 1 else [text]:
        ref.add(chunk)
        fast.add(chunk)
    return ref, fast


@pytest.mark.parametrize("small_below", [0, 10 ** 9])  # numpy counting, Python counting
@pytest.mark.parametrize("table_after", [0, 10 ** 12])  # run-wise NFKC, whole-text NFKC
@pytest.mark.parametrize("mode", ["shingles", "tokens"])
def test_fast_fingerprint_equals_the_reference_on_a_generated_corpus(mode, table_after,
                                                                      small_below, monkeypatch):
    monkeypatch.setattr(features, "NFKC_TABLE_AFTER", table_after)
    monkeypatch.setattr(features, "VECTOR_MIN_TOKENS", small_below)
    for text, is_html in _texts():
        for chunks in (1, 3):
            ref, fast = _both(text, is_html, mode, chunks)
            names, weights = ref.finish()
            expected = (simhash128(names, weights), len(names))
            assert fast.fingerprint() == expected, (text[:60], chunks)
            # feature by feature: the same hash with the very same float weight
            hashes, w = fast.hashed_features()
            got = sorted(zip([row.astype("<u8").tobytes() for row in hashes], w.tolist()))
            want = sorted(zip([mmh3_128(n.encode("utf-8", "surrogatepass")) for n in names],
                              weights))
            assert got == want, (text[:60], chunks)
            f = fast.finish()
            assert sorted(zip(f.names, f.weights)) == sorted(zip(names, weights))
            assert simhash128(f.names, f.weights) == expected[0]
            assert fast.n_tokens == ref.n_tokens
            assert fast.text_hash() == ref._hash.hexdigest()


def test_topk_finish_equals_the_reference():
    for text, is_html in _texts()[:20]:
        ref, fast = _both(text, is_html, "topk")
        names, weights = ref.finish()
        f = fast.finish()
        assert (f.names, f.weights) == (names, weights)
        assert fast.fingerprint() is None


def test_bigrams_span_chunks_and_chunks_without_words():
    for mode in ("shingles", "tokens"):
        ref, fast = ReferenceBuilder(mode), FeatureBuilder(mode)
        for chunk in ["alpha beta", "  ,,, ", "", "gamma 北京 alpha", "。", "beta"]:
            ref.add(chunk)
            fast.add(chunk)
        names, weights = ref.finish()
        assert fast.fingerprint() == (simhash128(names, weights), len(names))


def test_a_replaced_vocabulary_keeps_running_builders_valid(monkeypatch):
    monkeypatch.setattr(features, "VOCAB_LIMIT", 5)
    features._LOCAL.__dict__.pop("vocab", None)
    first = FeatureBuilder("shingles")
    first.add(EN)  # fills the table past the limit
    second = FeatureBuilder("shingles")  # starts a new table
    assert second._vocab is not first._vocab
    second.add(ZH)
    first.add(OTHER)
    for fb, text in ((first, EN + OTHER), (second, ZH)):
        ref = ReferenceBuilder("shingles")
        ref.add(EN) if fb is first else ref.add(ZH)
        if fb is first:
            ref.add(OTHER)
        names, weights = ref.finish()
        assert fb.fingerprint() == (simhash128(names, weights), len(names))
    features._LOCAL.__dict__.pop("vocab", None)


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
    # the fast path changes no fingerprint, so the feature settings' version stays
    version = FeatureSettings("shingles").version()
    assert version.startswith("n2-shingles-")
    assert "-mmh3x128-cap4194304" in version


def test_run_wise_nfkc_equals_unicodedata_nfkc(monkeypatch):
    import unicodedata

    from simdup_gui.core.scan.features import _nfkc

    monkeypatch.setattr(features, "NFKC_TABLE_AFTER", 0)
    assert features._nfkc_risky() is not None  # this Python's Unicode database fits

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
        assert _nfkc(s) == unicodedata.normalize("NFKC", s), ascii(s)
    for cp in range(0x80, 0x30000, 7):
        s = "e" + chr(cp) + "中" + chr(cp) + chr(0x301) + "ᄀ" + chr(cp)
        assert _nfkc(s) == unicodedata.normalize("NFKC", s), hex(cp)


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
    monkeypatch.setattr(features, "PAIR_BLOCK", 7)
    for text, is_html in _texts()[-6:]:
        ref, fast = _both(text, is_html, "shingles")
        names, weights = ref.finish()
        assert fast.fingerprint() == (simhash128(names, weights), len(names))
