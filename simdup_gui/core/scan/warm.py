"""Ready a process to fingerprint: jieba's dictionary (as the compiled cut's arrays, or
rjieba's without the kernels), the IDF arrays, the NFKC table and the compiled kernels
loaded once.

The scan's pool imports this module in its fork server (``set_forkserver_preload``), so
the workers forked from it start with all of that in place instead of each paying it
(about 1 s of CPU per worker with numba); a spawn pool (macOS, Windows) calls :func:`warm`
in each worker instead.
"""

from __future__ import annotations

import gc

# What this module loads (numba's thousands of classes and templates, the kernels, the
# tables) lives as long as the process: the collector's passes over it while it loads find
# nothing to free and took 12 % of the fork server's warm-up (median of 10 runs: 0.474 ->
# 0.417 CPU s), on the path to the first fingerprint. Collection resumes below, after
# gc.freeze(), for what the process makes later.
_collecting = gc.isenabled()
gc.disable()
try:
    import importlib
    import threading

    from . import features, jiebadict, kernels

    def _load_tables() -> None:
        """jieba's trie, the Unicode tables and the IDF arrays (about 50 ms: reading,
        checksums, numpy), loaded on a thread while this one imports numba: much of their
        work (reads, hashing, sorting) lets go of the GIL, which numba's import holds, and
        the other core is free by then. warm() waits for it before anything uses them."""
        try:
            jiebadict.tables()
            features._unicode_tables()
            features._idf_hashed()
        except Exception:  # noqa: BLE001 - loaded again (and raised) where warm() needs them
            pass

    # what loading them imports, imported here first: the thread then imports nothing
    # while numba's import runs (two threads importing at once can make Python's import
    # locks raise a deadlock error in one of them)
    for _name in ("encodings.cp437", "encodings.utf_32_le", "tempfile", "zipfile",
                  "platformdirs"):  # (cp437: zip member names, np.load of an .npz)
        try:
            importlib.import_module(_name)
        except ImportError:  # the thread meets the same error, and warm() after it
            pass

    _tables = threading.Thread(target=_load_tables, name="simdup-warm-tables", daemon=True)
    _tables.start()
    from . import fingerprint  # noqa: F401 - the workers' task and initializer: not imported per worker
    from .features import _idf_hashed, default_tokenizer
except BaseException:
    if _collecting:
        gc.enable()
    raise


def warm() -> None:
    kernels.enable(True)
    # the kernels' image (llvmlite's import, 40-60 ms), or else numba's import (0.12-0.2 s),
    # beside _load_tables
    kernels.load_image()
    active = kernels.active()
    _tables.join()
    # rjieba only where it cuts: its dictionary costs 0.16 s and about 30 MB to load
    if not active or jiebadict.tables() is None:
        default_tokenizer()("预热")
    _idf_hashed()
    kernels.warm()
    if features._nfkc_table() is not None:  # NFKC by table from the first file on
        features._nfkc_seen = max(features._nfkc_seen, features.NFKC_TABLE_AFTER)
    if kernels.active():
        features._log_table()  # 7 ms here, not 12-18 ms in each worker's first chunk
        features._char_classes()
        features._token_classes()
        features._fold_table()


try:
    warm()
finally:
    # Objects loaded so far (modules, the kernels' dispatchers, rjieba's Python side) are
    # never garbage: moved out of the collector's view, a worker's collections do not touch
    # them, so the pages a forked worker shares with its fork server stay shared
    # (copy-on-write).
    gc.freeze()
    if _collecting:
        gc.enable()
