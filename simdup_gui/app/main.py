"""Entry point of the desktop app: `simdup-gui [ROOT...] [--bits N] [--distance K] [--scan]
[--against NAME.simcat]`."""

from __future__ import annotations

import argparse
import ctypes
import os
import sys
from collections.abc import Callable, Mapping

# Qt platforms that need no display server (tests, remote desktops, framebuffers)
HEADLESS_PLATFORMS = ("offscreen", "minimal", "minimalegl", "vnc", "eglfs", "linuxfb",
                      "vkkhrdisplay")
# What Qt's X11 (xcb) platform plugin loads, and the Debian/Ubuntu package of each
XCB_LIBRARIES = (("libxcb-cursor.so.0", "libxcb-cursor0"),
                 ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
                 ("libxcb-icccm.so.4", "libxcb-icccm4"),
                 ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
                 ("libxcb-shape.so.0", "libxcb-shape0"),
                 ("libxcb-render-util.so.0", "libxcb-render-util0"),
                 ("libxcb-image.so.0", "libxcb-image0"))


def parse_args(argv: list[str]) -> argparse.Namespace:
    from simdup_gui.core.validate import arg_type, parse_bits

    p = argparse.ArgumentParser(prog="simdup-gui", description="simdup desktop app")
    p.add_argument("roots", nargs="*", metavar="ROOT", help="folders to put in the folder list")
    p.add_argument("--bits", type=arg_type(parse_bits), default=None, help="fingerprint size: 16/32/64/128")
    p.add_argument("--distance", type=int, default=None, help="maximum Hamming distance")
    p.add_argument("--scan", action="store_true", help="start scanning at once")
    p.add_argument("--language", choices=("en", "zh_CN"), default=None)
    p.add_argument("--against", action="append", default=[], metavar="NAME.simcat",
                   help="compare with a catalog (File > Compare with catalog…): a drive that "
                   "is not plugged in (repeatable)")
    p.add_argument("--screenshot", metavar="PNG", help=argparse.SUPPRESS)  # docs: scan, pick, save
    return p.parse_args(argv)


def _loads(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def display_problem(environ: Mapping[str, str] = os.environ, platform: str = sys.platform,
                    loads: Callable[[str], bool] = _loads) -> str | None:
    """Why Qt could not open a window here (one line), or None when it can.

    Qt aborts the process (SIGABRT) when its platform plugin cannot start; this says why
    before a QApplication is made: no display server, or the X11 plugin's libraries missing.
    """
    if platform.startswith(("win", "darwin", "cygwin")):
        return None
    name = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if name in HEADLESS_PLATFORMS:
        return None
    wayland, x11 = environ.get("WAYLAND_DISPLAY"), environ.get("DISPLAY")
    if name.startswith("wayland"):
        return None if wayland else ("no Wayland display (WAYLAND_DISPLAY is unset); run it "
                                     "in a desktop session or under xvfb-run")
    if not x11 and not wayland:
        return ("no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset): run "
                "it under xvfb-run, or with QT_QPA_PLATFORM=offscreen for tests")
    if x11 and (name == "xcb" or not wayland):
        missing = [pkg for so, pkg in XCB_LIBRARIES if not loads(so)]
        if missing:
            return ("Qt's X11 platform needs libraries that are missing; on Debian/Ubuntu: "
                    "apt-get install " + " ".join(missing))
    return None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from PySide6.QtWidgets import QApplication

    problem = None if QApplication.instance() else display_problem()
    if problem:
        print(f"simdup-gui: {problem}", file=sys.stderr)
        return 2

    from simdup_gui.core.review.kept import default_path

    from .window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("simdup")
    app.setApplicationName("simdup")
    # the session is kept in the user data folder and shown at the next start, unless
    # folders are given here
    win = MainWindow(roots=args.roots, bits=args.bits, distance=args.distance,
                     language=args.language, keep_session=default_path())
    for path in args.against:  # (File > Compare with catalog… reads it on the pool)
        try:
            win.session.compare_with_catalog(path)
        except ValueError as e:  # CatalogError: one line
            print(f"simdup-gui: error: {e}", file=sys.stderr)
            return 2
    win.show()
    if args.screenshot:
        # once the scan is done and its groups are shown, whichever comes last (a large
        # scan's grouping runs on a worker after it; a small one's rows show at once)
        seen: set[str] = set()

        def then(what: str) -> None:
            seen.add(what)
            if seen == {"scan", "groups"}:
                seen.add("shot")
                _screenshot(app, win, args.screenshot)
        win.scanFinished.connect(lambda _r: then("scan"))
        win.groupsChanged.connect(lambda: then("groups"))
    if args.scan or args.screenshot:
        win.start_scan()
    return app.exec()


def _screenshot(app, win, path: str) -> None:
    """Select the most edited Chinese file of a group (the lowest similarity to its reference
    among those not at distance 0), then save the window to ``path`` and quit."""
    from PySide6.QtCore import QTimer

    def shoot() -> None:
        model = win.model
        best, best_sim = None, 2.0
        for row, (gi, members) in enumerate(model.rows):
            near = {m.index: m for m in model.groups[gi].members}
            for child, m in enumerate(members):
                mem = near.get(m.index)
                if mem is None or mem.distance == 0:
                    continue
                sim = 1.0 if mem.similarity is None else mem.similarity
                if sim < best_sim and any("\u4e00" <= c <= "\u9fff"
                                          for c in win.records[m.index].path):
                    best, best_sim = (row, child), sim
        if best is not None:
            win.groups_view.show_file(*best)
        QTimer.singleShot(300, lambda: (win.grab().save(path), app.quit()))

    QTimer.singleShot(300, shoot)
