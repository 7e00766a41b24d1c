"""Item 2 of issue 10: a folder swapped for a symbolic link never leads an action outside
the scanned roots (real path and inode checked; acting through open folders)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simdup_gui.cli import main
from simdup_gui.core.act import actions
from simdup_gui.core.act import fileops
from simdup_gui.core.act.actions import bind_scan_identity, execute, plan_action
from simdup_gui.core.review.export import load_results

from tests.actions_helpers import REPO, T0, child_env, simdup_proc, tree_state, write
from tests.conftest import EN, OTHER

pytestmark = pytest.mark.skipif(not fileops.FD_SAFE, reason="needs dir_fd and O_NOFOLLOW")


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file under ``root``: content hash, inode, mtime (what 'untouched' means)."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            out[str(p)] = (fileops.hash_file(str(p)), st.st_ino, st.st_mtime_ns)
    return out


@pytest.fixture
def swapped(tmp_path):
    """root/keep.txt and root/sub/dup-N.txt (near-duplicates of it, marked by --keep
    shortest-path), scanned; then root/sub is replaced by a symlink to an identical copy
    outside the root (same names, sizes, mtimes, content)."""
    root = tmp_path / "root"
    write(root / "keep.txt", EN.encode(), T0)
    for i in range(3):
        write(root / "sub" / f"dup-{i}.txt", EN.replace("five", f"{i + 6}", 1).encode(),
              T0 + i)
    write(root / "other.txt", OTHER.encode(), T0)
    results = tmp_path / "results.json"
    assert main(["scan", str(root), "--format", "json", "-o", str(results), "--no-cache",
                 "--workers", "1"]) == 0
    outside = tmp_path / "outside"
    shutil.copytree(root / "sub", outside / "sub")  # copy2: same mtimes
    for p in (root / "sub").iterdir():
        q = outside / "sub" / p.name
        st = p.stat()
        os.utime(q, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert q.read_bytes() == p.read_bytes() and q.stat().st_size == st.st_size
    os.rename(root / "sub", tmp_path / "sub-original")
    os.symlink(outside / "sub", root / "sub")
    return tmp_path, root, outside, str(results)


def test_delete_through_a_folder_swapped_for_a_symlink_touches_nothing_outside(swapped,
                                                                               capsys):
    tmp, root, outside, results = swapped
    before = snapshot(outside)
    code = main(["apply", results, "--keep", "shortest-path", "--delete", "--yes"])
    out = capsys.readouterr().out
    assert code == 0
    assert snapshot(outside) == before  # nothing outside the root was touched
    assert out.count("skipped  delete") == 3 and "delete: 3 skipped" in out
    assert "outside the scanned root" in out and "symbolic link" in out
    assert (root / "keep.txt").exists()


def test_without_the_inode_in_the_results_the_real_path_check_still_refuses(swapped,
                                                                            capsys):
    tmp, root, outside, results = swapped
    doc = json.loads(Path(results).read_text())
    for g in doc["groups"]:
        for f in g["files"]:
            f["inode"] = 0
    Path(results).write_text(json.dumps(doc))
    before = snapshot(outside)
    assert main(["apply", results, "--keep", "shortest-path", "--move-to",
                 str(tmp / "dups"), "--yes"]) == 0
    assert snapshot(outside) == before
    assert "move: 3 skipped" in capsys.readouterr().out
    assert not (tmp / "dups").exists() or tree_state(tmp / "dups") == {}


def test_a_file_replaced_by_an_identical_copy_is_not_the_file_the_scan_saw(tmp_path):
    root = tmp_path / "root"
    a = write(root / "a.txt", EN.encode(), T0)
    b = write(root / "b.txt", EN.replace("five", "six", 1).encode(), T0)
    from simdup_gui.core.scan.pipeline import ScanOptions, scan
    from simdup_gui.core.group.cluster import build_groups
    from simdup_gui.core.review.results import Results

    r = scan([str(root)], ScanOptions(use_cache=False, workers=1))
    groups, _ = build_groups(r.records, 64, 10)
    res = Results(r.records, groups, r.problems, {"bits": 64, "distance": 10}, r.stats)
    plan = bind_scan_identity(plan_action(res, {b}, "delete"), res)
    data = Path(b).read_bytes()
    write(Path(b + ".new"), data, T0)
    os.replace(b + ".new", b)  # same name, size, mtime, content; another inode
    rep = execute(plan)
    assert rep.outcomes[0].status == "skipped" and "not the file the scan saw" in \
        rep.outcomes[0].reason
    assert os.path.exists(a) and os.path.exists(b)


def test_a_folder_swapped_between_the_check_and_the_act_cannot_redirect_it(tmp_path,
                                                                           monkeypatch):
    """The check passes on the real folder; then (before the unlink) the folder is moved
    away and a symlink to an identical copy outside takes its name. The unlink goes through
    the folder that was checked, so the copy outside survives."""
    root = tmp_path / "root"
    keep = write(root / "keep.txt", EN.encode(), T0)
    dup = write(root / "sub" / "dup.txt", EN.replace("five", "six", 1).encode(), T0)
    from tests.actions_helpers import results_from_groups

    res = results_from_groups([[keep, dup]], str(root))
    plan = bind_scan_identity(plan_action(res, {dup}, "delete"), res)
    outside = tmp_path / "outside"
    shutil.copytree(root / "sub", outside / "sub")
    os.utime(outside / "sub" / "dup.txt", ns=(T0, T0))
    from simdup_gui.core.act import kept

    real = kept.changed_reason_at

    def check_then_swap(a, *args):
        result = real(a, *args)
        if str(a) == dup:
            os.rename(root / "sub", tmp_path / "moved-away")
            os.symlink(outside / "sub", root / "sub")
        return result

    monkeypatch.setattr(kept, "changed_reason_at", check_then_swap)
    before = snapshot(outside)
    rep = execute(plan)
    assert snapshot(outside) == before
    # the file that was checked (now in the moved-away folder) is the one removed
    assert rep.outcomes[0].status == "done"
    assert not (tmp_path / "moved-away" / "dup.txt").exists()


def test_a_kept_copy_reached_through_a_swapped_folder_does_not_count(tmp_path):
    root = tmp_path / "root"
    dup = write(root / "dup.txt", EN.replace("five", "six", 1).encode(), T0)
    keep = write(root / "k" / "keep.txt", EN.encode(), T0)
    from tests.actions_helpers import results_from_groups

    res = results_from_groups([[keep, dup]], str(root))
    plan = bind_scan_identity(plan_action(res, {dup}, "delete"), res)
    outside = tmp_path / "outside"
    shutil.copytree(root / "k", outside / "k")
    os.utime(outside / "k" / "keep.txt", ns=(T0, T0))
    shutil.rmtree(root / "k")
    os.symlink(outside / "k", root / "k")  # the kept copy now lives outside the root
    rep = execute(plan)
    (o,) = rep.outcomes
    assert o.status == "skipped" and "no unchanged kept copy" in o.reason
    assert "outside the scanned root" in o.reason and os.path.exists(dup)


def test_a_destination_sub_folder_that_is_a_symlink_is_not_followed(tmp_path):
    root = tmp_path / "root"
    keep = write(root / "keep.txt", EN.encode(), T0)
    dup = write(root / "sub" / "dup.txt", EN.replace("five", "six", 1).encode(), T0)
    from tests.actions_helpers import results_from_groups

    res = results_from_groups([[keep, dup]], str(root))
    dups = tmp_path / "dups"
    dups.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, dups / "sub")  # dups/sub -> outside the destination
    rep = execute(bind_scan_identity(plan_action(res, {dup}, "move", move_to=str(dups)), res))
    (o,) = rep.outcomes
    assert o.status == "failed" and "symbolic link" in o.reason
    assert list(elsewhere.iterdir()) == [] and os.path.exists(dup)


SWAPPER = """
import os, sys, time
root, real, link_to, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
end = time.monotonic() + seconds
n = 0
print("ready", flush=True)
while time.monotonic() < end:
    os.rename(root, real)
    os.symlink(link_to, root)
    time.sleep(0.0005)
    os.unlink(root)
    os.rename(real, root)
    time.sleep(0.0005)
    n += 1
