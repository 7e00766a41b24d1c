import difflib
import json
from pathlib import Path

import pytest

from simdup_gui.core.decode import decode_bytes
from simdup_gui.core.synth import (FAR, MIDDLE, NEAR, RULE, Generator, apply_transform,
                                   doc_from_text, generate_corpus, synthesize, transform_level,
                                   word_tokens)

from .conftest import EN, ZH


def _changed_share(a: list[str], b: list[str]) -> float:
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    changed = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")
    return changed / len(a)


def test_gbk_variant_decodes_to_the_original_text():
    text = ZH.replace("。", "。\n\n", 3)
    doc = doc_from_text(text)
    data = apply_transform(Generator(1), doc, "enc-gbk", "utf-8", source_text=text)
    assert data != text.encode("utf-8")
    assert decode_bytes(data).text == text


@pytest.mark.parametrize("encoding", ["gb18030", "utf-8-sig", "utf-16"])
def test_every_reencoding_decodes_to_the_original_text(encoding):
    text = ZH + EN
    data = apply_transform(Generator(1), doc_from_text(text), f"enc-{encoding}", "utf-8", text)
    assert decode_bytes(data).text == text


def test_a_five_percent_replace_edit_changes_about_five_percent_of_tokens():
    g = Generator(2)
    for lang in ("zh", "en"):
        doc = g.document(lang, 1000)
        before = [t for p in doc.paragraphs for t in p if t[:1].isalnum()]
        after = [t for p in g.edit(doc, 0.05, "replace").paragraphs for t in p if t[:1].isalnum()]
        changed = sum(x != y for x, y in zip(before, after)) / len(before)
        assert 0.035 <= changed <= 0.05


def test_edits_of_real_text_work_on_jieba_words_at_the_asked_rate():
    g = Generator(9)
    text = g.document("zh", 600).text() + "\n" + g.document("en", 600).text()
    before = word_tokens(text)
    for pct in (5, 20):
        for kind in ("edit", "insert", "delete"):
            data = apply_transform(Generator(3), doc_from_text(text), f"{kind}{pct}", "utf-8",
                                   text)
            share = _changed_share(before, word_tokens(data.decode("utf-8")))
            assert pct / 100 * 0.6 <= share <= pct / 100 * 1.4, (kind, pct, share)


def test_doc_from_text_gives_back_the_text_exactly():
    for text in (ZH, EN, "  lead\n\npara two\r\n\r\n三段\n\n\n", "one line"):
        assert doc_from_text(text).text() == text


def test_crlf_and_rewrap_change_only_whitespace():
    text = EN.replace(". ", ".\n\n", 2)
    g = Generator(4)
    crlf = apply_transform(g, doc_from_text(text), "crlf", "utf-8", text).decode("utf-8")
    assert "\r\n" in crlf and crlf.replace("\r\n", "\n") == text
    wrapped = apply_transform(g, doc_from_text(text), "rewrap", "utf-8", text).decode("utf-8")
    assert wrapped.split() == text.split() and wrapped != text


def test_transformation_levels_follow_the_written_rule():
    assert transform_level("edit5") == NEAR
    assert transform_level("enc-gbk+crlf+edit3") == NEAR
    assert transform_level("boilerplate+reorder") == MIDDLE
    assert transform_level("edit40") == FAR
    with pytest.raises(ValueError, match="unknown transformation"):
        transform_level("shuffle")


def test_generated_corpus_writes_a_manifest_with_its_rule(tmp_path):
    corpus = generate_corpus(4, seed=1)
    path = corpus.write(str(tmp_path))
    m = json.loads(Path(path).read_text(encoding="utf-8"))
    assert m["rule"] == RULE and "ambiguous" in m["rule"]
    assert len(m["files"]) == len(corpus.files) == 4 * 6
    assert all((tmp_path / f["name"]).is_file() for f in m["files"])
    assert {f["transform"] for f in m["files"]} >= {"original"}


def test_generated_corpus_can_be_one_language():
    corpus = generate_corpus(3, langs=("en",))
    assert all(decode_bytes(v.data).text.isascii() for v in corpus.files)
    with pytest.raises(ValueError, match="zh, en"):
        generate_corpus(3, langs=("fr",))


def test_synthesize_records_every_transformation_and_skips_repeated_sources():
    corpus = synthesize([("a.txt", ZH), ("b.txt", EN), ("c.txt", ZH.upper())], seed=5)
    assert any("c.txt" in n and "a.txt" in n for n in corpus.notes)
    kinds = {v.transform for v in corpus.files}
    assert {"enc-gbk", "enc-utf-16", "crlf", "rewrap", "edit1", "edit40", "boilerplate",
            "reorder", "truncate", "enc-gbk+crlf+edit3"} <= kinds
    assert {v.source for v in corpus.files} == {"a.txt", "b.txt"}
    with pytest.raises(ValueError):
        synthesize([("a.txt", ZH)], transforms=["melt"])
