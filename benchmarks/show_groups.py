"""The window thread's CPU when a finished scan's groups are shown, piece by piece.

    QT_QPA_PLATFORM=offscreen python benchmarks/show_groups.py /work/bench/tree

The scan of ``ROOT`` is made once (its records pickled under ``--workdir``, the fingerprint
cache there too) and handed to a shown MainWindow as a finished scan would
(``_on_scanned``); grouping and the rows are made on the pool as in the app. Reported, in
ms of the window's thread CPU (time.thread_time, so the machine's other work counts little):
``_on_scanned`` itself (problems, ...), the rows applied (``_apply``: the model reset, the
column fit, the summary, status and tabs), and the events after it (layout, paints), each
processEvents() call timed alone (the largest is the longest the window is held). "first"
is the first groups the window shows (the table was empty: a cold scan's case), "again"
the same groups shown again (a rescan). ``--repeat`` runs that many fresh processes.
Nothing is asserted; see docs/performance.md for figures.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def scan_result(root: str, workdir: str):
    """The ScanResult of ``root`` at the default settings, pickled once under ``workdir``."""
    path = os.path.join(workdir, f"scan-{os.path.basename(os.path.abspath(root))}.pkl")
    if not os.path.exists(path):
        from simdup_gui.core.job import Job
        from simdup_gui.core.session import Session

        s = Session()
        s.roots = [root]
        t = time.perf_counter()
        res = s.scan_request().run(job=Job(lambda ev: None))
        print(f"scanned {len(res.records):,} files in {time.perf_counter() - t:.0f} s",
              flush=True)
        with open(path, "wb") as fh:
            pickle.dump(res, fh, protocol=5)
    with open(path, "rb") as fh:
        return pickle.load(fh)


def measure(root: str, workdir: str) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from simdup_gui.app.window import MainWindow
    from simdup_gui.core.scan.pipeline import ScanResult

    res = scan_result(root, workdir)
    app = QApplication.instance() or QApplication([])
    settings = QSettings(os.path.join(workdir, "settings.ini"), QSettings.Format.IniFormat)
    settings.clear()
    win = MainWindow(settings=settings, language="en")
    win.resize(1400, 900)
    win.show()
    for _ in range(20):
        app.processEvents()
        time.sleep(0.005)
    got: dict[str, float] = {}
    apply = win.model._apply

    def timed_apply(*a) -> None:
        t = time.thread_time()
        apply(*a)
        got["apply"] = time.thread_time() - t

    win.model._apply = timed_apply
    for rep in ("first", "again"):
        got.clear()
        win._new_scan = True
        result = ScanResult(list(res.records), list(res.problems), dict(res.stats), False)
        t = time.thread_time()
        win._on_scanned(result)
        scanned = time.thread_time() - t
        while "apply" not in got:
            app.processEvents()
            time.sleep(0.001)
        each = []
        for _ in range(60):
            t = time.thread_time()
            app.processEvents()
            each.append(time.thread_time() - t)
            time.sleep(0.003)
        big = sorted(each, reverse=True)[:3]
        print(f"{rep}: _on_scanned {scanned * 1e3:5.1f}  _apply {got['apply'] * 1e3:5.1f}  "
              f"events after: sum {sum(each) * 1e3:5.1f}, largest "
              f"{', '.join(f'{x * 1e3:.1f}' for x in big)}  (ms of the window thread's CPU; "
              f"{win.model.rowCount():,} rows, {len(win.session.groups):,} groups)", flush=True)
    win.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "simdup-show"))
    ap.add_argument("--repeat", type=int, default=1, help="fresh processes to measure in")
    ap.add_argument("--once", action="store_true", help=argparse.SUPPRESS)  # (one process)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    for var in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        os.environ[var] = os.path.join(args.workdir, var.lower())
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.once or args.repeat <= 1:
        measure(args.root, args.workdir)
        return
    scan_result(args.root, args.workdir)  # made once, before the processes that time
    for _ in range(args.repeat):
        subprocess.run([sys.executable, __file__, args.root, "--workdir", args.workdir,
                        "--once"], check=True)


if __name__ == "__main__":
    main()
