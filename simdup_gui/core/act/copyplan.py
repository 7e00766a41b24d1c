"""Plans for the actions that remove nothing (copying.py): copy the marked files into a
folder, rename one file in its folder. They are carried out, journaled and undone like the
other actions (actions.execute, recovery.undo)."""

from __future__ import annotations

import os
from collections.abc import Iterable

from .actions import Plan, PlannedOp, _intended_dest
from .fileops import TMP_PREFIX, is_under
from ..review.results import Results


def plan_copy(res: Results, marks: Iterable[str], copy_to: str, *, flat: bool = False) -> Plan:
    """Copy each marked grouped file into ``copy_to`` (below it, the file's folders under its
    scan root; with ``flat``, directly in it; a name taken gets " (1)"...). ValueError for
    a destination that is not a folder."""
    if not copy_to:
        raise ValueError("copy needs a destination folder")
    copy_to = os.path.abspath(copy_to)
    if os.path.exists(copy_to) and not os.path.isdir(copy_to):
        raise ValueError(f"destination is not a folder: {copy_to}")
    m = set(marks)
    ops: list[PlannedOp] = []
    for g in res.groups:
        for r in (res.records[i] for i in g.indices()):
            if r.path in m:
                ops.append(PlannedOp(len(ops), "copy", r.path, r.size, r.mtime_ns,
                                     r.content_hash, g.id, r.root,
                                     _intended_dest(r.path, r.root, copy_to, flat), []))
    notes = []
    inside = [r for r in res.settings.get("roots") or () if is_under(copy_to, r)
              or os.path.normpath(copy_to) == os.path.normpath(r)]
    if inside and ops:
        notes.append(f"{copy_to} is inside the scanned folder {inside[0]}: the copies will be "
                     "found as duplicates by its next scan; a folder outside keeps them out")
    return Plan("copy", ops, copy_to, flat, notes)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a file's new name (None: it can)."""
    if not name or not name.strip():
        return "the new name is empty"
    if name in (".", "..") or "/" in name or os.sep in name or (os.altsep and os.altsep in name):
        return f"{name!r} is not a file name (a name has no folder in it)"
    if "\0" in name:
        return "a file name cannot hold a NUL character"
    if name.startswith(TMP_PREFIX):
        return f"names starting with {TMP_PREFIX} are simdup's temporary files"
    return None


def plan_rename(res: Results, path: str, new_name: str) -> Plan:
    """Give the grouped file ``path`` the name ``new_name`` in its folder. ValueError for a
    file in no group, a name that is not a plain file name, the same name, or a name
    that exists (a rename never replaces a file)."""
    why = name_problem(new_name)
    if why:
        raise ValueError(why)
    where = [(g, r) for g in res.groups for r in (res.records[i] for i in g.indices())
             if r.path == path]
    if not where:
        raise ValueError(f"{path} is in no group")
    g, r = where[0]
    dest = os.path.join(os.path.dirname(r.path), new_name)
    if dest == r.path:
        raise ValueError(f"{path} has that name already")
    if os.path.lexists(dest):
        raise ValueError(f"{dest} exists already: a rename never replaces a file")
    op = PlannedOp(0, "rename", r.path, r.size, r.mtime_ns, r.content_hash, g.id, r.root, dest,
                   [])
    return Plan("rename", [op])
