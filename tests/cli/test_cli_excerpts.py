"""`simdup scan` lists excerpts after the groups (issue 41, part 3); --no-excerpts skips
the step."""

import os

from simdup_gui.cli import main

from tests.excerpt_fixtures import excerpt_folder


def test_scan_lists_excerpts_after_the_groups(capsys, tmp_path):
    root = excerpt_folder(tmp_path / "t")
    assert main(["scan", str(root), "--no-cache", "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    line = (f"excerpt: {os.path.join(root, 'book start.txt')} is inside "
            f"{os.path.join(root, 'book.txt')} (100 %)")
    assert line in out
    groups = [n for n, t in enumerate(out) if t.startswith("Group ")]
    excerpts = [n for n, t in enumerate(out) if t.startswith("excerpt: ")]
    assert groups and excerpts and max(groups) < min(excerpts)
    assert main(["scan", str(root), "--no-cache", "--workers", "1", "--no-excerpts"]) == 0
    assert "excerpt:" not in capsys.readouterr().out
