"""When the fingerprint path uses the compiled kernels (``_kernels``, numba).

numba's import alone costs about 0.4 s of CPU and 60 MB, so it is imported only by a
process that uses the kernels: the scan's worker processes (:func:`enable`, from
``warm``), not the app or the CLI's main process, nor small in-process scans; and not even
there once the kernels' image is saved (``_image``: their machine code, loaded by
:func:`load_image` without numba).
``SIMDUP_COMPILED=0`` turns the kernels off everywhere, ``=1`` on everywhere (tests).
Without numba (a platform with no wheels for it) the numpy path runs; results are the same
bit for bit.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import types
from functools import lru_cache

_enabled = False


@lru_cache(maxsize=1)
def available() -> bool:
    """numba is installed and its kernels load (compiled on first use, then cached)."""
    if importlib.util.find_spec("numba") is None:
        return False
    if _impl is not None:  # (the kernel image: numba's kernels, not imported)
        return True
    try:
        from . import _kernels  # noqa: F401
    except Exception:  # noqa: BLE001 - a broken numba install means: no kernels
        return False
    return True


def enable(on: bool = True) -> None:
    """Use the kernels in this process (the scan's worker processes call this)."""
    global _enabled
    _enabled = on


def _wanted() -> bool:
    """The kernels are on in this process: SIMDUP_COMPILED=1, or :func:`enable` and not =0."""
    env = os.environ.get("SIMDUP_COMPILED", "")
    return env != "0" and (env == "1" or _enabled)


def active() -> bool:
    """Whether the fingerprint path should use the kernels in this process now."""
    return _wanted() and available()


_impl = None


def impl():
    """The kernels: their image where :func:`load_image` loaded it, else the kernels module
    (imports numba). Called several times per file: kept here, as an import statement per
    call cost 6 us (2 % of fingerprinting)."""
    global _impl
    if _impl is None:
        from . import _kernels

        _impl = _kernels
    return _impl


def loaded() -> bool:
    """The kernels are loaded in this process (:func:`impl` was called, or the image
    loaded)."""
    return _impl is not None


def load_image() -> bool:
    """Use the kernels' image (``_image``: their machine code, loaded without numba's
    import) in this process, where there is one for this install and machine and the
    kernels are on here (a fork server's warm-up, before :func:`warm`); False where not
    (then :func:`warm` loads them through numba, and saves the image for the next time)."""
    with _image_lock:  # (a Dask worker's task threads)
        return _load_image()


_image_lock = threading.Lock()


def _load_image() -> bool:
    global _impl
    if _impl is not None:
        return not isinstance(_impl, types.ModuleType)
    if not _wanted() or importlib.util.find_spec("numba") is None:
        return False
    from . import _image

    image = _image.load()
    if image is None:
        return False
    _impl = image
    available.cache_clear()
    return True


def warm() -> None:
    if active():
        impl().warm()
