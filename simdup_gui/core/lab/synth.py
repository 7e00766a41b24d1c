"""Labelled corpora: documents and their variants, with the measured truth of every pair.

Base documents are generated (Chinese from jieba's own dictionary, English from a
fixed vocabulary) or taken from the user's files; variants apply recorded
transformations (re-encoding, line endings, re-wrapping, token edits, boilerplate,
reordering, truncation, combinations such as "enc-gbk+crlf+edit3").

The labels are measured, not taken from the recipe: every written file is decoded as
the scanner decodes it, and the exact J of every pair (character 5-gram Jaccard of the
normalised texts, shared/near-duplicate.md) is computed by :func:`reference.similar_pairs`.
The manifest lists every pair at J >= 0.50 with its J; the recipe of each file stays as
information (``transform``, ``recipe_level``), with its measured J to its document's
original (``similarity``). Two real source files with the same normalised text are never
both used as bases.
"""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..scan.decode import DecodeError, decode_bytes
from ..scan.features import default_tokenizer
from ..job import NULL_JOB, Job
from .reference import shingle_sets, similar_pairs
from ..textsim import DEFAULT_SIMILARITY, DIFFERENT_BELOW, jaccard
from ..validate import one_of

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


@lru_cache(maxsize=2)
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
    """A document as paragraphs of tokens.

    Generated documents hold word and punctuation tokens joined by a space (English)
    or nothing (Chinese). ``raw`` documents come from real text: their tokens cover
    every character (spaces included) and ``seps`` keeps the text between paragraphs,
    so ``text()`` gives back the source exactly.
    """

    lang: str
    paragraphs: list[list[str]]  # paragraphs of tokens
    raw: bool = False
    seps: list[str] | None = None  # raw only: len(paragraphs) + 1 separators

    def text(self, width: int = 0) -> str:
        if self.raw:
            return self._raw_text(width)
        sep = "" if self.lang == "zh" else " "
        paras = []
        for p in self.paragraphs:
            s = sep.join(p)
            if width and self.lang == "en":
                s = _wrap(s, width)
            paras.append(s)
        return "\n\n".join(paras) + "\n"

    def _raw_text(self, width: int) -> str:
        seps = self.seps or ([""] + ["\n\n"] * (len(self.paragraphs) - 1) + ["\n"])
        if len(seps) != len(self.paragraphs) + 1:  # paragraphs were reordered or cut
            seps = [seps[0]] + ["\n\n"] * (len(self.paragraphs) - 1) + [seps[-1]]
        out = [seps[0]]
        for p, sep in zip(self.paragraphs, seps[1:]):
            out.append(_rewrap_tokens(p, width) if width else "".join(p))
            out.append(sep)
        return "".join(out)


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


def _rewrap_tokens(tokens: list[str], width: int) -> str:
    """Collapse the paragraph's whitespace and break lines near ``width`` characters."""
    lines: list[str] = []
    cur = ""
    for t in tokens:
        if t.isspace():
            if cur and not cur.endswith(" ") and not _CJK_CHAR.match(cur[-1:]):
                cur += " "
            continue
        if len(cur) + len(t) > width and cur.strip():
            lines.append(cur.rstrip())
            cur = ""
        cur += t
    if cur.strip():
        lines.append(cur.rstrip())
    return "\n".join(lines)


_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_PARA_SPLIT = re.compile(r"(\n[ \t\r\f\v]*\n\s*)")


def doc_from_text(text: str) -> Doc:
    """A raw, lossless Doc of real text: paragraphs at blank lines (or lines), jieba tokens."""
    cut = default_tokenizer()
    lead = text[: len(text) - len(text.lstrip())]
    body = text[len(lead):]
    trail = body[len(body.rstrip()):]
    body = body[: len(body) - len(trail)]
    parts = _PARA_SPLIT.split(body) if body else []
    if len(parts) == 1 and body.count("\n") >= 3:
        parts = re.split(r"(\n\s*)", body)
    paras = [cut(p) for p in parts[0::2]]
    seps = [lead] + parts[1::2] + [trail]
    lang = "zh" if len(_CJK_CHAR.findall(text)) * 3 > len(text.split()) else "en"
    return Doc(lang, paras, raw=True, seps=seps)


