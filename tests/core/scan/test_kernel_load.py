"""Kernels loaded from numba's cache without the target context's full refresh
(``_kernels.lean_loads``, the fork server's warm-up): they give the numpy path's results, a
kernel missing from the cache still compiles inside the block, and kernels loaded or
compiled after it work as before. Each case runs in a fresh interpreter: this one's numba
context was refreshed long ago by other tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from simdup_gui.core.scan import kernels

pytestmark = pytest.mark.skipif(not kernels.available(), reason="numba is not installed")

_CHILD = textwrap.dedent("""
    import json, os, sys
    import numpy as np
    from simdup_gui.core.scan import _kernels, features, kernels
    from simdup_gui.core.scan.fingerprint import FeatureSettings, fingerprint_file
    from simdup_gui.core.textsim import gram_hashes, jaccard, shingle_set

    kernels.enable(True)
    with _kernels.lean_loads() as lean:
        pass  # whether this numba version takes the lean load
    from numba.core.runtime import nrtdynmod
    nrt_built = []  # NRT's module compiled (finalized), not loaded from the file
    _create = nrtdynmod.create_nrt_module

    def counted(ctx):
        ir_mod, library = _create(ctx)
        finalize = library.finalize
        library.finalize = lambda: nrt_built.append(1) or finalize()
        return ir_mod, library
    nrtdynmod.create_nrt_module = counted
    kernels.warm()
    full_refresh = "numba.np.linalg" in sys.modules  # a lowering module only a refresh imports
    from numba.core.registry import CPUDispatcher
    k = kernels.impl()
    def loaded():
        return {n: len(getattr(k, n).signatures) for n in dir(k)
                if isinstance(getattr(k, n), CPUDispatcher)}
    after_warm = loaded()
    paths, root = sys.argv[1:-1], sys.argv[-1]
    active = kernels.active()
    got = [repr(fingerprint_file(p, root, FeatureSettings())) for p in paths]
    texts = [open(p, "rb").read().decode("utf-8") for p in paths[:2]]
    # what a scan's workers may call besides: the large-file paths (an in-place sort for
    # the sketch, sorted sets) and the measuring of doubtful pairs, all loaded by warm()
    from simdup_gui.core.textsim import jaccard_distinct
    k = kernels.impl()
    j_sets = [jaccard_distinct(*(features.distinct_shingles(t) for t in texts))]
    k.SKETCH_HASHED_MAX = 8
    got_large = [repr(fingerprint_file(p, root, FeatureSettings())) for p in paths]
    j_sets.append(jaccard_distinct(*(features.distinct_shingles(t) for t in texts)))
    k.SKETCH_HASHED_MAX = 1 << 17
    refresh_in_work = "numba.np.linalg" in sys.modules
    more = {n: c for n, c in loaded().items() if c != after_warm[n]}  # specialisations
    j_compiled = jaccard(features.shingle_set(texts[0]), features.shingle_set(texts[1]))
    # a specialisation warm() did not load (a strided array): numba's own load or compile
    points = np.frombuffer(texts[0].encode("utf-32-le"), dtype="<u4")
    strided = kernels.impl().gram_hashes(points[::2]).tolist()
    want_strided = gram_hashes("".join(texts[0][::2])).tolist()
    fresh_ok = None
    if os.environ.get("SIMDUP_TEST_FRESH_KERNEL") == "1":  # (a compile: only when asked)
        # a kernel compiled now, new to numba's cache (it links NRT, loaded or built):
        # arrays, an exception
        from numba import njit

        @njit
        def fresh(n):
            a = np.arange(n)
            if n > 100:
                raise ValueError("too big")
            return int(a.sum())
        try:
            fresh(101)
            fresh_raised = False
        except ValueError as e:
            fresh_raised = str(e) == "too big"
        fresh_ok = [fresh(5) == 10, fresh_raised]
    kernels.enable(False)
    features._LOCAL.__dict__.clear()
    want = [repr(fingerprint_file(p, root, FeatureSettings())) for p in paths]
    j_numpy = jaccard(shingle_set(texts[0]), shingle_set(texts[1]))
    print(json.dumps({"lean": lean, "full_refresh": full_refresh, "same": got == want,
                      "active": active, "j": [j_compiled, j_numpy],
                      "strided_same": strided == want_strided, "large_same": got_large == got,
                      "j_sets": j_sets, "refresh_in_work": refresh_in_work, "more": more,
                      "warmed": after_warm, "nrt_built": len(nrt_built), "fresh": fresh_ok}))
