"""The cyclic garbage collector kept off the window's back.

A full collection visits every tracked object that is not frozen, holding the GIL all the
while, from whichever thread happens to allocate at the wrong moment: over 100,000 records
and their groups that is a tenth to a third of a second in which the window cannot repaint
(benchmarks/gui_stalls.py). The data the app keeps (records, groups, the tree's rows) holds
no reference cycles and is freed by reference counting, so it is moved out of the
collector's view (``gc.freeze``) once built; while a worker builds it, automatic collection
is paused, so the half-built data is not visited again and again.

What is frozen stays reachable or is freed by reference counting as usual; only garbage
*cycles* alive at a freeze would be kept (a few hundred objects measured per regroup or
load of 100,000 files, against collections costing 100-300 ms each).
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_builders = 0  # workers building bulk data now
_was_enabled = True  # what the collector was when the first of them started


@contextmanager
def collection_paused() -> Iterator[None]:
    """No automatic collection inside (nested and from several threads alike); at the end
    of the last one, what is alive is frozen and collection resumes as it was."""
    global _builders, _was_enabled
    with _lock:
        if _builders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _builders += 1
    try:
        yield
    finally:
        with _lock:
            _builders -= 1
            if _builders == 0:
                gc.freeze()
                if _was_enabled:
                    gc.enable()


def building(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` run with collection paused and what it built frozen after: for worker tasks
    that make bulk data (groups, the tree's rows, a loaded file's records)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> T:
        with collection_paused():
            return fn(*args, **kwargs)

    return run


def settle() -> None:
    """Freeze what is alive now (a scan's records, kept for the review) without a full
    collection first: that collection is the very stall this module avoids."""
    gc.freeze()
