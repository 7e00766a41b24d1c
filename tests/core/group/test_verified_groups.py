"""Verified groups: the measured definition, sketches, no chaining, what users see."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.core.group.cluster import build_groups
from simdup_gui.core.group.exact import Measurer
from simdup_gui.core.models import FileRecord
from simdup_gui.core.group.graph import component_order, unique_pairs
from simdup_gui.core.group.measure import MARGIN
from simdup_gui.core.scan.features import FeatureBuilder, rechunk
from simdup_gui.core.scan.pipeline import ScanOptions, scan
from simdup_gui.core.textsim import (estimate, make_sketch, shingle_set, sketch_array,
                                     text_similarity)

from tests.conftest import EN, OTHER, ZH
from tests.actions_helpers import write_chain

VECTORS = [  # shared/near-duplicate.md
    ("近似重复的文本文件在很多电脑上都有。", "近似重复的文本\n文件在很多电脑上都有。", 1.0),
    ("\ufeffHello World, this is a note.", "hello  world,\r\nthis is a\u200b note.", 1.0),
    ("ＡＢＣ１２３ full width", "abc123 full width", 1.0),
    ("The quick brown fox jumps over the lazy dog.",
     "The quick brown fox jumped over the lazy dog.", 0.7105),
    ("软件许可协议：本软件按原样提供，不提供任何担保。",
     "软件许可协议：本程序按原样提供，不提供任何担保。", 0.5385),
    ("Copyright 2020 Alice. Licensed under the MIT License.",
     "Copyright 2021 Bob. Licensed under the MIT License.", 0.617),
    ("abc", "abcd", 0.0),
]


def test_the_definitions_test_vectors():
    for a, b, j in VECTORS:
        assert round(text_similarity(a, b), 4) == j, (a, b)


def fp(text: str) -> tuple[int, str]:
    fb = FeatureBuilder()
    for chunk in rechunk([text]):
        fb.add(chunk)
    return fb.fingerprint()[0], fb.text_hash()


def rewrap(text: str, width: int) -> str:
    flat = "".join(text.split())
    return "\n".join(flat[i : i + width] for i in range(0, len(flat), width))


def test_rewrapped_chinese_has_the_fingerprint_of_the_original():
    text = ZH + " 参见 https://example.org/path 获取更多信息。" + ZH
    for width in (7, 13, 40):
        assert fp(rewrap(text, width)) == fp(text)


def test_zero_width_and_soft_hyphens_do_not_split_words():
    assert fp("foo\u200bbar baz\u00adqux a\u2060b 中\u200b文") == fp("foobar bazqux ab 中文")
    assert fp(EN.replace("the ", "the\u200b ")) == fp(EN)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["中文", "分词", "hello", "world", " ", "\n", "\t", "。",
                                 "ab", "测试", "\u200b", "x1"]), min_size=1, max_size=40),
       st.randoms(use_true_random=False))
def test_equal_text_hash_means_equal_fingerprint(parts, rnd):
    a = "".join(parts)
    b = "".join(p if not p.isspace() else rnd.choice([" ", "\n", "  ", "\r\n"]) for p in parts)
    fa, ha = fp(a)
    fb_, hb = fp(b)
    if ha == hb:
        assert fa == fb_


def test_sketch_estimates_are_close_and_exact_for_short_texts():
    rng = random.Random(1)
    words = [f"w{i}" for i in range(3000)]
    base = [rng.choice(words) for _ in range(2000)]
    errs = []
    for share in (0.0, 0.02, 0.05, 0.1, 0.2):
        other = list(base)
        for i in rng.sample(range(len(base)), int(share * len(base))):
            other[i] = rng.choice(words)
        a, b = " ".join(base), " ".join(other)
        sk = sketch_array([make_sketch(shingle_set(a))[0], make_sketch(shingle_set(b))[0]], 2)
        est, whole = estimate(sk, np.array([0]), np.array([1]))
        errs.append(abs(est[0] - text_similarity(a, b)))
        assert not whole[0]
    assert max(errs) < 0.12 and np.mean(errs) < 0.06
    a, b = "短笔记一则，内容很少。", "短笔记一则，内容不多。"
    sk = sketch_array([make_sketch(shingle_set(a))[0], make_sketch(shingle_set(b))[0]], 2)
    est, whole = estimate(sk, np.array([0]), np.array([1]))
    assert whole[0] and abs(est[0] - text_similarity(a, b)) < 1e-9


def write_family(root, rng, name, words, n_variants, edit):
    base = [rng.choice(words) for _ in range(400)]
    out = []
    for v in range(n_variants):
        doc = list(base)
        for i in rng.sample(range(len(doc)), int(edit * v * len(doc))):
            doc[i] = rng.choice(words)
        p = root / f"{name}_{v}.txt"
        p.write_text(" ".join(doc))
        out.append(str(p))
    return out


def test_groups_never_chain_and_every_member_is_verified_against_the_reference(tmp_path):
    rng = random.Random(7)
    words = [f"word{i}" for i in range(4000)]
    # a chain: each doc a 4 % word edit of the previous; the ends share little text
    chain = write_chain(tmp_path / "chain")
    copies = write_family(tmp_path, rng, "copy", words, 3, 0.0)
    r = scan([str(tmp_path)], ScanOptions(use_cache=False, workers=1))
    text = {x.path: Path(x.path).read_text() for x in r.records}
    # the shipped pipeline measures estimates near the threshold from the files: every member
    # is then at least 0.7 similar in text to its reference; on sketches alone an estimate
    # may err by up to about MARGIN (k=128: 2 sd), and never by more than 0.12 here
    m = Measurer(r.records, workers=1)
    try:
        measured, plan = build_groups(r.records, 64, 14, measure=m)
    finally:
        m.close()
    sketched, plan_s = build_groups(r.records, 64, 14)
    assert "verified" in plan and "verified" in plan_s
    for groups, floor in ((measured, 0.7), (sketched, 0.7 - MARGIN)):
        for g in groups:
            ref = r.records[g.representative].path
            for mem in g.members:
                j = text_similarity(text[ref], text[r.records[mem.index].path])
                assert j >= floor - 1e-9
                assert abs(mem.similarity - j) <= (1e-4 if mem.measured else 0.12)  # shown to 4 places
            paths = [r.records[i].path for i in g.indices()]
            for a in paths:
                for b in paths:
                    assert text_similarity(text[a], text[b]) >= 0.45  # never a chain's ends
        copy_group = [g for g in groups if copies[0] in {r.records[i].path for i in g.indices()}]
        assert len(copy_group) == 1 and len(copy_group[0].members) == 3
    assert text_similarity(text[chain[0]], text[chain[-1]]) < 0.5
    # SimHash alone links the chain into one group
    linked, _ = build_groups(r.records, 64, 14, verify="none")
    assert any({chain[0], chain[-1]} <= {r.records[i].path for i in g.indices()} for g in linked)


def test_json_names_the_reference_and_the_measured_similarity(tmp_path, capsys):
    for name, text in (("a.txt", ZH * 3), ("b.txt", ZH * 3 + "\n补充一句话。"),
                       ("c.txt", EN * 2), ("d.txt", EN)):
        (tmp_path / name).write_text(text)
    out = tmp_path / "r.json"
    assert main(["scan", str(tmp_path), "--no-cache", "--format", "json", "-o", str(out)]) == 0
    d = json.loads(out.read_text())
    assert d["settings"]["verify"] == "sketch" and d["settings"]["similarity"] == 0.7
    for g in d["groups"]:
        ref = g["reference"]
        for f in g["files"]:
            j = text_similarity(Path(ref).read_text(), Path(f["path"]).read_text())
            assert f["similarity"] >= 0.7 and abs(f["similarity"] - j) <= 0.12
            assert isinstance(f["distance"], int)


def test_similarity_option_is_validated(capsys):
    import pytest

    with pytest.raises(SystemExit) as e:
        main(["scan", ".", "--similarity", "1.5"])
    assert e.value.code == 2 and "similarity" in capsys.readouterr().err


def test_a_warm_rescan_reads_no_file_again(tmp_path, monkeypatch):
    """Issue 15's cost rule: with the cache, a second scan and grouping of unchanged files
    opens none of them (fingerprints from the cache, doubtful pairs from its pair table)."""
    import builtins

    from simdup_gui.core.group import exact
    from simdup_gui.core.group.cluster import group_records
    from simdup_gui.core.scan import fingerprint as fp_mod
    from simdup_gui.core.scan.pipeline import ScanOptions, scan
    from tests.actions_helpers import make_corpus

    make_corpus(tmp_path / "src")
    root = tmp_path / "src"
    rng = random.Random(4)
    words = [w for w in (EN + OTHER).lower().split() if w.isalpha()]
    base = " ".join(rng.choice(words) for _ in range(900))  # ~5,000 distinct 5-grams
    filler = " ".join(rng.choice(words) for _ in range(900))
    (root / "base.txt").write_text(base, encoding="utf-8")
    for i, keep in enumerate((0.78, 0.80, 0.82, 0.84, 0.86)):  # J near 0.7: doubtful
        cut = int(len(base) * keep)
        (root / f"edit{i}.txt").write_text(base[:cut] + filler[: len(base) - cut],
                                           encoding="utf-8")
    cache = str(tmp_path / "c.sqlite")
    opts = ScanOptions(workers=1, cache_path=cache)
    first = scan([str(root)], opts)
    g1, plan = group_records(first.records, 64, 16, cache_path=cache, similarity=0.7)
    measured = int(re.search(r"\((\d+) measured from the files", plan).group(1))
    assert measured > 0, plan  # the first grouping did read files for doubtful pairs

    opened = []
    real_open = builtins.open

    def watching(file, *a, **k):
        if isinstance(file, (str, bytes)) and str(file).startswith(str(root)):
            opened.append(file)
        return real_open(file, *a, **k)
    monkeypatch.setattr(builtins, "open", watching)
    monkeypatch.setattr(fp_mod, "fingerprint_file",
                        lambda *a, **k: pytest.fail("a cached file was fingerprinted again"))
    calls = []
    real_read = exact.read_shingles
    monkeypatch.setattr(exact, "read_shingles",
                        lambda r, *a, **k: calls.append(r) or real_read(r, *a, **k))
    again = scan([str(root)], opts)
    g2, _ = group_records(again.records, 64, 16, cache_path=cache, similarity=0.7)
    assert again.stats["cached"] == len(first.records) and again.stats["fingerprinted"] == 0
    assert calls == [] and opened == []
    assert [[(m.index, m.similarity) for m in g.members] for g in g2] == \
        [[(m.index, m.similarity) for m in g.members] for g in g1]


def test_files_too_alike_lower_the_candidate_distance_instead_of_filling_memory(monkeypatch):
    """Different texts from one small vocabulary can put every fingerprint within k of every
    other: all pairs of 100,000 such files took 23 GB before the process was killed. The
    candidates are bounded: the distance is lowered until the expected candidate pairs fit,
    and the plan says so."""
    from simdup_gui.core.group import index as index_mod
    from simdup_gui.core.group.index import safe_distance
    from simdup_gui.core.models import FileRecord

    rng = np.random.default_rng(3)
    base = int(rng.integers(0, 2**63))
    recs = []
    for i in range(400):  # every fingerprint a few bits from one base: all within k=16
        fp = base
        for b in rng.integers(0, 64, 5).tolist():
            fp ^= 1 << int(b)
        recs.append(FileRecord(f"/r/f{i}.txt", 100, 1, i + 1, 1, "/r", "utf-8", fp, 50,
                               f"{i:032x}", f"{i:032x}"))
    monkeypatch.setattr(index_mod, "MAX_CANDIDATES", 2000)
    from simdup_gui.core.group.classes import fingerprint_words
    k, expected = safe_distance(fingerprint_words(recs), 64, 16, 2000)
    assert k < 16 and expected > 2000
    groups, plan = build_groups(recs, 64, 16, verify="sketch")
    assert plan.startswith(f"candidate distance lowered from 16 to {k}: ")
    # random fingerprints keep the shipped distance
    monkeypatch.setattr(index_mod, "MAX_CANDIDATES", 40_000_000)
    assert safe_distance(fingerprint_words(recs), 64, 16)[0] == 16


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=200),
       st.sampled_from([np.int64, np.intp, np.int32]))
def test_unique_pairs_are_the_rows_np_unique_gives_in_its_order(rows, dtype):
    pairs = np.array(rows, dtype=dtype).reshape(-1, 2)
    want = np.unique(pairs, axis=0)
    got = unique_pairs(pairs)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert (got == want).all()


def test_unique_pairs_of_large_indices_fall_back_to_np_unique():
    pairs = np.array([[1 << 40, 3], [2, 5], [1 << 40, 3]], dtype=np.int64)
    assert (unique_pairs(pairs) == np.unique(pairs, axis=0)).all()


def _doubtful_families(folder, seed: int) -> None:
    """Four texts, each with four edits whose J to it lies near 0.7 (doubtful pairs)."""
    rng = random.Random(seed)
    words = [w for w in (EN + OTHER).lower().split() if w.isalpha()]
    for fam in range(4):
        base = " ".join(rng.choice(words) for _ in range(700))
        filler = " ".join(rng.choice(words) for _ in range(700))
        (folder / f"f{fam}_base.txt").write_text(base, encoding="utf-8")
        for i, keep in enumerate((0.76, 0.80, 0.84, 0.88)):  # J near 0.7: doubtful
            cut = int(len(base) * keep)
            (folder / f"f{fam}_edit{i}.txt").write_text(base[:cut] + filler[: len(base) - cut],
                                                          encoding="utf-8")


def test_doubtful_pairs_measured_on_the_pool_give_the_same_groups(tmp_path, monkeypatch):
    """Files of doubtful pairs read on worker processes (prefetch) give exactly the
    similarities and groups of reading them one by one here."""
    from simdup_gui.core.group import exact, measure
    from simdup_gui.core.group.cluster import build_groups
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    _doubtful_families(tmp_path, 11)
    records = scan([str(tmp_path)], ScanOptions(use_cache=False, workers=1)).records
    monkeypatch.setattr(exact, "PARALLEL_READS", 2)
    monkeypatch.setattr(measure, "PREFETCH_PAIRS", 3)

    def run(workers: int):
        m = Measurer(records, workers=workers)
        pools = []
        real = m.prefetch

        def watch(pairs, labels=None, ahead=()):
            real(pairs, labels, ahead)
            pools.append(m._pool is not None)
        m.prefetch = watch
        try:
            groups, plan = build_groups(records, 64, 16, measure=m)
        finally:
            m.close()
        return [[(m_.index, m_.similarity, m_.measured) for m_ in g.members] for g in groups], \
            plan, m.read, any(pools)

    one, plan1, read1, pooled1 = run(1)
    two, plan2, read2, pooled2 = run(2)
    assert pooled2 and not pooled1
    assert read1 > 0 and read2 >= read1 // 2
    assert "measured from the files" in plan1 and plan1 == plan2
    assert one == two and one



def test_the_doubtful_pairs_are_measured_on_fresh_workers_after_the_scans_pool_ended(
        tmp_path, monkeypatch):
    """The scan's pool ends with the scan (its workers would wait through the candidates'
    step with their fingerprinting's heap); the Measurer forks its own, reads the files on
    it, ends it when done, and the similarities are those measured here, one pair after
    another."""
    from simdup_gui.core.group import exact
    from simdup_gui.core.group.cluster import build_groups
    from simdup_gui.core.scan import pipeline, poolctx
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    _doubtful_families(tmp_path, 13)
    monkeypatch.setattr(exact, "PARALLEL_READS", 2)
    monkeypatch.setattr(pipeline, "PRELOAD_BYTES", 0)  # every file read by the workers
    monkeypatch.setattr(pipeline, "IN_PROCESS_BELOW", 0)  # a scan this small: on the pool too
    made = []
    real_make = poolctx.make_pool

    def counting(*a, **k):
        made.append(real_make(*a, **k))
        return made[-1]
    monkeypatch.setattr(poolctx, "make_pool", counting)
    monkeypatch.setattr(pipeline, "make_pool", counting)
    records = scan([str(tmp_path)], ScanOptions(use_cache=False, workers=2)).records
    assert len(made) == 1 and not made[0].sound()  # the scan's, ended with it
    m = Measurer(records, workers=2)
    try:
        groups, _ = build_groups(records, 64, 16, measure=m)
        assert len(made) == 2 and m._pool is made[1] and made[1].sound()
    finally:
        m.close()
    assert not made[1].sound()  # ended when done
    assert m.read > 0
    here = Measurer(records, workers=1)
    want, _ = build_groups(records, 64, 16, measure=here)
    assert [[(x.index, x.similarity, x.measured) for x in g.members] for g in groups] == \
        [[(x.index, x.similarity, x.measured) for x in g.members] for g in want]


def test_once_the_pool_is_up_a_few_files_are_read_on_it_too(tmp_path, monkeypatch):
    """The pool is started only for a block of PARALLEL_READS files or more; once it is up,
    a block of a few files (a star's pairs, edges.py) goes to it too, rather than being read
    here while its workers wait, and its answers are the ones measured here."""
    from simdup_gui.core.group import exact
    from simdup_gui.core.scan import poolctx
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    _doubtful_families(tmp_path, 14)
    records = scan([str(tmp_path)], ScanOptions(use_cache=False, workers=1)).records
    monkeypatch.setattr(exact, "PARALLEL_READS", 10)  # (20 files)
    sent = []  # (task function, its arguments), as the pool was given them
    real_make = poolctx.make_pool

    def making(*a, **k):
        pool = real_make(*a, **k)
        real_submit = pool.submit
        pool.submit = lambda fn, args: (sent.append((fn, args)), real_submit(fn, args))[1]
        return pool
    monkeypatch.setattr(poolctx, "make_pool", making)
    few = [(0, 1), (1, 2)]
    big = [(i, i + 1) for i in range(3, len(records) - 1)]
    assert len(big) + 1 >= exact.PARALLEL_READS > 3
    m = Measurer(records, workers=2)
    try:
        m.prefetch(few)
        assert m._pool is None and not m._measured  # too few to start it: read here
        m.prefetch(big)
        assert m._pool is not None and set(m._measured) == set(big)
        assert len(sent) == exact._task_count(len(big) + 1, 2) == 2
        m.prefetch(few)
        assert set(few) <= set(m._measured)
        assert len(sent) == 2 + 2  # a small one: a task a worker
        # each task is exact.measure_sent of plain tuples (exact._wire), never records
        assert all(fn is exact.measure_sent for fn, _ in sent)
        assert all(type(f) is tuple and not any(isinstance(x, FileRecord) for x in f)
                   for _, (files, _, _) in sent for f in files)
        read = m.read
        here = Measurer(records)
        assert [m(a, b) for a, b in few] == [here(a, b) for a, b in few]
        assert m.read == read  # answered by the pool, nothing read here
    finally:
        m.close()


def test_a_block_is_cut_into_a_task_per_64_files_one_to_four_a_worker():
    """exact._task_count: about one task a PARALLEL_READS files, never fewer than one a
    worker (on 16 cores a 290-file block still keeps every worker busy) nor more than four."""
    from simdup_gui.core.group import exact

    per = exact.PARALLEL_READS
    assert [exact._task_count(f, 2) for f in (2, 63, 64, 65, 290, 10 ** 6)] == [2, 2, 2, 2, 5, 8]
    for workers in (1, 2, 3, 8, 16):
        for files in (1, 2, 30, per, 290, 5_000, 10 ** 6):
            n = exact._task_count(files, workers)
            assert workers <= n <= 4 * workers


def test_copies_scattered_over_folders_are_read_once_on_the_pool(tmp_path):
    """Doubtful pairs are measured component by component (the copies of one text together,
    on one worker), so each file is read about once, wherever its copies lie in the scan's
    order; pairs in the scan's order read a file again for most of its pairs."""
    from simdup_gui.core.group import exact
    from simdup_gui.core.group.cluster import build_groups
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    rng = random.Random(5)
    words = [w for w in (EN + OTHER).lower().split() if w.isalpha()]
    for fam in range(40):  # 320 files: more than a worker keeps the sets of (256)
        base = " ".join(rng.choice(words) for _ in range(500))
        filler = " ".join(rng.choice(words) for _ in range(500))
        for i, keep in enumerate((1.0, 0.74, 0.78, 0.82, 0.86, 0.9, 0.94, 0.97)):
            cut = int(len(base) * keep)
            folder = tmp_path / f"d{i}"  # each folder holds one copy of every text
            folder.mkdir(exist_ok=True)
            (folder / f"t{fam}.txt").write_text(base[:cut] + filler[: len(base) - cut],
                                                encoding="utf-8")
    records = scan([str(tmp_path)], ScanOptions(use_cache=False, workers=1)).records
    m = Measurer(records, workers=2)
    files: set[int] = set()
    real = m.prefetch

    def watch(pairs, labels=None, ahead=()):
        files.update(x for p in pairs for x in p)
        real(pairs, labels, ahead)
    m.prefetch = watch
    try:
        build_groups(records, 64, 16, measure=m)
    finally:
        m.close()
    assert len(files) >= exact.PARALLEL_READS  # the pool was worth it
    assert len(files) <= m.read <= len(files) * 1.15


def test_component_order_puts_each_component_together():
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(1, 30)
        pairs = np.array([sorted(rng.sample(range(n + 2), 2)) for _ in range(rng.randint(1, 40))],
                         dtype=np.int64)
        order, comp = component_order(pairs)
        assert sorted(order.tolist()) == list(range(len(pairs)))
        parent = {}  # union-find, the reference

        def find(x):
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x
        for a, b in pairs.tolist():
            parent[find(a)] = find(b)
        roots = [find(a) for a in pairs[:, 0].tolist()]
        assert all((roots[i] == roots[j]) == (comp[i] == comp[j])
                   for i in range(len(pairs)) for j in range(len(pairs)))
        seq = [roots[i] for i in order.tolist()]
        assert all(seq.index(r) + seq.count(r) - 1 == len(seq) - 1 - seq[::-1].index(r)
                   for r in set(seq))  # each component's pairs are contiguous


def test_doubtful_pairs_come_in_blocks_of_even_size_never_a_small_last_one():
    """A small last block has too few files for the pool and was read by the scan's process
    alone, after the pool's block (544 pairs: 512 + 32). Blocks are now about equal, and
    none is less than half their size."""
    from simdup_gui.core.group.measure import block_ends, even_block

    assert even_block(544, 512) == 544 and even_block(0, 512) == 1
    assert even_block(1100, 512) == 550 and even_block(1300, 512) == 434
    rng = random.Random(5)
    for _ in range(300):
        n, target = rng.randint(1, 3000), rng.choice([3, 16, 512])
        labels = np.sort(np.array([rng.randrange(max(1, n // rng.choice([1, 2, 5, 50])))
                                   for _ in range(n)]))
        size = even_block(n, target)
        ends = [0, *block_ends(labels, size), n]
        sizes = [b - a for a, b in zip(ends, ends[1:])]
        assert sum(sizes) == n and min(sizes) >= min(n, (size + 1) // 2), (n, size, sizes)
        assert size >= min(n, target * 2 // 3)

def test_only_the_cli_reads_doubtful_pairs_on_a_pool(tmp_path, measurer_workers):
    """The app's regroups (some on its GUI thread) measure in-process: a pool's start froze
    the window for over a second; `simdup scan` reads on as many processes as it scanned."""
    from simdup_gui.core.session import ReviewSettings, Session

    for name, text in (("a.txt", ZH * 3), ("b.txt", ZH * 3 + "\n补充一句话。"), ("c.txt", EN)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    seen = measurer_workers
    s = Session([str(tmp_path)], ReviewSettings(use_cache=False, workers=1))
    s.set_scan(s.scan_request().run())
    s.regroup()
    req = s.begin_regroup()
    req.run()
    assert seen == [1, 1]
    seen.clear()
    assert main(["scan", str(tmp_path), "--no-cache", "--workers", "3", "--format", "json",
                 "-o", str(tmp_path / "r.json")]) == 0
    assert seen == [3]


def test_a_pool_that_fails_falls_back_to_reading_here(tmp_path, monkeypatch):
    """A pool that cannot start (or loses a worker, whose task never comes back) is dropped:
    the pairs are measured in this process, with the same result."""
    from simdup_gui.core.group import exact
    from simdup_gui.core.scan import poolctx
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    for name, text in (("a.txt", EN * 3), ("b.txt", EN * 3 + " one more line"), ("c.txt", ZH)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    records = scan([str(tmp_path)], ScanOptions(use_cache=False, workers=1)).records
    monkeypatch.setattr(exact, "PARALLEL_READS", 1)

    def broken():
        raise OSError("no processes left")
    monkeypatch.setattr(poolctx, "pool_context", broken)
    m = Measurer(records, workers=2)
    m.prefetch([(0, 1)])
    assert m.workers == 1 and m._pool is None
    j = m(0, 1)
    assert j is not None and 0 < j <= 1 and m.read == 2


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 60), max_size=40), st.lists(st.integers(0, 60), max_size=40))
def test_intersection_size_is_intersect1d(a, b):
    from simdup_gui.core.textsim import intersection_size

    x = np.unique(np.array(a, dtype=np.uint64))
    y = np.unique(np.array(b, dtype=np.uint64))
    assert intersection_size(x, y) == np.intersect1d(x, y).size == intersection_size(y, x)
