"""Entry point of the desktop app: `simdup-gui [ROOT...] [--bits N] [--distance K] [--scan]`."""

from __future__ import annotations

import argparse
import sys


def parse_args(argv: list[str]) -> argparse.Namespace:
    from simdup_gui.core.validate import arg_type, parse_bits

    p = argparse.ArgumentParser(prog="simdup-gui", description="simdup desktop app")
    p.add_argument("roots", nargs="*", metavar="ROOT", help="folders to put in the folder list")
    p.add_argument("--bits", type=arg_type(parse_bits), default=None, help="fingerprint size: 16/32/64/128")
    p.add_argument("--distance", type=int, default=None, help="maximum Hamming distance")
    p.add_argument("--scan", action="store_true", help="start scanning at once")
    p.add_argument("--language", choices=("en", "zh_CN"), default=None)
    p.add_argument("--screenshot", metavar="PNG", help=argparse.SUPPRESS)  # docs: scan, pick, save
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from PySide6.QtWidgets import QApplication

    from .window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("simdup")
    app.setApplicationName("simdup")
    win = MainWindow(roots=args.roots, bits=args.bits, distance=args.distance,
                     language=args.language)
    win.show()
    if args.screenshot:
        win.scanFinished.connect(lambda _r: _screenshot(app, win, args.screenshot))
    if args.scan or args.screenshot:
        win.start_scan()
    return app.exec()


def _screenshot(app, win, path: str) -> None:
    """Select a Chinese file of the largest group, then save the window to ``path`` and quit."""
    from PySide6.QtCore import QTimer

    from .tree_models import RECORD_ROLE

    def shoot() -> None:
        model = win.model
        best, best_d = None, -1
        for g in range(model.rowCount()):
            gi = model.index(g, 0)
            group = win.model.group_at(gi)
            dist = {m.index: m.distance for m in group.members}
            for r in range(model.rowCount(gi)):
                idx = model.index(r, 0, gi)
                i = idx.data(RECORD_ROLE)
                if any("\u4e00" <= c <= "\u9fff" for c in win.records[i].path) and 0 < dist[i] < 5:
                    if dist[i] > best_d:
                        best, best_d = idx, dist[i]
        if best is not None:
            win.tree.setCurrentIndex(best)
        QTimer.singleShot(300, lambda: (win.grab().save(path), app.quit()))

    QTimer.singleShot(300, shoot)
