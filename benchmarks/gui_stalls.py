"""The GUI's worst event-loop stall per operation, measured by a heartbeat timer.

    QT_QPA_PLATFORM=offscreen python benchmarks/gui_stalls.py --files 100000
    QT_QPA_PLATFORM=offscreen python benchmarks/gui_stalls.py --files 100000 --scan-files 100000
    QT_QPA_PLATFORM=offscreen python benchmarks/gui_stalls.py --scan-tree /work/bench/tree --files 0

A 10 ms QTimer beats in the real MainWindow (shown, offscreen or under xvfb-run); for each
operation the worst gap between two beats, from the moment it is asked for until the window
is idle again (no worker, no pending grouping or sort) plus a short settle, is the stall the
user would feel as a frozen window. Operations, on ``--files`` synthetic records (the
records of benchmarks/grouping.py: half originals, half near copies, with sketches):

- show a scan's result (records in, grouping, the tree filled),
- regroup after a threshold change and after a size change (64 -> 128 bits),
- sort by name, by size (descending), back to the engine's order; filter and clear the filter,
- Duplicates only on and off; mark all but one, invert, select all, mark the selection, clear,
- scroll to the end of the groups (scrollToBottom with processEvents until the last row is
  shown and the model has no more to hand out), Expand all, scroll to the end again, sort
  with every group expanded, Collapse all,
- save those results, export their groups as JSON, load the saved file.

``--scan-files N`` also scans N real small files (synthetic text, a tenth near copies) made
once under ``--workdir``; the fingerprint cache lives there too (XDG_CACHE_HOME), so the first
run's scan is cold and later runs' warm; both are reported as such. ``--scan-tree PATH`` scans
an existing folder instead (a large real tree, benchmarks/largetree.py), cold then warm in one
run, and also counts the beats late by more than 50 ms. ``--files 0`` skips the synthetic
records. Nothing is asserted: the figures go to docs/performance.md with the command.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

WORDS = ("alpha beta gamma delta river stone cloud paper lamp window garden letter winter "
         "harbour signal market orange silver bridge forest candle engine valley mirror "
         "thunder pocket ribbon saddle").split()


def make_files(root: str, n: int, seed: int = 3) -> None:
    """``n`` small text files in folders of 1,000; every tenth a near copy of another."""
    marker = os.path.join(root, f".made-{n}")
    if os.path.exists(marker):
        return
    rng = random.Random(seed)
    texts: list[str] = []
    for i in range(n):
        if i % 10 == 9 and texts:
            words = rng.choice(texts).split()
            words[rng.randrange(len(words))] = rng.choice(WORDS)
            text = " ".join(words)
        else:
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(40, 120)))
            if len(texts) < 5000:
                texts.append(text)
        d = os.path.join(root, f"d{i // 1000:03d}")
        if i % 1000 == 0:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"f{i:06d}.txt"), "w", encoding="utf-8") as fh:
            fh.write(text)
    open(marker, "w").close()


class Heartbeat:
    """Beats every ``interval`` ms; ``worst`` is the longest gap since :meth:`reset`.

    With ``stacks`` (a file open for writing) a thread samples every other thread's Python
    stack into it each 5 ms while the next beat is over 30 ms late (it needs the GIL, so a
    thread holding it in a long C call is seen on that call's line once it lets go;
    faulthandler's watchdog, which needs no GIL, crashed the process reading frames that
    changed under it); a line ``gap N ms`` (``LATE`` past 50 ms) closes them, with the time
    each thread ran on a core and waited for one from 30 ms late on (Linux's schedstat: a
    late beat with every thread waiting is the machine's other work, not ours), and each
    late beat's :func:`cause`, counted per operation in ``causes``."""

    def __init__(self, interval: int = 10, stacks=None) -> None:
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(interval)
        self.timer.timeout.connect(self._beat)
        self.last = time.perf_counter()
        self.worst = 0.0
        self.late = 0  # gaps over 50 ms since reset
        self.stacks, self.t0, self.ended = stacks, self.last, (self.last, 0.0)
        self.causes: dict[str, int] = {}  # the late beats by cause, since reset
        if stacks is not None:
            threading.Thread(target=self._sample, name="stall-sampler", daemon=True).start()
        self.timer.start()

    def _beat(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self.last)
        self.late += now - self.last > 0.050
        self.ended = (now, now - self.last)  # (for the sampler)
        self.last = now

    def reset(self) -> None:
        self.last = time.perf_counter()
        self.worst = 0.0
        self.late = 0
        self.causes = {}

    def _sample(self) -> None:
        """Every 5 ms, while the beat is over 30 ms late: every other thread's stack (the one
        holding the GIL is seen on the line of its long call once it lets go), and at the
        beat that ends such a gap, how long each thread ran meanwhile. All the reading is
        done here: file reads on the window's thread each gave the GIL away and waited for
        it back, which made the beats they measured later (a probe's own stall)."""
        me = threading.get_ident()
        seen, lines, ran = self.ended, [], {}
        while True:
            time.sleep(0.005)
            if self.ended is not seen:  # a beat since the last look
                seen = self.ended
                if lines:  # stacks were taken during the gap it ended
                    self._close(lines, seen, ran, thread_times())
                    lines = []
                continue
            late = time.perf_counter() - self.last
            if late >= 0.030:
                if not lines:
                    ran = thread_times()
                lines.append(self._stacks_now(me, late))

    def _close(self, lines: list[str], ended: tuple[float, float], ran: dict, now: dict):
        gap = ended[1] * 1000
        out = [*lines, f"{'LATE ' if gap > 50 else ''}gap {gap:.0f} ms, ended "
               f"{ended[0] - self.t0:.3f} s; ms on a core, waiting for one (from 30 ms):"]
        for tid, (name, run, wait, faults) in now.items():
            run0, wait0, faults0 = ran.get(tid, (name, run, wait, faults))[1:]
            if tid == -1:  # jiffies: 10 ms of a core each
                out.append(f"  the machine: {(run - run0) * 10} ms waiting for I/O, "
                           f"{(wait - wait0) * 10} ms stolen by the host")
            elif run - run0 > 1e6 or wait - wait0 > 1e6 or faults > faults0:
                out.append(f"  {name} {tid}: {(run - run0) / 1e6:.0f} ms, "
                           f"{(wait - wait0) / 1e6:.0f} ms"
                           + (f", {faults - faults0} page faults read from disk" if faults > faults0
                              else ""))
        if gap > 50:
            kind = cause(gap, ran, now)
            self.causes[kind] = self.causes.get(kind, 0) + 1
            out.append(f"  cause: {kind}")
        self.stacks.write("\n".join(out) + "\n\n")
        self.stacks.flush()

    @staticmethod
    def _stacks_now(me: int, late: float) -> str:
        import traceback

        names = {t.ident: f"{t.name} {t.native_id}" for t in threading.enumerate()}
        lines = [f"-- {late * 1000:.0f} ms late"]
        for ident, frame in sys._current_frames().items():
            if ident != me:
                stack = traceback.extract_stack(frame)[::-1][:8]
                lines.append(f"  {names.get(ident, f'{ident:#x} (a Qt thread)')}: " +
                             " < ".join(f"{os.path.basename(f.filename)}:{f.lineno} {f.name}"
                                        for f in stack))
        return "\n".join(lines)


def cause(gap: float, ran: dict, now: dict) -> str:
    """What kept a beat ``gap`` ms late, from the thread times 30 ms into the gap (``ran``)
    and at its end (``now``): whichever took half that time or more."""
    half = (gap - 30) / 2e3  # in s
    main = threading.main_thread().native_id

    def took(tid: int, field: int) -> float:
        return (now[tid][field] - ran.get(tid, now[tid])[field]) / 1e9 if tid in now else 0.0

    others = sum(took(t, 1) for t in now if t not in (-1, main))
    if took(main, 2) >= half:
        return "the window's thread waited for a core (the machine's load)"
    if took(-1, 2) * 1e7 >= half:  # (jiffies)
        return "the host stole the cores"
    if took(main, 1) >= half:
        return "the window's thread was busy"
    if others >= half:
        return "another thread of ours ran (the GIL)"
    return "no thread of ours ran or waited for a core"


def thread_times() -> dict[int, tuple]:
    """Each thread of this process: native id -> (name, ns run on a core, ns waited for one,
    page faults that read the disk); and -1 -> the machine's jiffies waiting for I/O and
    stolen by the host (Linux's /proc; empty elsewhere)."""
    out: dict[int, tuple] = {}
    try:
        tids = os.listdir("/proc/self/task")
        with open("/proc/stat") as fh:
            cpu = fh.readline().split()
        out[-1] = ("machine", int(cpu[5]), int(cpu[8]), 0)
    except (OSError, ValueError, IndexError):
        return out
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/schedstat") as fh:
                run, wait = fh.read().split()[:2]
            with open(f"/proc/self/task/{tid}/stat") as fh:
                majflt = fh.read().rsplit(")", 1)[1].split()[9]
            with open(f"/proc/self/task/{tid}/comm") as fh:
                name = fh.read().strip()
        except (OSError, ValueError, IndexError):
            continue
        out[int(tid)] = (name, int(run), int(wait), int(majflt))
    return out


def idle(win) -> bool:
    """No scan, grouping, sort, filter or load under way (attributes the window has now or had)."""
    if win.worker is not None or getattr(win, "_regroup_worker", None) is not None:
        return False
    if win.session.regrouping or win.actions.worker is not None:
        return False
    busy = getattr(win.model, "busy", None)
    if callable(busy) and busy():
        return False
    loading = getattr(win.actions, "loading", None)
    if callable(loading) and loading():
        return False
    writing = getattr(getattr(win.actions, "files", None), "writing", None)
    if callable(writing) and writing():
        return False
    remarker = getattr(win.actions, "remarker", None)
    return not (remarker is not None and remarker.busy())


def measure(app, beat: Heartbeat, win, name: str, trigger, settle: float = 0.3,
            timeout: float = 600.0) -> float:
    from PySide6.QtCore import QEventLoop, QTimer

    beat.reset()
    t0 = time.perf_counter()
    trigger()
    # The real event loop, as the app runs (app.exec), until idle, then a settle for late
    # work (paint, queued signals). A loop of processEvents() and 2 ms sleeps took Python's
    # lock 500 times a second and made stalls of its own (benchmarks/grouping_beats.py).
    loop, look = QEventLoop(), QTimer()
    look.setInterval(20)
    look.timeout.connect(lambda: (idle(win) or time.perf_counter() - t0 > timeout)
                         and loop.quit())
    look.start()
    loop.exec()
    look.stop()
    took = time.perf_counter() - t0
    QTimer.singleShot(int(settle * 1000), loop.quit)
    loop.exec()
    worst = max(beat.worst, time.perf_counter() - beat.last)
    print(f"  {name:<34} worst stall {worst * 1000:7.0f} ms   (done in {took:6.2f} s; "
          f"{beat.late} gaps over 50 ms)", flush=True)
    for kind, n in sorted(beat.causes.items(), key=lambda kv: -kv[1]):
        print(f"    {n} late: {kind}")
    return worst


def scan_tree(app, beat: Heartbeat, win, tree: str, stalls: dict) -> None:
    """A cold scan of ``tree`` (main() empties the workdir's fingerprint cache first), then
    a warm rescan, in the app at the default settings."""
    win.folders.add_folder(tree)
    for kind in ("cold", "warm"):
        stalls[f"tree scan ({kind})"] = measure(app, beat, win, f"scan {tree} ({kind})",
                                                win.start_scan, timeout=3600.0)
        print(f"    {len(win.records):,} records, {len(win.session.groups):,} groups")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=100_000, help="synthetic records")
    ap.add_argument("--scan-files", type=int, default=0, help="real files to scan (0: none)")
    ap.add_argument("--scan-tree", default="", help="an existing folder to scan, cold then warm")
    ap.add_argument("--stacks", default="", help="a file: every thread's stack when a beat is late")
    ap.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "simdup-stalls"))
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    for var in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        os.environ[var] = os.path.join(args.workdir, var.lower())
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from grouping import synthetic
    from simdup_gui.app.window import MainWindow
    from simdup_gui.core.presenters.tree import COL_NAME, COL_SIZE
    from simdup_gui.core.scan.pipeline import ScanResult
    from PySide6.QtCore import Qt

    import simdup_gui
    print(f"simdup_gui from {os.path.dirname(simdup_gui.__file__)}")
    app = QApplication.instance() or QApplication([])
    settings = QSettings(os.path.join(args.workdir, "settings.ini"), QSettings.Format.IniFormat)
    settings.clear()
    # looked at before the window opens the cache (which creates an empty one)
    cache = os.path.join(args.workdir, "xdg_cache_home", "simdup", "fingerprints.sqlite")
    if args.scan_tree:  # cold, then warm
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(cache + suffix):
                os.remove(cache + suffix)
    kind = "warm" if os.path.exists(cache) else "cold"
    win = MainWindow(settings=settings)
    win.show()
    app.processEvents()
    beat = Heartbeat(stacks=open(args.stacks, "w") if args.stacks else None)
    stalls = {}

    if args.scan_files:
        corpus = os.path.join(args.workdir, f"corpus{args.scan_files}")
        t = time.perf_counter()
        make_files(corpus, args.scan_files)
        print(f"{args.scan_files:,} files under {corpus} ({time.perf_counter() - t:.0f} s to make)")
        win.folders.add_folder(corpus)
        win.panel.threshold_box.setValue(70)
        stalls[f"scan ({kind})"] = measure(app, beat, win, f"scan {args.scan_files:,} files ({kind})",
                                           win.start_scan)
        print(f"    {len(win.records):,} records, {len(win.session.groups):,} groups")

    if args.scan_tree:
        scan_tree(app, beat, win, args.scan_tree, stalls)
    if not args.files:
        print("worst over everything: " + ", ".join(f"{k} {v * 1000:.0f} ms"
                                                    for k, v in stalls.items()))
        return
    t = time.perf_counter()
    recs = synthetic(args.files)
    print(f"{args.files:,} synthetic records ({time.perf_counter() - t:.0f} s to make)", flush=True)
    result = ScanResult(recs, [], {"files": len(recs)}, False)
    win.panel.threshold_box.blockSignals(True)
    win.panel.threshold_box.setValue(70)
    win.panel.threshold_box.blockSignals(False)
    win.panel.bits_box.setCurrentIndex(win.panel.bits_box.findData(64))
    sort = win.tree.sortByColumn

    def scroll_to_end() -> None:
        """What the user does with the End key or the scroll bar dragged down, repeated until
        the last row is on screen (a lazy model hands out more rows each time)."""
        from PySide6.QtCore import QModelIndex

        tree, bar = win.tree, win.tree.verticalScrollBar()
        for _ in range(100_000):
            tree.scrollToBottom()
            app.processEvents()
            if bar.value() == bar.maximum() and not win.model.canFetchMore(QModelIndex()):
                break
    ops = [
        ("show a scan's result", lambda: win._on_scanned(result)),
        ("regroup: threshold 70 -> 80 %", lambda: win.panel.threshold_box.setValue(80)),
        ("regroup: size 64 -> 128 bits",
         lambda: win.panel.bits_box.setCurrentIndex(win.panel.bits_box.findData(128))),
        ("sort by name", lambda: sort(COL_NAME, Qt.SortOrder.AscendingOrder)),
        ("sort by size, descending", lambda: sort(COL_SIZE, Qt.SortOrder.DescendingOrder)),
        ("sort: engine's order", lambda: sort(-1, Qt.SortOrder.AscendingOrder)),
        ("filter 'doc00012'", lambda: win.filter_edit.setText("doc00012")),
        ("clear the filter", lambda: win.filter_edit.setText("")),
        ("duplicates only, on", lambda: win.results_ui.act_dupes_only.setChecked(True)),
        ("duplicates only, off", lambda: win.results_ui.act_dupes_only.setChecked(False)),
        ("mark all but one (oldest)", lambda: win.actions.mark_all_but_one("oldest")),
        ("invert the marks", win.actions.invert),
        ("select all", win.tree.selectAll),
        ("mark the selected files", lambda: win.actions.mark_selected(True)),
        ("clear the marks", win.actions.clear),
        ("scroll to the end", scroll_to_end),
        ("expand all", lambda: win.groups_view.expand_all()),
        ("scroll to the end, all expanded", scroll_to_end),
        ("sort by size, all expanded", lambda: sort(COL_SIZE, Qt.SortOrder.AscendingOrder)),
        ("collapse all", lambda: win.groups_view.collapse_all()),
    ]
    print(f"{len(recs):,} records:")
    for name, trigger in ops:
        stalls[name] = measure(app, beat, win, name, trigger)
        if name.startswith("show"):
            print(f"    {len(win.session.groups):,} groups")
    saved = os.path.join(args.workdir, "results.json")
    files = win.actions.files
    if hasattr(files, "write"):  # saved on the pool when large
        stalls["save results"] = measure(app, beat, win, f"save {len(recs):,} files' results",
                                         lambda: files.write(saved))
        stalls["export JSON"] = measure(app, beat, win, "export the groups as JSON",
                                        lambda: files.write(saved + ".groups.json", "json"))
    else:
        stalls["save results"] = measure(app, beat, win, f"save {len(recs):,} files' results",
                                         lambda: win.actions.save_to(saved))
    print(f"  (results saved: {os.path.getsize(saved) / 1e6:.0f} MB)")
    stalls["load results"] = measure(app, beat, win, f"load a {len(recs):,}-file results file",
                                     lambda: win.actions.load_from(saved))
    print(f"    {len(win.records):,} records, {len(win.session.groups):,} groups")
    worst = max(stalls, key=stalls.get)
    print(f"worst: {stalls[worst] * 1000:.0f} ms ({worst})")
    win.close()


if __name__ == "__main__":
    main()
