"""Per-call cost of a kernel through the kernel image's guard (``core/scan/_image.py``)
against numba's own dispatcher and the compiled wrapper called bare, on tiny inputs (so
the call is all there is): ``python benchmarks/kernel_calls.py``. The first run on a
machine goes through numba and saves the image; later runs load it. Microseconds per call,
best of 7 runs of 20,000 calls; each call gets new arrays where a scan's calls do (the
text, the outputs) and the same tables where a scan passes the same ones."""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("SIMDUP_COMPILED", "1")

import numpy as np  # noqa: E402

import simdup_gui.core.scan.warm  # noqa: E402, F401 - the fork server's warm-up
from simdup_gui.core.scan import _kernels, kernels  # noqa: E402


def bench(f, make, n: int = 20000) -> float:
    best = float("inf")
    for _ in range(7):
        calls = [make() for _ in range(n)]
        t = time.perf_counter()
        for args in calls:
            f(*args)
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def main() -> None:
    if type(kernels.impl()).__name__ != "Image":  # first run here: the image saved now
        kernels._impl = None
        if not kernels.load_image():
            raise SystemExit("no kernel image (numba outside the checked versions?)")
    image = kernels.impl()
    _kernels.warm()
    base = np.arange(9, dtype=np.uint32).tobytes()

    def grams():
        return (np.frombuffer(base, dtype=np.uint32),)
    (ro,) = [k for k in image.overloads["gram_hashes"] if k[0].endswith("/1/1")]
    text = np.array([97, 98, 0x4E2D], dtype=np.uint32).tobytes()
    root = np.zeros(0x80, dtype=np.int32)
    root[97] = 1
    keys, vals = np.zeros((16, 2), dtype=np.uint64), np.full(16, -1, dtype=np.int32)
    tables = [root, np.array([1, 2, 3, 3], dtype=np.int32),
              np.array([0, 97, 98], dtype=np.int32), np.array([-1, -1, 0], dtype=np.int32),
              np.zeros(1), -1.0,
              np.full(1, 0xFF, dtype=np.uint8), np.full(1, -1, dtype=np.int32),
              np.full(16, -1, dtype=np.int32), np.zeros(16, dtype=np.uint64),
              np.full(16, -1, dtype=np.int32), keys, vals, 2]

    def cut():
        return (np.frombuffer(text, dtype=np.uint32), 0, 0, *tables, np.empty(3, dtype=np.int32),
                np.empty((2, 2), dtype=np.int64), np.empty((2, 2), dtype=np.uint64))
    (ck,) = image.overloads["cut_ids"]
    for name, make, bare in [("gram_hashes, a new array", grams,
                              image.overloads["gram_hashes"][ro]),
                             ("cut_ids, four new arrays", cut, image.overloads["cut_ids"][ck])]:
        kernel = name.split(",")[0]
        ours, numba = bench(getattr(image, kernel), make), bench(getattr(_kernels, kernel), make)
        print(f"{name}: image {ours:.2f} us, numba's dispatcher {numba:.2f} us, "
              f"bare wrapper {bench(bare, make):.2f} us")


if __name__ == "__main__":
    main()
