"""Excerpts, "A is inside B" (issue 41, part 3): found from the sketches, measured exactly,
beside the groups and never marked."""

import os

from simdup_gui.core.group import excerpts as ex
from simdup_gui.core.session import ReviewSettings, Session

from tests.excerpt_fixtures import excerpt_folder


def pairs(s):
    name = lambda i: os.path.basename(s.records[i].path)  # noqa: E731
    return {(name(e.part), name(e.whole)): e.containment for e in s.excerpts}


def scanned(tmp_path, **settings):
    s = Session([str(excerpt_folder(tmp_path / "t"))],
                ReviewSettings(use_cache=False, workers=1, **settings))
    s.scan()
    return s


def test_a_truncation_and_a_quoted_paragraph_are_excerpts(tmp_path):
    s = scanned(tmp_path)
    found = pairs(s)
    assert found[("book start.txt", "book.txt")] == 1.0
    assert found[("quote.txt", "book.txt")] == 1.0
    assert found[("quote.txt", "letter.txt")] == 1.0
    involved = {n for p in found for n in p}
    assert "unrelated.txt" not in involved
    # a near-copy of the same length is a near-duplicate, never an excerpt of its original
    assert ("book edited.txt", "book.txt") not in found
    assert ("book.txt", "book edited.txt") not in found
    assert any({"book.txt", "book edited.txt"} <= {os.path.basename(s.records[m.index].path)
                                                   for m in g.members} for g in s.groups)
    assert all(c >= ex.CONTAINED for c in found.values())


def test_excerpts_are_never_marked_and_can_be_skipped(tmp_path):
    s = scanned(tmp_path)
    s.mark_keep("oldest")
    grouped = {s.records[m.index].path for g in s.groups for m in g.members}
    assert s.marks <= grouped  # keep rules act on groups only
    assert os.path.join(s.roots[0], "book start.txt") not in s.marks
    s.settings.excerpts = False
    s.regroup()
    assert s.excerpts == [] and s.results().excerpts == []


def test_doubtful_estimates_are_measured_from_the_files(tmp_path, monkeypatch):
    monkeypatch.setattr(ex, "SURE", 1.01)  # every candidate measured
    s = scanned(tmp_path)
    measured = pairs(s)
    assert ("book start.txt", "book.txt") in measured
    # a whole changed since the scan: no measurement, the pair is not claimed
    with open(os.path.join(s.roots[0], "book.txt"), "a") as fh:
        fh.write("more")
    assert ("quote.txt", "book.txt") not in pairs(
        type("S", (), {"records": s.records, "excerpts": ex.find_excerpts(s.records)}))


def test_many_doubtful_pairs_are_measured_on_the_pool_alike(tmp_path, monkeypatch):
    """Past POOL_ABOVE doubtful pairs the exact containments are measured on worker
    processes (the command line's): the same excerpts as measured here, and the pool did
    the reading."""
    from simdup_gui.core.group import exact

    s = scanned(tmp_path)
    here = ex.find_excerpts(s.records, workers=1)
    monkeypatch.setattr(ex, "SURE", 2.0)  # every pair in doubt
    monkeypatch.setattr(ex, "POOL_ABOVE", 0)
    monkeypatch.setattr(exact, "PARALLEL_READS", 1)
    sent = []
    real = exact.Measurer._send
    monkeypatch.setattr(exact.Measurer, "_send",
                        lambda self, *a: (sent.append(self.kind), real(self, *a))[1])
    pooled = ex.find_excerpts(s.records, workers=2)
    assert sent and set(sent) == {"contained"}
    assert [(e.part, e.whole, e.containment) for e in pooled] == \
        [(e.part, e.whole, e.containment) for e in ex.find_excerpts(s.records, workers=1)]
    assert {(e.part, e.whole) for e in here} <= {(e.part, e.whole) for e in pooled}


