"""Scanning on a Dask cluster (issue 11): records and groups equal a local scan's; a worker
killed mid-scan loses nothing; cancel stops the cluster's work; records reach the local cache;
without Dask, --scheduler names the extra to install."""

import os
import signal
import sys
import time

import pytest

from simdup_gui.cli import main
from simdup_gui.core.group.cluster import group_records
from simdup_gui.core.job import Cancelled, Job
from simdup_gui.core.scan.distributed import Cluster, local_cluster
from simdup_gui.core.scan.pipeline import ScanOptions, scan

from tests.conftest import EN, OTHER, ZH

distributed = pytest.importorskip("distributed")


def _corpus(root, n=24):
    """n families of three near-copies (utf-8, gb18030 and an edit): about 60 chunks' worth
    of work split over many small chunks, so a worker can die with chunks left."""
    root.mkdir()
    texts = [ZH, EN, OTHER]
    for i in range(n):
        base = texts[i % 3] + f"\n第{i}号文件 file number {i} " * 40
        (root / f"f{i}_a.txt").write_text(base, encoding="utf-8")
        enc = "gb18030" if i % 3 == 0 else "utf-8-sig"
        (root / f"f{i}_b.txt").write_bytes(base.replace("\n", "\r\n").encode(enc))
        (root / f"f{i}_c.txt").write_text(base + " an added line at the end", encoding="utf-8")
    return str(root)


def _dicts(records):
    return [r.to_dict() for r in records]


@pytest.fixture(scope="module")
def cluster():
    lc = local_cluster(2)  # the app's: one of these tests kills a worker
    client = distributed.Client(lc)
    yield lc, client
    client.close()
    lc.close()


def test_records_and_groups_equal_a_local_scan(tmp_path, cluster):
    lc, _ = cluster
    root = _corpus(tmp_path / "c")
    local = scan([root], ScanOptions(workers=1, use_cache=False))
    remote = scan([root], ScanOptions(use_cache=False, scheduler=lc.scheduler_address))
    assert remote.stats["workers"] == 2 and not remote.cancelled
    assert _dicts(remote.records) == _dicts(local.records)
    assert len(local.records) == 72
    g_local, _ = group_records(local.records, 64, 16, use_cache=False)
    g_remote, _ = group_records(remote.records, 64, 16, use_cache=False)
    assert [[m.index for m in g.members] for g in g_remote] == \
        [[m.index for m in g.members] for g in g_local]


def test_a_worker_killed_mid_scan_loses_nothing_and_counts_nothing_twice(tmp_path, cluster):
    lc, client = cluster
    root = _corpus(tmp_path / "c")
    local = scan([root], ScanOptions(workers=1, use_cache=False))
    killed = []

    def progress(ev):
        if ev.phase == "fingerprint" and ev.files_done > 0 and not killed:
            pids = client.run(os.getpid)
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)  # the nanny restarts it; its chunks run again
            killed.append(victim)

    remote = scan([root], ScanOptions(use_cache=False, scheduler=lc.scheduler_address),
                  Job(progress))
    assert killed, "the scan finished before a worker could be killed"
    assert not remote.cancelled and not remote.problems
    assert _dicts(remote.records) == _dicts(local.records)  # no file missing or twice
    client.wait_for_workers(2, timeout=60)


@pytest.mark.slow
def test_futures_the_cluster_cancels_go_again_and_nothing_is_lost(tmp_path, cluster,
                                                                  monkeypatch):
    """The scheduler may drop a client's futures (say, when it missed the client's heartbeats
    on a busy machine): they end "cancelled" with no exception (this was seen as files
    "worker failed: NoneType: None"). Their chunks are submitted again, not recorded as
    failed files. Here the first chunk's future is cancelled as soon as it is submitted."""
    lc, _ = cluster
    root = _corpus(tmp_path / "c")
    local = scan([root], ScanOptions(workers=1, use_cache=False))
    dropped = []
    submit = distributed.Client.submit

    def dropping_submit(self, *args, **kwargs):
        fut = submit(self, *args, **kwargs)
        if not dropped:
            dropped.append(fut.key)
            self.cancel([fut], force=True)
        return fut

    monkeypatch.setattr(distributed.Client, "submit", dropping_submit)
    remote = scan([root], ScanOptions(use_cache=False, scheduler=lc.scheduler_address))
    assert dropped
    assert not remote.cancelled and not remote.problems
    assert _dicts(remote.records) == _dicts(local.records)


