"""From folders to records: walk the roots, decode each file, cut it into features, fingerprint
and sketch it on a worker pool, and remember the results in the cache.

Flow: :func:`walk` -> :func:`fingerprint_file` (decode -> features -> SimHash + sketch) ->
:class:`FingerprintCache` -> :func:`scan` returns :class:`ScanResult` (records and problems).
"""

from .._lazy import lazy_exports

# name -> the module that defines it, imported on first use (see _lazy.py)
_EXPORTS = {
    "FingerprintCache": ".cache",
    "default_cache_path": ".cache",
    "DecodeError": ".decode",
    "decode_bytes": ".decode",
    "DEFAULT_MODE": ".features",
    "FEATURE_MODES": ".features",
    "extract": ".features",
    "FeatureSettings": ".fingerprint",
    "fingerprint_file": ".fingerprint",
    "ScanOptions": ".pipeline",
    "ScanResult": ".pipeline",
    "scan": ".pipeline",
    "hamming": ".simhash",
    "simhash128": ".simhash",
    "to_hex": ".simhash",
    "WalkOptions": ".walk",
    "walk": ".walk",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
