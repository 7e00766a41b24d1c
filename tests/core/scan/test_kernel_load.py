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
    import json, sys
    import numpy as np
    from simdup_gui.core.scan import _kernels, features, kernels
    from simdup_gui.core.scan.fingerprint import FeatureSettings, fingerprint_file
    from simdup_gui.core.textsim import gram_hashes, jaccard, shingle_set

    kernels.enable(True)
    with _kernels.lean_loads() as lean:
        pass  # whether this numba version takes the lean load
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
    kernels.enable(False)
    features._LOCAL.__dict__.clear()
    want = [repr(fingerprint_file(p, root, FeatureSettings())) for p in paths]
    j_numpy = jaccard(shingle_set(texts[0]), shingle_set(texts[1]))
    print(json.dumps({"lean": lean, "full_refresh": full_refresh, "same": got == want,
                      "active": active, "j": [j_compiled, j_numpy],
                      "strided_same": strided == want_strided, "large_same": got_large == got,
                      "j_sets": j_sets, "refresh_in_work": refresh_in_work, "more": more,
                      "warmed": after_warm}))
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


def _run(tmp_path, env_extra: dict[str, str]) -> dict:
    env = dict(os.environ, **env_extra)
    env.pop("SIMDUP_COMPILED", None)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    env["PYTHONPATH"] = os.pathsep.join([root, env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", _CHILD, *_files(tmp_path), str(tmp_path)],
                         capture_output=True, text=True, env=env, timeout=600)
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