""")


def _files(tmp_path) -> list[str]:
    from tests.conftest import EN, ZH

    out = []
    for name, text in [("zh.txt", ZH * 3), ("zh2.txt", ZH * 2 + "改了一句话。" + ZH),
                       ("en.txt", EN * 4), ("mix.txt", (ZH + EN) * 5),
                       ("fold.txt", "ＡＢＣ Straße ﬁ ① " + ZH * 2)]:  # NFKC, casefold by table
        p = tmp_path / name
        p.write_bytes(text.encode("utf-8"))
        out.append(str(p))
    return out


def _child(tmp_path, env_extra: dict[str, str]) -> subprocess.CompletedProcess:
    env = dict(os.environ, **env_extra)
    env.pop("SIMDUP_COMPILED", None)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    env["PYTHONPATH"] = os.pathsep.join([root, env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-c", _CHILD, *_files(tmp_path), str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=600)


def _run(tmp_path, env_extra: dict[str, str]) -> dict:
    out = _child(tmp_path, env_extra)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_lean_loads_give_the_numpy_paths_records(tmp_path):
    _run(tmp_path, {})  # the kernels in numba's cache (compiled now if they were not)
    res = _run(tmp_path, {})
    assert res["active"]
    assert res["same"] and res["strided_same"]
    assert res["j"][0] == res["j"][1] and 0.5 < res["j"][0] < 1.0
    assert res["large_same"] and res["j_sets"] == [res["j"][1]] * 2
    # what a worker calls is what the fork server loaded, none loaded or compiled in the
    # worker
    assert res["more"] == {}
    assert {n: res["warmed"][n] for n in ("cut_ids", "new_tokens")} \
        == {"cut_ids": 1, "new_tokens": 1}  # the cut's large kernels: read-only code points
    if res["lean"]:  # the checked numba versions: the refresh's imports were skipped, and
        assert not res["full_refresh"]  # nothing a worker calls loads a kernel without them
        assert not res["refresh_in_work"]


def test_kernels_missing_from_the_cache_compile_inside_the_lean_block(tmp_path):
    """An empty numba cache: every kernel compiles while the lean load is in place (the
    compiler refreshes the context itself), and all of them give the numpy path's results."""
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    res = _run(tmp_path, {"NUMBA_CACHE_DIR": str(cache)})
    assert res["active"]
    assert res["same"] and res["strided_same"]
    assert res["j"][0] == res["j"][1]
    assert any(cache.rglob("*.nbi")), "the kernels were not compiled into the given cache"


def test_lean_loads_patch_only_inside_the_block_and_only_on_checked_versions(monkeypatch):
    from numba.core.caching import Cache

    from simdup_gui.core.scan import _kernels

    original = Cache.__dict__["load_overload"]
    monkeypatch.setattr(_kernels, "_numba_version", lambda: _kernels.LEAN_LOAD_NUMBA[1])
    with _kernels.lean_loads() as lean:
        assert lean and Cache.__dict__["load_overload"] is not original
    assert Cache.__dict__["load_overload"] is original
    with pytest.raises(RuntimeError), _kernels.lean_loads():
        raise RuntimeError("a failure inside the block")
    assert Cache.__dict__["load_overload"] is original  # restored on the way out too
    for version in [(0, 59), (0, 69), (1, 0), (0, 0)]:  # unchecked: numba's own load
        monkeypatch.setattr(_kernels, "_numba_version", lambda v=version: v)
        with _kernels.lean_loads() as lean:
            assert lean is False and Cache.__dict__["load_overload"] is original


@pytest.mark.parametrize("before", ["enabled", "disabled"])
def test_the_warm_up_collects_nothing_and_leaves_collection_as_it_found_it(before):
    """The fork server's warm-up (importing .warm) runs with the cyclic collector off: not
    one collection of any generation meanwhile; then everything loaded is frozen and the
    collector is on again for what the workers make, unless it was off before."""
    code = textwrap.dedent(f"""
        import gc, sys
        {'gc.disable()' if before == 'disabled' else ''}
        during = []  # collections started while the module's body ran (its frame on the stack)

        def watch(phase, info):
            f = sys._getframe(1)
            while f is not None and not (f.f_code.co_name == "<module>"
                                         and f.f_code.co_filename.endswith("warm.py")):
                f = f.f_back
            if phase == "start" and f is not None:
                during.append(info["generation"])
        gc.callbacks.append(watch)
        import simdup_gui.core.scan.warm
        gc.callbacks.remove(watch)
        print(during == [], gc.isenabled(), gc.get_freeze_count() > 10000)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "SIMDUP_COMPILED": "1"}).stdout.split()
    assert out == ["True", str(before == "enabled"), "True"]


def test_a_warm_up_whose_import_fails_turns_collection_back_on():
    """An engine module that fails to import during the warm-up (a broken install): the
    import error goes up as it would, and the collector, turned off for the warm-up, is on
    again for whatever the process does next."""
    code = textwrap.dedent("""
        import gc, importlib.abc, sys

        class Broken(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "simdup_gui.core.scan.jiebadict":
                    raise ImportError("broken on purpose")
                return None
        sys.meta_path.insert(0, Broken())
        try:
            import simdup_gui.core.scan.warm
        except ImportError as e:
            print("ImportError", gc.isenabled())
        else:
            print("imported", gc.isenabled())
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "SIMDUP_COMPILED": "1"}).stdout.split()
    assert out == ["ImportError", "True"]


