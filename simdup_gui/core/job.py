"""Progress and cancellation passed into long work by its caller."""

from __future__ import annotations

import threading
from collections.abc import Callable

from .models import ProgressEvent


class Cancelled(Exception):
    """Raised inside long work when its job was cancelled."""


class Job:
    """Carries a progress callback and a thread-safe cancel flag.

    The engine calls :meth:`report` in counted steps and :meth:`check` between
    units of work; the caller (CLI, GUI worker, test) calls :meth:`cancel`.
    """

    def __init__(self, on_progress: Callable[[ProgressEvent], None] | None = None) -> None:
        self._on_progress = on_progress
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        if self._cancel.is_set():
            raise Cancelled()

    def report(self, event: ProgressEvent) -> None:
        if self._on_progress is not None:
            self._on_progress(event)


NULL_JOB = Job()
