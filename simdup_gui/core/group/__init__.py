"""From records to groups: the pigeonhole block index finds candidate pairs within a SimHash
distance, verification keeps the pairs whose text similarity reaches the threshold, and groups
are stars around a reference file (no chaining).

Flow: :func:`near_pairs` (candidates) -> :func:`verified_pairs` (sketch estimate, exact check
near the threshold) -> :func:`star_groups` -> :func:`build_groups` / :func:`group_records`.
"""

from .cluster import GROUPING_MODES, build_groups, group_records
from .index import all_pairs, brute_force_pairs, near_pairs, plan
from .verify import VERIFY_MODES, Measurer, PairSimilarity, verified_groups, verified_pairs

__all__ = [
    "GROUPING_MODES", "VERIFY_MODES", "Measurer", "PairSimilarity", "all_pairs",
    "brute_force_pairs", "build_groups", "group_records", "near_pairs", "plan",
    "verified_groups", "verified_pairs",
]
