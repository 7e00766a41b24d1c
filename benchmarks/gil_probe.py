"""How late a window's 10 ms timer beats while another thread runs Python, by what it runs.

    QT_QPA_PLATFORM=offscreen python benchmarks/gil_probe.py pure numpy mix

Each kind runs 5 s beside a QApplication whose QTimer beats every 10 ms (app.exec, the
switch interval at the app's 1 ms): ``pure``, Python only; ``numpy``, a small
``np.searchsorted`` over and over (numpy lets go of the GIL around it); ``mix``, about 25 us
of Python between two such calls, the shape of the grouping's loops. The waiting thread's
wait for the GIL starts again each time the running one lets go of its own accord and
takes it back at once, so ``mix`` can keep the window's thread waiting for hundreds of
milliseconds (docs/performance.md). Nothing is asserted; the beats' median, 99th
percentile, worst and the count late by over 50 ms are printed.
"""

from __future__ import annotations

import sys
import threading
import time

import numpy as np


def main() -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    sys.setswitchinterval(0.001)
    app = QApplication([])
    nb = np.arange(50, dtype=np.int64)
    for kind in sys.argv[1:] or ["pure", "numpy", "mix"]:
        stop = threading.Event()

        def work(kind: str = kind, stop: threading.Event = stop) -> None:
            x = 0
            while not stop.is_set():
                if kind in ("pure", "mix"):
                    for _ in range(20):
                        x += sum(range(50))
                if kind in ("numpy", "mix"):
                    x += int(np.searchsorted(nb, 17))

        t = threading.Thread(target=work)
        t.start()
        gaps: list[float] = []
        last = [time.perf_counter()]

        def beat(gaps: list[float] = gaps, last: list[float] = last) -> None:
            now = time.perf_counter()
            gaps.append(now - last[0])
            last[0] = now

        timer = QTimer()
        timer.setInterval(10)
        timer.timeout.connect(beat)
        timer.start()
        QTimer.singleShot(5000, app.quit)
        app.exec()
        timer.stop()
        stop.set()
        t.join()
        g = sorted(gaps[1:]) or [0.0]
        print(f"{kind:6} beats {len(g):4}  median {g[len(g) // 2] * 1000:5.1f} ms  "
              f"p99 {g[int(len(g) * 0.99)] * 1000:6.1f} ms  worst {g[-1] * 1000:6.1f} ms  "
              f"late over 50 ms: {sum(x > 0.05 for x in g)}", flush=True)


if __name__ == "__main__":
    main()
