"""The `simdup` command line: the same engine as the app, with JSON output."""

from __future__ import annotations

import argparse
import gc
import importlib
import signal
import sys
import threading

from simdup_gui import _blas  # noqa: F401 - one BLAS thread here and in the fork server

# Each subcommand lives in its own module with register(subparsers) -> None;
# register sets ``func`` (args -> exit code) as the parser default. Command -> its module.
COMMANDS = {"scan": "simdup_gui.cli.scan_cmd", "apply": "simdup_gui.cli.apply_cmd",
            "undo": "simdup_gui.cli.apply_cmd", "resume": "simdup_gui.cli.apply_cmd",
            "release": "simdup_gui.cli.release_cmd", "eval": "simdup_gui.cli.eval_cmd",
            "synth": "simdup_gui.cli.synth_cmd", "cache": "simdup_gui.cli.cache_cmd",
            "catalog": "simdup_gui.cli.catalog_cmd"}


def build_parser(*commands: str) -> argparse.ArgumentParser:
    """The parser of ``commands`` (every command when none is named: the top-level help and
    its errors list them all). Only their modules are imported: a scan does not import the
    lab nor the other commands' modules (17 ms of its start)."""
    p = argparse.ArgumentParser(prog="simdup", description="Find near-duplicate text files "
                                "with SimHash fingerprints.")
    from simdup_gui import __version__

    p.add_argument("--version", action="version", version=f"simdup {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in dict.fromkeys(COMMANDS[c] for c in (commands or COMMANDS)):
        importlib.import_module(name).register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """The command line. ``argv`` None: this process's own arguments, and the process ends
    when this returns (the ``simdup`` script, ``python -m simdup_gui.cli``); a list: a
    caller that goes on (tests), whose process is left as it was found."""
    exiting = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    ctrl_c: list[int] = []  # the Ctrl-Cs this process took, when it is this command's own
    previous = _note_ctrl_c(ctrl_c) if exiting else None
    try:  # a Ctrl-C from here on is "interrupted", 130, whatever it cut short
        parser = build_parser(argv[0]) if argv[:1] and argv[0] in COMMANDS else build_parser()
        args = parser.parse_args(argv)
        code = int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("simdup: interrupted", file=sys.stderr)
        code = 130
    except BrokenPipeError:
        code = 0
    except ImportError as e:
        if not ctrl_c:
            raise
        # the KeyboardInterrupt was turned into an ImportError on its way up: numpy's
        # import, cut short, raises "Importing the numpy C-extensions failed ..." in its
        # place (not chained to it: only the note says a Ctrl-C came)
        print(f"simdup: interrupted ({str(e).strip().splitlines()[0][:120]})", file=sys.stderr)
        code = 130
    finally:
        if previous is not None:  # a Ctrl-C during the clean-up below is noted, not raised:
            signal.signal(signal.SIGINT, lambda signum, frame: ctrl_c.append(signum))
        if exiting:
            # The interpreter's exit then skips a last collection of every object left
            # (the scan's records, numpy's and the engine's modules): 30 ms of a 25 MB
            # scan, on the path to the prompt. Finalizers of objects in reference cycles
            # are not run at exit then, as Python never promised; files and the cache are
            # closed by now. Not for a caller that goes on: its garbage would stay.
            gc.freeze()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if exiting and code == 130:
        _unmark_interrupt()
    return code


def _note_ctrl_c(seen: list[int]):
    """Python's own Ctrl-C handler (a KeyboardInterrupt) with a note in ``seen`` that the
    signal came, installed when it is the one in place (this process's main thread): the
    previous handler, to put back, or None."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        return None

    def on_sigint(signum, frame):
        seen.append(signum)
        raise KeyboardInterrupt

    return signal.signal(signal.SIGINT, on_sigint)


def _unmark_interrupt() -> None:
    """CPython marks a KeyboardInterrupt that leaves code run from a string (``exec`` and
    ``eval`` of source: dataclasses and namedtuple build their methods so, on import) as
    unhandled, even when it is caught further up, and a process so marked ends by killing
    itself with SIGINT (bpo-1054041's exit for an uncaught Ctrl-C) rather than with the
    status it returned: a Ctrl-C that landed in an import printed "interrupted" and ended
    the command as killed, not with 130. Each run of code from a string clears that mark
    before it starts."""
    exec("None")