@pytest.mark.slow
def test_a_local_cluster_closes_whole_after_a_worker_it_no_longer_lists_dies():
    """dask/distributed#5407: the cluster's watcher of worker status looked up a removed
    worker it no longer listed, died with KeyError, and close() stopped halfway (the
    cluster left "closing", its event-loop thread running, 10 s more at exit)."""
    from distributed.core import Status

    c = Cluster("local:2")
    pids = c.client.run(os.getpid)
    addr = sorted(pids, key=pids.get)[0]
    c.cluster.scheduler_info["workers"].pop(addr)  # the state the watcher tripped over
    os.kill(pids[addr], signal.SIGKILL)
    for _ in range(100):
        if addr not in c.client.scheduler_info()["workers"]:
            break
        time.sleep(0.1)
    c.close()
    assert c.cluster.status == Status.closed
    task = getattr(c.cluster, "_watch_worker_status_task", None)
    assert task is None or not task.done() or task.cancelled() or task.exception() is None


def test_cancel_stops_the_clusters_work(tmp_path, cluster):
    lc, client = cluster
    root = _corpus(tmp_path / "c")
    job = Job(lambda ev: job.cancel() if ev.phase == "fingerprint" and ev.files_done else None)
    res = scan([root], ScanOptions(use_cache=False, scheduler=lc.scheduler_address), job)
    assert res.cancelled
    assert len(res.records) < 72

    def idle(dask_scheduler):
        return [k for k, ts in dask_scheduler.tasks.items()
                if str(k).startswith("simdup-") and ts.state in ("processing", "queued")]
    left = idle
    for _ in range(100):  # the scheduler forgets cancelled futures promptly
        left = client.run_on_scheduler(idle)
        if not left:
            break
        client.wait_for_workers(1, timeout=5)
    assert left == []


def test_records_from_the_cluster_make_the_next_local_scan_warm(tmp_path, cluster):
    lc, _ = cluster
    root = _corpus(tmp_path / "c", n=6)
    cache = str(tmp_path / "cache.sqlite")
    remote = scan([root], ScanOptions(cache_path=cache, scheduler=lc.scheduler_address))
    assert remote.stats["fingerprinted"] == 18
    again = scan([root], ScanOptions(workers=1, cache_path=cache))
    assert again.stats["cached"] == 18 and again.stats["fingerprinted"] == 0
    assert _dicts(again.records) == _dicts(remote.records)


@pytest.mark.slow
def test_cli_scheduler_local_gives_the_same_json_as_a_local_scan(tmp_path, capsys):
    import json

    root = _corpus(tmp_path / "c", n=3)
    assert main(["scan", root, "--no-cache", "--format", "json", "--workers", "1"]) == 0
    here = json.loads(capsys.readouterr().out)
    assert main(["scan", root, "--no-cache", "--format", "json", "--scheduler", "local:2"]) == 0
    there = json.loads(capsys.readouterr().out)
    for d in (here, there):
        d.pop("stats")
        d["settings"].pop("index")
    assert here == there


def test_without_dask_scheduler_names_the_extra_and_exits_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    root = _corpus(tmp_path / "c", n=1)
    assert main(["scan", root, "--no-cache", "--scheduler", "local:2"]) == 2
    assert 'pip install "simdup[dask]"' in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["local:0", "local:x", "host:8786", "nonsense"])
