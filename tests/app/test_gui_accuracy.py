import pytest

pytest.importorskip("PySide6.QtCharts")

from PySide6.QtCore import Qt  # noqa: E402

from simdup_gui.app.accuracy import COLUMNS, RAW_ROLE, AccuracyTab  # noqa: E402
from simdup_gui.core.job import Job  # noqa: E402
from simdup_gui.core.lab.experiment import EvalOptions, TruthSpec, run_eval  # noqa: E402
from simdup_gui.core.lab.synth import generate_corpus  # noqa: E402


@pytest.fixture
def corpus(tmp_path):
    generate_corpus(10, seed=2).write(str(tmp_path))
    return str(tmp_path)


def test_accuracy_tab_runs_end_to_end_and_its_table_equals_the_engine(qtbot, corpus, tmp_path):
    tab = AccuracyTab()
    qtbot.addWidget(tab)
    opts = EvalOptions(bits=(16, 64), workers=1)
    with qtbot.waitSignal(tab.finished, timeout=60_000) as blocker:
        tab.start_run(corpus, TruthSpec("synthetic"), opts)
    qtbot.waitUntil(lambda: tab.worker is None, timeout=10_000)
    report = blocker.args[0]
    engine = run_eval(Job(), corpus, TruthSpec("synthetic"), opts)
    model = tab.model
    rows = [s for size in engine.sizes for s in size.scores]
    assert model.rowCount() == len(rows)
    for r, s in enumerate(rows):
        for c, col in enumerate(COLUMNS):
            assert model.data(model.index(r, c), RAW_ROLE) == pytest.approx(getattr(s, col))
    best64 = engine.size(64).best
    row = next(r for r, s in enumerate(rows) if (s.bits, s.distance) == (64, best64.distance))
    assert model.data(model.index(row, COLUMNS.index("f1")), Qt.ItemDataRole.DisplayRole) == \
        f"{best64.f1:.3f}"
    assert model.data(model.index(row, 0), Qt.ItemDataRole.FontRole).bold()
    assert report.size(16).best.f1 < report.size(64).best.f1
    assert "16 bits" in tab.headline.text()
    csv_path = tmp_path / "out.csv"
    tab.export_csv(str(csv_path))
    assert csv_path.read_text(encoding="utf-8").startswith("bits,distance")
    assert tab.export_png(str(tmp_path / "out.png"))
    assert (tmp_path / "out.png").stat().st_size > 0


def test_generating_a_corpus_from_the_tab_reports_every_size(qtbot):
    tab = AccuracyTab()
    qtbot.addWidget(tab)
    with qtbot.waitSignal(tab.finished, timeout=60_000) as blocker:
        tab.start_generated(6, EvalOptions(workers=1))
    qtbot.waitUntil(lambda: tab.worker is None, timeout=10_000)
    assert [s.bits for s in blocker.args[0].sizes] == [16, 32, 64, 128]
    assert len(tab.size_charts[16].series()) == 5


def test_a_cancelled_run_says_so_and_can_run_again(qtbot, corpus):
    tab = AccuracyTab()
    qtbot.addWidget(tab)
    with qtbot.waitSignals([tab.cancelled, tab.started], timeout=60_000, order="none"):
        tab.start_run(corpus, TruthSpec("synthetic"), EvalOptions(workers=1))
        tab.cancel()
    qtbot.waitUntil(lambda: tab.run_button.isEnabled(), timeout=10_000)
    assert tab.status.text() == tab.tr("Cancelled.")


def test_a_missing_folder_is_refused_with_the_reason(qtbot, tmp_path):
    tab = AccuracyTab()
    qtbot.addWidget(tab)
    with pytest.raises(ValueError, match="Not a folder"):
        tab.start_run(str(tmp_path / "nope"), TruthSpec("synthetic"))
