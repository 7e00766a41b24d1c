"""The accuracy lab: how well each fingerprint size finds near-duplicates. Synthetic corpora
(synth), truth from a manifest, a CSV or exact text similarity (truth, reference), scores per
size and distance (evaluate), and one run of all of it (experiment).
"""

from .._lazy import lazy_exports

# name -> the module that defines it, imported on first use (see _lazy.py)
_EXPORTS = {
    "SizeResult": ".evaluate",
    "evaluate": ".evaluate",
    "EvalOptions": ".experiment",
    "LabReport": ".experiment",
    "TruthSpec": ".experiment",
    "run_eval": ".experiment",
    "reference_truth": ".reference",
    "similar_pairs": ".reference",
    "generate_corpus": ".synth",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