class Generator:
    """Deterministic documents from a seed; topics make unrelated documents share words."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._en = _en_vocab(random.Random(1234))
        self._zh: list[str] | None = None
        self._cum: dict[int, list[float]] = {}

    def zh_vocab(self) -> list[str]:
        if self._zh is None:
            self._zh = list(_zh_vocab())
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
        """Replace, insert or delete ``fraction`` of the word tokens (jieba words for Chinese)."""
        one_of("edit kind", kind, EDIT_KINDS)
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"edit fraction must be between 0 and 1, not {fraction}")
        rng = self.rng
        paras = [list(p) for p in doc.paragraphs]
        slots = [(i, j) for i, p in enumerate(paras) for j, t in enumerate(p) if t[:1].isalnum()]
        if not slots:
            return Doc(doc.lang, paras, doc.raw, doc.seps)
        own = sorted({t for i, j in slots for t in [paras[i][j]] if not _CJK_CHAR.match(t)})
        en_vocab = own if doc.raw and len(own) >= 30 else self._en
        n = max(1, round(len(slots) * fraction))
        chosen = sorted(rng.sample(slots, min(n, len(slots))), reverse=True)
        for i, j in chosen:
            k = kind if kind != "mixed" else rng.choice(("replace", "replace", "insert", "delete"))
            zh = doc.lang == "zh" if not doc.raw else bool(_CJK_CHAR.match(paras[i][j]))
            new = rng.choice(self.zh_vocab() if zh else en_vocab)
            if k == "replace":
                paras[i][j] = new
            elif k == "insert":
                paras[i][j:j] = [new, " "] if doc.raw and not zh else [new]
            elif len(paras[i]) > 1:
                del paras[i][j]
                p = paras[i]
                if doc.raw and j < len(p) and p[j] == " " and (j == 0 or p[j - 1].isspace()):
                    del p[j]
        return Doc(doc.lang, paras, doc.raw, doc.seps)


EDIT_KINDS = ("mixed", "replace", "insert", "delete")
ENCODINGS = {"utf-8": "utf-8", "utf-8-sig": "utf-8-sig", "gb18030": "gb18030", "gbk": "gbk",
             "utf-16": "utf-16"}
_SEVERITY = {NEAR: 0, MIDDLE: 1, FAR: 2}


def encode(text: str, encoding: str, crlf: bool = False) -> bytes:
    one_of("encoding", encoding, ENCODINGS)
    if crlf:
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    return text.encode(ENCODINGS[encoding])


def transform_level(transform: str) -> str:
    """NEAR, MIDDLE or FAR for a transformation name (parts joined by "+": the worst part)."""
    worst = NEAR
    for part in transform.split("+"):
        m = re.fullmatch(r"(?:edit|replace|insert|delete)(\d+)", part)
        if m:
            pct = int(m.group(1))
            level = NEAR if pct <= 5 else (MIDDLE if pct < 40 else FAR)
        elif part in ("reorder", "truncate"):
            level = MIDDLE
        elif part in _NEAR_PARTS or part.startswith("enc-"):
            level = NEAR
        else:
            raise ValueError(f"unknown transformation {part!r}")
        if _SEVERITY[level] > _SEVERITY[worst]:
            worst = level
    return worst


_NEAR_PARTS = ("original", "copy", "reencode", "crlf", "rewrap", "boilerplate")


def apply_transform(g: Generator, doc: Doc, transform: str, encoding: str,
                    source_text: str | None = None) -> bytes:
    """Bytes of ``doc`` after ``transform`` (parts joined by "+"), written in ``encoding``.

    Text changes (edits, reordering, truncation, boilerplate, re-wrapping) come first,
    then line endings and the encoding ("enc-<name>" parts). ``source_text`` is the
    exact text of a raw document, used when no text change applies.
    """
    rng = g.rng
    parts = transform.split("+")
    transform_level(transform)  # validates the names
    crlf, width = False, 0
    changed = doc
    head_foot: tuple[str, str] | None = None
    for part in parts:
        m = re.fullmatch(r"(edit|replace|insert|delete)(\d+)", part)
        if m:
            kind = "mixed" if m.group(1) == "edit" else m.group(1)
            changed = g.edit(changed, int(m.group(2)) / 100, kind)
        elif part == "reorder":
            paras = list(changed.paragraphs)
            for _ in range(10):  # identical paragraphs may make every order look the same
                rng.shuffle(paras)
                if paras != changed.paragraphs:
                    break
            changed = Doc(changed.lang, paras, changed.raw, changed.seps)
        elif part == "truncate":
            changed = _truncate(changed, 0.7)
        elif part == "boilerplate":
            head_foot = BOILERPLATE_ZH if doc.lang == "zh" else BOILERPLATE_EN
        elif part == "rewrap":
            width = rng.randint(50, 90) if doc.lang == "en" else rng.randint(25, 45)
        elif part == "crlf":
            crlf = True
        elif part.startswith("enc-"):
            encoding = part[4:]
    if changed is doc and not width and source_text is not None:
        text = source_text
    else:
        text = changed.text(width=width)
    if head_foot:
        text = f"{head_foot[0]}\n\n{text}\n{head_foot[1]}\n"
    try:
        return encode(text, encoding, crlf)
    except UnicodeEncodeError:  # characters GBK lacks: GB18030 holds all of Unicode
        if encoding != "gbk":
            raise
        return encode(text, "gb18030", crlf)


def _truncate(doc: Doc, share: float) -> Doc:
    """Keep the first ``share`` of the tokens (whole paragraphs, then part of one)."""
    total = sum(len(p) for p in doc.paragraphs)
    left = max(1, int(total * share))
    paras: list[list[str]] = []
    for p in doc.paragraphs:
        if left <= 0:
            break
        paras.append(p[:left])
        left -= len(p)
    return Doc(doc.lang, paras, doc.raw, doc.seps)


@dataclass
class Variant:
    name: str
    base: int
    # NEAR, MIDDLE or FAR: the recipe's level until the corpus is measured, then the level
    # of the measured J to the base's original (near >= threshold, far < 0.50)
    level: str
    transform: str
    data: bytes
    source: str = ""  # the real file a variant was made from, if any
    recipe_level: str = ""  # the recipe's level (information; "" until set from ``level``)
    similarity: float | None = None  # measured J to the base's original

    def __post_init__(self) -> None:
        if not self.recipe_level:
            self.recipe_level = self.level


def measured_level(j: float, threshold: float = DEFAULT_SIMILARITY) -> str:
    """NEAR at J >= threshold, FAR below 0.50 (or the threshold if lower), MIDDLE between."""
    if j >= threshold:
        return NEAR
    return MIDDLE if j >= min(DIFFERENT_BELOW, threshold) else FAR


def decoded_text(data: bytes) -> str:
    """The text the scanner sees in a written file ("" if it cannot decode it)."""
    try:
        return decode_bytes(data).text
    except DecodeError:
        return ""


@dataclass
class Corpus:
    files: list[Variant] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    threshold: float = DEFAULT_SIMILARITY
    _pairs: dict[tuple[int, int], float] | None = field(default=None, init=False, repr=False)
    _where: dict[int, int] = field(default_factory=dict, init=False, repr=False)
    _measured_at: float = field(default=-1.0, init=False, repr=False)

    @property
    def lower(self) -> float:
        return min(DIFFERENT_BELOW, self.threshold)

    def measure(self, job: Job = NULL_JOB) -> dict[tuple[int, int], float]:
        """Exact J of every pair of files at J >= 0.50, keyed (i, j) with i < j; pairs not
        listed are below 0.50. Sets each file's ``similarity`` and measured ``level``."""
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], not {self.threshold}")
        where = {id(v): i for i, v in enumerate(self.files)}
        if (self._pairs is not None and self._where == where
                and self._measured_at == self.threshold):
            return self._pairs
        texts = []
        for i, v in enumerate(self.files):
            if i % 200 == 0:
                job.check()
            texts.append(decoded_text(v.data))
        sets = shingle_sets(texts, job, workers=0)
        del texts
        originals = {v.base: i for i, v in enumerate(self.files) if v.transform == "original"}
        for i, v in enumerate(self.files):
            o = originals.get(v.base)
            if o is None:
                v.similarity, v.level = None, v.recipe_level
            else:
                v.similarity = 1.0 if o == i else jaccard(sets[i], sets[o])
                v.level = measured_level(v.similarity, self.threshold)
        sp = similar_pairs(sets, self.lower, job, consume=True)
        self._pairs = dict(zip(zip(sp.a.tolist(), sp.b.tolist()), sp.j.tolist()))
        self._where = where
        self._measured_at = self.threshold
        return self._pairs

    def similarity(self, a: Variant, b: Variant) -> float | None:
        """Measured J of two files of the corpus; None when below 0.50 (not listed)."""
        pairs = self.measure()
        i, j = self._where[id(a)], self._where[id(b)]
        return 1.0 if i == j else pairs.get((min(i, j), max(i, j)))

    def label(self, a: Variant, b: Variant) -> bool | None:
        """By measured J: True duplicate, False not, None grey zone (left out)."""
        j = self.similarity(a, b)
        if j is None or j < self.lower:
            return False
        return True if j >= self.threshold else None

    def write(self, out: str, job: Job = NULL_JOB) -> str:
        """Write every file and ``manifest.json`` (the rule, each file's recipe and every
        measured pair at J >= 0.50) into ``out``."""
        pairs = self.measure(job)
        os.makedirs(out, exist_ok=True)
        for v in self.files:
            with open(os.path.join(out, v.name), "wb") as fh:
                fh.write(v.data)
        manifest = {
            "kind": "simdup-synthetic",
            "rule": rule_text(self.threshold),
            "threshold": self.threshold,
            "different_below": self.lower,
            "notes": self.notes,
            "files": [{"name": v.name, "base": v.base, "level": v.level,
                       "similarity": v.similarity, "transform": v.transform,
                       "recipe_level": v.recipe_level,
                       **({"source": v.source} if v.source else {})}
                      for v in self.files],
            "pairs": [[i, j, sim] for (i, j), sim in sorted(pairs.items())],
        }
        path = os.path.join(out, MANIFEST_NAME)
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(manifest, fh, ensure_ascii=False, indent=1)
        return path

    def summary(self) -> str:
        """How the measured labels compare with the recipes."""
        pairs = self.measure()
        dup = sum(j >= self.threshold for j in pairs.values())
        grey = len(pairs) - dup
        moved = [v for v in self.files if v.level != v.recipe_level]
        return (f"labels by measured J: {dup} duplicate pairs (J >= {self.threshold}), "
                f"{grey} grey-zone pairs; {len(moved)} of {len(self.files)} files measure "
                "at another level than their recipe's")


