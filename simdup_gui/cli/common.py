"""Helpers shared by subcommands."""

from __future__ import annotations

import sys
import time

from simdup_gui.core.models import ProgressEvent
from simdup_gui.core.validate import arg_type, parse_bits, parse_similarity, parse_size

bits_arg = arg_type(parse_bits)
similarity_arg = arg_type(parse_similarity)  # 0.7, or 70% as a percentage
size_arg = arg_type(parse_size)  # sizes like 100, 4k, 10M, 1G


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
