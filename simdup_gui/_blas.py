"""One BLAS thread for the processes that scan.

numpy's OpenBLAS starts a thread per core when numpy is imported, and those threads spin:
70-120 ms of CPU in each process that imports numpy. Our matrix products are small and the
scan is parallel by processes, so the command line (for itself and the fork server it starts)
and the fork server (for itself and its workers, whoever started it: the app too) ask for one
thread, unless the user set a number, before they import numpy. Importing this module does
it; the package itself changes nothing, so a program that imports the engine as a library,
and the programs the app opens, keep their own setting.
"""

import os

VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def single_thread_blas(environ=os.environ) -> None:
    for name in VARIABLES:
        if not environ.get(name):  # unset, or set to nothing (which OpenBLAS ignores)
            environ[name] = "1"


single_thread_blas()
