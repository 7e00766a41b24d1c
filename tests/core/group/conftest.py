"""Fixtures shared by the grouping tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def measurer_workers(monkeypatch) -> list[int]:
    """The ``workers`` of every exact.Measurer made while the test runs, in order."""
    from simdup_gui.core.group import exact

    seen: list[int] = []
    real = exact.Measurer.__init__

    def init(self, *a, **k):
        real(self, *a, **k)
        seen.append(self.workers)
    monkeypatch.setattr(exact.Measurer, "__init__", init)
    return seen
