"""Fingerprinting on a Dask cluster: the same chunks and the same worker function as the local
pool (:func:`fingerprint_batch`), so records are bit-identical to a local scan's.

The walk runs on the client; chunks of (path, root) go to the workers, which read the files
from a file system mounted at the same path on every node; only records (fingerprints and
sketches, never texts) come back. A worker that dies loses nothing: the scheduler runs its
unfinished chunks again elsewhere, and each chunk's result is taken once. Cancel cancels the
futures. Dask is optional (``pip install "simdup[dask]"``).
"""

from __future__ import annotations

import contextlib
import os
import threading
import urllib.parse
import uuid
from concurrent.futures import CancelledError
from collections.abc import Callable, Sequence

from ..job import Job
from ..models import FileRecord, Problem
from . import _remote

EXTRA = "simdup[dask]"
IN_FLIGHT_PER_WORKER = 4  # chunks queued per worker thread: enough to keep it busy
CONNECT_TIMEOUT = "10s"
RESUBMITS = 3  # times a chunk is submitted when the cluster cancels it (not a failure of its own)


class SchedulerError(ValueError):
    """No Dask, or a scheduler address that cannot be used. ``str()`` says what to do."""


SCHEMES = ("tcp", "tls")  # Dask's network transports simdup can use (ucx, inproc: no)


def parse_scheduler(value: str) -> tuple[str, int]:
    """("local", N) for ``local`` / ``local:N``, else (scheme, 0) for an address such as
    ``tcp://host:8786`` (``tls://`` with certificates in Dask's configuration). Raises
    SchedulerError, one line saying what is wrong, for anything else."""
    v = value.strip()
    if v == "local" or v.startswith("local:"):
        n = v.partition(":")[2]
        if n and (not n.isdigit() or not 1 <= int(n) <= 512):
            raise SchedulerError(f"--scheduler local:N needs N from 1 to 512, not {n!r}")
        return "local", int(n) if n else max(1, os.cpu_count() or 1)
    usage = (f"--scheduler must be local, local:N or an address such as tcp://host:8786, "
             f"not {value!r}")
    if "://" not in v:
        raise SchedulerError(usage)
    scheme = v.split("://", 1)[0].lower()
    if scheme not in SCHEMES:
        raise SchedulerError(f"--scheduler: the {scheme!r} transport of {value!r} is not "
                             "supported; use tcp:// (or tls://)")
    try:
        parts = urllib.parse.urlsplit(v)
        host, port = parts.hostname, parts.port
    except ValueError as e:  # "tcp://[::1", a port that is not a number or out of range
        raise SchedulerError(f"--scheduler: {value!r} is not a valid address ({e})") from None
    if not host or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise SchedulerError(usage)
    if port is None:
        raise SchedulerError(f"--scheduler: {value!r} names no port (Dask's is 8786: "
                             f"{scheme}://{host}:8786)")
    if scheme == "tls" and not _tls_configured():
        raise SchedulerError("--scheduler tls:// needs certificates in Dask's configuration "
                             "(distributed.comm.tls.ca-file, .client.cert, .client.key; see "
                             "the user guide)")
    return scheme, 0


def _tls_configured() -> bool:
    try:
        import dask

        return bool(dask.config.get("distributed.comm.tls.ca-file", None))
    except ImportError:  # require_dask says what is missing
        return True