def test_a_bad_scheduler_address_is_a_usage_error(tmp_path, capsys, bad):
    root = _corpus(tmp_path / "c", n=1)
    assert main(["scan", root, "--no-cache", "--scheduler", bad]) == 2
    assert "--scheduler" in capsys.readouterr().err


@pytest.mark.slow
def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, capsys):
    root = _corpus(tmp_path / "c", n=1)
    assert main(["scan", root, "--no-cache", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


def test_cancelled_is_raised_not_swallowed_by_the_cluster_loop(tmp_path, cluster):
    """Cancel before any chunk: the scan returns cancelled with no records."""
    lc, _ = cluster
    root = _corpus(tmp_path / "c", n=3)
    job = Job()
    job.cancel()
    try:
        res = scan([root], ScanOptions(use_cache=False, scheduler=lc.scheduler_address), job)
    except Cancelled:  # pragma: no cover - scan turns it into a result
        pytest.fail("scan let Cancelled escape")
    assert res.cancelled and res.records == []


def test_workers_that_make_other_fingerprints_stop_the_scan_with_a_clear_error(tmp_path, capsys):
    """A worker whose simdup makes other fingerprints than the client's (another version,
    another jieba): its records would be cached and grouped as the client's version, silently
    wrong. The scan stops before any chunk is sent, naming the worker and both schemes; the
    command line says so and exits 2."""
    from simdup_gui.core.scan.distributed import SchedulerError

    root = _corpus(tmp_path / "c", n=3)
    lc = local_cluster(1)
    client = distributed.Client(lc)
    try:
        def older():  # the worker's simdup, as if it were another release
            from simdup_gui.core.scan import fingerprint

            fingerprint.FeatureSettings.version = lambda self: "n0-older-scheme"

        client.run(older)
        with pytest.raises(SchedulerError, match="other fingerprints") as e:
            scan([root], ScanOptions(use_cache=False, scheduler=lc.scheduler_address))
        assert "n0-older-scheme" in str(e.value) and lc.scheduler_address.split(":")[0] in str(e.value)
        capsys.readouterr()
        assert main(["scan", root, "--no-cache", "--scheduler", lc.scheduler_address]) == 2
        err = capsys.readouterr().err
        assert "other fingerprints" in err and "Traceback" not in err
    finally:
        client.close()
        lc.close()


def test_a_worker_that_changes_after_the_check_stops_the_scan(tmp_path, cluster, monkeypatch):
    """Each chunk checks its worker's scheme again (a worker that joins the cluster after the
    check): here the client's expected scheme is made to differ, so every chunk's worker
    refuses, and the scan stops with the error, no chunk's records taken."""
    from simdup_gui.core.scan import _remote, distributed as dist
    from simdup_gui.core.scan.distributed import SchedulerError

    lc, _ = cluster
    root = _corpus(tmp_path / "c", n=3)
    with pytest.raises(RuntimeError, match=_remote.MISMATCH):
        _remote.fingerprint_checked([], "shingles", "another-scheme")
    monkeypatch.setattr(dist, "check_workers", lambda client, mode: "another-scheme")
    with pytest.raises(SchedulerError, match="other fingerprints than the client"):
        scan([root], ScanOptions(use_cache=False, scheduler=lc.scheduler_address))


def _older_worker(items, mode, want):
    """What a worker with a simdup older than the check does with the task: it has no
    module _remote to take fingerprint_checked from."""
    raise ModuleNotFoundError("No module named 'simdup_gui.core.scan._remote'")


def test_a_worker_without_this_simdup_joining_later_stops_the_scan(tmp_path, cluster,
                                                                   monkeypatch):
    from simdup_gui.core.scan import _remote
    from simdup_gui.core.scan.distributed import SchedulerError

    lc, _ = cluster
    root = _corpus(tmp_path / "c", n=3)
    monkeypatch.setattr(_remote, "fingerprint_checked", _older_worker)
    with pytest.raises(SchedulerError, match="another simdup"):
        scan([root], ScanOptions(use_cache=False, scheduler=lc.scheduler_address))
