"""Decoding's CJK plausibility counts (numpy over code points) equal the regexes' counts."""

from __future__ import annotations

import random

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
