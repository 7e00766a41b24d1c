"""Ready a process to fingerprint: the tables (jieba's dictionary, the IDF arrays, the NFKC
table) and the compiled kernels, loaded once.

On Linux the scan's pool imports this module in multiprocessing's fork server (its
standard preload, ``set_forkserver_preload``), so the workers forked from it start with all
of that in place instead of each paying it; a spawn pool (macOS, Windows) calls :func:`warm`
in each worker instead. The first time after an install numba compiles the kernels here
(tens of seconds, said to the user: ``kernels.prepared``); later it loads them from its
cache.
"""

from __future__ import annotations

import gc

from . import features, kernels, pages


def warm() -> None:
    kernels.enable(True)
    try:
        kernels.warm()
    except Exception:  # noqa: BLE001 - a broken numba: the numpy path (same results)
        kernels.enable(False)
    features.prepare_process(kernels.active())
    pages.drop_clean_pages()  # the libraries read to load the kernels (scan/pages.py)


try:
    warm()
except Exception:  # noqa: BLE001 - the preload only saves time: each worker warms again
    pass
# What is loaded by now lives as long as the process: out of the collector's view, so the
# pages a worker shares with its fork server stay shared (copy-on-write).
gc.freeze()
