"""Verified groups: SimHash candidates, text similarity checks, one reference per group.

SimHash distance only proposes pairs; each candidate pair is verified by its text
similarity (textsim: 5-gram Jaccard of the normalised texts), and groups are stars around
a reference file, every member verified against it (no chaining). The stages, each a
module of group/, which cluster.build_groups lists in order:

1. candidates (candidates.py): pairs of distinct texts whose fingerprints (or, on large
   folders, sketches) are near; files with identical text are one node (classes.py);
2. measure (measure.py): each pair's similarity estimated from the files' sketches, and
   measured exactly from the files (exact.py) when the estimate is near the threshold;
3. stars (stars.py): references chosen greedily, each with its verified neighbours;
4. groups: numbered, largest first.

Here: the verification modes, and the names the rest of simdup imports from here.
"""

from __future__ import annotations

from .classes import RecordsMemo
from .exact import Measurer, PairSimilarity, read_shingles
from .measure import MARGIN, check_threshold

VERIFY_MODES = ("sketch", "none")

__all__ = ["MARGIN", "VERIFY_MODES", "Measurer", "PairSimilarity", "RecordsMemo",
           "check_threshold", "read_shingles"]
