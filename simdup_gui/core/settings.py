"""Defaults chosen from measured accuracy (see README, "Choosing the defaults")."""

from __future__ import annotations

from .models import ALLOWED_BITS

DEFAULT_BITS = 64
# Maximum Hamming distance per fingerprint size; k scales with f (same angle).
DEFAULT_DISTANCE = {16: 0, 32: 2, 64: 8, 128: 20}


def default_distance(bits: int) -> int:
    if bits not in ALLOWED_BITS:
        raise ValueError(f"bits must be one of {', '.join(map(str, ALLOWED_BITS))}, not {bits}")
    return DEFAULT_DISTANCE[bits]


def similarity(distance: int, bits: int) -> float:
    """The share of equal bits, as shown to users ("k=3 of 64 = 95%")."""
    return 1.0 - distance / bits
