"""numba's ``njit`` with the kernels' settings, for the kernel modules (``_token_kernels``,
``_text_kernels``; used through :mod:`kernels`). numba keeps each kernel's machine code in
its cache, a folder of ours only this user can write (numba_cache.py), set before numba
reads its settings.

numba's cache notices a change of the file that defines a kernel, not of a kernel it calls
from another file; so a kernel calls only kernels of its own file.
"""

from __future__ import annotations

from .numba_cache import use_private_cache

use_private_cache()  # before numba reads its settings: a cache folder only this user can write
from numba import njit  # noqa: E402


def jit(fn):
    """A kernel: compiled on first use (then loaded from numba's cache), run without the
    GIL."""
    return njit(cache=True, nogil=True)(fn)


def inline(fn):
    """A helper compiled into its caller (numba's IR inlining). Not for helpers that pass
    arrays on to other functions: see _token_kernels.cut_ids."""
    return njit(cache=True, nogil=True, inline="always")(fn)
