"""A large text is normalised piece by piece (shingles.pieces: each C call holds the GIL only
briefly, so measuring a pair of large files does not freeze the app's window); the shingle
set is the definition's, element for element, whatever falls at a piece's edge."""

from __future__ import annotations

import random

import numpy as np
import pytest

from simdup_gui.core import shingles
from simdup_gui.core.textsim import shingle_set

ALPHABET = (list("abc XYZ\n\t") + ["\u0301", "\u0308", "ß", "Σ", "ﬁ", "①", "\ufeff", "\u200b",
            "한", "ᄀ", "ᅡ", "中", "文", "\u00a0", "Å", "\n\u0301", "\r\n", "\n\u0308a"])


@pytest.mark.parametrize("compiled", ["0", "1"])
def test_pieces_give_the_definitions_shingles(monkeypatch, compiled):
    monkeypatch.setenv("SIMDUP_COMPILED", compiled)
    monkeypatch.setattr(shingles, "PIECE", 7)
    rng = random.Random(3)
    split = 0
    for _ in range(1500):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 80)))
        parts = list(shingles.pieces(text))
        assert "".join(parts) == text
        split += len(parts) > 1
        assert all(p[-1:].isascii() and q[:1].isascii() for p, q in zip(parts, parts[1:]))
        assert np.array_equal(shingles.shingle_set(text), shingle_set(text)), repr(text)
    assert split > 500  # the pieces were exercised


def test_a_large_text_is_normalised_in_pieces(monkeypatch):
    calls = []
    real = shingles.normalise
    monkeypatch.setattr(shingles, "normalise", lambda t: calls.append(len(t)) or real(t))
    monkeypatch.setenv("SIMDUP_COMPILED", "0")
    text = "A line of Ünïcödé text\n" * 20_000  # 460,000 characters
    assert np.array_equal(shingles.shingle_set(text), shingle_set(text))
    assert len(calls) > 5 and max(calls) < 2 * shingles.PIECE


def test_a_text_of_one_long_line_is_normalised_and_encoded_in_pieces(monkeypatch):
    """A minified file has no line break to cut at; its pieces are cut between two ASCII
    characters, and encoded one by one (no join of the whole)."""
    calls, encoded = [], []
    real = shingles.normalise
    monkeypatch.setattr(shingles, "normalise", lambda t: calls.append(len(t)) or real(t))
    joined = shingles.joined_points
    monkeypatch.setattr(shingles, "joined_points",
                        lambda parts: joined(encoded.append(p) or p for p in parts))
    monkeypatch.setenv("SIMDUP_COMPILED", "0")
    text = '{"k\u00e9y": "Ünï ﬁ 中文 ①", "n": [1, 2]}, ' * 12_000  # one line, 480,000
    assert np.array_equal(shingles.shingle_set(text), shingle_set(text))
    assert len(calls) > 5 and max(calls) < 2 * shingles.PIECE
    assert len(encoded) == len(calls) and max(map(len, encoded)) < 2 * shingles.PIECE


ASCII_ALPHABET = list("abcXYZ09 .,\n\t\r\x0b\x0c\x1c\x1d\x1e\x1f\x00\x7f")


def test_an_ascii_text_is_prepared_compiled_in_slices(monkeypatch):
    """With the kernels on, an ASCII text is casefolded and prepared by slices of PIECE
    characters (no split, join or search of the invisibles): the definition's set still."""
    monkeypatch.setenv("SIMDUP_COMPILED", "1")
    monkeypatch.setattr(shingles, "PIECE", 7)
    for name in ("solid", "drop_invisible", "pieces"):
        monkeypatch.setattr(shingles, name, lambda *a, n=name: pytest.fail(f"{n} called"))
    rng = random.Random(5)
    for _ in range(800):
        text = "".join(rng.choice(ASCII_ALPHABET) for _ in range(rng.randint(0, 40)))
        assert np.array_equal(shingles.shingle_set(text), shingle_set(text)), repr(text)
        assert np.array_equal(np.sort(shingles.distinct_shingles(text)), shingle_set(text))


def test_a_process_that_loaded_the_kernels_reads_with_them(monkeypatch):
    """The scan's main process (kernels loaded for a large grouping's estimates, not enabled) makes a
    read file's shingles with them too, not by the numpy path; the same set."""
    from simdup_gui.core.scan import kernels

    monkeypatch.delenv("SIMDUP_COMPILED", raising=False)
    monkeypatch.setattr(kernels, "_enabled", False)
    kernels.impl()  # loaded, as kernels.settle leaves it
    monkeypatch.setattr(shingles, "points_gram_hashes",
                        lambda *a: pytest.fail("the numpy path"))
    text = "Ünïcödé ﬁ 中文 text, and\u0301 some\tASCII\n" * 50
    want = shingle_set(text)
    assert np.array_equal(shingles.shingle_set(text), want)
    assert np.array_equal(np.sort(shingles.distinct_shingles(text)), want)


@pytest.mark.parametrize("compiled", ["0", "1"])
@pytest.mark.parametrize("block", [5, 7, 23])
def test_a_large_texts_set_made_by_blocks_is_the_definitions(monkeypatch, block, compiled):
    """Above COMPACT_ABOVE characters the compiled path and the numpy path (the scan's own
    process) hash a block of code points at a time (the last four carried over) and keep
    each block's distinct hashes only: the definition's set, sorted, whatever falls at a
    block's edge, for texts of fewer than five characters once whitespace is gone too."""
    from simdup_gui.core.scan import kernels

    monkeypatch.setenv("SIMDUP_COMPILED", compiled)
    monkeypatch.setattr(kernels, "_enabled", compiled == "1")
    monkeypatch.setattr(shingles, "PIECE", 7)
    monkeypatch.setattr(shingles, "COMPACT_ABOVE", block)
    if compiled == "1" and (not shingles._compiled() or shingles.char_classes() is None):
        pytest.skip("no compiled kernels here")
    assert shingles._compiled() == (compiled == "1")
    calls = []
    real = shingles._distinct_by_blocks
    monkeypatch.setattr(shingles, "_distinct_by_blocks", lambda t: calls.append(t) or real(t))
    rng = random.Random(block)
    for n in [0, 1, 4, 5, 6, block, block + 1] + [rng.randint(0, 120) for _ in range(600)]:
        text = "".join(rng.choice(ALPHABET) for _ in range(n))
        if rng.random() < 0.2:  # mostly whitespace: a short solid string
            text = " \n\t " * n + text[:rng.randint(0, 6)]
        want = shingle_set(text)
        assert np.array_equal(shingles.shingle_set(text), want), repr(text)
        got = shingles.distinct_shingles(text)
        assert np.array_equal(got if len(text) > block else np.sort(got), want), repr(text)
    assert len(calls) > 800
