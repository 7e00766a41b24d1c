"""simdup: find near-duplicate text files with SimHash fingerprints."""

import os as _os

# numpy's OpenBLAS starts a thread per core when numpy is imported, and those threads spin:
# 70-120 ms of CPU in every process that imports numpy (the scan's, the fork server's), for
# nothing: our matrix products are small, and the scan runs in parallel by processes. One
# thread unless the user asked for more; set before anything here imports numpy, and
# inherited by the fork server and its workers.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_name, "1")
del _name

__version__ = "0.1.0"
