"""The compiled kernels' machine code kept in one file, loaded without importing numba.

numba's import is 0.12-0.19 s of CPU, most of the fork server's warm-up, and the scan's
workers are forked only once the server is warm: it is on the path to the first
fingerprint of every scan. Yet what the workers run is machine code numba made once and
keeps in its cache. So once numba has loaded (or compiled) the kernels (``_kernels.warm``
in a fork server), :func:`save` writes that code to an image in the user's cache folder:
each kernel's object code (the function and the CPython wrapper numba compiles beside it),
the names of the wrapper and of its environment, and the environment's constants (numpy
dtypes). :func:`load` in the next fork server links them with llvmlite alone (the library
numba itself runs on, 40-60 ms to import) next to numba's own C helpers (its extension
modules, loaded by path without the package), about 10 ms for the objects: the
functions numba's dispatcher would call, the same machine code.

What numba's dispatcher adds, choosing the compiled specialisation by the arguments'
types, is done here by :class:`Image`'s guards: a call runs an image function only when
every argument's type (dtype, dimensions, layout, read-only, aligned; or int, float, bool)
is the one it was compiled for, as numba's ``typeof`` would give it, on every call; any
other call goes to numba's dispatcher (numba is imported then, and does what it always
did).

The image is untrusted input like any cache file: used only when its checksum holds and it
was written for this very ``_kernels.py`` (its bytes), numba, llvmlite, numpy, Python,
machine (LLVM's triple, CPU name and features) and NUMBA_* settings; a load that never
ended (a process killed inside LLVM) leaves a marker that retires the image for good; and
before use each image proves itself on probes whose results numba's kernels gave when it
was saved. Anything else: numba's path, as without an image. Same results: the tests run
both (tests/core/scan/test_kernel_image.py).
"""

from __future__ import annotations

import glob
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import struct
import sys
import threading
import types

import numpy as np

IMAGE_VERSION = 1
MAGIC = b"simdup-kernel-image-1\n"
_DIGEST = 32
MAX_BYTES = 16 << 20  # the image is about 300 KB
KIND = "kernels"  # its name in the cache folder (jiebadict's kept copies and prune)
_TMP = f"{KIND}-v{IMAGE_VERSION}-write"  # a write's temporary file (the prune removes stale ones)
KERNELS = ("token_ids", "cut_ids", "new_tokens", "rehash", "fingerprint", "gram_hashes",
           "prepare", "fold", "sketch_hashes", "sketch_sorted", "distinct_hashes",
           "intersect_hashed", "intersect_count")
_INT64 = (-(1 << 63), (1 << 63) - 1)


# --- what numba's typeof gives an argument, as a string --------------------------------

# an array's flags numba's type depends on: C- and F-contiguous, aligned, writeable
_C, _F, _ALIGNED, _WRITEABLE = 0x1, 0x2, 0x100, 0x400
_FLAG_BITS = _C | _F | _ALIGNED | _WRITEABLE
_FLAGS = {b: f"{'C' if b & _C else 'F' if b & _F else 'A'}/{int(not b & _WRITEABLE)}/"
             f"{int(bool(b & _ALIGNED))}" for b in range(_FLAG_BITS + 1) if not b & ~_FLAG_BITS}


def arg_key(a) -> str | None:
    """The type numba's dispatcher would give ``a`` (numba.typeof), as :func:`type_key`
    writes it; None for one the image has no code for."""
    t = type(a)
    if t is np.ndarray:  # dtype, dimensions, layout (C before F, as numba), read-only, aligned
        return f"{a.dtype.str}/{a.ndim}/{_FLAGS[a.flags.num & _FLAG_BITS]}"
    if t is bool:
        return "bool"
    if t is int:
        return "int64" if _INT64[0] <= a <= _INT64[1] else "uint64" if 0 <= a < 1 << 64 else None
    if t is float:
        return "float64"
    if isinstance(a, np.bool_):
        return "bool"
    if isinstance(a, (np.integer, np.floating)) and a.dtype.isnative:
        return str(a.dtype)
    return None


