"""The candidate pairs as a graph whose verdicts are measured when the stars need them.

A dense family (858 generated man pages, all candidates of each other at J 0.6-0.8) has
n^2/2 pairs near the threshold; measuring every one exactly from the files took most of a
cold scan of a 768 MB tree (1.09 million pairs). A star needs far fewer: its reference's
pairs with the files not yet grouped, and each member's pairs with the other references.
So the stars (stars.py) ask this graph, and only the pairs they ask about are measured.

What a star is made of is the same whichever pairs were measured before: a reference is
chosen by its number of near-duplicates counted on *decided* verdicts (sure by the sketches,
or measured at once because their component has at most 64 texts: every pair of most
collections) and, for the pairs in doubt in dense families, on their estimates; a member
joins when its verdict (measured exactly near the threshold, as always) reaches the
threshold. :meth:`PairGraph.resolve_all` measures every doubtful pair first, the exhaustive
path that tests compare the lazy one with.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .graph import index_dtype


class PairGraph:
    """Class pairs that may reach ``threshold`` (estimate at or above it, or in doubt),
    with their similarity (the estimate, replaced by the exact J once measured), whether
    it is exact, and whether it is still in doubt. ``measure(rows)`` measures the doubtful
    pairs ``rows`` in place (measure.py's block reader); None: doubt stays an estimate."""

    def __init__(self, n: int, pairs: np.ndarray, sim: np.ndarray, exact: np.ndarray,
                 doubt: np.ndarray, threshold: float,
                 measure: Callable[[np.ndarray], None] | None = None) -> None:
        keep = (sim >= threshold) | doubt
        self.pairs, self.sim, self.exact = pairs[keep], sim[keep].copy(), exact[keep].copy()
        self.doubt = doubt[keep].copy()
        self.estimated_ok = self.sim >= threshold
        self.decided = ~self.doubt  # verdicts that choose references: sure by the sketches,
        # or measured at once (resolve_small); the others choose by their estimate
        self.threshold = threshold
        self._measure = measure
        # each pair twice, (a, b) at i and (b, a) at m + i, sorted: each class's neighbours
        # and their rows (int32 below 2**31 pairs; on the 768 MB tree's 1.3 million pairs the
        # graph's making peaked at 237 MB of Python and numpy memory with int64 rows kept
        # beside the pairs, 197 MB so; tracemalloc, records included)
        m = len(self.pairs)
        src = np.concatenate((self.pairs[:, 0], self.pairs[:, 1]))
        dst = np.concatenate((self.pairs[:, 1], self.pairs[:, 0]))
        order = np.lexsort((dst, src))
        self.nbr = dst[order]
        del dst
        self.row = (order % max(m, 1)).astype(index_dtype(m))
        self.start = np.searchsorted(src[order], np.arange(n + 1))

    def measure_with(self, measure: Callable[[np.ndarray], None]) -> None:
        """Doubtful pairs are measured by ``measure(rows)`` (in place) from now on."""
        self._measure = measure

    @classmethod
    def known(cls, n: int, pairs: np.ndarray, sim: np.ndarray, exact: np.ndarray,
              threshold: float) -> PairGraph:
        """A graph of verified pairs whose verdicts are all known."""
        return cls(n, pairs, sim, exact, np.zeros(len(pairs), dtype=bool), threshold)

    def neighbours(self, c: int) -> tuple[np.ndarray, np.ndarray]:
        """(classes, rows) of ``c``'s pairs."""
        a, b = self.start[c], self.start[c + 1]
        return self.nbr[a:b], self.row[a:b]

    def nodes(self) -> np.ndarray:
        """The classes with at least one pair."""
        return np.flatnonzero(np.diff(self.start) > 0)

    def resolve(self, rows: np.ndarray) -> None:
        """Measure the doubtful pairs among ``rows``."""
        todo = rows[self.doubt[rows]]
        if len(todo) and self._measure is not None:
            self._measure(todo)
        self.doubt[todo] = False

    def resolve_all(self) -> None:
        self.resolve(np.arange(len(self.pairs)))

    def verified(self, c: int, among: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(classes, rows): ``c``'s pairs with the classes where ``among`` is True that
        reach the threshold, their doubt measured first."""
        nb, rows = self.neighbours(c)
        pick = among[nb]
        nb, rows = nb[pick], rows[pick]
        self.resolve(rows)
        ok = self.sim[rows] >= self.threshold
        return nb[ok], rows[ok]

    def row_of(self, a: int, b: int) -> int:
        """The row of pair (a, b), or -1."""
        nb, rows = self.neighbours(a)
        i = int(np.searchsorted(nb, b))
        return int(rows[i]) if i < len(nb) and nb[i] == b else -1

    def sure(self, rows: np.ndarray) -> np.ndarray:
        """Which ``rows`` are decided (sure by their sketches, or measured at once with their
        small component) and reach the threshold: the same whichever other pairs the stars
        measured."""
        return self.decided[rows] & (self.sim[rows] >= self.threshold)

    def counts(self, rows: np.ndarray) -> np.ndarray:
        """Which ``rows`` count towards a reference's score: the decided ones by their
        verdict, the others (pairs in doubt in dense families) by their estimate."""
        return np.where(self.decided[rows], self.sim[rows] >= self.threshold,
                        self.estimated_ok[rows])

    def resolve_small(self, up_to: int) -> None:
        """Measure at once the doubtful pairs of components of at most ``up_to`` classes:
        they are few, and one batch reads their files once; the stars then measure only in
        the dense families."""
        from .graph import components

        if not self.doubt.any():
            return
        n = len(self.start) - 1
        comp = components(n, self.pairs)
        size = np.bincount(comp, minlength=n)
        small = size[comp[self.pairs[:, 0]]] <= up_to
        self.resolve(np.flatnonzero(small & self.doubt))
        self.decided |= small
