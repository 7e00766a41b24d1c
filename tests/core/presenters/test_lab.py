"""The lab's table, charts and headline from a report, without Qt."""

from simdup_gui.core.lab.evaluate import Score, SizeResult
from simdup_gui.core.lab.experiment import LabReport
from simdup_gui.core.models import ProgressEvent
from simdup_gui.core.presenters import colours, lab


def score(bits, k, tp, fp, fn, chance):
    return Score(bits=bits, distance=k, tp=tp, fp=fp, fn=fn, chance=chance)


def report():
    small = [score(16, 0, 9, 1, 9, 0.01), score(16, 1, 12, 8, 3, 2.0)]  # P .9 R .5; P .6 R .8
    big = [score(64, 0, 6, 0, 4, 0.0), score(64, 4, 9, 0, 1, 1e-6)]  # P 1 R .6; P 1 R .9
    return LabReport(root="/c", files=20, truth_source="manifest", rule="", sampling="",
                  features="shingles", grouping="linked", positives=12.0,
                  sizes=[SizeResult(16, small), SizeResult(64, big)])


def test_table_has_a_row_per_size_and_k_with_the_best_flagged():
    t = lab.ScoreTable(report())
    assert [(s.bits, s.distance) for s in t.rows] == [(16, 0), (16, 1), (64, 0), (64, 4)]
    f1 = lab.COLUMNS.index("f1")
    assert t.text(3, f1) == f"{t.rows[3].f1:.3f}"
    assert t.text(1, lab.COLUMNS.index("chance")) == "2"
    assert t.text(0, lab.COLUMNS.index("tp")) == "9"
    assert [t.is_best(r) for r in range(4)] == [False, True, False, True]
    assert [t.drowned(r) for r in range(4)] == [False, True, False, False]
    assert lab.ScoreTable(None).rows == []


def test_headline_gives_every_size_and_warns_when_small_sizes_drown():
    h = lab.headline(report())
    assert h.startswith("16 bits: best F1 0.69 at k=1, 2 random matches per file; 64 bits")
    assert "Red-tinted rows" in h


def test_size_chart_series_and_axes():
    c = lab.size_chart(report().sizes[0].scores)
    assert [s.name for s in c.series] == ["precision", "recall", "F1",
                                          "chance matches/file (log)", "1 random match/file"]
    assert c.series[0].points == [(0, 0.9), (1, 0.6)]
    assert c.series[3].axis == "chance" and c.series[3].points[0] == (0, 0.01)
    assert c.k_range == (0, 1) and c.chance_top == 10.0 and c.drowned
    one = lab.size_chart([score(64, 0, 1, 0, 0, 0.0)])
    assert one.k_range == (0, 1) and one.k_ticks == 2
    assert one.series[3].points == [(0, lab.CHANCE_FLOOR)]


def test_best_f1_bars_and_precision_recall_curves():
    cats, values = lab.best_f1(report())
    assert cats == ["16 bits", "64 bits"] and values[1] == report().sizes[1].best.f1
    curves = lab.pr_curves(report())
    assert curves[1].points == [(0.6, 1.0), (0.9, 1.0)]
    assert curves[0].color == lab.colour("size16") == colours.current().lab["size16"]


def test_progress_and_status_texts():
    assert lab.progress_text(ProgressEvent("evaluate", 3, 8)) == "Scoring every size and k: 3 of 8"
    assert lab.report_status(report()).startswith("20 files, truth: manifest; 12 duplicate pairs.")


def test_verified_groups_stand_beside_simhash_alone_in_the_headline_and_the_bars():
    r = report()
    cats, sets = lab.f1_bars(r)
    assert cats == ["16 bits", "64 bits"] and len(sets) == 1  # no verified scores: one set
    r.sizes[0].verified = score(16, 3, 11, 0, 1, 21.0)
    r.sizes[1].verified = score(64, 16, 10, 0, 0, 1e-5)
    cats, sets = lab.f1_bars(r)
    assert [name for name, _, _ in sets] == ["SimHash only", "verified"]
    assert sets[1][2] == [r.sizes[0].verified.f1, 1.0]
    h = lab.headline(r)
    assert "64 bits: best F1 0.95 at k=4, 1e-06 random matches per file (verified groups: F1 " \
           "1.00 at k=16)" in h
