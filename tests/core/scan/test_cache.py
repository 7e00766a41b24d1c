import os
import sqlite3

from simdup_gui.core.scan.cache import FingerprintCache
from simdup_gui.core.models import FileRecord, Problem
from simdup_gui.core.scan.pipeline import ScanOptions, scan
from simdup_gui.core.scan.walk import WalkOptions

from tests.conftest import EN, ZH


def options(cache):
    return ScanOptions(walk=WalkOptions(), workers=1, use_cache=True, cache_path=str(cache))


def write_files(root):
    root.mkdir(exist_ok=True)
    (root / "zh.txt").write_text(ZH, encoding="utf-8")
    (root / "en.txt").write_text(EN, encoding="utf-8")
    (root / "bin.dat").write_bytes(b"\x00\x01\x02binary\x00" * 100)


def test_rescan_of_unchanged_files_is_served_from_the_cache(tmp_path):
    write_files(tmp_path / "d")
    cache = tmp_path / "c.sqlite"
    first = scan([str(tmp_path / "d")], options(cache))
    second = scan([str(tmp_path / "d")], options(cache))
    assert first.stats["cached"] == 0 and first.stats["fingerprinted"] == 2
    assert second.stats["cached"] == 3 and second.stats["fingerprinted"] == 0
    assert [r.to_dict() for r in first.records] == [r.to_dict() for r in second.records]
    # the binary file's problem is remembered too, not read again
    assert [p.kind for p in second.problems] == [p.kind for p in first.problems] == ["binary"]


def test_modified_file_misses_the_cache_and_is_fingerprinted_again(tmp_path):
    write_files(tmp_path / "d")
    cache = tmp_path / "c.sqlite"
    scan([str(tmp_path / "d")], options(cache))
    f = tmp_path / "d" / "en.txt"
    f.write_text(EN + "One more sentence at the end.\n", encoding="utf-8")
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    again = scan([str(tmp_path / "d")], options(cache))
    assert again.stats["fingerprinted"] == 1 and again.stats["cached"] == 2


def test_other_feature_settings_do_not_reuse_fingerprints(tmp_path):
    write_files(tmp_path / "d")
    cache = tmp_path / "c.sqlite"
    scan([str(tmp_path / "d")], options(cache))
    opt = options(cache)
    from simdup_gui.core.scan.fingerprint import FeatureSettings

    opt.features = FeatureSettings("tokens")
    other = scan([str(tmp_path / "d")], opt)
    assert other.stats["cached"] == 0


def test_corrupt_cache_file_is_rebuilt_not_a_crash(tmp_path):
    cache = tmp_path / "c.sqlite"
    cache.write_bytes(b"this is not a database" * 500)
    c = FingerprintCache(str(cache))
    assert c.rebuilt and c.count() == 0
    c.close()
    write_files(tmp_path / "d")
    res = scan([str(tmp_path / "d")], options(cache))
    assert res.stats["fingerprinted"] == 2


def test_foreign_sqlite_file_is_moved_aside_and_rebuilt(tmp_path):
    cache = tmp_path / "c.sqlite"
    db = sqlite3.connect(cache)
    db.execute("CREATE TABLE notes (x TEXT)")
    db.execute("INSERT INTO notes VALUES ('mine')")
    db.commit()
    db.close()
    c = FingerprintCache(str(cache))
    assert c.rebuilt and c.count() == 0
    c.close()
    assert (tmp_path / "c.sqlite.broken").exists()


def test_cache_uses_wal_mode(tmp_path):
    c = FingerprintCache(str(tmp_path / "c.sqlite"))
    assert c.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    c.close()


