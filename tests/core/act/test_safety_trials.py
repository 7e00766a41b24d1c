"""The proof of issue 10, short: seeded random trials of scan / mark / plan / mutate / act
/ kill at a random moment / resume / undo, with real child processes and SIGKILL. The
full run (>= 500 trials) is `python benchmarks/safety_trials.py --trials 500`; its
counts are in the README's safety section."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def load_trials():
    spec = importlib.util.spec_from_file_location(
        "safety_trials", ROOT / "benchmarks" / "safety_trials.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="freedesktop trash, SIGKILL")
def test_random_trials_keep_every_invariant(tmp_path):
    trials = load_trials()
    counts, violations = trials.run_trials(12, seed=2024, base=str(tmp_path))
    assert counts["trials"] == 12
    assert violations == []
    assert sum(counts[f"action: {a}"] for a in trials.ACTIONS) == 12
