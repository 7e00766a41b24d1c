"""Defaults chosen from measured accuracy (see README, "Choosing the defaults")."""

from __future__ import annotations

from .models import ALLOWED_BITS
from .validate import one_of

DEFAULT_BITS = 64
# Candidate distance per fingerprint size: loose enough that nearly every pair at the
# similarity threshold is a candidate; verification by text similarity decides.
DEFAULT_DISTANCE = {16: 3, 32: 9, 64: 16, 128: 26}
DEFAULT_VERIFY = "sketch"
# Documents made from one template (man pages of one generator) are kept apart: group/templates.py
DEFAULT_MEASURE = "template"


def default_distance(bits: int) -> int:
    return DEFAULT_DISTANCE[one_of("bits", bits, ALLOWED_BITS)]

