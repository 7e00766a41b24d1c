"""Labelled corpora: documents and their variants, with the ground truth of every pair.

Base documents are generated (Chinese from jieba's own dictionary, English from a
fixed vocabulary) or taken from the user's files; variants apply recorded
transformations. The truth rule is written into the manifest:

- duplicate: both files are the original or a "near" variant of the same document
  (re-encoding, line endings, re-wrapping, token edits up to 5%, small boilerplate);
- not duplicate: different documents, or either file is a 40% rewrite of the other's source;
- ambiguous (left out of the metrics): a 10-20% edit, reordered paragraphs, truncation.
"""

from __future__ import annotations

import codecs
import json
import os
import random
import re
from dataclasses import dataclass, field

from .features import default_tokenizer

NEAR, MIDDLE, FAR = "near", "middle", "far"

_EN_FUNCTION = ("the of and to in a is that for it as was with be by on not he i this are or "
                "his from at which but have an they you were her she there been one all we their "
                "has would when if so no will more can out up into do than who about its").split()
_SYL = ("ba be bi bo bu da de di do du ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni "
        "no nu pa pe pi po pu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo za ze "
        "str tr pl gr st ch sh th an en in on un ar er ir or ur al el il ol ul").split()
_ZH_PUNCT = "，，，，。。；、"
BOILERPLATE_EN = ("Downloaded from the archive. Please keep this notice.", "-- end of file --")
BOILERPLATE_ZH = ("本文转载自网络，版权归原作者所有。", "（完）")


def _en_vocab(rng: random.Random, n: int = 6000) -> list[str]:
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choice(_SYL) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def _zh_vocab(n: int = 20000) -> list[str]:
    import jieba

    path = os.path.join(os.path.dirname(jieba.__file__), "dict.txt")
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) >= 2 and re.fullmatch(r"[\u4e00-\u9fff]{1,4}", parts[0]):
                rows.append((int(parts[1]), parts[0]))
    rows.sort(reverse=True)
    return [w for _, w in rows[:n]]


def _zipf_cum(n: int, s: float = 1.05) -> list[float]:
    out, acc = [], 0.0
    for i in range(n):
        acc += 1.0 / (i + 1) ** s
        out.append(acc)
    return out


@dataclass
class Doc:
    lang: str
    paragraphs: list[list[str]]  # paragraphs of tokens

    def text(self, width: int = 0) -> str:
        sep = "" if self.lang == "zh" else " "
        paras = []
        for p in self.paragraphs:
            s = sep.join(p)
            if width and self.lang == "en":
                s = _wrap(s, width)
            paras.append(s)
        return "\n\n".join(paras) + "\n"


def _wrap(s: str, width: int) -> str:
    lines, cur = [], ""
    for w in s.split(" "):
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return "\n".join(lines)


