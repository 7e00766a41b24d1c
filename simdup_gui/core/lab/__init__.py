"""The accuracy lab: how well each fingerprint size finds near-duplicates. Synthetic corpora
(synth), truth from a manifest, a CSV or exact text similarity (truth, reference), scores per
size and distance (evaluate), and one run of all of it (experiment).
"""

from .evaluate import SizeResult, evaluate
from .experiment import EvalOptions, Report, TruthSpec, run_eval
from .reference import reference_truth, similar_pairs
from .synth import generate_corpus

__all__ = [
    "EvalOptions", "Report", "SizeResult", "TruthSpec", "evaluate", "generate_corpus",
    "reference_truth", "run_eval", "similar_pairs",
]
