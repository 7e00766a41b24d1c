"""A folder of texts for the excerpt tests (issue 41, part 3): a long text, its first 30 %,
one of its paragraphs quoted in a letter, an unrelated text and a near-copy of the long one
of the same length."""

from __future__ import annotations

import random
from pathlib import Path


def _words(seed: int, n: int) -> list[str]:
    rnd = random.Random(seed)
    vocab = ["".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(2, 9)))
             for _ in range(800)]
    return [rnd.choice(vocab) for _ in range(n)]


def _paragraphs(seed: int, count: int, words: int = 120) -> list[str]:
    w = _words(seed, count * words)
    return [" ".join(w[i:i + words]) + "." for i in range(0, len(w), words)]


def excerpt_folder(root: Path) -> Path:
    """Write the texts under ``root`` (made); the folder."""
    root.mkdir(parents=True, exist_ok=True)
    paras = _paragraphs(1, 30)
    long = "\n\n".join(paras)
    (root / "book.txt").write_text(long)
    (root / "book start.txt").write_text(long[: int(len(long) * 0.3)])
    other = _paragraphs(2, 6)
    (root / "quote.txt").write_text(paras[17])
    (root / "letter.txt").write_text("\n\n".join([*other[:3], paras[17], *other[3:]]))
    (root / "unrelated.txt").write_text("\n\n".join(_paragraphs(3, 12)))
    near = long.replace(paras[4], paras[4].upper()[::-1], 1)  # one paragraph changed
    (root / "book edited.txt").write_text(near)
    return root
