"""What a Dask worker runs for a scan. :func:`scheme` goes by ``client.run``, by value
(cloudpickle.register_pickle_by_value, in distributed.py): the code itself travels, so a
worker whose simdup is older than the client's, with no such function, still runs it and
says which fingerprints it makes. :func:`fingerprint_checked` goes in the task graph, by
reference: a worker that joins later with an older simdup fails it with an ImportError,
which stops the scan as a mismatch does. Names of the engine are imported inside the
functions, from the worker's own simdup."""

from __future__ import annotations

MISMATCH = "makes other fingerprints than the client: "


def scheme(mode: str) -> str:
    """The fingerprint scheme (FeatureSettings.version) of this worker's simdup."""
    from simdup_gui.core.scan.fingerprint import FeatureSettings

    return FeatureSettings(mode).version()


def fingerprint_checked(items: list, mode: str, want: str) -> list:
    """fingerprint_batch_compiled of ``items``, on a worker whose scheme is ``want`` (a
    RuntimeError naming both where it is not: a worker that joined after the check)."""
    from simdup_gui.core.scan.fingerprint import FeatureSettings, fingerprint_batch_compiled

    got = FeatureSettings(mode).version()
    if got != want:
        raise RuntimeError(f"{MISMATCH}{got} (the client's: {want})")
    return fingerprint_batch_compiled(items, mode)
