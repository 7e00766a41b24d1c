"""Bytes to text: BOM first, then strict UTF-8, then chardet on a bounded sample."""

from __future__ import annotations

import codecs
from dataclasses import dataclass

import chardet

SNIFF_BYTES = 8192
CHARDET_SAMPLE = 16384
MAX_BAD_RATIO = 0.05  # more undecodable than this: "binary or unknown encoding"

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig", "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
)
_GB_FAMILY = {"gb2312", "gbk", "gb18030", "hz-gb-2312", "cp936"}
_CONTROL = frozenset(list(range(0, 8)) + [11, 14, 15] + list(range(16, 27)) + list(range(28, 32)))


class DecodeError(ValueError):
    """The bytes are not text we can read; ``kind`` is the problem kind."""

    def __init__(self, reason: str, kind: str = "binary") -> None:
        super().__init__(reason)
        self.kind = kind


@dataclass(slots=True)
class Decoded:
    text: str
    encoding: str  # the name recorded for the user, e.g. "utf-8", "gb18030", "utf-16-le (BOM)"
    codec: str  # the Python codec that decodes the whole file
    bom: int  # bytes of BOM to skip
    bad_bytes: int


def bom_of(head: bytes) -> tuple[str, int, str] | None:
    """(codec, bom length, label) for a byte-order mark at the start, else None."""
    for bom, codec, label in _BOMS:
        if head.startswith(bom):
            return codec, len(bom), label
    return None


def _utf16_without_bom(head: bytes) -> str | None:
    even, odd = head[0::2], head[1::2]
    if len(head) < 4:
        return None
    z_even = even.count(0) / max(1, len(even))
    z_odd = odd.count(0) / max(1, len(odd))
    if z_odd > 0.3 and z_even < 0.05:
        return "utf-16-le"
    if z_even > 0.3 and z_odd < 0.05:
        return "utf-16-be"
    return None


def sniff(head: bytes) -> tuple[str, int, str] | None:
    """Decide from the first bytes whether this is text.

    Returns (codec, bom length, label) when a BOM or BOM-less UTF-16 fixes the
    codec, None when the codec is still open; raises DecodeError for binary.
    """
    b = bom_of(head)
    if b:
        return b
    if 0 in head:
        codec = _utf16_without_bom(head)
        if codec:
            return codec, 0, codec
        raise DecodeError("binary content (NUL bytes)", "binary")
    if head:
        ctrl = sum(1 for c in head if c in _CONTROL)
        if ctrl / len(head) > 0.05:
            raise DecodeError("binary content (control bytes)", "binary")
    return None


def _count_bad(text: str) -> int:
    return text.count("\ufffd")


def normalise_codec(name: str | None) -> str | None:
    if not name:
        return None
    n = name.lower()
    if n in _GB_FAMILY:
        return "gb18030"
    if n == "ascii":
        return "utf-8"
    try:
        return codecs.lookup(n).name
    except LookupError:
        return None


def choose_codec(data: bytes) -> tuple[str, int, str]:
    """Pick (codec, bom length, label) for ``data`` (the whole file or a prefix)."""
    fixed = sniff(data[:SNIFF_BYTES])
    if fixed:
        return fixed
    try:
        data.decode("utf-8")
        return "utf-8", 0, "ascii" if data.isascii() else "utf-8"
    except UnicodeDecodeError as e:
        # A prefix may end inside a character: that is not an error.
        if e.start >= len(data) - 3 and e.reason == "unexpected end of data":
            return "utf-8", 0, "utf-8"
    # Mostly valid UTF-8 with a few bad bytes stays UTF-8.
    probe = data.decode("utf-8", errors="replace")
    if _count_bad(probe) <= max(4, len(data) // 200):
        return "utf-8", 0, "utf-8"
    # Sample from the start and the middle: headers are often ASCII.
    if len(data) > CHARDET_SAMPLE:
        half = CHARDET_SAMPLE // 2
        mid = len(data) // 2
        sample = data[:half] + data[mid : mid + half]
    else:
        sample = data
    guess = chardet.detect(sample)
    codec = normalise_codec(guess.get("encoding"))
    high = sum(1 for c in sample if c >= 0x80) / max(1, len(sample))
    if (guess.get("confidence") or 0) < 0.2 and high > 0.3:
        raise DecodeError(f"binary or unknown encoding (no encoding fits; best guess "
                          f"{guess.get('encoding')} at {guess.get('confidence') or 0:.0%})",
                          "undecodable")
    if codec is None:
        # chardet could not tell: GB18030 decodes any byte pair; judge it by the bad ratio.
        codec = "gb18030"
    return codec, 0, codec


def decode_bytes(data: bytes) -> Decoded:
    """Decode a whole file's bytes, counting what failed to decode."""
    if not data:
        raise DecodeError("empty file", "empty")
    codec, bom, label = choose_codec(data)
    if not codec.startswith(("utf-16", "utf-32")):
        nul = data.count(0)
        if nul > max(16, len(data) // 1000):  # the sniff saw only the first bytes
            raise DecodeError(f"binary content ({nul} NUL bytes after the first "
                              f"{SNIFF_BYTES} bytes)", "binary")
    text = data[bom:].decode(codec, errors="replace")
    bad = _count_bad(text)
    if text and bad / max(1, len(text)) > MAX_BAD_RATIO:
        raise DecodeError(f"binary or unknown encoding ({bad} undecodable characters, "
                          f"best guess {label})", "undecodable")
    if label == "utf-8" and bad:
        label = "utf-8"
    return Decoded(text, label, codec, bom, bad)
