"""The kernels' image (``_image``): saved by a warm-up through numba, loaded by the next one
without numba's import; the same records as numba's kernels and the numpy path; calls of
other argument types go to numba; a bad, foreign or retired image is never used."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from simdup_gui.core.scan import _image, kernels

pytestmark = pytest.mark.skipif(not kernels.available(), reason="numba is not installed")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))

_SAVE = textwrap.dedent("""
    from simdup_gui.core.scan import kernels
    kernels.enable(True)
    kernels.warm()
""")

_USE = textwrap.dedent("""
    import json, sys
    import numpy as np
    import simdup_gui.core.scan.warm  # a fork server's warm-up
    from simdup_gui.core.scan import features, kernels
    from simdup_gui.core.scan.fingerprint import FeatureSettings, fingerprint_file
    from simdup_gui.core.textsim import gram_hashes, jaccard_distinct, shingle_set

    image = type(kernels.impl()).__name__
    paths, root = sys.argv[1:-1], sys.argv[-1]
    got = [repr(fingerprint_file(p, root, FeatureSettings())) for p in paths]
    texts = [open(p, "rb").read().decode("utf-8") for p in paths[:2]]
    j = jaccard_distinct(*(features.distinct_shingles(t) for t in texts))
    k = kernels.impl()
    k.SKETCH_HASHED_MAX = 8  # the large-file paths: sorted sets, the sketch sorted in place
    got_large = [repr(fingerprint_file(p, root, FeatureSettings())) for p in paths]
    j_large = jaccard_distinct(*(features.distinct_shingles(t) for t in texts))
    k.SKETCH_HASHED_MAX = 1 << 17
    numba_after_scan = "numba" in sys.modules
    # a type the image has no code for (a strided array): numba's dispatcher, imported now
    points = np.frombuffer(texts[0].encode("utf-32-le"), dtype="<u4")
    strided = k.gram_hashes(points[::2]).tolist() == gram_hashes("".join(texts[0][::2])).tolist()
    numba_after_strided = "numba" in sys.modules
    kernels.enable(False)
    features._LOCAL.__dict__.clear()
    want = [repr(fingerprint_file(p, root, FeatureSettings())) for p in paths]
    print(json.dumps({"image": image, "same": got == want, "large_same": got_large == want,
                      "j": [j, j_large], "numba_after_scan": numba_after_scan,
                      "strided": strided, "numba_after_strided": numba_after_strided}))
""")


def _files(folder) -> list[str]:
    from tests.conftest import EN, ZH

    out = []
    for name, text in [("zh.txt", ZH * 3), ("zh2.txt", ZH * 2 + "改了一句话。" + ZH),
                       ("en.txt", EN * 4), ("mix.txt", (ZH + EN) * 5),
                       ("fold.txt", "ＡＢＣ Straße ﬁ ① " + ZH * 2)]:
        p = os.path.join(folder, name)
        with open(p, "wb") as fh:
            fh.write(text.encode("utf-8"))
        out.append(p)
    return out


def _child(code: str, args: list[str], cache: str, **env_extra) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=cache, **env_extra)
    env.pop("SIMDUP_COMPILED", None)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return out


def _use(folder, cache: str, **env_extra) -> dict:
    out = _child(_USE, [*_files(str(folder)), str(folder)], cache, **env_extra)
    return json.loads(out.stdout.splitlines()[-1])


def _images(cache: str) -> list[str]:
    return glob.glob(os.path.join(cache, "simdup", f"{_image.KIND}-v*.bin"))


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> str:
    """A cache folder holding an image, saved by a fresh process's warm-up."""
    cache = str(tmp_path_factory.mktemp("image-cache"))
    _child(_SAVE, [], cache)
    assert len(_images(cache)) == 1
    return cache


@pytest.fixture
def cache(saved, tmp_path) -> str:
    """This test's own copy of the saved cache folder, made the user's (XDG_CACHE_HOME)."""
    mine = str(tmp_path / "cache")
    shutil.copytree(saved, mine)
    os.environ["XDG_CACHE_HOME"] = mine  # (conftest's monkeypatch restores it)
    return mine