def rule_text(threshold: float = DEFAULT_SIMILARITY) -> str:
    lower = min(DIFFERENT_BELOW, threshold)
    grey = (f"Grey zone, ambiguous and left out of the metrics: {lower} <= J < {threshold}."
            if lower < threshold else "No grey zone (nothing ambiguous) below the threshold.")
    return (f"Labels are measured: J is the exact Jaccard similarity of the character 5-gram "
            f"sets of two files' decoded, normalised texts (shared/near-duplicate.md), "
            f"computed for every pair. Duplicate: J >= {threshold}. Not duplicate: "
            f"J < {lower}. {grey} The pairs at J >= {lower} are "
            f"listed in 'pairs' as [i, j, J]; every other pair is below {lower}. Each file's "
            f"'level' is that of its measured J to its document's original ('similarity'); "
            f"'transform' and 'recipe_level' are the recipe that made it, information only.")


MANIFEST_NAME = "manifest.json"
RULE = rule_text()

GENERATED_NEAR = ["copy", "reencode", "crlf", "rewrap", "edit1", "edit3", "edit5", "boilerplate"]
GENERATED_OTHER = ["edit10", "edit20", "reorder", "truncate", "edit40"]


def generate_corpus(n_docs: int = 40, seed: int = 0, variants_per_doc: int = 4,
                    short_share: float = 0.15, langs: tuple[str, ...] = ("zh", "en")) -> Corpus:
    """A labelled corpus of generated documents (alternating ``langs``), every change recorded."""
    if n_docs < 1 or variants_per_doc < 0:
        raise ValueError("n_docs must be >= 1 and variants_per_doc >= 0")
    bad = [lang for lang in langs if lang not in ("zh", "en")] or ([] if langs else ["(none)"])
    if bad:
        raise ValueError(f"langs must be drawn from zh, en, not {', '.join(bad)}")
    g = Generator(seed)
    rng = g.rng
    corpus = Corpus()
    for b in range(n_docs):
        lang = langs[b % len(langs)]
        size = rng.randint(60, 150) if rng.random() < short_share else rng.randint(300, 1500)
        doc = g.document(lang, size, topic=b % 5)
        enc = "gb18030" if lang == "zh" and rng.random() < 0.5 else "utf-8"
        corpus.files.append(Variant(f"d{b:04d}_orig.txt", b, NEAR, "original",
                                    encode(doc.text(), enc)))
        picks = rng.sample(GENERATED_NEAR, min(variants_per_doc, len(GENERATED_NEAR)))
        picks += rng.sample(GENERATED_OTHER, 1)
        for t in picks:
            name = t
            if t == "reencode":
                other = {"utf-8": "gbk" if lang == "zh" else "utf-16", "gb18030": "utf-8"}[enc]
                name = "enc-" + rng.choice([other, "utf-8-sig"])
            data = apply_transform(g, doc, name, enc)
            corpus.files.append(Variant(f"d{b:04d}_{t}.txt", b, transform_level(name), t, data))
    return corpus


