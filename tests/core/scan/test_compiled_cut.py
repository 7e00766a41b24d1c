"""The compiled cut (``_kernels.cut_ids`` over jiebadict's trie of jieba's dictionary) gives
rjieba's ``cut(text, False)`` token for token, and its arrays survive a bad cache file."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import platformdirs
import pytest
import rjieba

import simdup_gui.core.scan.features as features
from simdup_gui.core.scan import idf as idf_mod
from simdup_gui.core.scan import jiebadict, kernels, unicode_tables
from simdup_gui.core.scan import vocab as vocab_mod
from tests.core.scan.test_fast_features import _texts

pytestmark = pytest.mark.skipif(not kernels.available(), reason="numba is not installed")

SEEDS = Path(__file__).parent / "data" / "seeds"  # Chinese articles with code (shared/seeds)


class _AllTokens(vocab_mod.Vocab):
    """A vocabulary in which every token counts as a word, so cut() returns all of them."""

    def _register(self, new, hashes=None):
        super()._register(new, hashes)
        self.word[: self.n] = True

    def _register_cut(self, c, span, hashes):
        super()._register_cut(c, span, hashes)
        self.word[: self.n] = True


@pytest.fixture
def vocab(monkeypatch):
    monkeypatch.setenv("SIMDUP_COMPILED", "1")
    return _AllTokens()


def _cut(v: vocab_mod.Vocab, text: str) -> list[str]:
    return [v.token(i) for i in v.cut(text).tolist()]


def _random_texts(n: int, seed: int) -> list[str]:
    """Mixes of what the cut treats apart: CJK (common, extension A, astral, compatibility),
    ASCII letters and digits, the joiners ``+#&._%-``, spaces, tabs, CR/LF, punctuation,
    emoji, and other scripts."""
    rnd = random.Random(seed)
    pools = ["的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年",
             "\u3400\u4db5\u9fa5\u9fff\uf900\ufa6d\U00020000\U0002a6d6\U0002b740\U0002f800",
             "abcxyzABCXYZ0123456789", "+#&._%-", " \t\r\n\r\n\x0b\x0c\u3000",
             "，。、；：！？“”（）《》…—", "😀🎉𝔘ñéßÅ한국어кирилица"]
    out = []
    for _ in range(n):
        k = rnd.randrange(1, 400)
        out.append("".join(rnd.choice(rnd.choice(pools)) for _ in range(k)))
    return out


def test_the_compiled_cut_is_rjiebas_cut(vocab):
    texts = [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))]
    assert len(texts) == 5 and sum(map(unicode_tables.cjk_count, texts)) > 5000
    texts += [t for t, _ in _texts()]
    texts += _random_texts(300, 7)
    texts += ["", " ", "\r\n", "\r", "c++ 和 c# 3.14 wes-5.4.5 x.y_z% ab12cd", "B超和b超",
              "我们中出了一个叛徒", "😀中国😀", "𠀀𠀁中国", "丨" * 50, "a" * 5000,
              "中华人民共和国" * 3000]
    # every 40th dictionary word, alone and run together (routes across word boundaries)
    words = list(jiebadict._parse(jiebadict.jieba_file("dict.txt")))[::40]
    texts += ["，".join(words), "".join(words)]
    total = 0
    for text in texts:
        for t in (text, features.feature_text(features.normalise(text))):
            assert _cut(vocab, t) == rjieba.cut(t, False), t[:200]
            total += len(t)
    assert total > 400_000


def test_a_builder_uses_the_compiled_cut_and_a_surrogate_goes_through_rjieba(vocab):
    fb = features.FeatureBuilder()
    assert fb._compiled_cut and not features.FeatureBuilder(tokenizer=str.split)._compiled_cut
    assert vocab.cut("a\ud800b") is None  # rjieba refuses it; the builder's fallback raises
    with pytest.raises(UnicodeEncodeError):
        features.default_tokenizer()("a\ud800b")


@pytest.mark.slow
def test_the_dictionary_arrays_are_rebuilt_from_a_bad_cache_file(tmp_path, monkeypatch):
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: str(tmp_path))
    jiebadict.tables.cache_clear()
    try:
        first = jiebadict.tables()
        (f,) = tmp_path.glob("dict-v*.npz")
        jiebadict.tables.cache_clear()
        again = jiebadict.tables()  # read back
        assert all(np.array_equal(first[k], again[k]) for k in first)
        bad = dict(first, word=first["word"].copy())
        bad["word"][5] = len(first["logp"])  # a word number out of range
        for content in (b"garbage", None):
            if content is None:
                with open(f, "wb") as fh:
                    np.savez(fh, **bad)
            else:
                f.write_bytes(content)
            jiebadict.tables.cache_clear()
            rebuilt = jiebadict.tables()
            assert all(np.array_equal(first[k], rebuilt[k]) for k in first)
        assert not jiebadict._valid(bad)
        assert not jiebadict._valid(dict(first, root=first["root"].astype(np.int64)))
        assert not jiebadict._valid(dict(first, first=first["first"][:-1]))
    finally:
        jiebadict.tables.cache_clear()


def _pair_bit(filt: np.ndarray, x: int, y: int) -> int:
    """The filter's bit of the pair (x, y), computed here in Python integers."""
    bits = 8 * len(filt)
    h = ((((x << 21) | y) * jiebadict.PAIR_MUL) % 2**64) >> (64 - bits.bit_length() + 1)
    return (int(filt[h >> 3]) >> (h & 7)) & 1


