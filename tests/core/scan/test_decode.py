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
