"""The simdup engine. Imports no Qt: scripts, the CLI and the GUI all call it.

Subpackages follow a file from a folder to an action:
``scan`` (folders -> records; ``scan.scan`` runs it) -> ``group`` (records -> verified groups) -> ``act`` (marks ->
actions -> journal), with ``review`` (results files, reports, diffs) and ``lab`` (accuracy).
At the top: ``models`` (the records and groups every stage passes on), ``textsim`` (the
near-duplicate definition), ``defaults`` (shipped settings), ``job`` (progress and cancel).
"""

from .act import ActionRefused, KeepRule, execute, mark_all_but_one, plan_action, resume, undo
from .defaults import DEFAULT_DISTANCE, default_distance
from .group import GROUPING_MODES, all_pairs, brute_force_pairs, build_groups, near_pairs, plan
from .job import Cancelled, Job
from .models import ALLOWED_BITS, FileRecord, Group, Member, Problem, ProgressEvent
from .review import export_results, load_results, save_results
from .scan import (DEFAULT_MODE, FEATURE_MODES, FeatureSettings, ScanOptions, ScanResult,
                   WalkOptions, decode_bytes, extract, fingerprint_file, hamming, simhash128, to_hex,
                   walk)

__all__ = [
    "ActionRefused", "KeepRule", "execute", "export_results", "load_results",
    "mark_all_but_one", "plan_action", "resume", "save_results", "undo",
    "ALLOWED_BITS", "DEFAULT_DISTANCE", "DEFAULT_MODE", "FEATURE_MODES", "GROUPING_MODES",
    "Cancelled", "FeatureSettings", "FileRecord", "Group", "Job", "Member", "Problem",
    "ProgressEvent", "ScanOptions", "ScanResult", "WalkOptions", "all_pairs", "brute_force_pairs",
    "build_groups", "decode_bytes", "default_distance", "extract", "fingerprint_file", "hamming",
    "near_pairs", "plan", "simhash128", "to_hex", "walk",
]
