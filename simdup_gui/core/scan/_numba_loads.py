"""Two costs of the fork server's kernel loads (``_kernels.lean_loads``) that numba pays
again in every process, cut for that block only:

- :func:`nrt_from_file`: NRT's own LLVM module (a few atomic reference-count functions,
  which every kernel's code calls) is built and compiled by LLVM at each start, 16-21 ms of
  the 75-90 ms the loads take. Its machine code is kept in a file beside numba's cache of
  the kernels, as numba keeps theirs, and loaded from there through numba's own
  ``unserialize_library``.
- :func:`quiet_llvm_lock`: numba broadcasts an event on each of LLVM's lock enter and exit,
  for its compile timers; a load makes about 3,300 calls into LLVM, 12 ms of those events.

The file is untrusted input like any cache: it is used only when it is a regular file, its
checksum holds and it was written for this numba, llvmlite, LLVM, Python, this machine's
code generation (numba's own cache key, ``codegen.magic_tuple()``) and this very module
(the hash of the LLVM IR numba builds for NRT, which numba's debug settings change);
anything else (missing, short, corrupt, another version, CPU or setting, a failed load)
means NRT is compiled as numba does, and the file written again. A load that never ended
(LLVM aborts the process on object code it cannot read, which only a file made on purpose
with a valid checksum could hold) leaves a marker beside the file: the next start deletes
both and builds NRT. Same loads with or without it: tests/core/scan/test_kernel_load.py.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
import struct
import sys
from contextlib import contextmanager

from .jiebadict import unlink_quietly

MAGIC = b"simdup-nrt-1\n"
_DIGEST = 32  # blake2b digest closing the file, over everything before it
MAX_BYTES = 1 << 20  # an NRT module's object code and bitcode are a few kilobytes


def _key(ctx, ir_text: str) -> bytes:
    import llvmlite
    import numba
    from llvmlite import binding as ll

    ir_hash = hashlib.blake2b(ir_text.encode("utf-8"), digest_size=16).hexdigest()
    return repr((numba.__version__, llvmlite.__version__, ll.llvm_version_info, sys.version,
                 ctx.codegen().magic_tuple(), ir_hash)).encode("utf-8")


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


def _read(path: str, limit: int = MAX_BYTES) -> bytes | None:
    """The file's first ``limit`` + 1 bytes; None unless it is a regular file that reads (a
    FIFO in its place is not waited on: opened without blocking, then refused)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        regular = False
    if not regular:
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as fh:
        try:
            return fh.read(limit + 1)
        except OSError:
            return None


def _mark(path: str) -> bool:
    """Create the marker ``path``; False when it cannot (a read-only folder: the file there
    is loaded without one, as nothing here could repair it anyway)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError:
        return False
    return True


def _load(ctx, path: str, key: bytes):
    """NRT's library from the file ``path``, or None (then it is built)."""
    marker = path + ".loading"
    if os.path.lexists(marker):  # a load that never ended: neither is trusted again
        unlink_quietly(path)
        unlink_quietly(marker)
        return None
    data = _read(path)
    state = None if data is None or len(data) > MAX_BYTES else unpack(data, key)
    if state is None:
        return None
    name, obj, bitcode = state
    marked = _mark(marker)
    try:
        return ctx.codegen().unserialize_library((name, "object", (obj, bitcode)))
    except Exception:  # noqa: BLE001 - a file that does not load: built instead
        return None
    finally:
        if marked:
            unlink_quietly(marker)


def write_whole(path: str, data: bytes, prefix: str = ".nrt") -> bool:
    """Written whole or not at all (a temporary file ``prefix-...tmp`` beside it, renamed);
    a folder that cannot be written to (numba then uses another for its own cache) leaves
    it unwritten (False). The file gets the permissions the user's umask gives, as numba's
    own cache files do (not the owner-only ones of a tempfile), so other users of a shared
    install can read it."""
    tmp = os.path.join(os.path.dirname(path), f"{prefix}-{os.getpid()}-{secrets.token_hex(6)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        unlink_quietly(tmp)
        return False
    return True


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
        ir_mod, library = create(ctx)  # the IR only (about 1.5 ms): its hash is in the key
        key = _key(ctx, str(ir_mod))
        path = nrt_path(cache_dir, key)
        loaded = _load(ctx, path, key)
        if loaded is not None:
            return loaded
        library.enable_object_caching()  # (before finalize: the object code is kept)
        library.add_ir_module(ir_mod)
        library.finalize()
        try:
            name, kind, (obj, bitcode) = library.serialize_using_object_code()
        except Exception:  # noqa: BLE001 - nothing to keep: the library is as numba's
            return library
        if kind == "object":
            write_whole(path, pack(key, name, obj, bitcode))
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
    llvm_lock = getattr(getattr(ffi, "lib", None), "_lock", None)
    callbacks = getattr(llvm_lock, "_cblist", None)
    guard = getattr(llvm_lock, "_lock", None)  # the lock itself, without its callbacks
    if not isinstance(callbacks, list) or guard is None:
        yield False
        return
    with guard:  # not while another thread is inside LLVM: its enter and exit stay paired
        saved = list(callbacks)
        callbacks.clear()
    try:
        yield True
    finally:
        with guard:
            callbacks[:] = saved + [c for c in callbacks if c not in saved]