def test_spawned_workers_take_more_doubtful_pairs_to_be_worth_a_pool(tmp_path, monkeypatch,
                                                                     measurer_workers):
    """Where a pool's workers are spawned rather than forked from a warm server (macOS,
    Windows: poolctx.forks_warm), the excerpts' doubtful pairs go to a pool only past
    POOL_ABOVE_SPAWNED, the threshold measured before forked pools were cheap."""
    from simdup_gui.core.group import exact
    from simdup_gui.core.scan import poolctx

    s = scanned(tmp_path)
    monkeypatch.setattr(ex, "SURE", 2.0)  # every pair in doubt
    monkeypatch.setattr(ex, "POOL_ABOVE", 0)
    monkeypatch.setattr(ex, "POOL_ABOVE_SPAWNED", 10 ** 9)
    measurer_workers.clear()  # (the scan's)
    monkeypatch.setattr(poolctx, "forks_warm", lambda: False)
    spawned = ex.find_excerpts(s.records, workers=2)
    monkeypatch.setattr(poolctx, "forks_warm", lambda: True)
    monkeypatch.setattr(exact, "PARALLEL_READS", 10 ** 9)  # (no pool started: not needed)
    forked = ex.find_excerpts(s.records, workers=2)
    assert measurer_workers == [1, 2] and spawned == forked and forked


def test_a_regroup_does_not_find_the_excerpts_again(tmp_path, monkeypatch):
    """Excerpts depend on the texts alone: a regroup at another threshold (the app's slider)
    reuses them instead of measuring them again."""
    s = scanned(tmp_path)
    before = pairs(s)
    calls = []
    real = ex.excerpt_candidates
    monkeypatch.setattr(ex, "excerpt_candidates", lambda r: (calls.append(1), real(r))[1])
    s.settings.similarity = 0.8
    s.regroup()
    assert not calls and pairs(s) == before


def _brute_shared(sk, size):
    """Every pair i < j by brute force: the reference of excerpts._shared."""
    import numpy as np

    vals, counts = np.unique(sk[sk != ex.EMPTY], return_counts=True)
    common = set(vals[counts > ex.MAX_POSTING].tolist())
    rows = [set(r.tolist()) - {ex.EMPTY} - common for r in sk]
    out = []
    for i in range(len(sk)):
        for j in range(i + 1, len(sk)):
            s = len(rows[i] & rows[j])
            if s >= ex.MIN_SHARED and (min(size[i], size[j])
                                       <= ex.PART_AT_MOST * max(size[i], size[j])):
                out.append((i, j, s))
    return out


def test_candidate_pairs_counted_in_blocks_are_every_pair_by_brute_force(monkeypatch):
    """_shared makes the pairs by parts, PAIR_BLOCK at a time, ranked by size: the same
    pairs and counts as every pair compared, whatever the block."""
    import numpy as np

    rng = np.random.default_rng(7)
    n, k = 70, 24
    sk = np.full((n, k), ex.EMPTY, dtype=np.uint32)
    for i in range(n):
        m = int(rng.integers(3, k + 1))  # some sketches not full
        sk[i, :m] = np.sort(rng.choice(120, m, replace=False))
    size = rng.integers(100, 700, n).astype(np.int64)
    size[:6] = 300  # equal sizes: never a part of each other
    monkeypatch.setattr(ex, "MAX_POSTING", 12)  # some common values
    want = _brute_shared(sk, size)
    assert len(want) > 50
    for block in (1, 7, 1 << 21):
        monkeypatch.setattr(ex, "PAIR_BLOCK", block)
        i, j, shared, clean = ex._shared(sk, size)
        assert list(zip(i.tolist(), j.tolist(), shared.tolist())) == want
    vals, counts = np.unique(sk[sk != ex.EMPTY], return_counts=True)
    common = vals[counts > ex.MAX_POSTING]
    assert np.array_equal(clean, np.sort(np.where(np.isin(sk, common), ex.EMPTY, sk), axis=1))


