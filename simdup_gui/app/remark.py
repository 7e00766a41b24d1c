"""New marks computed off the window's thread when the results are large.

"Mark all but one" over 100,000 files took half a second of the window's thread (choosing
the kept file of each of 13,625 groups in Python); inverting the marks, a fifth. Above
``MARK_IN_WORKER_ABOVE`` records the marks are computed on the pool from a snapshot of the
results; if the marks changed meanwhile (a check box clicked), they are computed again, on the
pool too, from the marks as they are then, so no click is lost.
"""

from __future__ import annotations

from collections.abc import Callable

from simdup_gui.core.review.results import Results

from . import heap
from .workers import Worker

MARK_IN_WORKER_ABOVE = 5_000  # records


def _compute(fn: Callable[[Results], set[str]], res: Results, job=None) -> set[str]:
    return fn(res)


class Remarker:
    """Runs a marks function (``Session.keep_marks(...)``, ``Session.inverted_marks()``)
    and hands the new marks to ``apply`` (a set of paths; it replaces the marks)."""

    def __init__(self, session, pool, apply: Callable[[set[str]], None]) -> None:
        self.session = session
        self.pool = pool
        self.apply = apply
        self.worker: Worker | None = None

    def busy(self) -> bool:
        return self.worker is not None

    def run(self, fn: Callable[[Results], set[str]]) -> bool:
        """False when marks are being computed already (nothing is started)."""
        if self.worker is not None:
            return False
        res = self.session.results()
        if len(res.records) <= MARK_IN_WORKER_ABOVE:
            self.apply(fn(res))
            return True
        self._start(fn, res)
        return True

    def _start(self, fn: Callable[[Results], set[str]], res: Results) -> None:
        before = self.session.marks
        self.worker = w = Worker(heap.building(_compute), fn, res.snapshot())
        w.signals.returned.connect(lambda marks: self._done(fn, before, marks))
        w.signals.finished.connect(lambda: self._finished(w))
        self.pool.start(w)

    def _done(self, fn, before, marks: set[str]) -> None:
        if self.session.marks is not before:  # changed while they were computed: again,
            self._start(fn, self.session.results())  # from a snapshot of the marks of now
            return
        self.apply(marks)

    def _finished(self, worker: Worker) -> None:
        if self.worker is worker:
            self.worker = None
