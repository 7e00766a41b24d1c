"""How errors reach the user, one way: a refusal (the core said no before touching
anything, or a file could not be read or written) is a warning with its reason; anything
else is a bug report with the traceback."""

from __future__ import annotations

import os
import traceback

from PySide6.QtWidgets import QMessageBox, QWidget

from simdup_gui.core.presenters.engine_text import REFUSALS
from simdup_gui.core.session import Refusal

EXPECTED = (Refusal, OSError, ValueError)  # ActionRefused is a ValueError


def error_text(error: BaseException) -> str:
    """The reason for an expected error; type, message and traceback for anything else.
    An OSError says its reason without "[Errno N]", and its file once."""
    if isinstance(error, OSError) and error.strerror:
        name = os.fsdecode(error.filename) if error.filename is not None else ""
        return error.strerror + (f": {name}" if name and name not in error.strerror else "")
    if isinstance(error, EXPECTED):
        return str(error)
    tb = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return f"{type(error).__name__}: {error}\n{tb}"


def first_line(error: BaseException) -> str:
    return (error_text(error).splitlines() or [""])[0]


def show_error(parent: QWidget | None, title: str, error: BaseException,
               about: str = "") -> None:
    """A message box for ``error``; ``about`` (a path) heads the reason, in the interface's
    language where the engine's words are known (presenters.engine_text)."""
    if isinstance(error, EXPECTED):
        reason = REFUSALS(error_text(error))
        QMessageBox.warning(parent, title,
                            f"{about}:\n{reason}" if about and about not in reason else reason)
    else:
        QMessageBox.critical(parent, title, error_text(error))
