"""What grouping derives from a records list alone: the classes of identical texts (one
node each: they always group, at similarity 1) and the fingerprints as arrays; made once
per list (:class:`RecordsMemo`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..models import FileRecord


def text_classes(records: Sequence[FileRecord]) -> tuple[np.ndarray, list[list[int]]]:
    """Records with identical text (text hash and sketch) share a class: (each record's
    class, each class's records)."""
    key_to: dict = {}
    cls = np.empty(len(records), dtype=np.int64)
    members: list[list[int]] = []
    for i, r in enumerate(records):
        key = (r.text_hash, r.sketch) if (r.sketch and r.text_hash) else i
        c = key_to.get(key)
        if c is None:
            c = key_to[key] = len(members)
            members.append([])
        members[c].append(i)
        cls[i] = c
    return cls, members


def fingerprint_words(records: Sequence[FileRecord]) -> tuple[np.ndarray, np.ndarray]:
    """The 128-bit fingerprints of ``records`` as (low, high) uint64 arrays."""
    n = len(records)
    m64 = 0xFFFFFFFFFFFFFFFF
    lo = np.fromiter((r.fingerprint & m64 for r in records), dtype=np.uint64, count=n)
    hi = np.fromiter((r.fingerprint >> 64 for r in records), dtype=np.uint64, count=n)
    return lo, hi


class RecordsMemo:
    """What grouping derives from a records list alone, made once per list: the classes of
    identical texts and the fingerprints as arrays. A regroup at another size, distance or
    threshold reuses them; the classing is a Python loop over every record (85-95 ms at
    100,000, during which a window's thread waits for the GIL). The list is known by
    identity (a review replaces its records, never changes them in place)."""

    def __init__(self) -> None:
        self._memo: tuple = (None, None, None)  # (records, classes, fingerprints), one tuple
        self._excerpts: tuple = (None, None)  # (records, their excerpts)

    def classes(self, records: Sequence[FileRecord]) -> tuple[np.ndarray, list[list[int]]]:
        of, cls, fps = self._memo
        if of is not records or cls is None:
            cls = text_classes(records)
            self._memo = (records, cls, fps if of is records else None)
        return cls

    def fingerprints(self, records: Sequence[FileRecord]) -> tuple[np.ndarray, np.ndarray]:
        of, cls, fps = self._memo
        if of is not records or fps is None:
            fps = fingerprint_words(records)
            self._memo = (records, cls if of is records else None, fps)
        return fps

    def knows_excerpts(self, records: Sequence[FileRecord]) -> bool:
        """Whether :meth:`excerpts` of ``records`` is made already."""
        return self._excerpts[0] is records

    def excerpts(self, records: Sequence[FileRecord], find):
        """``find()`` (the excerpts of ``records``), made once per list: they depend on the
        texts alone, so a regroup at another size, distance or threshold (the app's
        sliders) does not find and measure them again (43 s on a 768 MB tree)."""
        of, found = self._excerpts
        if of is not records:
            found = find()
            self._excerpts = (records, found)
        return found
