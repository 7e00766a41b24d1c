"""The fork server's sys.excepthook, installed by importing this module: the scan's pool
names it among the fork server's preload modules (poolctx.pool_context,
``set_forkserver_preload``), and nothing else imports it, so it is the server's alone.

A worker forked from the server reads its task from the scan that asked for it; when that
scan was interrupted meanwhile (Ctrl-C while the server warmed up), what it sent is gone
(an OSError or EOFError), and the server's default hook printed that traceback into the
user's terminal after the command had said "interrupted". A scan still running sees such a
worker end (its pool replaces it), so that case stays quiet; anything else is printed as
before.
"""

from __future__ import annotations

import sys


def quiet_start_failures(etype, value, tb) -> None:
    if issubclass(etype, (OSError, EOFError)):
        return
    sys.__excepthook__(etype, value, tb)


sys.excepthook = quiet_start_failures
