"""When the fingerprint path uses the compiled kernels (``_kernels``, numba).

numba's import costs about 0.4 s of CPU and 60 MB, so it is imported only by a process that
uses the kernels: the scan's worker processes (:func:`enable`, from ``warm``), not the app
or the CLI's main process, nor small in-process scans.
``SIMDUP_COMPILED=0`` turns the kernels off everywhere, ``=1`` on everywhere (tests).
Without numba (a platform with no wheels for it) the numpy path runs; results are the same
bit for bit.
"""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache

_enabled = False


@lru_cache(maxsize=1)
def available() -> bool:
    """numba is installed and its kernels load (compiled on first use, then cached)."""
    if importlib.util.find_spec("numba") is None:
        return False
    try:
        from . import _kernels  # noqa: F401
    except Exception:  # noqa: BLE001 - a broken numba install means: no kernels
        return False
    return True


def enable(on: bool = True) -> None:
    """Use the kernels in this process (the scan's worker processes call this)."""
    global _enabled
    _enabled = on


def active() -> bool:
    """Whether the fingerprint path should use the kernels in this process now:
    SIMDUP_COMPILED=1, or :func:`enable` and not =0; and numba is there."""
    env = os.environ.get("SIMDUP_COMPILED", "")
    return env != "0" and (env == "1" or _enabled) and available()


def allowed() -> bool:
    """Whether a large batch of work (textsim.estimate's many pairs) may use the kernels in
    this process: numba is there and SIMDUP_COMPILED is not 0."""
    return os.environ.get("SIMDUP_COMPILED", "") != "0" and available()


_impl = None


def impl():
    """The kernels module (imports numba). Called several times per file: kept here, as an
    import statement per call cost 6 us (2 % of fingerprinting)."""
    global _impl
    if _impl is None:
        from . import _kernels

        _impl = _kernels
    return _impl


def loaded() -> bool:
    """The kernels are loaded in this process (:func:`impl` was called)."""
    return _impl is not None


_settled = False


def settle() -> None:
    """The first time: every kernel loaded (0.4 CPU s), then the LLVM code read to load
    them handed back (scan/pages.py). A grouping of many candidate pairs calls it before
    its compiled estimates (group/measure.py: COMPILED_PAIRS), and a Dask worker before its
    share of them: it goes on to load the kernels that read doubtful pairs' files, and each
    load read that code again. While the kernels are still to be compiled (the scan's
    workers compile them, and the user is told) they are only imported: each compiles when
    first used here. After a kernel failed to load, each loads when used. Nothing where
    the kernels are not :func:`allowed`."""
    global _settled
    if _settled or not allowed():
        return
    if will_compile():
        impl()
        return
    _settled = True
    try:
        impl().warm()
    except Exception:  # noqa: BLE001 - a kernel that cannot load: the numpy path stays
        return
    from .pages import drop_clean_pages

    drop_clean_pages()


def warm() -> None:
    """Load (or, the first time after an install, compile) every kernel, then note that
    they are ready for :func:`prepared`."""
    if active():
        impl().warm()
        path = _ready_path()
        if path and not os.path.exists(path):
            try:
                from ..ourfiles import write_private

                write_private(path, lambda fh: fh.write(b"ready\n"))
            except OSError:
                pass


KERNEL_FILES = ("_njit.py", "_kernels.py", "_token_kernels.py", "_text_kernels.py")


def _ready_path() -> str | None:
    """A marker in numba's cache folder (ours) named for this install's kernels: the bytes
    of their files (KERNEL_FILES), numba's version and Python's. Only a message depends on
    it."""
    import hashlib
    import sys
    from importlib import metadata

    from .numba_cache import use_private_cache

    folder = use_private_cache()
    if not folder:
        return None
    try:
        source = b""
        for name in KERNEL_FILES:
            with open(os.path.join(os.path.dirname(__file__), name), "rb") as fh:
                source += fh.read()
        numba = metadata.version("numba")
    except (OSError, metadata.PackageNotFoundError):
        return None
    key = hashlib.blake2b(source + numba.encode() + sys.version.encode(), digest_size=8)
    return os.path.join(folder, f"simdup-kernels-ready-{key.hexdigest()}")


def will_compile() -> bool:
    """Whether a scan's workers will compile the kernels first (the first scan after an
    install or an upgrade: tens of seconds), so the user can be told. Asked in the main
    process, without importing numba."""
    if os.environ.get("SIMDUP_COMPILED", "") == "0" or importlib.util.find_spec("numba") is None:
        return False
    path = _ready_path()
    return path is not None and not os.path.exists(path)
