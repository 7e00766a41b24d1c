"""From folders to records: walk the roots, decode each file, cut it into features, fingerprint
and sketch it on a worker pool, and remember the results in the cache.

Flow: :func:`walk` -> :func:`fingerprint_file` (decode -> features -> SimHash + sketch) ->
:class:`FingerprintCache` -> :func:`scan` returns :class:`ScanResult` (records and problems).
"""

from .cache import FingerprintCache, default_cache_path
from .decode import DecodeError, decode_bytes
from .features import DEFAULT_MODE, FEATURE_MODES, extract
from .fingerprint import FeatureSettings, fingerprint_file
from .pipeline import ScanOptions, ScanResult, scan
from .simhash import hamming, simhash128, to_hex
from .walk import WalkOptions, walk

__all__ = [
    "DEFAULT_MODE", "FEATURE_MODES", "DecodeError", "FeatureSettings", "FingerprintCache",
    "ScanOptions", "ScanResult", "WalkOptions", "decode_bytes", "default_cache_path", "extract",
    "fingerprint_file", "hamming", "scan", "simhash128", "to_hex", "walk",
]
