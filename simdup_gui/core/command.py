"""The user's own command for a file (dupeGuru's "Invoke custom command"): a diff tool such
as ``meld %a %b`` or ``kdiff3 %a %b``, set in the preferences.

The command line is split like a shell would split it (shlex), then each placeholder is
replaced inside its argument: ``%a`` by the selected file, ``%b`` by the file to compare it
with (its group's reference), ``%%`` by ``%``. It is run without a shell, so a file name
with spaces, quotes or ``;`` stays one argument and is never run as a command.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import threading

from .models import CATALOG_SCHEME

PLACEHOLDERS = ("%a", "%b")
_TOKEN = re.compile(r"%[ab%]")


def command_args(template: str, a: str, b: str | None = None) -> list[str]:
    """The arguments (program first) of ``template`` for the files ``a`` and ``b``.
    ValueError for an empty command, unbalanced quotes, or ``%b`` with no ``b``."""
    try:
        words = shlex.split(template)
    except ValueError as e:  # "No closing quotation"
        raise ValueError(f"the custom command cannot be read: {e}") from None
    if not words:
        raise ValueError("no custom command is set (Preferences)")
    if a.startswith(CATALOG_SCHEME):
        raise ValueError("the file is in a catalog, on a drive that is not connected")
    if b is not None and b.startswith(CATALOG_SCHEME):
        b = None  # (its text is not here either)
    if b is None and any("%b" in _TOKEN.findall(w) for w in words):
        raise ValueError("the custom command needs a second file (%b), and there is none")
    values = {"%a": a, "%b": b or "", "%%": "%"}
    return [_TOKEN.sub(lambda m: values[m.group()], w) for w in words]


def run_detached(args: list[str]) -> subprocess.Popen:
    """Start ``args`` without a shell, in its own session, not waited for by the caller (the
    tool outlives the review if it likes; a thread reaps it when it ends), in the user's
    environment (poolctx.user_environ: not the safe-path mode our workers start in). OSError
    when the program cannot be started."""
    from .scan.poolctx import user_environ

    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
                            env=user_environ())
    threading.Thread(target=proc.wait, name="custom-command", daemon=True).start()
    return proc
