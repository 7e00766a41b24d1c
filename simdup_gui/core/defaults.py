"""Defaults chosen from measured accuracy (see README, "Choosing the defaults")."""

from __future__ import annotations

from .models import ALLOWED_BITS

DEFAULT_BITS = 64
# Candidate distance per fingerprint size: loose enough that nearly every pair at the
# similarity threshold is a candidate; verification by text similarity decides.
DEFAULT_DISTANCE = {16: 3, 32: 9, 64: 16, 128: 26}
DEFAULT_VERIFY = "sketch"


def default_distance(bits: int) -> int:
    if bits not in ALLOWED_BITS:
        raise ValueError(f"bits must be one of {', '.join(map(str, ALLOWED_BITS))}, not {bits}")
    return DEFAULT_DISTANCE[bits]

