import pytest

from simdup_gui.core.scan.features import FEATURE_MODES, default_tokenizer, extract, normalise
from simdup_gui.core.scan.idf import is_word

from tests.conftest import ZH


def tokens(text: str) -> list[str]:
    """Word tokens of normalised text (punctuation and spaces dropped)."""
    return list(filter(is_word, default_tokenizer()(text)))


def test_nfkc_and_case_folding_make_fullwidth_and_case_equal():
    assert normalise("ＨＥＬＬＯ Ｗｏｒｌｄ") == normalise("hello world")


def test_html_tags_and_entities_are_stripped():
    page = "<html><head><style>p{color:red}</style></head><body><p>Fish &amp; chips</p></body></html>"
    assert extract(page, is_html=True).names == extract("fish & chips").names


def test_mixed_chinese_and_english_tokens():
    toks = tokens(normalise("我们在北京大学学习 SimHash, it works."))
    assert "北京大学" in toks and "simhash" in toks and "works" in toks
    assert "," not in toks and " " not in toks


def test_rjieba_gives_the_same_tokens_as_jieba_without_hmm():
    jieba = pytest.importorskip("jieba")
    rjieba = pytest.importorskip("rjieba")
    text = ZH * 5
    assert rjieba.cut(text, False) == list(jieba.cut(text, HMM=False))


def test_newlines_and_whitespace_do_not_change_features():
    a = extract(ZH)
    b = extract(ZH.replace("\n", "\r\n").replace("，", "，  "))
    c = extract(ZH.replace("。", "。\n"))
    assert a.names == b.names == c.names
    assert a.text_hash == b.text_hash == c.text_hash
    assert (a.newline, b.newline) == ("LF", "CRLF")


def test_short_text_is_low_confidence():
    assert extract("一个很短的笔记").low_confidence
    assert not extract(ZH).low_confidence


def test_topk_mode_keeps_fewer_features_than_all_tokens():
    sizes = {m: len(extract(ZH, mode=m).names) for m in FEATURE_MODES}
    assert sizes["topk"] <= sizes["tokens"] < sizes["shingles"]


def test_unknown_mode_is_rejected_with_allowed_values():
    with pytest.raises(ValueError, match="shingles, tokens, topk"):
        extract("x", mode="bogus")


def test_cjk_count_equals_the_regex_count_at_every_range_edge():
    import random
    import re

    from simdup_gui.core.scan.unicode_tables import CJK_CLASS, cjk_count

    edges = [0x33FF, 0x3400, 0x4DBF, 0x4DC0, 0x4DFF, 0x4E00, 0x9FFF, 0xA000, 0xF8FF, 0xF900,
             0xFAFF, 0xFB00, 0x1FFFF, 0x20000, 0x2FFFF, 0x30000, 0x41, 0xFF0C, 0x3002]
    rng = random.Random(5)
    runs = re.compile(f"[{CJK_CLASS}]+")
    for _ in range(200):
        s = "".join(chr(rng.choice(edges)) for _ in range(rng.randint(0, 40)))
        assert cjk_count(s) == sum(map(len, runs.findall(s)))
    assert cjk_count("中文 text，一二") == 4


def test_nfkc_of_normalised_and_unnormalised_text_equals_unicodedata():
    import unicodedata

    from simdup_gui.core.scan import unicode_tables

    for text in ("已经规范的中文。", "全角，标点！ＡＢＣ", "e\u0301 café ﬁ", "한국어 ᄀ\u1161", ""):
        assert unicode_tables.nfkc(text) == unicodedata.normalize("NFKC", text)