def require_dask() -> None:
    """SchedulerError naming the extra to install when Dask's ``distributed`` is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise SchedulerError(f"scanning on a Dask cluster needs Dask: pip install \"{EXTRA}\"") \
            from None


def local_cluster(n: int):
    """A LocalCluster of ``n`` one-thread worker processes that survives a worker's death.

    Its watcher of worker status looks up a removed worker's name in the cluster's copy of
    the scheduler's worker list; when a killed worker is already gone from that copy it
    raises KeyError (dask/distributed#5407), the watcher dies, and close() stops halfway:
    the cluster stays "closing", its event-loop thread runs on, and the interpreter's exit
    waits 10 s for it. Here a worker already gone is left alone (the nanny restarts it)."""
    from distributed import LocalCluster

    class _LocalCluster(LocalCluster):
        def _update_worker_status(self, op, msg):
            if op == "remove" and msg not in self.scheduler_info.get("workers", {}):
                return
            super()._update_worker_status(op, msg)

    return _LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                         dashboard_address=":0")


CONNECT_DEADLINE = 30.0  # seconds: a scheduler that accepts connections but never answers


def _connect(client_class, address: str):
    """A client on ``address``, or SchedulerError within CONNECT_DEADLINE seconds: Dask's
    own time-out covers the connection, not an address that accepts it and then says
    nothing (such a scan hung for over 580 s). The attempt runs on a daemon thread, which
    is left behind when it does not answer."""
    box: dict = {}

    def attempt() -> None:
        try:
            box["client"] = client_class(address, timeout=CONNECT_TIMEOUT)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box["error"] = e

    t = threading.Thread(target=attempt, name="simdup-dask-connect", daemon=True)
    t.start()
    t.join(CONNECT_DEADLINE)
    if t.is_alive():
        raise SchedulerError(f"the Dask scheduler {address} accepts connections but did not "
                             f"answer within {CONNECT_DEADLINE:.0f} s; is it a Dask scheduler?")
    if "error" in box:
        raise box["error"]
    return box["client"]


class Cluster:
    """A client on a scheduler (or on a LocalCluster it starts); a context manager."""

    def __init__(self, scheduler: str) -> None:
        kind, n = parse_scheduler(scheduler)
        require_dask()
        from distributed import Client

        self.cluster = None
        # A local cluster's nannies spawn its workers, again when one dies, and its queues
        # start multiprocessing's resource tracker again when it died, all with ``python
        # -c`` (the working directory first on sys.path): PYTHONSAFEPATH is held for the
        # cluster's whole life (poolctx.safe_path), put back when it is closed. (Dask's
        # pre-spawn-environ would leave it in this process's environment for good.)
        self._held = contextlib.ExitStack()
        try:
            if kind == "local":
                from .poolctx import safe_path

                self._held.enter_context(safe_path())
                self.cluster = local_cluster(n)
                self.client = Client(self.cluster)
            else:
                self.client = _connect(Client, scheduler.strip())
        except SchedulerError:
            raise
        except Exception as e:  # noqa: BLE001 - any failure to connect is one clear line
            try:
                if self.cluster is not None:
                    self.cluster.close()
            finally:
                self._held.close()
            raise SchedulerError(f"cannot reach the Dask scheduler {scheduler}: "
                                 f"{type(e).__name__}: {e}") from None

    def threads(self) -> int:
        info = self.client.scheduler_info()
        return max(1, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            try:
                if self.cluster is not None:
                    self.cluster.close()
            finally:
                self._held.close()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def check_workers(client, mode: str) -> str:
    """The fingerprint scheme (FeatureSettings.version) of this client's records, after
    checking that every worker of the cluster makes the same: SchedulerError naming a worker
    that does not (another simdup, or rjieba where the client has jieba: the scheme names
    the tokenizer, not its version), whose records would otherwise be cached and grouped as
    this version's, silently wrong."""
    import cloudpickle

    cloudpickle.register_pickle_by_value(_remote)  # the code travels: see _remote
    want = _remote.scheme(mode)
    try:
        got = client.run(_remote.scheme, mode)
    except Exception as e:  # noqa: BLE001 - a worker without simdup, a broken one, or lost
        raise SchedulerError(f"the Dask workers could not say which fingerprints they make "
                             f"({type(e).__name__}: {e}); is this simdup installed on every "
                             f"worker, and are they reachable?") from None
    bad = sorted(w for w, v in got.items() if v != want)
    if bad:
        raise SchedulerError(
            f"{len(bad)} of {len(got)} Dask workers make other fingerprints than this simdup "
            f"({bad[0]}: {got[bad[0]]}; here: {want}); install this simdup on every worker")
    return want


def run_on_cluster(cluster: Cluster, chunks: Sequence[list], mode: str, job: Job,
                   take: Callable[[list, list], None]) -> int:
    """Fingerprint ``chunks`` (lists of candidates with ``path`` and ``root``) on the cluster,
    calling ``take(results, chunk)`` once per chunk as it completes (progress comes from
    completed futures). Returns the number of worker threads used."""
    from distributed import wait

    client = cluster.client
    want = check_workers(client, mode)  # a worker that joins later: checked with each chunk
    threads = cluster.threads()
    work = _Submitted(client, mode, want, chunks, threads * IN_FLIGHT_PER_WORKER)
    try:
        while work.fill():
            try:
                done, _ = wait(list(work.pending), timeout=0.2, return_when="FIRST_COMPLETED")
            except TimeoutError:  # dask's wait raises when nothing finished in time
                done = set()
            except CancelledError:  # and (since 2024) when one of them was cancelled
                done = {f for f in work.pending if f.status == "cancelled"}
            job.check()
            for fut in done:
                i, chunk = work.pending.pop(fut)
                res = work.outcome(fut, i, chunk)
                if res is not None:
                    take(_checked(res, chunk), chunk)
                fut.release()
            job.check()
    except BaseException:
        work.cancel()
        raise
    return threads


class _Submitted:
    """A scan's chunks on the cluster: those out (at most ``limit``), and those to send (again)."""

    def __init__(self, client, mode: str, want: str, chunks: Sequence[list], limit: int) -> None:
        self.client, self.mode, self.want, self.limit = client, mode, want, limit
        self.scan_id = uuid.uuid4().hex[:12]
        self.pending: dict = {}  # future -> (chunk number, chunk)
        self.again: list[tuple[int, list]] = []  # chunks whose future the cluster cancelled
        self.sent: dict[int, int] = {}  # chunk number -> times submitted
        self.left = iter(enumerate(chunks))
        self.exhausted = False

    def submit(self, i: int, chunk: list) -> None:
        self.sent[i] = self.sent.get(i, 0) + 1
        items = [(c.path, c.root) for c in chunk]
        fut = self.client.submit(_remote.fingerprint_checked, items, self.mode, self.want,
                                 key=f"simdup-{self.scan_id}-{i}-{self.sent[i]}", pure=False,
                                 retries=1)
        self.pending[fut] = (i, chunk)

    def fill(self) -> bool:
        """Send chunks (those to send again first) until ``limit`` are out; False when
        none is out and none is left."""
        while self.again and len(self.pending) < self.limit:
            self.submit(*self.again.pop())
        while not self.exhausted and len(self.pending) < self.limit:
            nxt = next(self.left, None)
            if nxt is None:
                self.exhausted = True
                break
            self.submit(*nxt)
        return bool(self.pending or self.again)

    def outcome(self, fut, i: int, chunk: list) -> list | None:
        """What the done future ``fut`` of chunk ``i`` gives: its records, or problems for
        its files; None when it goes again (cancelled, not by us: a scheduler that lost track
        of this client for a while drops its futures; or lost). SchedulerError when a worker
        has another simdup."""
        res = None
        if fut.status == "finished":
            try:
                res = fut.result()
            except CancelledError:  # cancelled since: as below
                pass
        if res is None and fut.status != "error":
            if self.sent[i] < RESUBMITS:  # the chunk goes again under a new key
                self.again.append((i, chunk))
                return None
            return [Problem(c.path, f"the Dask cluster dropped this file's work {RESUBMITS} "
                            f"times ({fut.status}); not fingerprinted", "error") for c in chunk]
        if res is None:  # the chunk itself failed twice (a lost worker's re-runs)
            err = fut.exception()
            if _remote.MISMATCH in str(err):
                raise SchedulerError(f"a Dask worker {err}; install this simdup on every worker")
            if isinstance(err, ImportError) and "simdup_gui" in str(err):
                # a worker that joined after the check, with an older simdup: the task names
                # _remote by reference, which it does not have
                raise SchedulerError(f"a Dask worker has another simdup ({err}); install this "
                                     f"simdup on every worker")
            return [Problem(c.path, f"worker failed: {type(err).__name__}: {err}", "error")
                    for c in chunk]
        return res

    def cancel(self) -> None:
        """Stop: the chunks out cancelled."""
        if self.pending:
            self.client.cancel(list(self.pending), force=True)


def _checked(res: object, chunk: list) -> list:
    """What a worker sent back, as records and problems for exactly this chunk's files. A
    record whose size or modification time is not what this machine's walk saw is a
    problem: the worker saw another file under that path (another disk mounted there, a
    stale copy), and its fingerprint would group files that are not these."""
    want = {c.path: c for c in chunk}
    out = [r for r in res if isinstance(r, (FileRecord, Problem)) and r.path in want] \
        if isinstance(res, list) else []
    for i, r in enumerate(out):
        c = want[r.path]
        if isinstance(r, FileRecord) and (r.size, r.mtime_ns) != (c.size, c.mtime_ns):
            out[i] = Problem(r.path, f"the Dask worker saw another file at this path ("
                             f"{r.size} bytes, modified {r.mtime_ns}; here {c.size} bytes, "
                             f"modified {c.mtime_ns}); not fingerprinted", "error")
    got = {r.path for r in out}
    out.extend(Problem(c.path, "worker returned no result for this file", "error")
               for c in chunk if c.path not in got)
    return out
