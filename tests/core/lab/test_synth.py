import difflib
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from simdup_gui.core.scan.decode import decode_bytes
from simdup_gui.core.lab.synth import (FAR, MIDDLE, NEAR, RULE, Generator, apply_transform,
                                   doc_from_text, generate_corpus, synthesize, transform_level)
from simdup_gui.core.scan.features import default_tokenizer
from simdup_gui.core.textsim import jaccard, shingle_set
from simdup_gui.core.lab.truth import load_manifest

from tests.conftest import EN, ZH


def word_tokens(text: str) -> list[str]:
    """The word tokens of ``text`` (jieba's cut; a token starting with a letter or digit)."""
    return [t for t in default_tokenizer()(text) if t[:1].isalnum()]


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


def _written_texts(out, files):
    return [decode_bytes((out / f["name"]).read_bytes()).text for f in files]


@pytest.fixture(scope="module")
def measured_corpus(tmp_path_factory):
    """Generated documents (some short, where 'near' recipes measure lower) and variants of
    real text, written and read back."""
    out = tmp_path_factory.mktemp("measured")
    corpus = generate_corpus(14, seed=6, short_share=0.4)
    more = synthesize([("zh.txt", ZH), ("en.txt", EN)], seed=2, per_source=8)
    for v in more.files:
        v.base += 100
        corpus.files.append(v)
    corpus.write(str(out))
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    sets = [shingle_set(t) for t in _written_texts(out, m["files"])]
    exact = {(i, j): jaccard(sets[i], sets[j])
             for i, j in itertools.combinations(range(len(sets)), 2)}
    return corpus, out, m, sets, exact


def test_manifest_lists_every_pair_by_its_measured_j(measured_corpus):
    _, _, m, _, exact = measured_corpus
    listed = {(i, j): sim for i, j, sim in m["pairs"]}
    assert listed == {p: sim for p, sim in exact.items() if sim >= 0.5}
    assert m["threshold"] == 0.7 and m["different_below"] == 0.5
    assert "measured" in m["rule"] and "ambiguous" in m["rule"]


def test_each_file_records_its_recipe_and_its_measured_level(measured_corpus):
    _, _, m, sets, _ = measured_corpus
    orig = {f["base"]: i for i, f in enumerate(m["files"]) if f["transform"] == "original"}
    moved = 0
    for i, f in enumerate(m["files"]):
        o = orig[f["base"]]
        sim = 1.0 if o == i else jaccard(sets[i], sets[o])
        assert f["similarity"] == sim
        assert f["level"] == (NEAR if sim >= 0.7 else MIDDLE if sim >= 0.5 else FAR)
        if f["transform"] in ("original", "copy", "reencode", "crlf", "rewrap"):
            assert f["level"] == NEAR  # a copy, re-encoding, CRLF or re-wrap is J = 1
        moved += f["level"] != f["recipe_level"]
    # the recipe is not the label: some files measure at another level than their recipe's
    assert moved > 0


def test_loaded_manifest_scores_by_measured_j(measured_corpus):
    corpus, out, m, _, exact = measured_corpus
    truth = load_manifest(str(out / "manifest.json"))
    assert truth.pairs is not None and "measured" in truth.source
    assert truth.positives == sum(j >= 0.7 for j in exact.values())
    n = len(m["files"])
    rng = random.Random(4)
    for _ in range(5):
        comp = np.array([rng.randrange(max(2, n // 4)) for _ in range(n)])
        c = truth.count(comp)
        tp = fp = fn = amb = 0
        for (i, j), sim in exact.items():
            same = comp[i] == comp[j]
            if sim >= 0.7:
                tp += same
                fn += not same
            elif sim >= 0.5:
                amb += same
            else:
                fp += same
        assert (c.tp, c.fp, c.fn, c.ambiguous) == (tp, fp, fn, amb)
    # a subset (files left out of a scan) keeps the measured pairs of the files kept
    keep = np.arange(0, n, 2)
    sub = truth.subset(keep)
    want = sum(exact[(int(keep[x]), int(keep[y]))] >= 0.7
               for x, y in itertools.combinations(range(len(keep)), 2))
    assert sub.positives == want
    # the corpus object answers the same as the manifest
    files = corpus.files
    for (i, j), sim in list(exact.items())[:400]:
        want = True if sim >= 0.7 else (None if sim >= 0.5 else False)
        assert corpus.label(files[i], files[j]) is want


def test_a_manifest_threshold_can_be_chosen_when_loading(measured_corpus):
    _, out, _, _, exact = measured_corpus
    truth = load_manifest(str(out / "manifest.json"), threshold=0.9)
    assert truth.positives == sum(j >= 0.9 for j in exact.values())


def test_an_old_manifest_without_measured_pairs_is_labelled_by_recipe_and_says_so(tmp_path):
    m = tmp_path / "manifest.json"
    m.write_text(json.dumps({"files": [
        {"name": "a", "base": 0, "level": "near", "transform": "original"},
        {"name": "b", "base": 0, "level": "near", "transform": "crlf"},
        {"name": "c", "base": 1, "level": "near", "transform": "original"}]}),
        encoding="utf-8")
    truth = load_manifest(str(m))
    assert truth.pairs is None and truth.positives == 1
    assert any("recipe" in n for n in truth.notes)


def test_synth_cli_prints_the_measured_labels(tmp_path, capsys):
    from simdup_gui.cli import main

    out = tmp_path / "out"
    assert main(["synth", "--generate", "4", "--seed", "1", "--similarity", "0.8",
                 str(out)]) == 0
    printed = capsys.readouterr().out
    assert "labels by measured J" in printed and "J >= 0.8" in printed
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert m["threshold"] == 0.8