class Generator:
    """Deterministic documents from a seed; topics make unrelated documents share words."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._en = _en_vocab(random.Random(1234))
        self._zh: list[str] | None = None
        self._cum: dict[int, list[float]] = {}

    def zh_vocab(self) -> list[str]:
        if self._zh is None:
            self._zh = _zh_vocab()
        return self._zh

    def document(self, lang: str, tokens: int, topic: int = 0) -> Doc:
        rng = self.rng
        vocab = self.zh_vocab() if lang == "zh" else self._en
        topic_rng = random.Random(topic * 7919 + (1 if lang == "zh" else 2))
        topic_words = topic_rng.sample(vocab[200:], 60)
        cum = self._cum.setdefault(len(vocab), _zipf_cum(len(vocab)))
        paras: list[list[str]] = []
        left = tokens
        while left > 0:
            n = min(left, rng.randint(40, 120))
            toks: list[str] = []
            for _ in range(n):
                r = rng.random()
                if lang == "en" and r < 0.4:
                    toks.append(rng.choice(_EN_FUNCTION))
                elif r < 0.55:
                    toks.append(rng.choice(topic_words))
                else:
                    toks.append(rng.choices(vocab, cum_weights=cum)[0])
                if lang == "zh" and rng.random() < 0.12:
                    toks.append(rng.choice(_ZH_PUNCT))
            if lang == "zh":
                toks.append("。")
            else:
                toks[-1] = toks[-1] + "."
            paras.append(toks)
            left -= n
        return Doc(lang, paras)

    def edit(self, doc: Doc, fraction: float, kind: str = "mixed") -> Doc:
        """Replace, insert or delete ``fraction`` of the word tokens."""
        rng = self.rng
        vocab = self.zh_vocab() if doc.lang == "zh" else self._en
        paras = [list(p) for p in doc.paragraphs]
        slots = [(i, j) for i, p in enumerate(paras) for j, t in enumerate(p) if t[:1].isalnum()]
        n = max(1, round(len(slots) * fraction))
        chosen = sorted(rng.sample(slots, min(n, len(slots))), reverse=True)
        for i, j in chosen:
            k = kind if kind != "mixed" else rng.choice(("replace", "replace", "insert", "delete"))
            new = rng.choice(vocab)
            if k == "replace":
                paras[i][j] = new
            elif k == "insert":
                paras[i].insert(j, new)
            elif len(paras[i]) > 1:
                del paras[i][j]
        return Doc(doc.lang, paras)


ENCODINGS = {"utf-8": "utf-8", "utf-8-sig": "utf-8-sig", "gb18030": "gb18030", "gbk": "gbk",
             "utf-16": "utf-16"}


def encode(text: str, encoding: str, crlf: bool = False) -> bytes:
    if crlf:
        text = text.replace("\n", "\r\n")
    return text.encode(ENCODINGS[encoding])


@dataclass
class Variant:
    name: str
    base: int
    level: str  # NEAR, MIDDLE or FAR
    transform: str
    data: bytes


@dataclass
class Corpus:
    files: list[Variant] = field(default_factory=list)

    def label(self, a: Variant, b: Variant) -> bool | None:
        """True duplicate, False not, None ambiguous (left out)."""
        if a.base != b.base:
            return False
        if FAR in (a.level, b.level):
            return False
        if MIDDLE in (a.level, b.level):
            return None
        return True

    def write(self, out: str) -> str:
        os.makedirs(out, exist_ok=True)
        for v in self.files:
            with open(os.path.join(out, v.name), "wb") as fh:
                fh.write(v.data)
        manifest = {
            "rule": __doc__.split("manifest:", 1)[1].strip(),
            "files": [{"name": v.name, "base": v.base, "level": v.level,
                       "transform": v.transform} for v in self.files],
        }
        path = os.path.join(out, "manifest.json")
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(manifest, fh, ensure_ascii=False, indent=1)
        return path


def generate_corpus(n_docs: int = 40, seed: int = 0, variants_per_doc: int = 4,
                    short_share: float = 0.15) -> Corpus:
    """A mixed Chinese/English labelled corpus, every transformation recorded."""
    g = Generator(seed)
    rng = g.rng
    corpus = Corpus()
    near_transforms = ["copy", "reencode", "crlf", "rewrap", "edit1", "edit3", "edit5",
                       "boilerplate"]
    for b in range(n_docs):
        lang = "zh" if b % 2 == 0 else "en"
        size = rng.randint(60, 150) if rng.random() < short_share else rng.randint(300, 1500)
        doc = g.document(lang, size, topic=b % 5)
        enc = "gb18030" if lang == "zh" and rng.random() < 0.5 else "utf-8"
        corpus.files.append(Variant(f"d{b:04d}_orig.txt", b, NEAR, "original",
                                    encode(doc.text(), enc)))
        picks = rng.sample(near_transforms, min(variants_per_doc, len(near_transforms)))
        picks += rng.sample(["edit10", "edit20", "reorder", "truncate", "edit40"], 1)
        for t in picks:
            level, data = NEAR, b""
            if t == "copy":
                data = encode(doc.text(), enc)
            elif t == "reencode":
                other = {"utf-8": "gbk" if lang == "zh" else "utf-16", "gb18030": "utf-8"}[enc]
                data = encode(doc.text(), rng.choice([other, "utf-8-sig"]))
            elif t == "crlf":
                data = encode(doc.text(), enc, crlf=True)
            elif t == "rewrap":
                data = encode(doc.text(width=rng.randint(50, 90)), enc)
            elif t.startswith("edit"):
                pct = int(t[4:])
                level = NEAR if pct <= 5 else (MIDDLE if pct < 40 else FAR)
                data = encode(g.edit(doc, pct / 100).text(), enc)
            elif t == "boilerplate":
                head, foot = BOILERPLATE_ZH if lang == "zh" else BOILERPLATE_EN
                data = encode(f"{head}\n\n{doc.text()}\n{foot}\n", enc)
            elif t == "reorder":
                level = MIDDLE
                paras = list(doc.paragraphs)
                rng.shuffle(paras)
                data = encode(Doc(lang, paras).text(), enc)
            elif t == "truncate":
                level = MIDDLE
                keep = max(1, int(len(doc.paragraphs) * 0.7))
                data = encode(Doc(lang, doc.paragraphs[:keep]).text(), enc)
            corpus.files.append(Variant(f"d{b:04d}_{t}.txt", b, level, t, data))
    return corpus


def word_tokens(text: str) -> list[str]:
    return [t for t in default_tokenizer()(text) if t[:1].isalnum()]


_ = codecs  # encodings are looked up by name through ``str.encode``
