"""From records to groups: the pigeonhole block index finds candidate pairs within a SimHash
distance, verification keeps the pairs whose text similarity reaches the threshold, and groups
are stars around a reference file (no chaining).

Flow: :func:`near_pairs` (candidates) -> :func:`verified_pairs` (sketch estimate, exact check
near the threshold) -> :func:`star_groups` -> :func:`build_groups` / :func:`group_records`.
"""

from .._lazy import lazy_exports

# name -> the module that defines it, imported on first use (see _lazy.py)
_EXPORTS = {
    "GROUPING_MODES": ".cluster",
    "build_groups": ".cluster",
    "group_records": ".cluster",
    "all_pairs": ".index",
    "brute_force_pairs": ".index",
    "near_pairs": ".index",
    "plan": ".index",
    "VERIFY_MODES": ".verify",
    "Measurer": ".verify",
    "PairSimilarity": ".verify",
    "verified_groups": ".verify",
    "verified_pairs": ".verify",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
