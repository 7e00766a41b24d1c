"""The tables derived from Python's Unicode database (NFKC and fold maps, character classes)
are built once and kept in the user's cache folder; a kept copy is untrusted input."""

from __future__ import annotations

import os
import time

import numpy as np
import platformdirs
import pytest

from simdup_gui.core.scan import jiebadict, unicode_tables


def _clear() -> None:
    for f in (unicode_tables._unicode_tables, unicode_tables.nfkc_table, unicode_tables.fold_table,
              unicode_tables.char_classes, unicode_tables.token_classes):
        f.cache_clear()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: str(tmp_path))
    _clear()
    yield tmp_path
    _clear()


def _built() -> dict:
    return unicode_tables._build_unicode_tables()


def test_a_kept_copy_gives_the_tables_as_built(folder):
    first = unicode_tables._unicode_tables()
    (f,) = folder.glob("unicode-*.npz")
    _clear()
    again = unicode_tables._unicode_tables()  # read back from the file
    fresh = _built()
    assert set(again) == set(fresh) >= {"nfkc_buf", "fold_buf", "classes", "token_classes"}
    for k in fresh:
        assert np.array_equal(again[k], fresh[k]) and again[k].dtype == fresh[k].dtype, k
        assert np.array_equal(first[k], fresh[k]), k
    nt, ft = unicode_tables.nfkc_table(), unicode_tables.fold_table()
    assert nt.apply(np.array([0xFF21, 0x2026, 0x4E2D], dtype=np.uint32)) == "A...中"
    assert ft.stable is nt.stable and int(unicode_tables.token_classes()[ord("a")]) & 8


@pytest.mark.parametrize("damage", ["garbage", "dtype", "length", "index", "checksum",
                                    "extra", "half"])
def test_a_damaged_copy_is_rebuilt(folder, damage):
    unicode_tables._unicode_tables()
    (f,) = folder.glob("unicode-*.npz")
    t = dict(_built())
    if damage == "garbage":
        f.write_bytes(b"PK\x03\x04 not a zip")
    else:
        if damage == "dtype":
            t["fold_size"] = t["fold_size"].astype(np.int16)
        elif damage == "length":
            t["classes"] = t["classes"][:-1]
        elif damage == "index":  # the kernels would read past the buffer
            t["fold_start"] = t["fold_start"].copy()
            t["fold_start"][0x41] = len(t["fold_buf"])
        elif damage == "checksum":  # an in-range value changed: only the checksum tells
            t["fold_buf"] = t["fold_buf"].copy()
            t["fold_buf"][0x41] = 0x42
        elif damage == "extra":
            t["surprise"] = np.zeros(3)
        elif damage == "half":
            del t["token_classes"]
        if damage not in ("checksum",):
            t["checksum"] = unicode_tables._tables_checksum(t)
        with open(f, "wb") as fh:
            np.savez(fh, **t)
    kept = jiebadict._load(str(f)[:-4])
    assert not unicode_tables._unicode_tables_ok(kept) or damage == "garbage"
    _clear()
    got = unicode_tables._unicode_tables()
    fresh = _built()
    assert set(got) == set(fresh) and all(np.array_equal(got[k], fresh[k]) for k in fresh)
    assert unicode_tables._unicode_tables_ok(jiebadict._load(str(f)[:-4]))  # replaced


def _kind() -> str:
    return (f"unicode-{unicode_tables.unicodedata.unidata_version}-py{os.sys.version_info[0]}."
            f"{os.sys.version_info[1]}")


def _age(path, hours: float) -> None:
    t = time.time() - hours * 3600
    os.utime(path, (t, t))


def test_a_new_copy_replaces_older_ones_of_its_kind_only(folder):
    kind = _kind()
    stale = [kind + f"-v0-1-{i}.npz" for i in range(3)]  # the oldest first
    others = ["fingerprints.sqlite", "idf-v1-5-6.npy", "unicode-15.0.0-py3.12-v1-1-2.npz",
              "dict-v1-5-6.npz", "dict-v1-5-7.npz", "dict-v1-5-8.npz"]
    for name in stale + others:
        (folder / name).write_bytes(b"x")
    for hours, name in zip((5, 4, 3), stale, strict=True):
        _age(folder / name, hours)
    unicode_tables._unicode_tables()
    left = sorted(p.name for p in folder.iterdir())
    # the new copy and the two used last stay; other kinds are left to their own
    assert stale[0] not in left and set(stale[1:]) <= set(left)
    assert set(others) <= set(left)
    assert len([n for n in left if n.startswith(kind)]) == jiebadict.KEEP_COPIES == 3


def _source(folder, name: str, mtime_ns: int):
    p = folder / name
    p.write_text(name)
    os.utime(p, ns=(mtime_ns, mtime_ns))
    return str(p)