def type_key(t) -> str | None:
    """:func:`arg_key`'s string for the numba type ``t`` of a compiled signature; None for
    a type the image does not keep (its overload is left to numba)."""
    from numba.core import types as nt
    from numba.np.numpy_support import as_dtype

    if type(t) is nt.Array:  # (not a subclass: records, char arrays)
        try:
            dt = as_dtype(t.dtype)
        except Exception:  # noqa: BLE001 - a dtype numpy has no plain form of
            return None
        return f"{dt.str}/{t.ndim}/{t.layout}/{int(not t.mutable)}/{int(t.aligned)}"
    if isinstance(t, nt.Boolean):
        return "bool"
    if isinstance(t, (nt.Integer, nt.Float)):
        return str(t)
    return None


# --- the file ---------------------------------------------------------------------------

def _stamp(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return f"{path}:-"
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def _package_dir(name: str) -> str | None:
    spec = importlib.util.find_spec(name)
    locs = getattr(spec, "submodule_search_locations", None) if spec else None
    return list(locs)[0] if locs else None


def _ext_path(base: str, rel: str) -> str | None:
    found = sorted(glob.glob(os.path.join(base, rel + ".*.so"))
                   + glob.glob(os.path.join(base, rel + ".*.pyd")))
    return found[0] if found else None


def key_text(ll) -> str | None:
    """What the image was made for (IMAGE_VERSION, the bytes of _kernels.py, the installed
    numba, llvmlite and numpy files, Python, the machine LLVM sees, the NUMBA_* settings);
    None where a part cannot be read."""
    numba_dir, llvmlite_dir, numpy_dir = (_package_dir(n) for n in ("numba", "llvmlite", "numpy"))
    if not (numba_dir and llvmlite_dir and numpy_dir):
        return None
    source = hashlib.blake2b(digest_size=20)
    try:
        for name in ("_kernels.py", "_image.py"):  # the kernels, and this file's own format
            with open(os.path.join(os.path.dirname(__file__), name), "rb") as fh:
                source.update(fh.read())
        features = ll.get_host_cpu_features().flatten()
    except (OSError, RuntimeError):
        return None
    try:  # numba's settings file in the current folder (numba_without_yaml reads it too)
        with open(".numba_config.yaml", "rb") as fh:
            source.update(b"numba_config" + fh.read())
    except OSError:
        pass
    files = [os.path.join(numba_dir, "__init__.py"), os.path.join(llvmlite_dir, "__init__.py"),
             os.path.join(numpy_dir, "__init__.py")]
    files += [p for p in (_ext_path(numba_dir, r) for r in _EXTENSIONS.values()) if p]
    files += sorted(glob.glob(os.path.join(llvmlite_dir, "binding", "*llvmlite*")))
    settings = sorted((k, v) for k, v in os.environ.items() if k.startswith("NUMBA_"))
    return repr((IMAGE_VERSION, source.hexdigest(), sys.version, sys.implementation.cache_tag,
                 [_stamp(p) for p in files], ll.get_process_triple(), ll.get_host_cpu_name(),
                 features, settings))


def image_path(key: str) -> str | None:
    try:
        import platformdirs

        folder = platformdirs.user_cache_dir("simdup", appauthor=False)
    except (ImportError, OSError):
        return None
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=12).hexdigest()
    return os.path.join(folder, f"{KIND}-v{IMAGE_VERSION}-{digest}.bin")


def pack(key: str, header: dict, blobs: list[bytes]) -> bytes:
    head = json.dumps({"key": key, **header, "sizes": [len(b) for b in blobs]}).encode("utf-8")
    body = MAGIC + struct.pack("<I", len(head)) + head + b"".join(blobs)
    return body + hashlib.blake2b(body, digest_size=_DIGEST).digest()


