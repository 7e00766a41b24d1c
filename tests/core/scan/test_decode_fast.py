"""Decoding's CJK plausibility counts (numpy over code points) equal the regexes' counts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.core.scan import decode


def _by_regex(sample: str, rx) -> tuple[int, int]:
    return len(decode._HANZI_RE.findall(sample)), len(rx.findall(sample))


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=200),
       st.sampled_from(["common", "trad"]))
def test_hanzi_counts_equal_the_regexes(text, which):
    rx = decode._COMMON_RE if which == "common" else decode._COMMON_TRAD_RE
    # mix in characters of both classes and their neighbours
    rng = random.Random(len(text))
    pool = rx.pattern[1:-1] + "\u4dff\u4e00\u9fff\ua000\U00020000\uffff"
    text += "".join(rng.choice(pool) for _ in range(rng.randint(0, 60)))
    assert decode._hanzi_counts(text, rx.pattern[1:-1]) == _by_regex(text, rx)


def test_labels_of_real_cjk_bytes_stand():
    zh = "这是一个关于图书馆的故事，我们在那里读了很多书。" * 4
    tw = "這是一篇繁體中文的文章，講的是圖書館裡的舊書和新書。" * 4
    assert decode.decode_bytes(zh.encode("gbk")).encoding.lower() in ("gb18030", "gbk")
    assert decode.decode_bytes(tw.encode("big5")).encoding.lower() == "big5"


_PIECES = ["plain ascii text. ", "中文的句子，", "naïve café ", "\ufffd", "😀"]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_PIECES).map(lambda s: s.encode("utf-8")),
                          st.sampled_from(["中文的句子，", "繁體", "ab"]).map(
                              lambda s: s.encode("gbk")),
                          st.binary(max_size=8)), max_size=120),
       st.integers(0, 3))
def test_the_head_only_rejects_what_the_whole_decode_rejects(parts, trim):
    """_too_bad_for_utf8 says "too bad" only when decoding all of the bytes with
    replacement gives more than the limit of U+FFFD: the choice of codec is the one the
    whole decode made (its head may cut a character: one more U+FFFD)."""
    data = b"".join(parts)
    data = data[: len(data) - trim] if trim < len(data) else data
    for limit in (0, 1, 4, max(4, len(data) // 200), 40):
        if decode._too_bad_for_utf8(data, limit):
            assert data.decode("utf-8", errors="replace").count("\ufffd") > limit


def test_gbk_bytes_are_settled_by_the_head(monkeypatch):
    """A long GBK text is rejected as UTF-8 from its head: the whole is never decoded with
    replacement (and the label is GB18030 as before)."""
    data = ("这是一个关于图书馆的故事，我们在那里读了很多书。" * 400).encode("gbk")
    seen = []
    real = decode._count_bad
    monkeypatch.setattr(decode, "_count_bad", lambda text: seen.append(len(text)) or real(text))
    assert decode.decode_bytes(data).encoding == "gb18030"
    assert decode._too_bad_for_utf8(data, max(4, len(data) // 200))
    assert max(seen) < len(data) // 2 + 1  # no replacement decode of all of it (len ~ bytes)
