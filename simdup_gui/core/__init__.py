"""The simdup engine. Imports no Qt: scripts, the CLI and the GUI all call it."""

from .cluster import GROUPING_MODES, build_groups
from .decode import decode_bytes
from .features import DEFAULT_MODE, FEATURE_MODES, extract
from .fingerprint import FeatureSettings, fingerprint_file
from .index import all_pairs, brute_force_pairs, near_pairs, plan
from .job import Cancelled, Job
from .models import ALLOWED_BITS, FileRecord, Group, Member, Problem, ProgressEvent
from .scan import ScanOptions, ScanResult, scan
from .settings import DEFAULT_DISTANCE, default_distance
from .simhash import hamming, simhash128, to_hex
from .walk import WalkOptions, walk

__all__ = [
    "ALLOWED_BITS", "DEFAULT_DISTANCE", "DEFAULT_MODE", "FEATURE_MODES", "GROUPING_MODES",
    "Cancelled", "FeatureSettings", "FileRecord", "Group", "Job", "Member", "Problem",
    "ProgressEvent", "ScanOptions", "ScanResult", "WalkOptions", "all_pairs", "brute_force_pairs",
    "build_groups", "decode_bytes", "default_distance", "extract", "fingerprint_file", "hamming",
    "near_pairs", "plan", "scan", "simhash128", "to_hex", "walk",
]