@pytest.mark.slow
def test_the_pair_filter_holds_every_words_first_two_characters():
    """The cut skips a character's children where the filter's bit is clear: a word whose
    first two characters had a clear bit would never be cut. Every such pair of jieba's
    dictionary (read from its file, not from the trie the filter is made of) has its bit
    set; and the filter does skip: few bits are set, and pairs that begin no word are
    mostly clear."""
    t = jiebadict.tables()
    filt = t["pairs"]
    assert filt.dtype == np.uint8 and len(filt) * 8 == 1 << jiebadict.PAIR_BITS
    words = jiebadict._parse(jiebadict.jieba_file("dict.txt"))
    starts = {(ord(w[0]), ord(w[1])) for w in words
              if len(w) > 1 and ord(w[0]) < jiebadict.ROOT_SPAN}
    assert len(starts) > 150_000
    assert all(_pair_bit(filt, x, y) for x, y in starts)
    share = np.unpackbits(filt).mean()
    assert 0.01 < share < 0.1  # 178,232 pairs in 4,194,304 bits
    rnd = random.Random(3)
    others = [(x, y) for x, y in ((rnd.randrange(0x4E00, 0x9FA6), rnd.randrange(0x4E00, 0x9FA6))
                                  for _ in range(20_000)) if (x, y) not in starts]
    assert sum(_pair_bit(filt, x, y) for x, y in others) < 0.1 * len(others)


def test_the_cut_is_the_same_with_the_filter_and_without_it(vocab, monkeypatch):
    """A filter whose bits are all set skips nothing: the cut is the trie's alone."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))]
    texts += _random_texts(100, 5) + ["中华人民共和国" * 300, "我们中出了一个叛徒"]
    with_filter = [_cut(vocab, t) for t in texts]
    t = jiebadict.tables()
    monkeypatch.setattr(jiebadict, "tables", lambda: {**t, "pairs": np.full(1, 0xFF, np.uint8)})
    assert [_cut(vocab, t) for t in texts] == with_filter


class _ByStrings(vocab_mod.Vocab):
    """The vocabulary as it registered the cut's new tokens before _register_cut: made into
    strings, then _register."""

    def _register_cut(self, c, span, hashes):
        text = c.tobytes().decode("utf-32-le")
        self._register([text[a:b] for a, b in span.tolist()], hashes)


@pytest.mark.parametrize("idf_arrays", [True, False])
def test_new_tokens_of_the_cut_are_registered_as_through_strings(monkeypatch, idf_arrays):
    """Word test, IDF, hash and bytes of every new token equal _register's: CJK (with and
    without IDF), digits (ASCII, full-width, superscript), English and stop words, '_',
    astral characters (CJK, emoji, unassigned), other scripts and punctuation; with the
    hashed IDF arrays and with the table (when two of its words' keys collide)."""
    monkeypatch.setenv("SIMDUP_COMPILED", "1")
    if not idf_arrays:
        monkeypatch.setattr(idf_mod, "idf_hashed", lambda: None)
    texts = [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt"))]
    texts += _random_texts(300, 11)
    texts += ["the and of 中国 a an 123 ²³ １２ _x x_ __ 𠀀𠀁 𪛠 😀 \U0002fffe ñandú ΑΒΓ 一二三",
              "The THE the 'the' it's its it is 4x4 3.14 4,000 ①② ٣٤ ߀ 〇"]
    a, b = vocab_mod.Vocab(), _ByStrings()
    for text in texts:
        for t in (text, features.feature_text(features.normalise(text))):
            assert np.array_equal(a.cut(t), b.cut(t))
    assert a.n == b.n > 2000
    n = a.n
    for k in ("word", "idf", "hash", "start", "blen"):
        assert np.array_equal(getattr(a, k)[:n], getattr(b, k)[:n]), k
    assert a.used == b.used and np.array_equal(a.buf[: a.used], b.buf[: b.used])
    words = [a.token(i) for i in range(n) if a.word[i]]
    assert {"the", "and", "中国", "123", "²", "_"} <= set(words)
    idf = {a.token(i): float(a.idf[i]) for i in range(n)}
    assert idf["the"] == idf_mod.EN_STOP_IDF and idf["123"] == idf["²"] == idf_mod.NUMBER_IDF
    assert idf["中国"] == idf_mod.idf("中国") and idf["，"] == 0.0


def test_token_classes_are_pythons_for_every_bmp_character():
    t = unicode_tables.token_classes()
    for x in range(0x10000):
        if 0xD800 <= x < 0xE000:
            assert int(t[x]) & 24 == 0
            continue
        ch = chr(x)
        want = (8 if idf_mod.is_word(ch) else 0) | (16 if ch.isdigit() else 0)
        assert int(t[x]) & 24 == want, hex(x)
        assert int(t[x]) & 7 == int(unicode_tables.char_classes()[x])


def test_the_cache_of_short_ascii_tokens_never_mixes_two_up(vocab):
    """More distinct English-like words than the cache has slots (so slots are shared and
    overwritten), of one to twelve characters (keys for up to eight), each met several
    times in another order, with CR LF pairs and digits: every token is rjieba's."""
    rnd = random.Random(3)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    words = list({"".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 12)))
                  for _ in range(3 * vocab_mod.ASCII_CACHE)})
    for seed in range(3):
        rnd.seed(seed)
        rnd.shuffle(words)
        text = " ".join(words[:20000]) + "\r\n" + "\r\n".join(words[20000:40000])
        assert _cut(vocab, text) == rjieba.cut(text, False)
    assert vocab.n > vocab_mod.ASCII_CACHE
