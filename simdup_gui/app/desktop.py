"""Opening a file or folder with the desktop's application for it."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QDesktopServices

from simdup_gui.core.command import run_detached
from simdup_gui.core.models import CATALOG_SCHEME

SAY_MS = 15_000  # how long the status bar says a file could not be opened


def open_path(path: str, window=None) -> bool:
    """Open ``path`` as a double-click in the file manager would; True when an application
    was started for it. When none was (no desktop running, no application set for the
    kind of file, no launcher such as xdg-open), ``window``'s status bar says so: Enter on a
    file never fails silently. A file of a catalog (not on this computer) is never opened."""
    if path.startswith(CATALOG_SCHEME):
        if window is not None:
            window.statusBar().showMessage(QCoreApplication.translate(
                "Desktop", "It is in a catalog, on a drive that is not connected: there is "
                           "nothing to open here."), SAY_MS)
        return False
    opened = _launch(path)
    if not opened and window is not None:
        window.statusBar().showMessage(QCoreApplication.translate(
            "Desktop", "Nothing opened {0}: no desktop application is set for it here (or no "
                       "desktop is running). Open it from your file manager.").format(path),
            SAY_MS)
    return opened


def _held_linux() -> bool:
    """On Linux, while a local Dask cluster holds PYTHONSAFEPATH in this process's
    environment (poolctx.safe_path): the desktop's application is then started through
    xdg-open in the user's own environment, not Qt's launcher in ours."""
    from simdup_gui.core.scan.poolctx import holds_safe_path

    return sys.platform.startswith("linux") and holds_safe_path()


def _launch(path: str) -> bool:
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY") and not os.environ.get(
            "WAYLAND_DISPLAY"):
        return False  # nothing to show an application on
    if _held_linux():  # Qt would start xdg-open in this process's environment
        try:
            run_detached(["xdg-open", path])
            return True
        except OSError:
            return False
    if QDesktopServices.openUrl(QUrl.fromLocalFile(path)):
        return True
    if sys.platform == "darwin":
        return subprocess.run(["open", path], check=False).returncode == 0
    return False