def test_a_wholes_lookup_is_made_once_for_the_parts_that_come_with_it(tmp_path, monkeypatch):
    """A pool worker measuring containments (exact.measure_pairs) makes a whole's table
    (textsim.whole_lookup) once for its consecutive parts, not once a pair; the Measurer
    here likewise. The containments are the definition's, |P & W| / |P| of the 5-gram
    sets."""
    import numpy as np

    from simdup_gui.core.group import exact

    s = scanned(tmp_path)
    at = {os.path.basename(r.path): i for i, r in enumerate(s.records)}
    book, letter, start, quote = (at[n] for n in ("book.txt", "letter.txt", "book start.txt",
                                                  "quote.txt"))
    pairs = [(start, book), (quote, book), (quote, letter)]
    sets = {i: exact.read_shingles(s.records[i]) for i in at.values()}
    want = [round(len(np.intersect1d(sets[p], sets[w])) / len(sets[p]), 6) for p, w in pairs]
    made = []
    real = exact.whole_lookup
    monkeypatch.setattr(exact, "whole_lookup", lambda w: (made.append(w.size), real(w))[1])
    got, _ = exact.measure_pairs([(s.records[p], s.records[w]) for p, w in pairs],
                                 kind="contained")
    # each whole's set, and the set of its hashes' high halves (the parts' sketch test), once
    assert got == want and made == [sets[book].size] * 2 + [sets[letter].size] * 2
    made.clear()
    here = exact.Measurer(s.records, kind="contained")
    assert [here.contained(p, w) for p, w in pairs] == want and len(made) == 4


def test_a_measuring_worker_gets_each_file_once_and_a_sketch_only_for_a_part(tmp_path):
    """What a pool worker is sent (exact._wire) and measures (exact.measure_sent): each file
    once as a plain tuple, a sketch only for the part of a containment, and the same
    answers as measure_pairs of the whole records; a file changed since the scan gives
    None through it too (its content hash travels)."""
    from simdup_gui.core.group import exact

    s = scanned(tmp_path)
    at = {os.path.basename(r.path): i for i, r in enumerate(s.records)}
    book, letter, start, quote = (at[n] for n in ("book.txt", "letter.txt", "book start.txt",
                                                  "quote.txt"))
    pairs = [(start, book), (quote, book), (quote, letter)]
    for kind in ("contained", "jaccard"):
        files, idx = exact._wire(s.records, pairs, kind)
        assert [f[0] for f in files] == [s.records[i].path for i in (start, book, quote,
                                                                     letter)]
        assert all(type(f) is tuple for f in files)
        assert [bool(f[4]) for f in files] == ([True, False, True, False]
                                               if kind == "contained" else [False] * 4)
        assert [(files[a][0], files[b][0]) for a, b in idx] == \
            [(s.records[p].path, s.records[w].path) for p, w in pairs]
        exact._WORKER_SETS.__init__(256)
        want = exact.measure_pairs([(s.records[p], s.records[w]) for p, w in pairs], kind)
        exact._WORKER_SETS.__init__(256)
        assert exact.measure_sent(files, idx, kind) == want
        assert all(v is not None for v in want[0])
    with open(s.records[book].path, "a", encoding="utf-8") as fh:
        fh.write("changed after the scan")
    exact._WORKER_SETS.__init__(256)
    got, _ = exact.measure_sent(*exact._wire(s.records, pairs, "contained"), "contained")
    assert got[0] is None and got[1] is None and got[2] is not None


def test_the_wholes_of_a_much_shared_part_are_measured_one_after_another():
    """_measure_order: a whole's pairs together (its file read once), and the wholes whose
    most shared doubtful part is the same one after another (that part read once for them,
    not once a whole); sure pairs are not measured and do not count."""
    import numpy as np

    part = np.array([1, 2, 1, 2, 3, 1, 3, 4, 4, 4])
    whole = np.array([50, 50, 70, 88, 88, 90, 80, 88, 85, 95])
    sure = np.array([False] * 7 + [True, False, False])  # part 4: two doubtful pairs
    order = ex._measure_order(part, whole, sure)
    assert sorted(order.tolist()) == list(range(len(part)))
    seq = whole[order].tolist()
    assert all(seq.index(w) + seq.count(w) - 1 == len(seq) - 1 - seq[::-1].index(w)
               for w in set(seq))  # each whole's pairs together
    runs = [w for k, w in enumerate(seq) if k == 0 or seq[k - 1] != w]
    at = {w: runs.index(w) for w in runs}
    assert sorted(at[w] for w in (50, 70, 90)) == [0, 1, 2]  # part 1's wholes (3 pairs)
    assert {at[w] for w in (88, 80)} == {3, 4}  # parts 2 and 3 (2 pairs each)
    assert {at[w] for w in (85, 95)} == {5, 6}  # part 4's (88 too, had its sure pair counted)