@pytest.mark.parametrize("config_file", [False, True])
def test_numba_imports_pyyaml_only_to_read_a_config_file_that_is_there(tmp_path, config_file):
    """The kernels' import hides PyYAML from numba's config (11-15 ms of the fork server's
    warm-up) unless a ``.numba_config.yaml`` is in the current folder, which numba then reads
    as always; either way PyYAML imports normally afterwards."""
    pytest.importorskip("yaml")
    if config_file:
        (tmp_path / ".numba_config.yaml").write_text("{}\n", encoding="utf-8")
    code = textwrap.dedent("""
        import sys
        from simdup_gui.core.scan import _kernels
        from numba.core import config
        before = "yaml" in sys.modules
        import yaml
        print(config._HAVE_YAML, before, yaml.safe_load("a: 1") == {"a": 1})
    """)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tmp_path, env=env).stdout.split()
    assert out == [str(config_file), str(config_file), "True"]


@pytest.mark.parametrize("compiled", ["1", "0"])
def test_the_warm_ups_table_thread_imports_nothing_and_is_done_before_the_kernels(compiled):
    """The fork server loads the tables on a thread while it imports numba (warm.py). Two
    threads importing at once can make Python's import locks raise a deadlock error in one
    of them, so everything the thread needs is imported before it starts: it imports no
    module itself. warm() waits for it; the tables are loaded once; with the kernels off
    numba is not imported at all."""
    code = textwrap.dedent("""
        import builtins, importlib.util, sys, threading
        real = builtins.__import__
        by_thread = []

        def spy(name, globals=None, locals=None, fromlist=(), level=0):
            if threading.current_thread() is not threading.main_thread():
                full = importlib.util.resolve_name("." * level + name,
                                                   (globals or {}).get("__package__"))
                for key in [full] + [f"{full}.{x}" for x in fromlist or () if x != "*"]:
                    if key not in sys.modules and (key == full or not hasattr(
                            sys.modules.get(full), key.rsplit(".", 1)[1])):
                        by_thread.append(key)
            return real(name, globals, locals, fromlist, level)

        builtins.__import__ = spy
        from simdup_gui.core.scan import warm, jiebadict, features
        builtins.__import__ = real
        print(not warm._tables.is_alive(), jiebadict.tables.cache_info().misses,
              features._idf_hashed.cache_info().misses, "numba" in sys.modules,
              by_thread == [] or by_thread)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "SIMDUP_COMPILED": compiled}).stdout
    assert out.split() == ["True", "1", "1", str(compiled == "1"), "True"], out


def test_nrt_comes_from_its_file_after_the_first_load_and_a_bad_file_is_built_again(tmp_path):
    """NRT's module (_numba_loads.nrt_from_file): built and written beside the kernels'
    cache the first time, loaded from that file the next (same records as the numpy path);
    a corrupt file is not loaded, NRT is built as numba does and the file written again."""
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = {"NUMBA_CACHE_DIR": str(cache), "SIMDUP_TEST_FRESH_KERNEL": "1"}
    first = _run(tmp_path, env)  # compiles every kernel into the empty cache
    if not first["lean"]:
        pytest.skip("not a numba version the lean loads were checked on")
    files = list(cache.rglob("nrt-*.bin"))
    assert first["nrt_built"] == 1 and len(files) == 1
    umask = os.umask(0)
    os.umask(umask)
    assert files[0].stat().st_mode & 0o777 == 0o666 & ~umask  # as numba's own cache files
    assert not list(cache.rglob(".nrt-*"))  # no temporary file left
    good = files[0].read_bytes()
    second = _run(tmp_path, env)
    assert second["nrt_built"] == 0  # loaded, not built
    assert second["same"] and second["large_same"] and second["j"][0] == second["j"][1]
    assert second["more"] == {}
    assert first["fresh"] == second["fresh"] == [True, True]  # a new kernel links it
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0xFF
    files[0].write_bytes(bytes(bad))
    third = _run(tmp_path, env)
    assert third["nrt_built"] == 1 and third["same"]
    assert files[0].read_bytes() == good  # written again, whole
    files[0].write_bytes(b"")  # empty: built again too
    assert _run(tmp_path, env)["nrt_built"] == 1 and files[0].read_bytes() == good
    marker = files[0].with_name(files[0].name + ".loading")
    marker.write_bytes(b"")  # a load that never ended: the file is not trusted again
    res = _run(tmp_path, env)
    assert res["nrt_built"] == 1 and res["same"] and not marker.exists()
    assert files[0].read_bytes() == good
    assert _run(tmp_path, env)["nrt_built"] == 0


def test_an_nrt_file_llvm_cannot_read_aborts_one_start_not_every_one(tmp_path):
    """A file with a valid checksum and key but object code LLVM cannot read (only a file
    made on purpose can be one): LLVM aborts that process; its marker makes the next
    start build NRT, whose records are right, and write the file again."""
    import struct

    from simdup_gui.core.scan._numba_loads import MAGIC, pack

    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = {"NUMBA_CACHE_DIR": str(cache)}
    if not _run(tmp_path, env)["lean"]:
        pytest.skip("not a numba version the lean loads were checked on")
    (path,) = cache.rglob("nrt-*.bin")
    good = path.read_bytes()
    parts, at = [], len(MAGIC)
    for _ in range(4):  # key, name, object code, bitcode
        (n,) = struct.unpack_from("<I", good, at)
        parts.append(good[at + 4:at + 4 + n])
        at += 4 + n
    key, _, _, bitcode = parts
    path.write_bytes(pack(key, "nrt", b"not an object file " * 50, bitcode))
    crash = _child(tmp_path, env)
    assert crash.returncode != 0  # LLVM aborted it (a valid file would have loaded)
    after = _run(tmp_path, env)
    assert after["nrt_built"] == 1 and after["same"], crash.stderr[-2000:]
    assert path.read_bytes() == good
    assert not list(cache.rglob("*.loading"))


def test_an_nrt_file_is_read_only_when_it_is_whole_and_for_this_key():
    from simdup_gui.core.scan._numba_loads import MAGIC, pack, unpack

    data = pack(b"key", "nrt", b"object code", b"bitcode")
    assert unpack(data, b"key") == ("nrt", b"object code", b"bitcode")
    assert unpack(data, b"another key") is None  # another numba, LLVM, Python or CPU
    assert unpack(pack(b"key", "other", b"o", b"b"), b"key") is None
    assert unpack(pack(b"key", "nrt", b"", b"b"), b"key") is None
    for cut in (0, 5, len(MAGIC), len(data) // 2, len(data) - 1):
        assert unpack(data[:cut], b"key") is None
    for i in range(0, len(data), 7):  # any byte changed
        changed = bytearray(data)
        changed[i] ^= 0x01
        assert unpack(bytes(changed), b"key") is None
    assert unpack(data + b"x", b"key") is None
    assert unpack(b"\x00" * 200, b"key") is None


def test_numbas_llvm_lock_callbacks_are_off_inside_the_lean_block_only():
    from llvmlite import binding as ll
    from llvmlite.binding import ffi

    from simdup_gui.core.scan import _kernels

    calls = []
    enter, leave = (lambda: calls.append("in")), (lambda: calls.append("out"))
    ffi.register_lock_callback(enter, leave)
    try:
        before = list(ffi.lib._lock._cblist)
        with _kernels.lean_loads() as lean:
            ll.get_process_triple()  # a call into LLVM, under its lock
            inside = list(calls)
        ll.get_process_triple()
        assert ffi.lib._lock._cblist == before
    finally:
        ffi.unregister_lock_callback(enter, leave)
    if lean:
        assert inside == []
    assert calls[-2:] == ["in", "out"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_an_nrt_file_that_is_not_a_regular_file_is_not_read_or_waited_on(tmp_path):
    from simdup_gui.core.scan._numba_loads import _read

    fifo = tmp_path / "nrt-fifo.bin"
    os.mkfifo(fifo)  # opened with blocking, a read would wait for a writer forever
    assert _read(str(fifo)) is None
    assert _read(str(tmp_path)) is None  # a folder
    assert _read(str(tmp_path / "missing.bin")) is None
    (tmp_path / "ok.bin").write_bytes(b"x" * 10)
    assert _read(str(tmp_path / "ok.bin")) == b"x" * 10
