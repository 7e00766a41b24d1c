"""The IDF table kept as hashed arrays in the cache folder gives exactly idf()'s values."""

import numpy as np
import platformdirs

from simdup_gui.core.scan import features as F
from simdup_gui.core.scan.simhash import mmh3_128


def keys(words):
    return np.frombuffer(b"".join(mmh3_128(w.encode("utf-8"))[:8] for w in words), dtype="<u8")


def test_hashed_idf_equals_the_table_and_survives_a_reload(tmp_path, monkeypatch):
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: str(tmp_path))
    F._idf_hashed.cache_clear()
    try:
        first = F._idf_hashed()
        assert list(tmp_path.glob("idf-v*.npy"))  # written once ...
        F._idf_hashed.cache_clear()
        again = F._idf_hashed()  # ... and read back
        assert all(np.array_equal(a, b) for a, b in zip(first[:2], again[:2]))
        table, median = F._idf_table()
        assert again[2] == median
        words = sorted(table)[::997] + ["不存在的词汇甲乙", "中文", "hello", "the", "2024", "，"]
        is_word = [F._is_word(w) for w in words]
        got = F._idf_of_new(words, is_word, keys(words))
        assert got == [F.idf(w) if iw else 0.0 for w, iw in zip(words, is_word)]
    finally:
        F._idf_hashed.cache_clear()


def test_a_corrupt_cache_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: str(tmp_path))
    F._idf_hashed.cache_clear()
    try:
        F._idf_hashed()
        (f,) = tmp_path.glob("idf-v*.npy")
        f.write_bytes(b"garbage")
        F._idf_hashed.cache_clear()
        k, v, median = F._idf_hashed()
        assert len(k) == len(F._idf_table()[0])
    finally:
        F._idf_hashed.cache_clear()