def test_128_bit_fingerprints_round_trip_as_bytes(tmp_path):
    c = FingerprintCache(str(tmp_path / "c.sqlite"))
    fps = [0, 1, (1 << 128) - 1, 1 << 127, (1 << 64) - 1, 1 << 64, 0x0123456789ABCDEF0FEDCBA987654321]
    recs = [FileRecord(f"/x/{i}", 10, 5, i, 1, "/x", "utf-8", fp, 3, "t", "c")
            for i, fp in enumerate(fps)]
    c.store("v1", recs)
    got = c.lookup("v1", [(r.path, 10, 5, r.inode, 1, "/x") for r in recs])
    assert [got[r.path].fingerprint for r in recs] == fps
    raw = c.db.execute("SELECT fingerprint FROM files WHERE path=?", (b"/x/2",)).fetchone()[0]
    assert isinstance(raw, bytes) and len(raw) == 16
    c.close()


def test_key_includes_size_mtime_and_inode(tmp_path):
    c = FingerprintCache(str(tmp_path / "c.sqlite"))
    r = FileRecord("/x/a", 10, 5, 7, 1, "/x", "utf-8", 42, 3, "t", "c")
    c.store("v1", [r])
    assert c.lookup("v1", [("/x/a", 10, 5, 7, 1, "/x")])
    for key in [("/x/a", 11, 5, 7, 1, "/x"), ("/x/a", 10, 6, 7, 1, "/x"),
                ("/x/a", 10, 5, 8, 1, "/x")]:
        assert c.lookup("v1", [key]) == {}
    assert c.lookup("v2", [("/x/a", 10, 5, 7, 1, "/x")]) == {}
    c.store_problems("v1", [(Problem("/x/b", "binary content", "binary"), 3, 4, 5),
                            (Problem("/x/c", "vanished", "vanished"), 3, 4, 6)])
    entries = c.lookup_entries("v1", [("/x/b", 3, 4, 5, 1, "/x"), ("/x/c", 3, 4, 6, 1, "/x")])
    assert list(entries) == ["/x/b"]  # only problems of the content are remembered
    c.close()


def test_look_up_of_a_few_keys_in_a_big_table_and_of_most_of_it_agree(tmp_path):
    # a few keys are looked up by batches of paths, most of the table in one pass over it;
    # both return exactly the asked rows that are still valid, nothing else
    c = FingerprintCache(str(tmp_path / "c.sqlite"))
    recs = [FileRecord(f"/x/{i}", 10 + i, 5, i, 1, "/x", "utf-8", i, 3, "t", "c")
            for i in range(3000)]
    c.store("v1", recs)
    c.store("v2", recs[:5])
    c.store_problems("v1", [(Problem("/x/p", "binary content", "binary"), 3, 4, 5)])
    few = [(r.path, r.size, 5, r.inode, 1, "/x") for r in recs[:4]]
    few.append(("/x/9", 10, 5, 9, 1, "/x"))  # another size than stored: stale
    few.append(("/x/p", 3, 4, 5, 1, "/x"))
    most = [(r.path, r.size, 5, r.inode, 1, "/x") for r in recs[100:]]
    for keys, want in ((few, recs[:4]), (most, recs[100:])):
        got = c.lookup_entries("v1", keys)
        assert {p: e for p, e in got.items() if isinstance(e, FileRecord)} == \
            {r.path: r for r in want}
        assert [p for p, e in got.items() if isinstance(e, Problem)] == (
            ["/x/p"] if keys is few else [])
    c.close()


def test_a_first_scans_look_up_makes_no_keys(tmp_path, monkeypatch):
    """Nothing remembered yet: the look-up returns at once, without a key per candidate (a
    Python loop over every file, on the app's worker thread); once a file is stored it is
    looked up as before."""
    from simdup_gui.core.scan import cache as cache_mod

    made = []
    key = cache_mod._key
    monkeypatch.setattr(cache_mod, "_key", lambda p: made.append(p) or key(p))
    c = FingerprintCache(str(tmp_path / "c.sqlite"))
    keys = [(f"/x/{i}", 10, 5, i, 1, "/x") for i in range(100)]
    assert c.lookup_entries("v1", keys) == {} and not made
    r = FileRecord("/x/3", 10, 5, 3, 1, "/x", "utf-8", 42, 3, "t", "c")
    c.store("v1", [r])
    assert c.lookup_entries("v1", keys) == {"/x/3": r}
    c.close()