def test_two_installs_used_in_turn_each_keep_their_copy(folder):
    """Two virtual environments (or checkouts) with their own source files, used in turn:
    each finds its kept copy, instead of removing the other's and building again."""
    built = []

    def load(src):
        return jiebadict.cached_arrays("demo", 1, src, lambda: built.append(src) or np.arange(4),
                                       lambda a: isinstance(a, np.ndarray) and len(a) == 4)

    a = _source(folder, "a.txt", 1_000_000_000_000_000_000)
    b = _source(folder, "b.txt", 2_000_000_000_000_000_000)
    for src in (a, b, a, b, a):
        assert load(src).tolist() == [0, 1, 2, 3]
    assert built == [a, b]
    assert len(list(folder.glob("demo-v1-*.npy"))) == 2


def test_a_copy_loaded_lately_outlives_newer_ones_not_used(folder):
    def load(src):
        return jiebadict.cached_arrays("demo", 1, src, lambda: np.arange(3),
                                       lambda a: isinstance(a, np.ndarray))

    srcs = [_source(folder, f"s{i}.txt", (i + 1) * 10**18) for i in range(4)]
    for src in srcs[:3]:
        load(src)
    copies = {src: next(folder.glob(f"demo-v1-*-{(i + 1) * 10**18}.npy"))
              for i, src in enumerate(srcs[:3])}
    for hours, src in zip((5, 4, 3), srcs[:3], strict=True):
        _age(copies[src], hours)
    load(srcs[0])  # the oldest copy, used now: marked so (an hour or more since)
    assert time.time() - copies[srcs[0]].stat().st_mtime < 60
    load(srcs[3])  # a fourth copy: the one used longest ago goes
    assert sorted(p.exists() for p in copies.values()) == [False, True, True]
    assert copies[srcs[0]].exists() and not copies[srcs[1]].exists()


def test_temporary_files_of_unfinished_writes_are_removed(folder):
    kind = _kind()
    old_tmp = folder / f"{kind}-v1-1-2.npz.4242.tmp"  # a writer killed an hour ago
    new_tmp = folder / f"{kind}-v1-1-3.npz.4343.tmp"  # one being written now
    other = folder / "dict-v1-5-6.npz.4444.tmp"  # another kind's: its own prune's
    notes = folder / f"{kind}-v1-notes.txt"  # not a copy nor a write of one: not ours
    for p in (old_tmp, new_tmp, other, notes):
        p.write_bytes(b"partial")
    for p in (old_tmp, other, notes):
        _age(p, 1)
    unicode_tables._unicode_tables()
    assert not old_tmp.exists() and new_tmp.exists() and other.exists() and notes.exists()


def test_a_copy_dated_ahead_of_the_clock_does_not_hold_its_place(folder):
    def load(src):
        return jiebadict.cached_arrays("demo", 1, src, lambda: built.append(src) or np.arange(2),
                                       lambda a: isinstance(a, np.ndarray))

    built = []
    srcs = [_source(folder, f"s{i}.txt", (i + 1) * 10**18) for i in range(4)]
    load(srcs[0])
    (ahead,) = folder.glob("demo-v1-*.npy")
    _age(ahead, -24 * 365)  # a year ahead
    for src in srcs[1:] * 2:
        load(src)
    assert built == srcs  # the three others each built once, then found
    load(srcs[0])  # the copy dated ahead was the one to go, or is dated now if kept
    assert not ahead.exists() or ahead.stat().st_mtime < time.time() + 60


def test_a_copy_dated_ahead_of_the_clock_is_dated_now_when_loaded(folder):
    src = _source(folder, "s.txt", 10**18)
    built = []
    jiebadict.cached_arrays("demo", 1, src, lambda: built.append(1) or np.arange(2),
                            lambda a: isinstance(a, np.ndarray))
    (copy,) = folder.glob("demo-v1-*.npy")
    _age(copy, -24 * 365)
    jiebadict.cached_arrays("demo", 1, src, lambda: built.append(1) or np.arange(2),
                            lambda a: isinstance(a, np.ndarray))
    assert built == [1] and abs(copy.stat().st_mtime - time.time()) < 60


def test_marking_a_copy_used_does_not_follow_a_link_put_at_its_path(folder, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "victim.txt"
    outside.write_text("the user's")
    _age(outside, 5)
    before = outside.stat().st_mtime
    copy = folder / "demo-v1-1-2.npy"
    np.save(copy, np.arange(3))
    _age(copy, 5)
    with open(copy, "rb") as fh:
        os.replace(copy, folder / "moved.npy")
        os.symlink(outside, copy)  # swapped after the open, before the mark
        jiebadict._mark_used(fh)
    assert outside.stat().st_mtime == before
    assert time.time() - (folder / "moved.npy").stat().st_mtime < 60  # the open file marked
