"""The tables derived from Python's Unicode database (NFKC and fold maps, character classes)
are built once and kept in the user's cache folder; a kept copy is untrusted input."""

from __future__ import annotations

import os

import numpy as np
import platformdirs
import pytest

import simdup_gui.core.scan.features as features
from simdup_gui.core.scan import jiebadict


def _clear() -> None:
    for f in (features._unicode_tables, features._nfkc_table, features._fold_table,
              features._char_classes, features._token_classes):
        f.cache_clear()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: str(tmp_path))
    _clear()
    yield tmp_path
    _clear()


def _built() -> dict:
    return features._build_unicode_tables()


def test_a_kept_copy_gives_the_tables_as_built(folder):
    first = features._unicode_tables()
    (f,) = folder.glob("unicode-*.npz")
    _clear()
    again = features._unicode_tables()  # read back from the file
    fresh = _built()
    assert set(again) == set(fresh) >= {"nfkc_buf", "fold_buf", "classes", "token_classes"}
    for k in fresh:
        assert np.array_equal(again[k], fresh[k]) and again[k].dtype == fresh[k].dtype, k
        assert np.array_equal(first[k], fresh[k]), k
    nt, ft = features._nfkc_table(), features._fold_table()
    assert nt.apply(np.array([0xFF21, 0x2026, 0x4E2D], dtype=np.uint32)) == "A...中"
    assert ft.stable is nt.stable and int(features._token_classes()[ord("a")]) & 8


@pytest.mark.parametrize("damage", ["garbage", "dtype", "length", "index", "checksum",
                                    "extra", "half"])
def test_a_damaged_copy_is_rebuilt(folder, damage):
    features._unicode_tables()
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
            t["checksum"] = features._tables_checksum(t)
        with open(f, "wb") as fh:
            np.savez(fh, **t)
    assert not features._unicode_tables_ok(jiebadict._load(str(f)[:-4])) or damage == "garbage"
    _clear()
    got = features._unicode_tables()
    fresh = _built()
    assert set(got) == set(fresh) and all(np.array_equal(got[k], fresh[k]) for k in fresh)
    assert features._unicode_tables_ok(jiebadict._load(str(f)[:-4]))  # replaced


def test_a_new_copy_replaces_older_ones_of_its_kind_only(folder):
    stale = ["unicode-14.0.0-py3.11-v0-1-2.npz", "dict-v1-5-6.npz"]
    others = ["fingerprints.sqlite", "idf-v1-5-6.npy", "unicode-15.0.0-py3.12-v1-1-2.npz"]
    kind = f"unicode-{features.unicodedata.unidata_version}-py{os.sys.version_info[0]}." \
           f"{os.sys.version_info[1]}"
    stale[0] = kind + "-v0-1-2.npz"
    for name in stale + others:
        (folder / name).write_bytes(b"x")
    features._unicode_tables()
    left = sorted(p.name for p in folder.iterdir())
    assert stale[0] not in left and stale[1] in left  # another kind is left to its own
    assert set(others) <= set(left)
    assert len([n for n in left if n.startswith(kind)]) == 1
