import pytest

from tests.actions_helpers import corpus_results


@pytest.fixture
def corpus(tmp_path):
    """Scanned results of a small corpus: (results, paths by name, the folder)."""
    res, p = corpus_results(tmp_path)
    return res, p, tmp_path
