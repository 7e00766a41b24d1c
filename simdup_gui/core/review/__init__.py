"""What a user reviews and keeps: results in JSON, CSV and text (results), saving and loading
them (export; process_load: loading in a child process, for a GUI), the HTML report, and the
two diffs the details pane shows (textdiff, bitdiff).
"""

from .._lazy import lazy_exports

# name -> the module that defines it, imported on first use (see _lazy.py)
_EXPORTS = {
    "export_results": ".export",
    "load_results": ".export",
    "load_results_in_process": ".process_load",
    "save_results": ".export",
    "Results": ".results",
    "load_json": ".results",
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(_EXPORTS)
