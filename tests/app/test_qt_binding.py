"""The Qt binding must not corrupt reference counts: the app emits signals all the time."""

import sys

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import QObject, Signal  # noqa: E402


class _Emitter(QObject):
    ping = Signal()
    value = Signal(object)


def test_emitting_signals_keeps_bool_reference_counts(qapp):
    e = _Emitter()
    before = sys.getrefcount(True), sys.getrefcount(False)
    for _ in range(50):
        e.ping.emit()
        e.value.emit(1)
    assert (sys.getrefcount(True), sys.getrefcount(False)) == before