def test_a_warm_up_loads_the_image_without_numba_and_gives_the_same_records(cache, tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    res = _use(folder, cache)
    assert res["image"] == "Image"
    assert res["same"] and res["large_same"]  # the numpy path's records, bit for bit
    assert res["j"][0] == res["j"][1] and 0.5 < res["j"][0] < 1.0
    assert not res["numba_after_scan"]  # nothing the scan calls left the image
    assert res["strided"] and res["numba_after_strided"]


def test_without_an_image_the_warm_up_goes_through_numba_and_saves_one(tmp_path):
    cache = str(tmp_path / "empty")
    folder = tmp_path / "files"
    folder.mkdir()
    res = _use(folder, cache)
    assert res["image"] == "module" and res["same"] and res["numba_after_scan"]
    assert len(_images(cache)) == 1
    res = _use(folder, cache)
    assert res["image"] == "Image" and res["same"] and not res["numba_after_scan"]


def test_switched_off_no_image_is_used(cache, tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    assert _use(folder, cache, SIMDUP_KERNEL_IMAGE="0")["image"] == "module"


def _path(cache: str) -> str:
    (p,) = _images(cache)
    return p


@pytest.mark.parametrize("damage", ["flip", "cut", "empty", "append", "other_key", "directory"])
def test_a_bad_image_is_not_used(cache, damage):
    path = _path(cache)
    with open(path, "rb") as fh:
        data = fh.read()
    if damage == "directory":
        os.remove(path)
        os.mkdir(path)
    else:
        if damage == "flip":
            i = len(data) // 2
            data = data[:i] + bytes([data[i] ^ 1]) + data[i + 1:]
        elif damage == "cut":
            data = data[:len(data) // 3]
        elif damage == "empty":
            data = b""
        elif damage == "append":
            data += b"\0"
        elif damage == "other_key":  # a whole, well-formed image made for something else
            header, blobs = _image.unpack(data, _key())
            data = _image.pack(_key() + "another numba", {k: v for k, v in header.items()
                                                          if k not in ("key", "sizes")}, blobs)
        with open(path, "wb") as fh:
            fh.write(data)
    assert _image.load() is None


def _key() -> str:
    from llvmlite import binding as ll

    return _image.key_text(ll)


def test_an_image_is_made_for_this_source_and_settings(cache, monkeypatch):
    key = _key()
    monkeypatch.setenv("NUMBA_OPT", "1")
    assert _key() != key
    monkeypatch.delenv("NUMBA_OPT")
    assert _key() == key
    assert _image.image_path(key) == _path(cache)


def _marker(path: str, age: float) -> str:
    marker = f"{path}.loading-12345-abcd"
    open(marker, "w").close()
    t = time.time() - age
    os.utime(marker, (t, t))
    return marker


def test_a_load_that_never_ended_retires_the_image(cache):
    path = _path(cache)
    marker = _marker(path, 60)  # nobody holds its lock: its process is gone
    assert _image.load() is None
    assert not os.path.exists(path) and os.path.exists(path + ".bad")
    assert not os.path.exists(marker)
    # and it is not saved again for this key, for a day
    from simdup_gui.core.scan import _kernels

    assert _image.save(_kernels) is None and not os.path.exists(path)
    t = time.time() - _image.RETIRED_FOR - 60  # a day later: tried again (saved anew)
    os.utime(path + ".bad", (t, t))
    assert _image.load() is None and not os.path.exists(path + ".bad")


def test_a_load_under_way_elsewhere_is_not_taken_for_a_crash(cache):
    import fcntl

    path = _path(cache)
    young = _marker(path + "x", 0)  # (another image's)
    os.remove(young)
    held = _marker(path, 60)
    with open(held) as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)  # a load under way (its lock held)
        assert _image.load() is not None
    assert os.path.exists(path) and not os.path.exists(path + ".bad")
    os.remove(held)
    _marker(path, 0)  # a marker just made, its lock not taken yet: left alone
    assert _image.load() is not None and not os.path.exists(path + ".bad")


def test_an_image_that_does_not_give_numbas_results_is_retired(cache):
    path = _path(cache)
    with open(path, "rb") as fh:
        header, blobs = _image.unpack(fh.read(), _key())
    header["probe"][0][0] += 1  # what numba's kernels "gave": not what this code gives
    with open(path, "wb") as fh:
        fh.write(_image.pack(_key(), {k: v for k, v in header.items()
                                      if k not in ("key", "sizes")}, blobs))
    assert _image.load() is None
    assert os.path.exists(path + ".bad") and not os.path.exists(path)


def test_the_guard_sends_other_types_to_numba(cache, monkeypatch):
    image = _image.load()
    assert image is not None
    sent = []

    class Spy:
        def __getattr__(self, name):
            from simdup_gui.core.scan import _kernels

            def call(*args):
                sent.append(name)
                return getattr(_kernels, name)(*args)
            return call
    monkeypatch.setattr(_image, "_kernels_module", lambda: Spy())
    from simdup_gui.core.textsim import gram_hashes

    text = "同一篇文章就有了好几个副本 the same report exists in five places"
    want = gram_hashes(text).tolist()
    points = np.frombuffer(text.encode("utf-32-le"), dtype="<u4")  # read-only
    assert image.gram_hashes(points).tolist() == want and sent == []
    writable = points.copy()
    assert image.gram_hashes(writable).tolist() == want and sent == []
    strided = np.repeat(points, 2)[::2]  # same values, not contiguous
    assert image.gram_hashes(np.ascontiguousarray(strided)).tolist() == want and sent == []
    assert image.gram_hashes(strided).tolist() == want and sent == ["gram_hashes"]
    assert image.gram_hashes(points).tolist() == want and sent == ["gram_hashes"]
    wide = points.astype(np.uint64)  # another dtype: numba's (it compiles or refuses)
    try:
        image.gram_hashes(wide)
    except Exception:  # noqa: BLE001 - numba's own answer to the type
        pass
    assert sent == ["gram_hashes", "gram_hashes"]
    reshaped = points.copy()
    assert image.gram_hashes(reshaped).tolist() == want and len(sent) == 2
    reshaped.shape = (1, len(points))  # set in place: typed again, numba's (not a 1-D call)
    try:
        image.gram_hashes(reshaped)
    except Exception:  # noqa: BLE001 - numba's own answer to the type
        pass
    assert sent == ["gram_hashes"] * 3
    sent.clear()
    assert image.sketch_hashes(image.gram_hashes(points), 4)[1] == len(set(want))
    assert image.sketch_hashes(image.gram_hashes(points), np.int64(4))[1] == len(set(want))
    assert sent == []  # a numpy int64 is numba's int64 too


def test_the_guard_holds_between_threads(cache):
    """Two threads call one kernel with arrays of two layouts at once: each call gets its
    own type's code (no state of the guard is shared between calls)."""
    image = _image.load()
    assert image is not None
    from simdup_gui.core.textsim import gram_hashes

    texts = ["同一篇文章就有了好几个副本" * 3, "the same report exists in five places " * 2]
    points = [np.frombuffer(t.encode("utf-32-le"), dtype="<u4") for t in texts]
    strided = [np.repeat(p, 2)[::2] for p in points]
    want = [gram_hashes(t).tolist() for t in texts]
    bad = []

    def run(i):
        for n in range(300):
            a = points[i] if n % 2 else strided[i]
            if image.gram_hashes(a).tolist() != want[i]:
                bad.append((i, n))
    threads = [threading.Thread(target=run, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []


def test_arg_key_is_numbas_typeof():
    from numba import typeof

    cases = [np.zeros(3, dtype=np.uint32), np.zeros((2, 3), dtype=np.int64),
             np.zeros((3, 2), order="F"), np.zeros(6, dtype=np.int32)[::2],
             np.frombuffer(b"abcd", dtype=np.uint8), np.zeros(2, dtype=np.bool_),
             5, -(1 << 63), 1.5, True, np.int64(3), np.float64(2.0), np.bool_(False),
             np.int32(7)]
    for a in cases:
        assert _image.arg_key(a) == _image.type_key(typeof(a)), a
    assert _image.arg_key(1 << 63) == "uint64" == _image.type_key(typeof(1 << 63))
    assert _image.arg_key(None) is None and _image.arg_key("x") is None
