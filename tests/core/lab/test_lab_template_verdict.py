"""The accuracy lab shows both verdicts (issue 37): verified groups by J alone, and with
different documents built on one template kept apart, so a user sees what each costs."""

from __future__ import annotations

import random

import numpy as np

from simdup_gui.core.lab.evaluate import evaluate
from simdup_gui.core.lab.experiment import LabReport, to_text
from simdup_gui.core.lab.truth import ClassTruth
from simdup_gui.core.presenters.lab import headline
from simdup_gui.core.scan.pipeline import ScanOptions, scan
from tests.core.group.test_templates import man_pages


def test_the_lab_scores_plain_and_template_verdicts_by_origin(tmp_path):
    pages = man_pages(tmp_path / "man", 12)
    rng = random.Random(3)
    for p in pages[:4]:  # a backup of four pages, one word changed
        with open(p, encoding="utf-8") as fh:
            words = fh.read().split(" ")
        words[rng.randrange(len(words))] = "changed"
        (tmp_path / "man" / (p.rsplit("/", 1)[1] + ".bak")).write_text(" ".join(words),
                                                                     encoding="utf-8")
    records = scan([str(tmp_path)], ScanOptions(workers=1, use_cache=False)).records
    names = [r.path for r in records]
    origin = {p: i for i, p in enumerate(pages)}
    # truth by origin: a page and its backup are one document; sibling pages are not copies
    cls = np.array([origin.get(n[: -len(".bak")] if n.endswith(".bak") else n, -1)
                    for n in names])
    counts = np.bincount(cls[cls >= 0], minlength=len(pages))
    positive = np.where((cls >= 0) & (counts[np.maximum(cls, 0)] > 1), cls, -1)
    truth = ClassTruth(names, positive, positive.copy(), "origin", "test")
    (size,) = evaluate(records, truth, (64,))
    assert size.verified is not None and size.template is not None
    assert size.verified.precision < 0.5  # J alone joins the generator's pages
    assert size.template.precision == 1.0 and size.template.recall == 1.0
    report = LabReport(str(tmp_path), len(records), "test", "origin", "", "words", "linked",
                       [size], truth.positives, [], [], 0.0)
    text = to_text(report)
    assert "template" in text and f"{size.template.f1:.3f}" in text
    assert f"templates kept apart: F1 {size.template.f1:.2f}" in headline(report)
