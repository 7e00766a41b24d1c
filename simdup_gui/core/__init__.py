"""The simdup engine. Imports no Qt: scripts, the CLI and the GUI all call it.

Subpackages follow a file from a folder to an action:
``scan`` (folders -> records; ``scan.scan`` runs it) -> ``group`` (records -> verified groups) -> ``act`` (marks ->
actions -> journal), with ``review`` (results files, reports, diffs) and ``lab`` (accuracy).
At the top: ``models`` (the records and groups every stage passes on), ``textsim`` (the
near-duplicate definition), ``defaults`` (shipped settings), ``job`` (progress and cancel).
"""

from ._lazy import lazy_exports

# name -> the module that defines it, imported on first use (see _lazy.py)
_EXPORTS = {
    "ActionRefused": ".act",
    "KeepRule": ".act",
    "execute": ".act",
    "mark_all_but_one": ".act",
    "plan_action": ".act",
    "resume": ".act",
    "undo": ".act",
    "DEFAULT_DISTANCE": ".defaults",
    "default_distance": ".defaults",
    "GROUPING_MODES": ".group",
    "all_pairs": ".group",
    "brute_force_pairs": ".group",
    "build_groups": ".group",
    "near_pairs": ".group",
    "plan": ".group",
    "Cancelled": ".job",
    "Job": ".job",
    "ALLOWED_BITS": ".models",
    "FileRecord": ".models",
    "Group": ".models",
    "Member": ".models",
    "Problem": ".models",
    "ProgressEvent": ".models",
    "export_results": ".review",
    "load_results": ".review",
    "save_results": ".review",
    "DEFAULT_MODE": ".scan",
    "FEATURE_MODES": ".scan",
    "FeatureSettings": ".scan",
    "ScanOptions": ".scan",
    "ScanResult": ".scan",
    "WalkOptions": ".scan",
    "decode_bytes": ".scan",
    "extract": ".scan",
    "fingerprint_file": ".scan",
    "hamming": ".scan",
    "simhash128": ".scan",
    "to_hex": ".scan",
    "walk": ".scan",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
