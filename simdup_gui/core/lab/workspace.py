"""The lab's working state: the last report and a generated corpus in a temporary folder."""

from __future__ import annotations

import shutil
import tempfile

from ..job import NULL_JOB, Job
from ..models import ProgressEvent
from .experiment import EvalOptions, LabReport, TruthSpec, run_eval
from .synth import generate_corpus


class LabWorkspace:
    """Holds the last report and the generated corpus folder, which it removes when the
    next one is made or on :meth:`close` (never while an evaluation may still read it)."""

    def __init__(self) -> None:
        self.report: LabReport | None = None
        self.generated: str | None = None

    def new_corpus_folder(self) -> str:
        self.remove_generated()
        self.generated = tempfile.mkdtemp(prefix="simdup-accuracy-")
        return self.generated

    def remove_generated(self) -> None:
        if self.generated is not None:
            shutil.rmtree(self.generated, ignore_errors=True)
            self.generated = None

    @staticmethod
    def evaluate(root: str, spec: TruthSpec, options: EvalOptions | None = None, *,
                 job: Job = NULL_JOB) -> LabReport:
        return run_eval(job, root, spec, options or EvalOptions())

    @staticmethod
    def generate_then_evaluate(folder: str, n_docs: int, options: EvalOptions | None = None,
                               *, job: Job = NULL_JOB) -> LabReport:
        """Write a generated corpus of ``n_docs`` documents into ``folder``, then evaluate it
        against its manifest."""
        job.report(ProgressEvent("generate", 0, n_docs))
        generate_corpus(n_docs, seed=0).write(folder)
        return run_eval(job, folder, TruthSpec("synthetic"), options or EvalOptions())
