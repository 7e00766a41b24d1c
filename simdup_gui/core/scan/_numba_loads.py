"""Two costs of the fork server's kernel loads (``_kernels.lean_loads``) that numba pays
again in every process, cut for that block only:

- :func:`nrt_from_file`: NRT's own LLVM module (a few atomic reference-count functions,
  which every kernel's code calls) is built and compiled by LLVM at each start, 19-21 ms of
  the 75-90 ms the loads take. Its machine code is kept in a file beside numba's cache of
  the kernels, as numba keeps theirs, and loaded from there through numba's own
  ``unserialize_library``.
- :func:`quiet_llvm_lock`: numba broadcasts an event on each of LLVM's lock enter and exit,
  for its compile timers; a load makes about 3,300 calls into LLVM, 12 ms of those events.

The file is untrusted input like any cache: it is used only when its checksum holds and it
was written for this numba, llvmlite, LLVM, Python and this machine's code generation
(numba's own cache key, ``codegen.magic_tuple()``); anything else (missing, short,
corrupt, another version or CPU, a failed load) means NRT is compiled as numba does, and
the file written again. Same loads with or without it: tests/core/scan/test_kernel_load.py.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import struct
import sys
from contextlib import contextmanager

MAGIC = b"simdup-nrt-1\n"
_DIGEST = 32  # blake2b digest closing the file, over everything before it
MAX_BYTES = 1 << 20  # an NRT module's object code and bitcode are a few kilobytes


def _key(ctx) -> bytes:
    import llvmlite
    import numba
    from llvmlite import binding as ll

    return repr((numba.__version__, llvmlite.__version__, ll.llvm_version_info, sys.version,
                 ctx.codegen().magic_tuple())).encode("utf-8")


def nrt_path(cache_dir: str, key: bytes) -> str:
    return os.path.join(cache_dir, f"nrt-{hashlib.blake2b(key, digest_size=10).hexdigest()}.bin")


def pack(key: bytes, name: str, obj: bytes, bitcode: bytes) -> bytes:
    body = MAGIC + b"".join(struct.pack("<I", len(p)) + p
                            for p in (key, name.encode("utf-8"), obj, bitcode))
    return body + hashlib.blake2b(body, digest_size=_DIGEST).digest()


def unpack(data: bytes, key: bytes) -> tuple[str, bytes, bytes] | None:
    """(name, object code, bitcode) of a file written by :func:`pack` for ``key``; None for
    anything else."""
    if len(data) < len(MAGIC) + _DIGEST or not data.startswith(MAGIC):
        return None
    body, digest = data[:-_DIGEST], data[-_DIGEST:]
    if hashlib.blake2b(body, digest_size=_DIGEST).digest() != digest:
        return None
    parts = []
    at = len(MAGIC)
    for _ in range(4):
        if at + 4 > len(body):
            return None
        (n,) = struct.unpack_from("<I", body, at)
        at += 4
        if at + n > len(body):
            return None
        parts.append(body[at:at + n])
        at += n
    if at != len(body) or parts[0] != key or not parts[2] or not parts[3]:
        return None
    try:
        name = parts[1].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return (name, parts[2], parts[3]) if name == "nrt" else None


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_BYTES + 1)
    except OSError:
        return None


def _write(path: str, data: bytes) -> None:
    """Written whole or not at all (a temporary file renamed); a folder that cannot be
    written to (numba then uses another for its own cache) leaves it unwritten. The file
    gets the permissions the user's umask gives, as numba's own cache files do (not the
    owner-only ones of a tempfile), so other users of a shared install can read it."""
    tmp = os.path.join(os.path.dirname(path), f".nrt-{os.getpid()}-{secrets.token_hex(6)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


@contextmanager
def nrt_from_file(cache_dir: str | None):
    """Meanwhile NRT's library, when numba initialises its runtime, comes from the file in
    ``cache_dir`` (None: numba compiles it as always), or is compiled with its object code
    kept and written there. Yields whether the patch is in place (numba's nrtdynmod as
    checked)."""
    try:
        from numba.core.runtime import nrtdynmod
    except ImportError:
        yield False
        return
    original = nrtdynmod.__dict__.get("compile_nrt_functions")
    create = getattr(nrtdynmod, "create_nrt_module", None)
    if cache_dir is None or original is None or create is None:
        yield False
        return

    def compile_nrt_functions(ctx):
        key = _key(ctx)
        path = nrt_path(cache_dir, key)
        data = _read(path)
        state = None if data is None or len(data) > MAX_BYTES else unpack(data, key)
        if state is not None:
            name, obj, bitcode = state
            try:
                return ctx.codegen().unserialize_library((name, "object", (obj, bitcode)))
            except Exception:  # noqa: BLE001 - a file that does not load: compiled below
                pass
        ir_mod, library = create(ctx)
        library.enable_object_caching()  # (before finalize: the object code is kept)
        library.add_ir_module(ir_mod)
        library.finalize()
        try:
            name, kind, (obj, bitcode) = library.serialize_using_object_code()
        except Exception:  # noqa: BLE001 - nothing to keep: the library is as numba's
            return library
        if kind == "object":
            _write(path, pack(key, name, obj, bitcode))
        return library

    nrtdynmod.compile_nrt_functions = compile_nrt_functions
    try:
        yield True
    finally:
        nrtdynmod.compile_nrt_functions = original


@contextmanager
def quiet_llvm_lock():
    """numba's callbacks on LLVM's lock taken off meanwhile (put back after, in order);
    nothing where llvmlite keeps them elsewhere than checked."""
    try:
        from llvmlite.binding import ffi
    except ImportError:
        yield False
        return
    callbacks = getattr(getattr(getattr(ffi, "lib", None), "_lock", None), "_cblist", None)
    if not isinstance(callbacks, list):
        yield False
        return
    saved = list(callbacks)
    callbacks.clear()
    try:
        yield True
    finally:
        callbacks[:] = saved + callbacks