def unpack(data: bytes, key: str) -> tuple[dict, list[bytes]] | None:
    """(header, blobs) of a file written by :func:`pack` for ``key``; None for anything
    else (another key, a bad checksum, a cut or malformed file)."""
    if len(data) < len(MAGIC) + 4 + _DIGEST or not data.startswith(MAGIC):
        return None
    body, digest = data[:-_DIGEST], data[-_DIGEST:]
    if hashlib.blake2b(body, digest_size=_DIGEST).digest() != digest:
        return None
    (n,) = struct.unpack_from("<I", body, len(MAGIC))
    at = len(MAGIC) + 4
    try:
        header = json.loads(body[at:at + n].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(header, dict) or header.get("key") != key or not _header_ok(header):
        return None
    at += n
    blobs = []
    for size in header["sizes"]:
        blobs.append(body[at:at + size])
        at += size
    if at != len(body):
        return None
    return header, blobs


def _is_str_list(x) -> bool:
    return isinstance(x, list) and all(isinstance(s, str) for s in x)


def _header_ok(h: dict) -> bool:
    sizes, kernels, consts = h.get("sizes"), h.get("kernels"), h.get("constants")
    if not (isinstance(sizes, list) and sizes and all(type(s) is int and s > 0 for s in sizes)):
        return False
    if not (isinstance(consts, dict) and all(type(v) is int for v in consts.values())):
        return False
    if not isinstance(h.get("probe"), list) or not isinstance(kernels, list):
        return False
    for k in kernels:
        if not (isinstance(k, dict) and k.get("name") in KERNELS
                and isinstance(k.get("wrapper"), str) and isinstance(k.get("env"), str)
                and _is_str_list(k.get("args")) and _is_str_list(k.get("consts"))
                and type(k.get("blob")) is int and 1 <= k["blob"] < len(sizes)):
            return False
    return True


# --- saving (in a process that has numba and the kernels loaded) ------------------------

class capture:
    """Meanwhile, the object code numba loads from its cache or compiles is kept on each
    library (numba hands it to LLVM, through its execution engine's object cache hooks,
    and drops it), for :func:`save`. Nothing where numba's engine has not the hooks
    checked."""

    _lock = threading.Lock()

    def __enter__(self):
        self.on = False
        try:
            from numba.core.registry import cpu_target

            ee = cpu_target.target_context.codegen()._engine._ee
        except Exception:  # noqa: BLE001 - another numba: nothing kept, no image
            return self
        get = getattr(ee, "_object_cache_getbuffer", None)
        put = getattr(ee, "_object_cache_notify", None)
        if get is None or put is None:
            return self
        self._lock.acquire()
        self.ee, self.get, self.put = ee, get, put

        def keep(ll_module, buf):
            lib = getattr(ll_module, "_CPUCodeLibrary__library", None)
            if lib is not None and buf:
                try:
                    lib._simdup_object = bytes(buf)
                except (ReferenceError, AttributeError):
                    pass

        def getbuffer(ll_module):
            buf = get(ll_module)
            keep(ll_module, buf)
            return buf

        def notify(ll_module, buf):
            put(ll_module, buf)
            keep(ll_module, buf)

        ee._object_cache_getbuffer, ee._object_cache_notify = getbuffer, notify
        self.on = True
        return self

    def __exit__(self, *exc):
        if self.on:
            self.ee._object_cache_getbuffer, self.ee._object_cache_notify = self.get, self.put
            self._lock.release()
        return False


def save(module) -> str | None:
    """Write the image of the kernels ``module`` (``_kernels``) has loaded, where each one
    :func:`exercise` calls was loaded under :class:`capture`; the path written, or None
    (nothing written: a kernel's code not kept, a type the image does not keep, no cache
    folder, an image of this key retired)."""
    from llvmlite import binding as ll
    from numba.core.registry import CPUDispatcher
    from numba.core.runtime import rtsys

    key = key_text(ll)
    path = image_path(key) if key else None
    if path is None or _retired(path):
        return None
    nrt = _object_of(rtsys.library) if rtsys._init else None
    if not nrt:
        return None
    blobs, entries = [nrt], []
    for name in KERNELS:
        d = getattr(module, name, None)
        if not isinstance(d, CPUDispatcher):
            continue
        for sig, cres in list(d.overloads.items()):
            if getattr(cres.library, "has_dynamic_globals", False):
                continue  # addresses of this process in the code: numba does not cache it
            obj = _object_of(cres.library)
            args = [type_key(t) for t in sig]
            consts = list(getattr(cres.environment, "consts", []))
            if not obj or None in args or not all(isinstance(c, np.dtype) for c in consts):
                continue
            blobs.append(obj)
            entries.append({"name": name, "args": args, "blob": len(blobs) - 1,
                            "wrapper": cres.fndesc.llvm_cpython_wrapper_name,
                            "env": cres.fndesc.env_name, "consts": [c.str for c in consts]})
    covered = {(e["name"], tuple(e["args"])) for e in entries}
    calls = []
    exercise(_Recorder(module, calls))
    if not all((n, tuple(arg_key(a) for a in args)) in covered for n, args in calls):
        return None  # a call of the scan's warm-up would go to numba: no use
    constants = {k: v for k, v in vars(module).items() if k.isupper() and type(v) is int}
    data = pack(key, {"kernels": entries, "constants": constants, "probe": probe(module)}, blobs)
    from ._numba_loads import write_whole
    from .jiebadict import _prune

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    except OSError:
        return None
    if write_whole(path, data, _TMP):
        _prune(os.path.dirname(path), KIND, os.path.basename(path))
        return path
    return None


def _object_of(library) -> bytes | None:
    """The object code :class:`capture` kept of ``library``, or the one numba holds still
    (a library loaded from a file keeps it until LLVM asks for it)."""
    obj = getattr(library, "_simdup_object", None) or getattr(library, "_compiled_object", None)
    return bytes(obj) if obj else None


class _Recorder:
    """The kernels of ``module``, each call noted (name, arguments) before it runs."""

    def __init__(self, module, calls: list):
        self._m, self._calls = module, calls

    def __getattr__(self, name):
        f = getattr(self._m, name)
        if name not in KERNELS:
            return f

        def call(*args):
            self._calls.append((name, args))
            return f(*args)
        return call


# --- loading (numba not imported) -------------------------------------------------------

_EXTENSIONS = {"numba._helperlib": "_helperlib", "numba._dynfunc": "_dynfunc",
               "numba.core.runtime._nrt_python": "core/runtime/_nrt_python"}


def _extension(name: str, base: str):
    """numba's C extension ``name`` (already imported, or loaded from its file without
    importing the numba package: these modules import nothing of it)."""
    if name in sys.modules:
        return sys.modules[name]
    path = _ext_path(base, _EXTENSIONS[name])
    if path is None:
        raise ImportError(name)
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    sys.modules[name] = mod  # numba imported later finds the same module, as it would
    return mod


_unpickled: dict = {}


def _numba_unpickle(address, bytedata, hashed):
    """numba.core.serialize._numba_unpickle, the same: numba's C helper ``numba_unpickle``
    (a wrapper boxing an array gets numpy's array type by it) calls this once it is bound
    (:func:`_bind_unpickle`)."""
    import pickle

    key = (address, hashed)
    try:
        return _unpickled[key]
    except KeyError:
        _unpickled[key] = obj = pickle.loads(bytedata)
        return obj


def _bind_unpickle(first_call) -> None:
    """numba's ``numba_unpickle`` (C) imports ``numba.core.serialize`` on its first call and
    keeps its ``_numba_unpickle`` for good; that import is numba's whole import. Where numba
    is not imported, that first call (``first_call()``, a kernel returning an array) is made
    with a stand-in module holding :func:`_numba_unpickle` in its place, under the import
    lock (no other thread imports meanwhile), and the stand-in removed after."""
    if "numba" in sys.modules:
        first_call()
        return
    import _imp

    serialize = types.ModuleType("numba.core.serialize")
    serialize._numba_unpickle = _numba_unpickle
    _imp.acquire_lock()
    try:
        stub = sys.modules["numba"] = types.ModuleType("numba")  # (the C call imports it first)
        sys.modules["numba.core.serialize"] = serialize
        try:
            first_call()
        finally:
            for name, mod in (("numba.core.serialize", serialize), ("numba", stub)):
                if sys.modules.get(name) is mod:
                    del sys.modules[name]
    finally:
        _imp.release_lock()


RETIRED_FOR = 86400  # seconds: a retired image's key is tried again a day later
_MARKER_AGE = 10  # seconds: a load takes about 25 ms; a younger marker may not be locked yet


def _hold(marker: str) -> int | None:
    """Create the marker ``marker`` and lock it (POSIX ``flock``: the lock ends with the
    process, however it ends); its descriptor, or None where it cannot be created."""
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError:
        return None
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (ImportError, OSError):
        pass
    return fd


def _abandoned(marker: str, now: float) -> bool:
    """Whether ``marker`` is a load's that never ended: older than _MARKER_AGE, and its lock
    free (the process that held it is gone). Never so where there is no ``flock``
    (Windows): a marker there is left alone."""
    try:
        import fcntl
    except ImportError:
        return False
    try:
        fd = os.open(marker, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        if now - os.fstat(fd).st_mtime < _MARKER_AGE:
            return False
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # held: a load under way
    finally:
        os.close(fd)
    return True


def _retire(path: str, why: bytes) -> None:
    """Mark the image at ``path`` bad (for RETIRED_FOR: neither loaded nor saved again)."""
    from ._numba_loads import write_whole
    from .jiebadict import unlink_quietly

    write_whole(path + ".bad", why, _TMP)
    unlink_quietly(path)


def _retired(path: str) -> bool:
    """Whether the image at ``path`` is retired: marked bad within RETIRED_FOR, or a load of
    it never ended (its marker left, unlocked): then marked bad now, and removed."""
    import time

    from .jiebadict import unlink_quietly

    now = time.time()
    try:
        age = now - os.stat(path + ".bad").st_mtime
    except OSError:
        age = None
    if age is not None:
        if 0 <= age < RETIRED_FOR:
            return True
        unlink_quietly(path + ".bad")
    dead = [m for m in glob.glob(glob.escape(path) + ".loading-*") if _abandoned(m, now)]
    if not dead:
        return False
    _retire(path, b"a load of this image never ended\n")
    for marker in dead:
        unlink_quietly(marker)
    return True


def load():
    """The kernels from their image (an :class:`Image`), or None: no image for this
    install and machine yet, or one that is not right (then numba's path, which saves a
    new one). Never raises."""
    if os.environ.get("SIMDUP_KERNEL_IMAGE", "") == "0":
        return None
    try:
        return _load()
    except Exception:  # noqa: BLE001 - any failure means numba's path, as without an image
        return None


def _load():
    import secrets

    from llvmlite import binding as ll

    from ._numba_loads import _read
    from .jiebadict import _mark_used, unlink_quietly

    key = key_text(ll)
    path = image_path(key) if key else None
    if path is None or _retired(path) or not os.path.isfile(path):
        return None
    data = _read(path, MAX_BYTES)
    got = unpack(data, key) if data is not None and len(data) <= MAX_BYTES else None
    if got is None:
        return None
    header, blobs = got
    marker = f"{path}.loading-{os.getpid()}-{secrets.token_hex(4)}"
    fd = _hold(marker)
    ok = False
    try:
        image = _link(ll, header, blobs)
        if image is not None:
            exercise(image)  # every kernel the scan calls, once
            ok = probe(image) == header["probe"]
    finally:
        if not ok:  # it links but is not right: not loaded nor saved again for a while
            _retire(path, b"this image did not give numba's results\n")
        if fd is not None:
            os.close(fd)
            unlink_quietly(marker)
    if not ok:
        return None
    try:
        with open(path, "rb") as fh:
            _mark_used(fh)
    except OSError:
        pass
    return image


_keep: list = []  # the engines linked here: their code lives as long as the process


def _link(ll, header: dict, blobs: list[bytes]):
    import builtins

    base = _package_dir("numba")
    helperlib = _extension("numba._helperlib", base)
    dynfunc = _extension("numba._dynfunc", base)
    nrt = _extension("numba.core.runtime._nrt_python", base)
    nrt.memsys_use_cpython_allocator()  # as numba's nrt module does on import

    ll.initialize_native_target()
    ll.initialize_native_asmprinter()
    # the symbols numba gives LLVM (numba.core.base._load_global_helpers, rtsys.initialize)
    ll.add_symbol("_Py_NoneStruct", id(None))
    for helpers in (helperlib.c_helpers, dynfunc.c_helpers):
        for name, address in helpers.items():
            ll.add_symbol("numba_" + name, address)
    for obj in vars(builtins).values():
        if isinstance(obj, type) and issubclass(obj, BaseException):
            ll.add_symbol(f"PyExc_{obj.__name__}", id(obj))
    for name, address in nrt.c_helpers.items():
        ll.add_symbol(name if name.startswith("_") else "NRT_" + name, address)

    target = ll.Target.from_triple(ll.get_process_triple())
    tm = target.create_target_machine(reloc="default", codemodel="jitdefault", jit=True)
    module = ll.parse_assembly("")
    module.triple = ll.get_process_triple()
    engine = ll.create_mcjit_compiler(module, tm)
    for blob in blobs:
        engine.add_object_file(ll.ObjectFileRef.from_data(blob))
    engine.finalize_object()

    this = sys.modules[__name__]
    overloads: dict[str, dict] = {}
    keep = [engine, tm, module]
    for k in header["kernels"]:
        fnptr = engine.get_function_address(k["wrapper"])
        envptr = engine.get_global_value_address(k["env"])
        if not fnptr or not envptr:
            return None
        env = dynfunc.Environment({"__name__": "simdup_gui.core.scan._kernels"})
        env.consts[:] = [np.dtype(c) for c in k["consts"]]
        (ctypes_ptr(envptr)).value = id(env)
        fn = dynfunc.make_function(this, k["name"], f"compiled {k['name']} (kernel image)",
                                   fnptr, env, ())
        keep += [env, fn]
        overloads.setdefault(k["name"], {})[tuple(k["args"])] = fn
    image = Image(overloads, header["constants"])
    _bind_unpickle(lambda: image.gram_hashes(np.zeros(6, dtype=np.uint32)))
    _keep.append(keep)
    return image


def ctypes_ptr(address: int):
    import ctypes

    return ctypes.c_void_p.from_address(address)


def _kernels_module():
    from . import _kernels

    return _kernels


class Image:
    """The kernels of an image: each attribute named in KERNELS calls the image's function
    compiled for its arguments' types (:func:`guarded`), or numba's dispatcher; the module's
    integer constants as they were; anything else is ``_kernels``'s (importing numba)."""

    def __init__(self, overloads: dict[str, dict], constants: dict[str, int]):
        self.overloads = overloads
        for name, table in overloads.items():
            setattr(self, name, guarded(name, table))
        vars(self).update(constants)

    def warm(self) -> None:
        """Nothing: loading the image proved it (:func:`probe`)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(_kernels_module(), name)


def _fast_check(key: str):
    """For an array key of C layout: (dtype, ndim, mask, bits) such that an array whose
    dtype is that very object, of that ndim, with ``flags.num & mask == bits`` has the key
    (the F bit left out: a 1-D array is both); None for other keys."""
    parts = key.split("/")
    if len(parts) != 5 or parts[2] != "C":
        return None
    try:
        dtype = np.dtype(parts[0])
    except TypeError:
        return None
    bits = _C | (_ALIGNED if parts[4] == "1" else 0) | (0 if parts[3] == "1" else _WRITEABLE)
    return dtype, int(parts[1]), _C | _ALIGNED | _WRITEABLE, bits


def guarded(name: str, table: dict[tuple, object]):
    """A function of ``table``'s arity: the first entry of ``table`` (argument type keys ->
    compiled function) whose types its arguments have, else numba's dispatcher of
    ``name``. Every argument is checked on every call, as numba's dispatcher types it:
    scalars inline, an array of C layout inline too (its dtype object, dimensions and
    flags, so an array whose shape or dtype was set in place since the last call is
    typed again), anything else by :func:`arg_key`."""
    arity = {len(k) for k in table}
    if len(arity) != 1:
        raise ValueError(f"{name}: overloads of different arities")
    (n,) = arity
    args = ", ".join(f"a{i}" for i in range(n))
    fns, oks, scope = [], [], {}
    lines = [f"def {name}({args}):"]
    for j, (keys, fn) in enumerate(table.items()):
        fns.append(fn)
        oks.append(keys)
        tests = []
        for i, k in enumerate(keys):
            f = _fast_check(k)
            if k == "int64":
                tests.append(f"(type(a{i}) is int and {_INT64[0]} <= a{i} <= {_INT64[1]}"
                             f" or _ok({j}, {i}, a{i}))")
            elif k == "float64":
                tests.append(f"(type(a{i}) is float or _ok({j}, {i}, a{i}))")
            elif k == "bool":
                tests.append(f"(type(a{i}) is bool or _ok({j}, {i}, a{i}))")
            elif f is not None:
                scope[f"_d{j}_{i}"] = f[0]
                tests.append(f"(type(a{i}) is _nd and a{i}.dtype is _d{j}_{i} and a{i}.ndim == "
                             f"{f[1]} and a{i}.flags.num & {f[2]} == {f[3]}"
                             f" or _ok({j}, {i}, a{i}))")
            else:
                tests.append(f"_ok({j}, {i}, a{i})")
        lines.append(f"    if {' and '.join(tests) or 'True'}:")
        lines.append(f"        return _f{j}({args})")
    lines.append(f"    return getattr(_numba(), {name!r})({args})")

    def ok(j, i, a):
        return arg_key(a) == oks[j][i]

    scope.update({"_ok": ok, "_numba": lambda: _kernels_module(), "_nd": np.ndarray})
    for j, fn in enumerate(fns):
        scope[f"_f{j}"] = fn
    exec("\n".join(lines), scope)  # noqa: S102 - code made here from names and indices
    fn = scope[name]
    fn.__doc__ = f"{name}: the kernel image's code for these argument types, else numba's"
    return fn


# --- exercising and probing the kernels (numba's module or an Image) --------------------

def exercise(k) -> None:
    """Call every kernel the scan's workers use, with tiny inputs and the argument types
    they get in a scan (so numba loads each from its cache, and an image holds each)."""
    one = np.frombuffer(b"ab\x1fcd", dtype=np.uint8)
    ids = np.empty(2, dtype=np.int32)
    keys = np.zeros((16, 2), dtype=np.uint64)
    vals = np.full(16, -1, dtype=np.int32)
    k.token_ids(one, 0, 0, keys, vals, 0, ids, np.empty(2, dtype=np.int64),
                np.empty((2, 2), dtype=np.uint64), np.zeros(0, dtype=np.int64))
    k.rehash(keys, vals, np.zeros((32, 2), dtype=np.uint64), np.full(32, -1, dtype=np.int32))
    # Code points come read-only to the cut's kernels (np.frombuffer, or features._ro of
    # prepare's output): one specialisation of cut_ids and new_tokens is loaded, not two.
    # prepare and gram_hashes get both (below). A trie of one word "ab":
    text = np.frombuffer(np.array([97, 98, 0x4E2D], dtype=np.uint32).tobytes(), dtype=np.uint32)
    root = np.zeros(0x80, dtype=np.int32)
    root[97] = 1
    k.cut_ids(text, 0, 0, root, np.array([1, 2, 3, 3], dtype=np.int32),
              np.array([0, 97, 98], dtype=np.int32), np.array([-1, -1, 0], dtype=np.int32),
              np.zeros(1), -1.0, np.full(1, 0xFF, dtype=np.uint8), np.full(1, -1, dtype=np.int32),
              np.full(16, -1, dtype=np.int32), np.zeros(16, dtype=np.uint64),
              np.full(16, -1, dtype=np.int32), keys.copy(), vals.copy(), 2,
              np.empty(3, dtype=np.int32), np.empty((2, 2), dtype=np.int64),
              np.empty((2, 2), dtype=np.uint64))
    k.fingerprint(ids, np.ones(2), keys[:2].copy(), np.zeros(4), np.zeros(2, dtype=np.int32), True)
    points = np.frombuffer(np.arange(9, dtype=np.uint32).tobytes(), dtype=np.uint32)
    # sketch_sorted and intersect_count for large files (sorted sets): loaded in a worker
    # they would take numba's full refresh of its target context (0.1 s, 20 MB more in that
    # worker), and outside the image numba's whole import
    k.sketch_hashes(k.gram_hashes(points), 4)
    k.sketch_sorted(np.sort(k.gram_hashes(points)), 4)
    d = k.distinct_hashes(k.gram_hashes(k.prepare(points, np.zeros(0x10000, dtype=np.uint8))[0]))
    k.intersect_hashed(d, d)
    k.intersect_count(np.sort(d), np.sort(d))
    z8 = np.zeros(1, dtype=np.uint64)
    k.new_tokens(text, np.array([[0, 2]], dtype=np.int64), z8,  # keys come contiguous
                 np.zeros(0x10000, dtype=np.uint8), np.zeros(16, dtype=np.uint8), 0,
                 np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                 np.zeros(1, dtype=np.bool_), np.zeros(1), z8, np.zeros(1), 1.0, z8, 4.0,
                 8.0, np.zeros(1, dtype=np.int64))
    folded = k.fold(points, np.ones(12, dtype=np.bool_), np.arange(12, dtype=np.int32),
                    np.ones(12, dtype=np.uint8), np.arange(12, dtype=np.uint32))
    if folded is not None:  # (a fold's output is writable, and read-only points come too)
        k.prepare(folded, np.zeros(0x10000, dtype=np.uint8))


def probe(k) -> list:
    """A few kernels' results on fixed inputs (5-gram hashes, a sketch, a fingerprint, a
    cut), as JSON numbers: an image is used only where it gives what numba's kernels gave
    when it was saved."""
    points = np.frombuffer(np.arange(40, 90, dtype=np.uint32).tobytes(), dtype=np.uint32)
    h = k.gram_hashes(points)
    sketch, n = k.sketch_hashes(h, 8)
    ids = np.array([0, 1, 0, 2, 1, 0], dtype=np.int32)
    hashes = np.array([[1, 2], [3, 4], [5, 6]], dtype=np.uint64)
    logt = np.log(np.arange(1, 9, dtype=np.float64))
    fp = k.fingerprint(ids, np.array([1.0, 2.0, 0.5]), hashes, logt, np.zeros(3, dtype=np.int32),
                       True)
    return [[int(x) for x in h[:8]], [int(x) for x in sketch], int(n),
            [int(x) if not isinstance(x, float) else x for x in fp]]
