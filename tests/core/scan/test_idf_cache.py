"""The IDF table kept as hashed arrays in the cache folder gives exactly idf()'s values."""

import numpy as np
import platformdirs

from simdup_gui.core.scan import idf as idf_mod
from simdup_gui.core.scan.simhash import mmh3_128


def keys(words):
    return np.frombuffer(b"".join(mmh3_128(w.encode("utf-8"))[:8] for w in words), dtype="<u8")


def test_hashed_idf_equals_the_table_and_survives_a_reload(tmp_path, monkeypatch):
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: str(tmp_path))
    idf_mod.idf_hashed.cache_clear()
    try:
        first = idf_mod.idf_hashed()
        assert list(tmp_path.glob("idf-v*.npy"))  # written once ...
        idf_mod.idf_hashed.cache_clear()
        again = idf_mod.idf_hashed()  # ... and read back
        assert all(np.array_equal(a, b) for a, b in zip(first[:2], again[:2]))
        table, median = idf_mod.idf_table()
        assert again[2] == median
        words = sorted(table)[::997] + ["不存在的词汇甲乙", "中文", "hello", "the", "2024", "，"]
        is_word = [idf_mod.is_word(w) for w in words]
        got = idf_mod.idf_of_new(words, is_word, keys(words))
        assert got == [idf_mod.idf(w) if iw else 0.0 for w, iw in zip(words, is_word)]
    finally:
        idf_mod.idf_hashed.cache_clear()


def test_a_corrupt_cache_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: str(tmp_path))
    idf_mod.idf_hashed.cache_clear()
    try:
        idf_mod.idf_hashed()
        (f,) = tmp_path.glob("idf-v*.npy")
        f.write_bytes(b"garbage")
        idf_mod.idf_hashed.cache_clear()
        k, v, median = idf_mod.idf_hashed()
        assert len(k) == len(idf_mod.idf_table()[0])
    finally:
        idf_mod.idf_hashed.cache_clear()
