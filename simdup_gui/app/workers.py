"""The one worker pattern: a QRunnable that owns a signals QObject.

``Worker(fn, *args, **kwargs)`` runs ``fn(*args, job=<Job>, **kwargs)`` on a QThreadPool
thread; progress events and the result (or the exception object) come back to the main
thread as signals. Cancel sets the job's flag; the engine stops between units of work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Signal

from simdup_gui.core.job import Cancelled, Job


class WorkerSignals(QObject):
    started = Signal()
    progress = Signal(object)  # a core ProgressEvent (or any object the task reports)
    returned = Signal(object)
    errored = Signal(object)  # the exception, with its __traceback__
    cancelled = Signal()
    finished = Signal()


class Worker(QRunnable):
    """Runs ``fn(*args, job=job, **kwargs)`` off the GUI thread."""

    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.signals = WorkerSignals()
        self.job = Job(self.signals.progress.emit)
        self._fn = fn
        self._args = args
        self._kwargs = kwargs

    def cancel(self) -> None:
        self.job.cancel()

    def run(self) -> None:
        sig = self.signals
        sig.started.emit()
        try:
            result = self._fn(*self._args, job=self.job, **self._kwargs)
        except Cancelled:
            sig.cancelled.emit()
        except Exception as e:  # noqa: BLE001 - shown to the user, never swallowed
            sig.errored.emit(e)
        else:
            sig.returned.emit(result)
        finally:
            sig.finished.emit()
