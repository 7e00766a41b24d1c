import codecs

import pytest

from simdup_gui.core.scan.decode import DecodeError, decode_bytes, sniff

from tests.conftest import EN, ZH


def test_gbk_copy_decodes_to_the_same_text_as_utf8():
    a = decode_bytes(ZH.encode("utf-8"))
    b = decode_bytes(ZH.encode("gbk"))
    assert a.text == b.text == ZH
    assert a.encoding == "utf-8"
    assert b.encoding == "gb18030"
    assert b.bad_bytes == 0


@pytest.mark.parametrize("codec,label", [("utf-8-sig", "utf-8-sig"), ("utf-16", "utf-16"),
                                         ("utf-32", "utf-32")])
def test_bom_decides_the_encoding(codec, label):
    d = decode_bytes(ZH.encode(codec))
    assert d.text == ZH
    assert d.encoding == label


def test_utf16_without_bom_is_text_not_binary():
    d = decode_bytes(EN.encode("utf-16-le"))
    assert d.text == EN


def test_invalid_utf8_in_the_middle_is_counted_not_fatal():
    data = ZH.encode("utf-8")
    mid = len(data) // 2
    data = data[:mid] + b"\xff\xfe\xfa" + data[mid:]
    d = decode_bytes(data)
    assert d.encoding == "utf-8"
    assert 1 <= d.bad_bytes <= 6  # the broken character's own bytes count too
    assert d.text.replace("\ufffd", "").startswith(ZH[:20])


def test_binary_with_nul_bytes_is_a_problem():
    with pytest.raises(DecodeError) as e:
        decode_bytes(bytes(range(256)) * 10)
    assert e.value.kind == "binary"


def test_mostly_undecodable_bytes_are_a_problem_not_text():
    import random

    rng = random.Random(3)
    data = bytes(rng.choice(range(0x80, 0x100)) for _ in range(4000))
    with pytest.raises(DecodeError) as e:
        decode_bytes(data)
    assert "binary or unknown encoding" in str(e.value)


def test_sniff_accepts_plain_text_and_bom():
    assert sniff(b"hello world\n") is None
    assert sniff(codecs.BOM_UTF16_LE + "hi".encode("utf-16-le"))[0] == "utf-16-le"


def test_empty_bytes_raise_empty():
    with pytest.raises(DecodeError) as e:
        decode_bytes(b"")
    assert e.value.kind == "empty"


def test_cp1252_text_with_a_few_smart_quotes_is_not_taken_for_broken_utf8():
    text = EN.replace("five", "\u201cfive\u201d", 1).replace("match.", "match \u2014 none.", 1)
    d = decode_bytes(text.encode("cp1252"))
    assert d.encoding == "windows-1252" or d.encoding == "cp1252"
    assert d.text == text and d.bad_bytes == 0


def _no_chardet(monkeypatch):
    import chardet

    def boom(*a, **k):
        raise AssertionError("chardet should not be needed")

    monkeypatch.setattr(chardet, "detect", boom)


ZH_TRAD = ("在過去的十年裡，我們家的照片和文件越來越多。每次換電腦，都會把舊硬碟上的資料夾整個複製到新電腦上，"
           "時間一長，同一篇文章就有了好幾個副本。普通的查重工具只比較檔案的位元組，所以這些副本在它們看來完全不同。"
           "其實它們的內容幾乎一樣，只是編碼、換行符號或者個別詞語不同。\n") * 3


def test_big5_is_recognised_without_chardet(monkeypatch):
    _no_chardet(monkeypatch)
    d = decode_bytes(ZH_TRAD.encode("big5"))
    assert d.encoding == "big5" and d.text == ZH_TRAD and d.bad_bytes == 0


def test_gbk_and_cp1252_are_recognised_without_chardet(monkeypatch):
    _no_chardet(monkeypatch)
    assert decode_bytes(ZH.encode("gbk")).encoding == "gb18030"
    text = EN.replace("few", "f\u00e9w", 1).replace("report", "\u201creport\u201d\u00a0\u00a0", 2)
    d = decode_bytes(text.encode("cp1252"))
    assert d.encoding == "cp1252" and d.text == text


def test_a_few_hanzi_among_english_are_still_gbk(monkeypatch):
    _no_chardet(monkeypatch)
    text = EN + "名称：计算一个实上下三角矩阵的奇异值分解，中文手册页翻译计划。\n" + EN
    d = decode_bytes(text.encode("gbk"))
    assert d.encoding == "gb18030" and d.text == text


def test_cyrillic_single_byte_text_is_left_to_the_detector():
    from simdup_gui.core.scan.decode import _HIGH, _looks_cp1252

    data = ("Каждые несколько лет мы покупаем новый компьютер. " * 20).encode("cp1251")
    assert not _looks_cp1252(data, len(data) - len(data.translate(None, _HIGH)))
