"""The simdup engine. Imports no Qt: scripts, the CLI and the GUI all call it."""

from .actions import ActionRefused, execute, plan_action
from .cluster import GROUPING_MODES, build_groups
from .decode import decode_bytes
from .features import DEFAULT_MODE, FEATURE_MODES, extract
from .fingerprint import FeatureSettings, fingerprint_file
from .index import all_pairs, brute_force_pairs, near_pairs, plan
from .export import export_results, load_results, save_results
from .job import Cancelled, Job
from .marking import KeepRule, mark_all_but_one
from .models import ALLOWED_BITS, FileRecord, Group, Member, Problem, ProgressEvent
from .recovery import resume, undo
from .scan import ScanOptions, ScanResult, scan
from .settings import DEFAULT_DISTANCE, default_distance
from .simhash import hamming, simhash128, to_hex
from .walk import WalkOptions, walk

__all__ = [
    "ActionRefused", "KeepRule", "execute", "export_results", "load_results",
    "mark_all_but_one", "plan_action", "resume", "save_results", "undo",
    "ALLOWED_BITS", "DEFAULT_DISTANCE", "DEFAULT_MODE", "FEATURE_MODES", "GROUPING_MODES",
    "Cancelled", "FeatureSettings", "FileRecord", "Group", "Job", "Member", "Problem",
    "ProgressEvent", "ScanOptions", "ScanResult", "WalkOptions", "all_pairs", "brute_force_pairs",
    "build_groups", "decode_bytes", "default_distance", "extract", "fingerprint_file", "hamming",
    "near_pairs", "plan", "scan", "simhash128", "to_hex", "walk",
]
