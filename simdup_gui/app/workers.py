"""The one worker pattern: a QRunnable that owns a signals QObject.

``Worker(fn, *args, **kwargs)`` runs ``fn(*args, job=<Job>, **kwargs)`` on a QThreadPool
thread; progress events and the result (or the exception object) come back to the main
thread as signals. Cancel sets the job's flag; the engine stops between units of work.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Signal

from simdup_gui.core.job import Cancelled, Job

SWITCH_INTERVAL = 0.001  # seconds: how long a busy thread may keep Python's lock from another


def share_the_interpreter() -> None:
    """Python's lock handed from a busy background thread to the window's thread after
    SWITCH_INTERVAL, not the default 5 ms: each thing the window does between two events
    takes the lock several times, and waiting 5 ms for it each time added up to frozen
    windows while a scan's grouping ran. ``benchmarks/gui_stalls.py --scan-tree`` on the
    768 MB tree (55,112 files), 5 ms against 1 ms, four ABBA pairs at load 1.0-1.3, the worst
    stall of a cold scan: 124, 104, 67, 40 -> 57, 42, 46, 37 ms (beats late by over 50 ms:
    9, 7, 2, 0 -> 1, 0, 0, 0); of a warm one: 135, 34, 128, 47 -> 43, 32, 79, 47 ms (5, 0,
    9, 0 -> 0, 0, 1, 0). The scans took as long (cold 75.6-100.8 s either way). (The first
    two pairs set the interval from a wrapper around the benchmark, the last two here.)"""
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))


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
