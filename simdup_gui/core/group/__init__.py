"""From records to groups: the pigeonhole block index finds candidate pairs within a SimHash
distance, verification keeps the pairs whose text similarity reaches the threshold, and groups
are stars around a reference file (no chaining).

Flow, as :func:`build_groups` lists it: candidates (:func:`near_pairs`, candidates.py) ->
measure (:func:`verified_pairs`: sketch estimate, exact check near the threshold) -> stars
(stars.py) -> numbered groups; :func:`group_records` adds the files' measurer and cache.
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
    "Measurer": ".exact",
    "PairSimilarity": ".exact",
    "verified_pairs": ".measure",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
