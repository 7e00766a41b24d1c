"""Random marks and actions never lose the last copy of a group or touch unmarked files."""

import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.core.act.actions import ActionRefused, execute, plan_action
from simdup_gui.core.act.marking import (PLAIN_RULES, KeepRule, groups_without_kept_file, invert_marks,
                                     mark_all_but_one, toggle_selected)
from simdup_gui.core.act.recovery import undo

from tests.actions_helpers import T0, results_from_groups, tree_state, write


STEPS = st.one_of(
    st.tuples(st.just("rule"), st.sampled_from(PLAIN_RULES)),
    st.tuples(st.just("toggle"), st.integers(0, 15)),
    st.tuples(st.just("invert")),
    st.tuples(st.just("clear")),
    st.tuples(st.just("edit"), st.integers(0, 15)),
    st.tuples(st.just("act"), st.sampled_from(["move", "trash", "delete"])),
    st.tuples(st.just("undo")),
)


@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(1, 4), min_size=1, max_size=4),
       steps=st.lists(STEPS, min_size=1, max_size=10))
def test_random_marks_and_actions_keep_a_file_per_group_and_never_touch_unmarked_files(
        sizes, steps):
    with tempfile.TemporaryDirectory() as d:
        root = Path(d) / "src"
        groups = [[write(root / f"g{g}" / ("x" * (i + 1)) / "f.txt",
                         f"group {g} copy {i} ".encode() * (10 + 7 * i), T0 + (i * 7 % 3) * 10**9)
                   for i in range(n)] for g, n in enumerate(sizes)]
        res = results_from_groups(groups, str(root))
        paths = [r.path for r in res.records]
        bin_ = Path(d) / "bin"
        bin_.mkdir()
        marks: set[str] = set()
        journals: list[str] = []
        acts = 0

        def fake_trash(path):
            os.rename(path, bin_ / f"{len(os.listdir(bin_))}")

        for step in steps:
            kind = step[0]
            if kind == "rule":
                marks = mark_all_but_one(res, KeepRule(step[1]))
            elif kind == "toggle":
                marks = toggle_selected(marks, [paths[step[1] % len(paths)]])
            elif kind == "invert":
                marks = invert_marks(res, marks)
            elif kind == "clear":
                marks = set()
            elif kind == "edit":
                p = paths[step[1] % len(paths)]
                if os.path.exists(p):
                    with open(p, "ab") as fh:
                        fh.write(b"edited")
            elif kind == "undo" and journals:
                undo(journals.pop())
            elif kind == "act":
                before = tree_state(root)
                try:
                    dest = str(Path(d) / "dups") if step[1] == "move" else None
                    plan = plan_action(res, marks, step[1], move_to=dest)
                except ActionRefused as e:
                    assert groups_without_kept_file(res, marks) or "similar in text" in str(e)
                    assert tree_state(root) == before
                    continue
                acts += 1  # a fresh journal each time: an existing one is never reused
                journals.append(str(Path(d) / "j" / f"{acts}.jsonl"))
                rep = execute(plan, journal=journals[-1], trash=fake_trash)
                done = {o.path for o in rep.outcomes if o.status == "done"}
                assert done <= marks
                after = tree_state(root)
                assert {p: h for p, h in before.items() if p not in done} == after
            for g in groups:
                assert any(os.path.exists(p) for p in g), "a group lost its last file"


# ---- the kept copy must be similar to the file it protects (not just in its group) -------
