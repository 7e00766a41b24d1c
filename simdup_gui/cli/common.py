"""Helpers shared by subcommands."""

from __future__ import annotations

import argparse
import sys
import time

from simdup_gui.core.models import ALLOWED_BITS, ProgressEvent


def bits_arg(value: str) -> int:
    try:
        b = int(value)
    except ValueError:
        b = -1
    if b not in ALLOWED_BITS:
        raise argparse.ArgumentTypeError(
            f"invalid fingerprint size {value!r}: allowed values are "
            f"{', '.join(map(str, ALLOWED_BITS))}")
    return b


def similarity_arg(value: str) -> float:
    """0.7, or 70% as a percentage."""
    v = value.strip()
    pct = v.endswith("%")
    try:
        x = float(v.rstrip("%")) / (100.0 if pct else 1.0)
    except ValueError:
        x = -1.0
    if not 0.0 < x <= 1.0:
        raise argparse.ArgumentTypeError(
            f"invalid similarity {value!r}: give a share in (0, 1], e.g. 0.7, or a percentage")
    return x


def size_arg(value: str) -> int:
    """Sizes like 100, 4k, 10M, 1G."""
    v = value.strip().lower()
    mult = 1
    for suffix, m in (("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30)):
        if v.endswith(suffix) or v.endswith(suffix + "b"):
            mult = m
            v = v.rstrip("b")[:-1]
            break
    try:
        n = int(float(v) * mult)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"invalid size {value!r} (e.g. 100, 4k, 10M)") from e
    if n < 0:
        raise argparse.ArgumentTypeError("sizes cannot be negative")
    return n


class StderrProgress:
    """A one-line progress display on stderr, only when stderr is a terminal."""

    def __init__(self, enabled: bool | None = None) -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._last = 0.0
        self._t0 = time.monotonic()

    def __call__(self, ev: ProgressEvent) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if ev.phase != "done" and now - self._last < 0.1:
            return
        self._last = now
        if ev.phase == "walk":
            msg = f"listing files: {ev.files_done} found, in {ev.current}"
        elif ev.phase == "fingerprint":
            mb = ev.bytes_done / 1e6
            rate = mb / max(1e-6, now - self._t0)
            msg = (f"fingerprinting {ev.files_done}/{ev.files_total} files, "
                   f"{mb:.1f}/{ev.bytes_total / 1e6:.1f} MB, {rate:.1f} MB/s")
        else:
            msg = ""
        sys.stderr.write("\r\x1b[K" + msg[:150])
        if ev.phase == "done":
            sys.stderr.write("\n")
        sys.stderr.flush()
