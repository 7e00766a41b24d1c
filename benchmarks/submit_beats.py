"""How long a pool task's large array argument holds the GIL while it is sent.

    python benchmarks/submit_beats.py [--records N] [--rounds R] [--repo CHECKOUT]

A thread beats every 10 ms (the switch interval at the app's 1 ms) while the main thread
submits the sketches of N records (N x 64 uint64, as ``excerpts.with_excerpts`` sends them
to find the excerpt candidates) to a one-worker pool and waits for the answer. Printed per
round: submit to answer, and the worst gap between beats (what a window's thread would
wait). Run ``--repo`` of two checkouts in turn for a before/after. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))))
    args = ap.parse_args()
    sys.path.insert(0, args.repo)
    import numpy as np

    from simdup_gui.core.scan.poolctx import make_pool

    sketches = np.random.default_rng(1).integers(0, 2**63, size=(args.records, 64),
                                                 dtype=np.uint64)
    pool = make_pool(1)
    try:
        pool.submit(len, (b"ready",))
        while not pool.wait(5):
            pass
        sys.setswitchinterval(0.001)
        for k in range(args.rounds):
            gaps: list[float] = []
            stop = threading.Event()

            def beat(gaps: list = gaps, stop: threading.Event = stop) -> None:
                last = time.perf_counter()
                while not stop.is_set():
                    time.sleep(0.01)
                    now = time.perf_counter()
                    gaps.append(now - last)
                    last = now
            beater = threading.Thread(target=beat)
            beater.start()
            time.sleep(0.1)
            t = time.perf_counter()
            pool.submit(np.shape, (sketches,))
            answer: list = []
            while not answer:
                answer += pool.wait(1)
            took = time.perf_counter() - t
            time.sleep(0.05)
            stop.set()
            beater.join()
            print(f"round {k}: submit to answer {took * 1000:.0f} ms, worst gap between "
                  f"beats {max(gaps) * 1000:.0f} ms ({answer[0].value})")
    finally:
        pool.end()


if __name__ == "__main__":
    main()
