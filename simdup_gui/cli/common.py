"""Helpers shared by subcommands."""

from __future__ import annotations

import json
import re
import sys
import time
from typing import TYPE_CHECKING

from simdup_gui.core.models import ProgressEvent
from simdup_gui.core.validate import (
    arg_type,
    parse_bits,
    parse_positive,
    parse_similarity,
    parse_size,
)

if TYPE_CHECKING:
    from simdup_gui.core.act.outcome import ActionReport

bits_arg = arg_type(parse_bits)
similarity_arg = arg_type(parse_similarity)  # 0.7, or 70% as a percentage
size_arg = arg_type(parse_size)  # sizes like 100, 4k, 10M, 1G
positive_arg = arg_type(parse_positive)  # --workers, --generate: 1 or more


def _clock(seconds: float) -> str:
    s = int(max(0, seconds))
    return f"{s // 3600:d}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:d}:{s % 60:02d}"


PREPARE = ("simdup: preparing the fast code, once after an install (about a minute on a "
           "2-core machine); later scans start at once")


class StderrProgress:
    """A one-line progress display on stderr, only when stderr is a terminal: each phase
    (listing, fingerprinting, finding candidates, verifying, grouping) with its own count,
    rate and remaining time. With ``phase_times`` (``simdup scan --phase-times``) each phase's
    start is also printed, terminal or not, as one line ``simdup: phase NAME T`` (T: seconds
    since the epoch, so another process can subtract its own clock): benchmarks time the
    phases from these (benchmarks/largetree.py)."""

    def __init__(self, enabled: bool | None = None, phase_times: bool = False) -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.phase_times = phase_times
        self._marked = ""
        self._last = 0.0
        self._phase = ""
        self._t0 = time.monotonic()

    def mark(self, phase: str) -> None:
        """With ``phase_times``: say that ``phase`` starts now, unless it is the phase going on."""
        if not self.phase_times or phase == self._marked:
            return
        self._marked = phase
        sys.stderr.write(("\r\x1b[K" if self.enabled else "")
                         + f"simdup: phase {phase} {time.time():.6f}\n")
        sys.stderr.flush()

    def text(self, ev: ProgressEvent, now: float) -> str:
        """The line for ``ev`` (the phase's clock starts at its first event)."""
        if ev.phase != self._phase:
            self._phase, self._t0 = ev.phase, now
        elapsed = max(1e-6, now - self._t0)
        if ev.phase == "walk":
            return f"listing files: {ev.files_done} found, in {ev.current}"
        if ev.phase == "fingerprint":
            mb = ev.bytes_done / 1e6
            left = ((ev.bytes_total - ev.bytes_done) * elapsed / ev.bytes_done
                    if ev.bytes_done else 0)
            return (f"fingerprinting {ev.files_done}/{ev.files_total} files, "
                    f"{mb:.1f}/{ev.bytes_total / 1e6:.1f} MB, {mb / elapsed:.1f} MB/s, "
                    f"{_clock(left)} left")
        if ev.phase == "candidates":
            return f"grouping: finding candidate pairs among {ev.files_total} files"
        if ev.phase == "verify":
            left = ((ev.files_total - ev.files_done) * elapsed / ev.files_done
                    if ev.files_done else 0)
            return (f"grouping: verifying, {ev.files_done}/{ev.files_total} pairs near the "
                    f"threshold measured from the files, {_clock(left)} left")
        if ev.phase == "stars":
            return f"grouping: making groups from {ev.files_total} verified pairs"
        return ""

    def __call__(self, ev: ProgressEvent) -> None:
        self.mark(ev.phase)
        if ev.phase == "prepare":  # said whether or not stderr is a terminal
            sys.stderr.write(("\r\x1b[K" if self.enabled else "") + PREPARE + "\n")
            sys.stderr.flush()
            return
        if not self.enabled:
            return
        now = time.monotonic()
        if ev.phase != "done" and ev.phase == self._phase and now - self._last < 0.1:
            return
        self._last = now
        msg = shown(self.text(ev, now))
        sys.stderr.write("\r\x1b[K" + msg[:150])
        if ev.phase == "done":
            sys.stderr.write("\n")
        sys.stderr.flush()

# --- what the commands that act (apply, undo, resume, release) print ----------------

def error(cmd: str, msg: str) -> int:
    """Say ``msg`` as the command's error on stderr; the exit status 2."""
    print(f"simdup {cmd}: error: {msg}", file=sys.stderr)
    return 2


def act_progress(ev: ProgressEvent) -> None:
    if sys.stderr.isatty() and ev.phase in ("apply", "undo", "release"):
        sys.stderr.write(f"\r\x1b[K{ev.phase} {ev.files_done + 1}/{ev.files_total}: "
                         f"{shown(ev.current[-100:])}")
        sys.stderr.flush()
    elif sys.stderr.isatty() and ev.phase == "done":
        sys.stderr.write("\r\x1b[K")


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """``text`` printable on any stream and harmless on a terminal: undecodable bytes of a
    file name (surrogate escapes) are shown as \\xNN, and so are control characters (an
    escape sequence in a file name must not drive the user's terminal)."""
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def json_text(doc: object) -> str:
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a name that is not valid UTF-8: escape it (\udcff)
        text = json.dumps(doc, ensure_ascii=True, indent=1)
    return text


def print_report(rep: ActionReport, fmt: str) -> None:
    if fmt == "json":
        print(json_text(rep.to_dict()))
        return
    for o in rep.outcomes:
        status = "FAILED" if o.status == "failed" else o.status
        where = f" -> {o.dest}" if o.dest and o.action not in ("undo", "release") else ""
        if o.dest and o.action == "release":
            where = f" (held original: {o.dest})"
        why = f"  ({o.reason})" if o.reason else ""
        print(shown(f"{status:<8s} {o.action:<6s} {o.path}{where}{why}"))
    print(rep.summary())
    if rep.journal and not rep.dry_run:
        print(shown(f"journal: {rep.journal}"))


def confirm(question: str) -> bool:
    try:
        answer = input(f"{question} [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def say_stopped(cmd: str, rep: ActionReport) -> None:
    if rep.stopped:
        print(shown(f"simdup {cmd}: error: {rep.stopped}; the files above say what was "
                     "done"), file=sys.stderr)
