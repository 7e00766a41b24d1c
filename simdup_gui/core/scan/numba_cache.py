"""Where numba keeps the compiled kernels: a folder only this user can change.

numba reads ``NUMBA_CACHE_DIR`` when it is imported (an environment variable outranks a
``.numba_config.yaml`` in the current folder, which anyone who can write that folder could
plant), and it loads the machine code and unpickles the index files it finds there: whoever
can write that folder can run code in the scan. :func:`use_private_cache` sets it, before
``_kernels`` imports numba, to ``<user cache>/simdup/numba``, created 0700 with no folder
above it in another account's reach (ourfiles.private_dir). A NUMBA_CACHE_DIR the user set
is kept only if it passes the same checks. Where no such folder can be had, a new empty
private folder is used for this process (numba compiles again: slower, never unsafe). The
scan's workers inherit the setting.
"""

from __future__ import annotations

import os
import tempfile

from ..ourfiles import NotPrivate, cache_dir, private_dir

_chosen: str | None = None


def numba_cache_path() -> str:
    return os.path.join(cache_dir(), "numba")


def use_private_cache() -> str:
    """Point numba's cache at a folder only this user can change, and return it."""
    global _chosen
    given = os.environ.get("NUMBA_CACHE_DIR")
    if _chosen is not None and given == _chosen:
        return _chosen
    folder = None
    for candidate in ([given] if given else []) + [None]:
        try:
            folder = private_dir(candidate or numba_cache_path())
            break
        except (OSError, ImportError):  # (NotPrivate is an OSError)
            continue
    if folder is None:
        folder = tempfile.mkdtemp(prefix="simdup-numba-")  # 0700, new: nobody else's
    os.environ["NUMBA_CACHE_DIR"] = _chosen = folder
    return folder


__all__ = ["NotPrivate", "numba_cache_path", "use_private_cache"]
