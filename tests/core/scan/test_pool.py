"""The scan's pools (poolctx.make_pool): their worker-handler thread does not spin while
results wait to be read (CPython's does: it waits on the result pipe too), and they still
replace a worker that dies and end when closed or terminated."""

from __future__ import annotations

import multiprocessing as mp
import multiprocessing.pool
import os
import time

import pytest

from simdup_gui.core.scan import poolctx


def _big(i: int) -> bytes:
    return bytes(200_000)


def _pid(_: int) -> int:
    time.sleep(0.05)
    return os.getpid()


def _handler_rounds(cls, monkeypatch) -> int:
    """How many times the worker handler of a ``cls`` pool went round its loop while 120
    large results came back and this thread kept the GIL busy (as the scan's does)."""
    rounds = [0]
    real = multiprocessing.pool.Pool._maintain_pool  # a static method

    def counting(*a, **k):
        rounds[0] += 1
        return real(*a, **k)

    # the handler thread runs Pool._handle_workers, which calls Pool._maintain_pool
    monkeypatch.setattr(multiprocessing.pool.Pool, "_maintain_pool", staticmethod(counting))
    pool = cls(2, context=mp.get_context("spawn"))
    try:
        res = pool.map_async(_big, range(120), chunksize=1)
        x = 0
        while not res.ready():
            for i in range(20_000):  # Python work between the result thread's reads
                x += i
        assert [len(b) for b in res.get(60)] == [200_000] * 120
    finally:
        pool.close()
        pool.join()
    return rounds[0]


def test_the_handler_does_not_wake_for_each_result(monkeypatch):
    ours = _handler_rounds(poolctx._Pool, monkeypatch)
    assert ours <= 10  # its start, the workers' start, close


@pytest.mark.skipif(not hasattr(multiprocessing.pool.Pool, "_get_sentinels"),
                    reason="this Python's Pool does not wait on the result pipe")
def test_cpythons_handler_does(monkeypatch):  # what the check above is against
    assert _handler_rounds(multiprocessing.pool.Pool, monkeypatch) > 20


def _die(_: int) -> None:
    os._exit(3)  # inside a task: the worker holds none of the queues' locks


def test_a_dead_worker_is_replaced_and_the_pool_ends():
    """(A worker killed while idle may die holding the task queue's lock, which stalls any
    multiprocessing pool: the scan abandons such a pool, poolctx.abandon. Here it dies in a
    task.)"""
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    try:
        before = {p.pid for p in pool._pool}
        pool.apply_async(_die, (0,))
        deadline = time.monotonic() + 30
        now = before
        while time.monotonic() < deadline:  # (the dead one leaves the list, then a new one
            now = {p.pid for p in pool._pool}  # joins it: not in one step)
            if len(now) == 2 and not before <= now:
                break
            time.sleep(0.05)
        assert len(now) == 2 and len(before - now) == 1  # the dead one replaced
        later = set(pool.map(_pid, range(8), chunksize=1))
        assert later <= now
    finally:  # (close() would wait for ever for the lost task, as CPython's pool does)
        pool.terminate()
        pool.join()
    assert not pool._worker_handler.is_alive() and not pool._result_handler.is_alive()
    assert not any(p.is_alive() for p in pool._pool)
    pool2 = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    pool2.map_async(_pid, range(40), chunksize=1).get(60)
    pool2.close()  # every task answered: close ends it
    pool2.join()
    assert not pool2._worker_handler.is_alive() and not any(p.is_alive() for p in pool2._pool)


def _square(x: int) -> int:
    return x * x


@pytest.fixture
def keeping(monkeypatch):
    monkeypatch.setattr(poolctx, "_keep", True)
    monkeypatch.setattr(poolctx, "_parked", None)
    yield
    poolctx.end_parked()


def test_a_kept_pool_goes_to_the_next_user_of_as_many_workers(keeping):
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    assert pool.map(_square, range(4)) == [0, 1, 4, 9]
    assert poolctx.park(pool, 2)
    assert poolctx.take(2) is pool
    assert poolctx.take(2) is None  # taken once
    assert pool.map(_square, range(3)) == [0, 1, 4]  # it still works
    assert poolctx.park(pool, 2)
    assert poolctx.take(3) is None  # another size: not this one, which is ended
    assert pool._state == "TERMINATE"


def test_a_kept_pool_that_no_longer_runs_is_not_handed_over(keeping):
    pool = poolctx.make_pool(2, ctx=mp.get_context("spawn"))
    pool.close()
    assert poolctx.park(pool, 2)
    assert poolctx.take(2) is None
    pool.join()


def test_a_second_kept_pool_ends_the_first_and_end_parked_ends_the_last(keeping):
    first = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    second = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    assert poolctx.park(first, 1) and poolctx.park(second, 1)
    assert first._state == "TERMINATE" and second._state == "RUN"
    poolctx.end_parked()
    assert second._state == "TERMINATE" and poolctx.take(1) is None


def test_pools_are_not_kept_unless_asked(monkeypatch):
    """The app ends its pools (idle workers would hold memory between scans)."""
    monkeypatch.setattr(poolctx, "_parked", None)
    assert not poolctx._keep
    pool = poolctx.make_pool(1, ctx=mp.get_context("spawn"))
    try:
        assert not poolctx.park(pool, 1) and poolctx.take(1) is None
    finally:
        pool.terminate()
        pool.join()
