"""Opening a file or folder with the desktop's application for it."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices


def open_path(path: str) -> None:
    """Open ``path`` as a double-click in the file manager would (nothing without a display)."""
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY") and not os.environ.get(
            "WAYLAND_DISPLAY"):
        return
    if not QDesktopServices.openUrl(QUrl.fromLocalFile(path)) and sys.platform == "darwin":
        subprocess.run(["open", path], check=False)
