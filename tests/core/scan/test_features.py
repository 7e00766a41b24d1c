import pytest

from simdup_gui.core.scan.features import FEATURE_MODES, extract, normalise, tokens

from tests.conftest import ZH


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
