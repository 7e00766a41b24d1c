"""numba's import without PyYAML where numba would not use it."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager

NUMBA_CONFIG = ".numba_config.yaml"  # numba.core.config's _config_fname


@contextmanager
def numba_without_yaml():
    """numba's config module imports PyYAML (when installed: Dask brings it) only to read a
    ``.numba_config.yaml`` in the current folder; that import is 11-15 ms of the fork
    server's warm-up, on the path to the first fingerprint (median CPU of 12 fresh warm-ups:
    0.332 -> 0.315 s). Where there is no such file, and numba and PyYAML are not imported
    yet, PyYAML is hidden while numba imports (numba then reads its settings from the
    environment only, as it would here), and is importable again after. Where the file is
    there, numba reads it as always."""
    hide = ("numba" not in sys.modules and "yaml" not in sys.modules
            and not os.path.isfile(NUMBA_CONFIG))
    if hide:
        sys.modules["yaml"] = None  # an ImportError for "import yaml" meanwhile
    try:
        yield hide
    finally:
        if hide and sys.modules.get("yaml", 0) is None:
            del sys.modules["yaml"]
