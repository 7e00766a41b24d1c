"""A grouping on a background thread beside a Qt event loop: the beats it makes late, and when.

    QT_QPA_PLATFORM=offscreen python benchmarks/grouping_beats.py TREE [--cache-home DIR]
        [--measure plain|template] [--watchdog FILE]

The records of ``TREE`` come from a scan (warm when ``--cache-home``, the XDG_CACHE_HOME of
an earlier scan, holds its fingerprints), then ``group_records`` runs on a thread as the
app runs it (automatic collection paused, app/heap.py), with the pairs from that cache,
while ``app.exec()`` beats a QTimer every 10 ms (the switch interval at the app's 1 ms). Printed: the grouping's time and every beat late by
over 50 ms, with the grouping's phase then. Closer to the app than gui_stalls.py's polling
loop (it runs the real event loop), and quicker to repeat: one grouping, no window.

``--watchdog FILE``: at every beat, faulthandler (the standard library's) is armed to dump
every thread's Python stack into FILE if the next beat is 45 ms late. It is written from C
without the GIL, so it shows what the background thread was doing while the window waited.
faulthandler's documentation warns that dumping other threads' stacks is unsafe: the run
may end in a crash; use it to find causes, not to measure. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tree")
    ap.add_argument("--cache-home", default="", help="XDG_CACHE_HOME of an earlier scan")
    ap.add_argument("--measure", default="plain", choices=("plain", "template"))
    ap.add_argument("--watchdog", default="", help="a file for the late beats' stacks")
    args = ap.parse_args()
    if args.cache_home:
        os.environ["XDG_CACHE_HOME"] = args.cache_home
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from simdup_gui.app.heap import building
    from simdup_gui.core.group import cluster
    from simdup_gui.core.job import Job
    from simdup_gui.core.scan.cache import default_cache_path
    from simdup_gui.core.scan.pipeline import ScanOptions, scan

    records = scan([args.tree], ScanOptions(workers=2)).records
    sys.setswitchinterval(0.001)
    app = QApplication([])
    phase, t0, out = ["start"], [0.0], {}

    @building  # as the app runs it: no automatic collection meanwhile (app/heap.py)
    def work() -> None:
        t0[0] = time.perf_counter()
        out["groups"] = cluster.group_records(
            records, 64, 16, read_workers=1, cache_path=default_cache_path(), use_cache=True,
            job=Job(lambda ev: phase.__setitem__(0, ev.phase)), verdict=args.measure)[0]
        out["took"] = time.perf_counter() - t0[0]

    dump = open(args.watchdog, "w") if args.watchdog else None  # noqa: SIM115 - for the run
    late: list[tuple[float, float, str]] = []
    last = [time.perf_counter()]

    def beat() -> None:
        if dump is not None:
            faulthandler.cancel_dump_traceback_later()
        now = time.perf_counter()
        if now - last[0] > 0.050:
            late.append((now - t0[0], (now - last[0]) * 1000, phase[0]))
            if dump is not None:
                dump.write(f"=== the beat above was {late[-1][1]:.0f} ms late\n")
                dump.flush()
        last[0] = now
        if not worker.is_alive():
            app.quit()
        elif dump is not None:
            faulthandler.dump_traceback_later(0.045, file=dump)

    worker = threading.Thread(target=work, name="grouping")
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(beat)
    timer.start()
    worker.start()
    app.exec()
    worker.join()
    worst = max((g for _, g, _ in late), default=0)
    print(f"grouping {out['took']:.1f} s, {len(out['groups']):,} groups; "
          f"{len(late)} beats late by over 50 ms, worst {worst:.0f} ms")
    for at, gap, ph in late:
        print(f"  at {at:6.2f} s  {gap:5.0f} ms  ({ph})")


if __name__ == "__main__":
    main()
