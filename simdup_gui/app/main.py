"""Entry point of the desktop app: `simdup-gui [ROOT...] [--bits N] [--distance K] [--scan]`."""

from __future__ import annotations

import argparse
import sys


def parse_args(argv: list[str]) -> argparse.Namespace:
    from simdup_gui.cli.common import bits_arg

    p = argparse.ArgumentParser(prog="simdup-gui", description="simdup desktop app")
    p.add_argument("roots", nargs="*", metavar="ROOT", help="folders to put in the folder list")
    p.add_argument("--bits", type=bits_arg, default=None, help="fingerprint size: 16/32/64/128")
    p.add_argument("--distance", type=int, default=None, help="maximum Hamming distance")
    p.add_argument("--scan", action="store_true", help="start scanning at once")
    p.add_argument("--language", choices=("en", "zh_CN"), default=None)
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
    if args.scan:
        win.start_scan()
    return app.exec()
