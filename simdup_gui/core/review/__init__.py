"""What a user reviews and keeps: results in JSON, CSV and text (results), saving and loading
them (export), the HTML report, and the two diffs the details pane shows (textdiff, bitdiff).
"""

from .export import export_results, load_results, save_results
from .results import Results, load_json

__all__ = ["Results", "export_results", "load_json", "load_results", "save_results"]
