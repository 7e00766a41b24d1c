"""Checks at the edges: a bad setting raises ValueError naming the allowed values.

``one_of`` is the one "must be one of" check; the ``parse_*`` functions turn user text
(command-line arguments) into values, shared by the CLI and the app's command line.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import TypeVar

from .models import ALLOWED_BITS

T = TypeVar("T")


def one_of(what: str, value: T, allowed: Iterable[T]) -> T:
    """``value`` if it is in ``allowed``; else ValueError "<what> must be one of a, b, not x"."""
    allowed = tuple(allowed)
    if value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(map(str, allowed))}, not {value!r}")
    return value


def parse_bits(text: str) -> int:
    """A fingerprint size: 16, 32, 64 or 128."""
    try:
        b = int(text)
    except ValueError:
        b = -1
    if b not in ALLOWED_BITS:
        raise ValueError(f"invalid fingerprint size {text!r}: allowed values are "
                         f"{', '.join(map(str, ALLOWED_BITS))}")
    return b


def parse_positive(text: str) -> int:
    """A whole number of at least 1 (worker processes, documents to generate)."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"invalid number {text!r}: give a whole number of at least 1")
    return n


def parse_similarity(text: str) -> float:
    """A share in (0, 1]: 0.7, or 70% as a percentage."""
    v = text.strip()
    pct = v.endswith("%")
    try:
        x = float(v.rstrip("%")) / (100.0 if pct else 1.0)
    except ValueError:
        x = -1.0
    if not 0.0 < x <= 1.0:
        raise ValueError(
            f"invalid similarity {text!r}: give a share in (0, 1], e.g. 0.7, or a percentage")
    return x


def parse_size(text: str) -> int:
    """Sizes like 100, 4k, 10M, 1G."""
    v = text.strip().lower()
    mult = 1
    for suffix, m in (("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30)):
        if v.endswith(suffix) or v.endswith(suffix + "b"):
            mult = m
            v = v.rstrip("b")[:-1]
            break
    try:
        n = int(float(v) * mult)
    except ValueError as e:
        raise ValueError(f"invalid size {text!r} (e.g. 100, 4k, 10M)") from e
    if n < 0:
        raise ValueError("sizes cannot be negative")
    return n


def arg_type(parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse ``type=`` from a parser above: its ValueError becomes the usage error."""

    def convert(value: str) -> T:
        try:
            return parse(value)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from e

    convert.__name__ = parse.__name__
    return convert