# Transformations applied to each real file by ``synthesize`` (one variant each).
SOURCE_TRANSFORMS = [
    "copy", "enc-gbk", "enc-gb18030", "enc-utf-8", "enc-utf-8-sig", "enc-utf-16", "crlf",
    "rewrap", "edit1", "edit3", "edit5", "replace5", "insert5", "delete5", "edit10", "edit20",
    "edit40", "boilerplate", "reorder", "truncate", "enc-gbk+crlf+edit3",
    "boilerplate+rewrap+edit5", "enc-utf-16+reorder",
]


def synthesize(sources: list[tuple[str, str]], seed: int = 0,
               transforms: list[str] | None = None, per_source: int = 0) -> Corpus:
    """Variants of real texts. ``sources`` are (name, text) pairs, already decoded.

    Each source becomes a base document: its original text is kept as "original",
    then one variant per transformation (``per_source`` > 0 samples that many).
    Sources whose normalised text equals an earlier one are skipped, with a note,
    so that two bases are never duplicates of each other.
    """
    from ..scan.unicode_tables import normalise

    chosen = list(transforms or SOURCE_TRANSFORMS)
    for t in chosen:
        transform_level(t)
    if per_source < 0:
        raise ValueError("per_source must be >= 0 (0: every transformation)")
    g = Generator(seed)
    corpus = Corpus()
    seen: dict[str, str] = {}
    for b, (name, text) in enumerate(sources):
        key = " ".join(normalise(text).split())
        if not key:
            corpus.notes.append(f"skipped {name}: no text")
            continue
        if key in seen:
            corpus.notes.append(f"skipped {name}: same text as {seen[key]}")
            continue
        seen[key] = name
        doc = doc_from_text(text)
        stem = re.sub(r"[^\w.-]+", "_", os.path.splitext(os.path.basename(name))[0])[:40]
        prefix = f"s{b:04d}_{stem}"
        corpus.files.append(Variant(f"{prefix}_original.txt", b, NEAR, "original",
                                    encode(text, "utf-8"), name))
        picks = chosen if per_source <= 0 else g.rng.sample(chosen, min(per_source, len(chosen)))
        for t in picks:
            data = apply_transform(g, doc, t, "utf-8", source_text=text)
            fname = f"{prefix}_{t.replace('+', '_')}.txt"
            corpus.files.append(Variant(fname, b, transform_level(t), t, data, name))
    return corpus
