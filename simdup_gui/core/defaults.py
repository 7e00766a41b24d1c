"""Defaults chosen from measured accuracy (see README, "Choosing the defaults")."""

from __future__ import annotations

from .models import ALLOWED_BITS
from .validate import one_of

DEFAULT_BITS = 64
# Candidate distance per fingerprint size: loose enough that nearly every pair at the
# similarity threshold is a candidate; verification by text similarity decides.
DEFAULT_DISTANCE = {16: 3, 32: 9, 64: 16, 128: 26}
DEFAULT_VERIFY = "sketch"
# "template" keeps documents made from one template apart (group/templates.py); not yet the
# default: on held-out real text it does not reach the bar set for it (docs/accuracy.md)
DEFAULT_MEASURE = "plain"


def default_distance(bits: int) -> int:
    return DEFAULT_DISTANCE[one_of("bits", bits, ALLOWED_BITS)]

