"""simdup: find near-duplicate text files with SimHash fingerprints."""

__version__ = "0.1.0"
