"""The one worker pattern: a QRunnable that owns a signals QObject.

The callable runs on a QThreadPool thread and receives a core ``Job``; progress
events and the result (or the error) come back to the main thread as signals.
Cancel sets the job's flag; the engine stops between units of work.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Signal

from simdup_gui.core.job import Cancelled, Job


class WorkerSignals(QObject):
    started = Signal()
    progress = Signal(object)  # a core ProgressEvent (or any object the task reports)
    returned = Signal(object)
    errored = Signal(str)
    cancelled = Signal()
    finished = Signal()


class Worker(QRunnable):
    """Runs ``fn(job, *args)`` off the GUI thread."""

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.signals = WorkerSignals()
        self.job = Job(self.signals.progress.emit)
        self._fn = fn
        self._args = args

    def cancel(self) -> None:
        self.job.cancel()

    def run(self) -> None:
        sig = self.signals
        sig.started.emit()
        try:
            result = self._fn(self.job, *self._args)
        except Cancelled:
            sig.cancelled.emit()
        except Exception as e:  # noqa: BLE001 - shown to the user, never swallowed
            sig.errored.emit(f"{type(e).__name__}: {e}\n{traceback.format_exc()}")
        else:
            sig.returned.emit(result)
        finally:
            sig.finished.emit()

