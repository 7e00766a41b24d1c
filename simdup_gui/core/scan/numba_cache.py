"""Where numba keeps the compiled kernels: a folder of ours only this user can write.

numba reads ``NUMBA_CACHE_DIR`` when it is imported (an environment variable outranks a
``.numba_config.yaml`` in the current folder, which anyone who can write that folder could
plant). :func:`use_private_cache` sets it, before ``_njit`` imports numba, to
``<user cache>/simdup/numba``, created 0700 (ourfiles.private_dir). The scan's workers
inherit it. A NUMBA_CACHE_DIR the user set is the user's choice and is kept.
"""

from __future__ import annotations

import os

from ..ourfiles import NotPrivate, cache_dir, private_dir


def numba_cache_path() -> str:
    return os.path.join(cache_dir(), "numba")


def use_private_cache() -> str | None:
    """Point numba's cache at our private folder (unless the user set one): the folder, or
    None where none could be made (numba then uses its own default)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    try:
        folder = private_dir(numba_cache_path())
    except (OSError, ImportError, NotPrivate):
        return None
    os.environ["NUMBA_CACHE_DIR"] = folder
    return folder
