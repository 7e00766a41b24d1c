"""graph.unique_inverse: np.unique(a, return_inverse=True), its values numbered a block at a
time (numpy's one cumsum over them all holds the GIL; the app groups on a worker thread)."""

import numpy as np
import pytest

from simdup_gui.core.group import graph
from simdup_gui.core.textsim import sorted_unique


@pytest.mark.parametrize("shape", [(0,), (1,), (2, 2), (1000,), (333, 7), (5000, 2)])
@pytest.mark.parametrize("dtype", [np.uint32, np.int64])
def test_unique_inverse_is_numpys(shape, dtype, monkeypatch):
    monkeypatch.setattr(graph, "RANK_BLOCK", 64)  # many blocks, and ones cut mid-run
    rng = np.random.default_rng(sum(shape))
    a = rng.integers(0, 50 if len(shape) == 2 else 10_000, size=shape).astype(dtype)
    values, inverse = graph.unique_inverse(a)
    want_values, want_inverse = np.unique(a, return_inverse=True)
    assert values.dtype == a.dtype and np.array_equal(values, want_values)
    assert inverse.shape == a.shape
    assert np.array_equal(inverse.ravel(), want_inverse.ravel())
    assert np.array_equal(values[inverse], a)


def test_unique_inverse_numbers_the_values_in_blocks(monkeypatch):
    calls = []
    cumsum = np.cumsum
    monkeypatch.setattr(graph, "RANK_BLOCK", 100)
    monkeypatch.setattr(graph.np, "cumsum", lambda x, **kw: calls.append(len(x)) or
                        cumsum(x, **kw))
    a = np.arange(1000)[::-1] % 37
    values, inverse = graph.unique_inverse(a)
    assert calls == [100] * 10
    assert np.array_equal(values, np.arange(37)) and np.array_equal(values[inverse], a)


def test_component_order_is_unchanged():
    pairs = np.array([[5, 9], [1, 2], [9, 12], [2, 3], [40, 41], [3, 1]])
    order, comp = graph.component_order(pairs)
    assert order.tolist() == [1, 3, 5, 0, 2, 4]  # {1, 2, 3}, {5, 9, 12}, {40, 41}
    assert comp.tolist() == [3, 0, 3, 0, 6, 0]  # each labelled by its least node's rank


def test_sorted_unique_is_numpys():
    a = np.random.default_rng(3).integers(0, 500, size=2000)
    assert np.array_equal(sorted_unique(a), np.unique(a))
