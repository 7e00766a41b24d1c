"""Loading a results file in a child process, for callers that must stay responsive.

Parsing a results file of 100,000 files (157 MB) is one ``json.loads`` call that holds the
GIL for most of a second, after decoding that holds it for a fifth of one, and the checks
allocate a million objects for the cyclic collector to visit: from a worker thread that
still freezes a GUI. Here a child process reads, parses and checks the file with
:func:`~.export.load_results` itself (so every check, every limit and every message is the
same) and sends the results back as columns, CHUNK files at a time: each message is
unpickled in a few milliseconds and turned back into records in a loop that other threads
can interrupt. When no process can be started, the file is loaded in this one.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import traceback
from dataclasses import fields

from ..job import NULL_JOB, Job
from ..models import Also, FileRecord, Group, Member, Problem
from .export import load_results
from .results import Results

CHUNK = 5_000  # files (records, group members, problems, marks) per message
RECORD_FIELDS = tuple(f.name for f in fields(FileRecord))
_POLL_S = 0.1  # how often a wait for the child checks for cancel


def load_results_in_process(path: str, *, job: Job = NULL_JOB, chunk: int = CHUNK) -> Results:
    """:func:`~.export.load_results` run in a child process: the same Results, or the same
    OSError or ResultsError. ``job`` can cancel it (the child is stopped); ``chunk``: files
    per message."""
    ctx = mp.get_context("spawn")  # never fork a process that runs threads (a GUI's)
    receiver, sender = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(path, sender, chunk), name="simdup-load", daemon=True)
    from ..scan.poolctx import safe_path

    try:
        with safe_path():  # python -c: not the working directory first on sys.path
            child.start()
    except OSError:  # no process to be had (limits, a frozen build without spawn support)
        receiver.close()
        sender.close()
        return load_results(path)
    sender.close()  # the child's copy stays open: its end (or death) is our end of file
    try:
        return _receive(receiver, child, path, job)
    finally:
        receiver.close()
        if child.is_alive():  # cancelled, or we failed: the child's work is not wanted
            child.terminate()
        child.join()


def _receive(conn, child, path: str, job: Job) -> Results:
    records: list[FileRecord] = []
    groups: list[Group] = []
    problems: list[Problem] = []
    marks: set[str] = set()
    while True:
        job.check()
        while not conn.poll(_POLL_S):
            job.check()
        try:
            kind, payload = conn.recv()
        except EOFError:
            child.join(5)
            raise OSError(f"cannot load {path}: the process reading it stopped without an "
                          f"answer (exit code {child.exitcode})") from None
        if kind == "error":
            raise payload
        if kind == "records":
            records.extend(FileRecord(*row) for row in zip(*payload, strict=True))
        elif kind == "groups":
            _add_groups(groups, *payload)
        elif kind == "problems":
            problems.extend(Problem(*row) for row in zip(*payload, strict=True))
        elif kind == "marks":
            marks.update(payload)
        else:  # "done"
            settings, stats, chosen = payload
            return Results(records, groups, problems, settings, stats, marks, set(chosen))


MEMBER_FIELDS = Member.__slots__


def _add_groups(groups: list[Group], ids, reps, sizes, notes, *columns) -> None:
    members = [Member(*row) for row in zip(*columns, strict=True)]
    at = 0
    for gid, rep, size, also in zip(ids, reps, sizes, notes, strict=True):
        groups.append(Group(gid, rep, members[at : at + size], [Also(*a) for a in also]))
        at += size


def _child(path: str, conn, chunk: int) -> None:
    """In the child: load, then send the results in pieces (or the error)."""
    try:
        try:
            res = load_results(path)
        except Exception as e:  # noqa: BLE001 - the parent raises it, as load_results would
            conn.send(("error", _portable(e)))
            return
        for kind, piece in _pieces(res, chunk):
            conn.send((kind, piece))
        conn.send(("done", (res.settings, res.stats, sorted(res.chosen))))
    finally:
        conn.close()


def _pieces(res: Results, size: int):
    """(kind, columns) messages of ``size`` files each (groups: whole groups, about
    ``size`` members)."""
    for s in range(0, len(res.records), size):
        part = res.records[s : s + size]
        yield "records", tuple([getattr(r, f) for r in part] for f in RECORD_FIELDS)
    s = 0
    while s < len(res.groups):
        part, n = [], 0
        while s < len(res.groups) and (not part or n < size):
            part.append(res.groups[s])
            n += len(res.groups[s].members)
            s += 1
        ms = [m for g in part for m in g.members]
        yield "groups", ([g.id for g in part], [g.representative for g in part],
                         [len(g.members) for g in part],
                         [[(a.member, a.other, a.similarity) for a in g.also] for g in part],
                         *([getattr(m, f) for m in ms] for f in MEMBER_FIELDS))
    for s in range(0, len(res.problems), size):
        part = res.problems[s : s + size]
        yield "problems", ([p.path for p in part], [p.reason for p in part],
                           [p.kind for p in part])
    marks = sorted(res.marks)
    for s in range(0, len(marks), size):
        yield "marks", marks[s : s + size]


def _portable(error: Exception) -> Exception:
    """``error`` if it survives pickling (OSError, ResultsError do); else a RuntimeError
    that carries its type, message and the child's traceback."""
    if isinstance(error, (OSError, ValueError)):
        try:
            pickle.loads(pickle.dumps(error))
            return error
        except Exception:  # noqa: BLE001 - then as text below
            pass
    tb = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return RuntimeError(f"loading the results failed in its process: "
                        f"{type(error).__name__}: {error}\n{tb}")