print(n, flush=True)
"""


def test_race_a_process_swapping_a_folder_while_apply_deletes(tmp_path):
    """Two real processes: one swaps root/sub for a symlink to an identical copy outside,
    back and forth, while `simdup apply --delete` works through 60 files in it."""
    root = tmp_path / "root"
    n = 60
    import random

    for i in range(n):
        rng = random.Random(i)
        text = " ".join(f"w{rng.randrange(10**6)}" for _ in range(300))
        write(root / f"keep-{i:02d}.txt", text.encode(), T0)
        write(root / "sub" / f"dup-{i:02d}.txt", (text + "one more line").encode(), T0)
    results = tmp_path / "results.json"
    assert main(["scan", str(root), "--format", "json", "-o", str(results), "--no-cache",
                 "--workers", "1"]) == 0
    assert len(load_results(str(results)).groups) == n
    outside = tmp_path / "outside"
    shutil.copytree(root / "sub", outside / "sub")
    for p in (root / "sub").iterdir():
        os.utime(outside / "sub" / p.name, ns=(T0, T0))
    before = snapshot(outside)
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(root / "sub"),
                                str(tmp_path / "sub-real"), str(outside / "sub"), "30"],
                               cwd=REPO, env=child_env(), stdout=subprocess.PIPE, text=True)
    assert swapper.stdout.readline().strip() == "ready"
    try:
        app = simdup_proc("apply", str(results), "--keep", "shortest-path", "--delete",
                          "--yes", "--format", "json")
        out, err = app.communicate(timeout=120)
    finally:
        swapper.kill()
        swapper.wait()
        swapper.stdout.close()
    if os.path.islink(root / "sub"):  # killed mid-swap: put the real folder back
        os.unlink(root / "sub")
    if not (root / "sub").exists():
        os.rename(tmp_path / "sub-real", root / "sub")
    assert "Traceback" not in err, err
    doc = json.loads(out)
    assert snapshot(outside) == before  # never anything outside the root
    done = [f for f in doc["files"] if f["status"] == "done"]
    skipped = [f for f in doc["files"] if f["status"] == "skipped"]
    assert len(done) + len(skipped) + doc["counts"]["failed"] == n
    for f in done:  # what was deleted was the scanned file, in the real folder
        assert not os.path.exists(f["path"])
    for i in range(n):
        assert (root / f"keep-{i:02d}.txt").exists()