def test_a_part_whose_sketch_is_mostly_outside_the_whole_is_not_read(tmp_path):
    """exact._contained: the whole is read, the part's full sketch (a sample of its 5-grams)
    looked up in it; a part showing at most 96 of its 128 values there is no excerpt and
    its file is not read; any other pair is measured exactly, as before."""
    import random

    import numpy as np

    from simdup_gui.core.group import exact

    rng = random.Random(5)
    words = [f"w{rng.randrange(10 ** 6)}" for _ in range(4000)]
    lines = [" ".join(words[i:i + 8]) for i in range(0, 4000, 8)]  # 500 distinct lines
    other = [" ".join(f"x{rng.randrange(10 ** 6)}" for _ in range(8)) for _ in range(200)]
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "whole.txt").write_text("\n".join(lines))
    (folder / "half in.txt").write_text("\n".join(lines[:100] + other[:100]))
    (folder / "inside.txt").write_text("\n".join(lines[200:300]))
    s = Session([str(folder)], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    at = {os.path.basename(r.path): i for i, r in enumerate(s.records)}
    whole, half, inside = (s.records[at[n]] for n in ("whole.txt", "half in.txt",
                                                      "inside.txt"))
    assert half.shingles > 128 and inside.shingles > 128  # full sketches
    assert exact._reject_at() == 96
    sets = {n: exact.read_shingles(s.records[at[n]]) for n in at}
    exact._WORKER_SETS.__init__(256)  # nothing read before
    got, read = exact.measure_pairs([(half, whole)], kind="contained")
    assert read == 1 and got[0] < 0.75  # the whole only: its estimate stands
    assert len(np.intersect1d(sets["half in.txt"], sets["whole.txt"])) / half.shingles < 0.6
    got, read = exact.measure_pairs([(inside, whole)], kind="contained")
    assert read == 1  # (the whole's set is kept) the part read, measured exactly
    assert got == [round(len(np.intersect1d(sets["inside.txt"], sets["whole.txt"]))
                         / inside.shingles, 6)] and got[0] >= ex.CONTAINED
    # in this process alike
    here = exact.Measurer(s.records, kind="contained")
    assert here.contained(at["half in.txt"], at["whole.txt"]) < 0.75 and here.read == 1
    assert here.contained(at["inside.txt"], at["whole.txt"]) == got[0] and here.read == 2


def test_a_measuring_pools_workers_read_with_the_kernels(tmp_path, monkeypatch):
    """A Measurer's pool starts each worker with exact.measuring_worker, which turns the
    compiled kernels on: a spawned worker (macOS, Windows), or one whose fork server could
    not preload simdup, read with the numpy path before (the same sets, twice the CPU)."""
    import multiprocessing as mp

    import pytest

    from simdup_gui.core.group import exact
    from simdup_gui.core.scan import kernels, poolctx

    if not kernels.allowed():
        pytest.skip("no numba here")
    s = scanned(tmp_path)
    real = poolctx.make_pool
    monkeypatch.setattr(poolctx, "make_pool", lambda n, initializer=None, ctx=None: real(
        n, initializer, mp.get_context("spawn")))  # a fresh interpreter: no preload
    monkeypatch.setattr(exact, "PARALLEL_READS", 1)
    m = exact.Measurer(s.records, workers=2, kind="contained")
    try:
        m.prefetch([(0, 1), (2, 3)])
        assert m._pool is not None
        tasks = {m._pool.submit(kernels.active) for _ in range(2)}
        answers = []
        for _ in range(60):
            answers += m._pool.wait(1.0)
            if len(answers) == 2:
                break
        assert {d.task for d in answers} == tasks and all(d.value for d in answers)
    finally:
        m.close()


_FIND = ex.candidates_of


def _die_finding(*args):
    """Ends a worker process at once; in the test's own process, finds the candidates."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        os._exit(9)
    return _FIND(*args)


def _plain(found):
    return [(e.part, e.whole, e.containment) for e in found]


def test_spawned_workers_take_more_records_to_find_candidates_beside(tmp_path, monkeypatch):
    """The excerpt candidates get a process of their own beside the grouping past
    AHEAD_ABOVE records where it forks from the warm server, past AHEAD_ABOVE_SPAWNED where
    it would be spawned (poolctx.forks_warm), and never with one process to read with."""
    from simdup_gui.core.scan import poolctx

    s = scanned(tmp_path)
    monkeypatch.setattr(ex, "AHEAD_ABOVE", 0)
    monkeypatch.setattr(ex, "AHEAD_ABOVE_SPAWNED", 10 ** 9)
    monkeypatch.setattr(poolctx, "forks_warm", lambda: False)
    assert ex._ahead_pool(s.records, 2, None) is None
    monkeypatch.setattr(poolctx, "forks_warm", lambda: True)
    assert ex._ahead_pool(s.records, 1, None) is None
    pool = ex._ahead_pool(s.records, 2, None)
    try:
        assert pool is not None and pool.running
    finally:
        pool.end()


def test_the_candidates_found_on_a_process_beside_the_grouping_are_the_same(tmp_path,
                                                                             monkeypatch):
    """Past AHEAD_ABOVE records, with processes to read with (the command line), the
    excerpt candidates are found on a process of their own while the groups are made: the
    grouping's answer comes back as it was, the excerpts are those found here, and this
    process found no candidates."""
    s = scanned(tmp_path)
    here = _plain(ex.find_excerpts(s.records))
    assert here
    monkeypatch.setattr(ex, "AHEAD_ABOVE", 0)
    monkeypatch.setattr(ex, "excerpt_candidates",
                        lambda r: (_ for _ in ()).throw(AssertionError("found here")))
    ran = []
    groups, plan, found = ex.with_excerpts(s.records, 2, None, True,
                                           lambda: (ran.append(os.getpid()), ("G", "P"))[1])
    assert (groups, plan, ran) == ("G", "P", [os.getpid()])
    assert _plain(found) == here
    assert ex.with_excerpts(s.records, 2, None, False, lambda: ("G", "P")) == ("G", "P", [])


def test_a_process_that_dies_finding_the_candidates_leaves_them_to_be_found_here(
        tmp_path, monkeypatch):
    """The candidates' process killed (out of memory, say): the same excerpts, found here."""
    s = scanned(tmp_path)
    here = _plain(ex.find_excerpts(s.records))
    monkeypatch.setattr(ex, "AHEAD_ABOVE", 0)
    monkeypatch.setattr(ex, "candidates_of", _die_finding)  # (pickled by name: the worker's)
    calls = []
    real = ex.excerpt_candidates
    monkeypatch.setattr(ex, "excerpt_candidates", lambda r: (calls.append(1), real(r))[1])
    *_, found = ex.with_excerpts(s.records, 2, None, True, lambda: ("G", "P"))
    assert calls == [1] and _plain(found) == here  # (found here: the worker died)


def test_no_worker_for_the_candidates_leaves_them_to_be_found_here(tmp_path, monkeypatch):
    """The candidates' process cannot be started (poolctx.PoolFailed): the grouping runs,
    and the same excerpts are found here after it."""
    from simdup_gui.core.scan import poolctx

    s = scanned(tmp_path)
    here = _plain(ex.find_excerpts(s.records))
    monkeypatch.setattr(ex, "AHEAD_ABOVE", 0)
    monkeypatch.setattr(poolctx, "make_pool", lambda *a: (_ for _ in ()).throw(
        poolctx.PoolFailed("the worker processes could not be started (EOFError)")))
    assert ex.with_excerpts(s.records, 2, None, True, lambda: ("G", "P"))[:2] == ("G", "P")
    *_, found = ex.with_excerpts(s.records, 2, None, True, lambda: ("G", "P"))
    assert _plain(found) == here


def test_excerpts_known_already_start_no_process(tmp_path, monkeypatch):
    """A regroup whose records' excerpts the memo holds (the app's sliders) starts no
    process for their candidates."""
    from simdup_gui.core.group.classes import RecordsMemo
    from simdup_gui.core.scan import poolctx

    s = scanned(tmp_path)
    memo = RecordsMemo()
    first = _plain(ex.find_excerpts(s.records, memo=memo))
    monkeypatch.setattr(ex, "AHEAD_ABOVE", 0)
    monkeypatch.setattr(poolctx, "make_pool", lambda *a: (_ for _ in ()).throw(
        AssertionError("a pool started")))
    *_, found = ex.with_excerpts(s.records, 2, memo, True, lambda: ("G", "P"))
    assert _plain(found) == first


def test_the_candidates_process_ends_when_it_answers_and_when_the_grouping_fails(
        tmp_path, monkeypatch):
    """The candidates' process ends as soon as its answer comes, while the grouping goes
    on (its memory is not held through the grouping's own peak), and a grouping that fails
    (cancelled) ends it too: the error comes through, no process is left."""
    import multiprocessing
    import time

    s = scanned(tmp_path)
    here = _plain(ex.find_excerpts(s.records))
    monkeypatch.setattr(ex, "AHEAD_ABOVE", 0)

    def grouping():
        seen = [p.pid for p in multiprocessing.active_children()]
        give_up = time.monotonic() + 60
        while multiprocessing.active_children() and time.monotonic() < give_up:
            time.sleep(0.02)
        return seen, multiprocessing.active_children()

    (seen, left), _, found = ex.with_excerpts(s.records, 2, None, True,
                                              lambda: (grouping(), "P"))
    assert seen and not left and _plain(found) == here

    def cancelled():
        raise KeyboardInterrupt

    try:
        ex.with_excerpts(s.records, 2, None, True, cancelled)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the grouping's error was swallowed")
    assert not multiprocessing.active_children()


def test_a_rescan_with_the_cache_measures_no_excerpt_again(tmp_path, monkeypatch):
    """The containments measured from the files are remembered in the fingerprint cache
    (by both contents), so a rescan of the same files reads none of them for its excerpts,
    and finds the same excerpts; a file whose content changed is measured again."""
    from simdup_gui.core.group import exact

    monkeypatch.setattr(ex, "SURE", 1.01)  # every candidate measured
    root = excerpt_folder(tmp_path / "t")
    settings = ReviewSettings(workers=1, cache_path=str(tmp_path / "cache.db"))
    first = Session([str(root)], settings)
    first.scan()
    assert pairs(first)
    reads = []
    real = exact.read_shingles
    monkeypatch.setattr(exact, "read_shingles",
                        lambda r, *a, **k: (reads.append(os.path.basename(r.path)),
                                            real(r, *a, **k))[1])
    again = Session([str(root)], settings)
    again.scan()
    assert pairs(again) == pairs(first) and reads == []
    with open(root / "book start.txt", "a") as fh:
        fh.write(" and a new last line")
    third = Session([str(root)], settings)
    third.scan()
    assert "book start.txt" in reads and ("book start.txt", "book.txt") in pairs(third)


def test_a_containment_in_the_store_is_never_a_similarity_nor_the_other_way_round(tmp_path):
    """One store holds the Jaccard similarity of two contents and the containment of one
    in the other: three different keys, whichever order the records come in."""
    from simdup_gui.core.group.exact import Measurer
    from simdup_gui.core.scan.cache import FingerprintCache

    s = scanned(tmp_path)
    by = {os.path.basename(r.path): i for i, r in enumerate(s.records)}
    part, whole = by["book start.txt"], by["book.txt"]
    store = FingerprintCache(str(tmp_path / "c.db"))
    try:
        m = Measurer(s.records, store)
        j = m(part, whole)
        c = Measurer(s.records, store, kind="contained").contained(part, whole)
        back = Measurer(s.records, store, kind="contained").contained(whole, part)
        assert j is not None and c is not None and back is not None
        assert c > 0.99 and j < 0.5 and back < 0.5  # all of it inside; J about 0.36
        ha, hb = s.records[part].content_hash, s.records[whole].content_hash
        assert store.get_pair(*sorted((ha, hb))) == j
        assert store.get_pair(ha + ">", hb) == c and store.get_pair(hb + ">", ha) == back
    finally:
        store.close()


def test_a_pair_looked_up_for_the_pool_is_answered_as_what_is_asked(tmp_path):
    """What the store held for a pair when it was sent to the pool (prefetch) answers the
    measure the Measurer prefetches, never the other one: a Jaccard measurer asked for a
    containment (and the other way round) gives the containment (the Jaccard)."""
    from simdup_gui.core.group.exact import Measurer
    from simdup_gui.core.scan.cache import FingerprintCache

    s = scanned(tmp_path)
    by = {os.path.basename(r.path): i for i, r in enumerate(s.records)}
    part, whole = by["book start.txt"], by["book.txt"]
    store = FingerprintCache(str(tmp_path / "c.db"))
    try:
        j = Measurer(s.records, store)(part, whole)
        c = Measurer(s.records, store, kind="contained").contained(part, whole)
        assert c > 0.99 and j < 0.5
        for kind in ("jaccard", "contained"):
            m = Measurer(s.records, store, workers=2, kind=kind)
            m.prefetch([(part, whole)])  # (two files: looked up in the store, not sent)
            assert m.contained(part, whole) == c and m(part, whole) == j, kind
    finally:
        store.close()


def _never_finding(*args):
    """In a worker process, finds no answer for ten minutes (the candidates of a huge tree);
    in the test's own process, finds the candidates."""
    import multiprocessing
    import time

    if multiprocessing.parent_process() is not None:
        time.sleep(600)
    return _FIND(*args)


def test_a_ctrl_c_while_the_candidates_are_awaited_ends_their_process(tmp_path, monkeypatch):
    """The grouping done, a Ctrl-C that comes while the candidates' answer is awaited goes
    through, and their process is ended then, not left to find them."""
    import multiprocessing
    import threading

    s = scanned(tmp_path)
    monkeypatch.setattr(ex, "AHEAD_ABOVE", 0)
    monkeypatch.setattr(ex, "candidates_of", _never_finding)  # (pickled by name)
    made = []

    class Interrupted(threading.Thread):  # (the pool starts its workers on threads too)
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            if self.name == "simdup-excerpt-candidates":
                made.append(self)

        def join(self, timeout=None):
            if made and self is made[0] and len(made) == 1:
                made.append("interrupted")
                raise KeyboardInterrupt
            super().join(timeout)

    monkeypatch.setattr(ex.threading, "Thread", Interrupted)
    try:
        ex.with_excerpts(s.records, 2, None, True, lambda: ("G", "P"))
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the Ctrl-C was swallowed")
    threading.Thread.join(made[0], 120)  # (the thread gives up on its answer at once)
    assert not made[0].is_alive() and not multiprocessing.active_children()


def test_copies_in_one_block_are_all_answered_from_the_cache(tmp_path, monkeypatch):
    """Two copies of a part (one content) make two pairs with one key in the cache: a
    rescan answers both from it and reads no file."""
    import shutil

    from simdup_gui.core.group import exact
    from simdup_gui.core.scan.cache import FingerprintCache

    monkeypatch.setattr(ex, "SURE", 1.01)  # every candidate measured
    monkeypatch.setattr(ex, "POOL_ABOVE", 0)
    root = excerpt_folder(tmp_path / "t")
    shutil.copy(root / "book start.txt", root / "book start (copy).txt")
    s = Session([str(root)], ReviewSettings(use_cache=False, workers=1))
    s.scan()
    path = str(tmp_path / "cache.db")

    def excerpts():
        store = FingerprintCache(path)
        try:
            return _plain(ex.find_excerpts(s.records, 2, store=store))
        finally:
            store.close()

    first = excerpts()
    names = {os.path.basename(s.records[p].path) for p, _, _ in first}
    assert {"book start.txt", "book start (copy).txt"} <= names
    reads = []
    real = exact.read_shingles
    monkeypatch.setattr(exact, "read_shingles",
                        lambda r, *a, **k: (reads.append(r.path), real(r, *a, **k))[1])
    assert excerpts() == first and reads == []
