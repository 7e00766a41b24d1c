"""The ignore list: files and pairs the user said are not duplicates (dupeGuru's ignore list).

It is kept as JSON in the user data folder and applied after grouping, by the app and by
``simdup scan``, so both show the same groups. The file is untrusted input: :func:`load`
turns it into an :class:`IgnoreList` or raises :class:`IgnoreListError` saying what is wrong.

Applying it (:func:`apply`): an ignored file leaves every group; of an ignored pair found in
one group, the file that is not the reference leaves (of two non-references, the one farther
from the reference); a group left with fewer than two files disappears.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..models import FileRecord, Group
from ..ourfiles import private_dir, write_private

VERSION = 1
FILE_NAME = "ignore-list.json"
MAX_BYTES = 64 * 1024 * 1024  # a larger file is refused rather than read into memory


class IgnoreListError(ValueError):
    """The ignore list file cannot be used; the message names the file and the reason."""


def default_path() -> str:
    from ..act.lock import data_dir

    return os.path.join(data_dir(), FILE_NAME)


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass
class IgnoreList:
    """Ignored files (by path) and ignored pairs (two paths, in sorted order)."""

    files: set[str] = field(default_factory=set)
    pairs: set[tuple[str, str]] = field(default_factory=set)

    def __len__(self) -> int:
        return len(self.files) + len(self.pairs)

    def add_files(self, paths: Iterable[str]) -> int:
        """Ignore these files in every scan; the number newly added."""
        before = len(self.files)
        self.files |= {os.path.abspath(p) for p in paths}
        return len(self.files) - before

    def add_pairs(self, pairs: Iterable[tuple[str, str]]) -> int:
        """These pairs are not duplicates of each other; the number newly added."""
        before = len(self.pairs)
        self.pairs |= {_pair(os.path.abspath(a), os.path.abspath(b)) for a, b in pairs if a != b}
        return len(self.pairs) - before

    def remove(self, files: Iterable[str] = (), pairs: Iterable[tuple[str, str]] = ()) -> None:
        self.files -= set(files)
        self.pairs -= {_pair(a, b) for a, b in pairs}

    def clear(self) -> None:
        self.files.clear()
        self.pairs.clear()

    def to_dict(self) -> dict:
        return {"version": VERSION, "files": sorted(self.files),
                "pairs": [list(p) for p in sorted(self.pairs)]}


def parse(data: object, where: str = "the ignore list") -> IgnoreList:
    """An IgnoreList from decoded JSON; IgnoreListError naming what is wrong."""
    if not isinstance(data, dict):
        raise IgnoreListError(f"{where}: expected a JSON object, found {type(data).__name__}")
    if data.get("version") != VERSION:
        raise IgnoreListError(f"{where}: unknown version {data.get('version')!r} "
                              f"(this simdup reads version {VERSION})")
    files, pairs = data.get("files", []), data.get("pairs", [])
    if not isinstance(files, list) or not all(isinstance(p, str) and p for p in files):
        raise IgnoreListError(f"{where}: \"files\" must be a list of paths")
    if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) and x for x in p)
            for p in pairs):
        raise IgnoreListError(f"{where}: \"pairs\" must be a list of [path, path] lists")
    out = IgnoreList()
    out.files = set(files)
    out.pairs = {_pair(a, b) for a, b in pairs if a != b}
    return out


def load(path: str) -> IgnoreList:
    """The ignore list in ``path``; empty when there is no such file (IgnoreListError when it
    cannot be read or is not a valid list)."""
    try:  # without blocking (a FIFO put in its place must not hang the scan), and only a
        # regular file is read
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return IgnoreList()
    except OSError as e:
        raise IgnoreListError(f"cannot read the ignore list {path}: {e.strerror or e}") from e
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise IgnoreListError(f"the ignore list {path} is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise IgnoreListError(f"cannot read the ignore list {path}: {e.strerror or e}") from e
    finally:
        os.close(fd)
    if len(raw) > MAX_BYTES:
        raise IgnoreListError(f"the ignore list {path} is larger than {MAX_BYTES} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:  # (nested too deep)
        why = "nested too deeply" if isinstance(e, RecursionError) else e
        raise IgnoreListError(f"the ignore list {path} is not valid JSON: {why}") from None
    return parse(data, f"the ignore list {path}")


def save(ignore: IgnoreList, path: str) -> None:
    """Write atomically (a temporary file renamed over): a failure leaves the old file."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder == os.path.dirname(os.path.abspath(default_path())):
        private_dir(folder)  # the data folder: only this user's, whatever the umask
    else:
        os.makedirs(folder, exist_ok=True)  # a place the user chose
    # ASCII with \u escapes: a file name that is not valid UTF-8 (kept by Python as lone
    # surrogates) is written losslessly and read back the same
    text = json.dumps(ignore.to_dict(), ensure_ascii=True, indent=1)
    write_private(path, lambda fh: fh.write(text.encode("ascii")))


def apply(groups: Sequence[Group], records: Sequence[FileRecord], ignore: IgnoreList,
          removed: Iterable[str] = ()) -> list[Group]:
    """``groups`` without ignored and ``removed`` files and with ignored pairs split; groups
    left with one file are dropped. Groups untouched are returned as they are."""
    gone = ignore.files | set(removed)
    if not gone and not ignore.pairs:
        return list(groups)
    out = []
    for g in groups:
        paths = {m.index: records[m.index].path for m in g.members}
        members = [m for m in g.members if paths[m.index] not in gone]
        if ignore.pairs:
            members = _split_pairs(g, members, paths, ignore.pairs)
        if len(members) == len(g.members):
            out.append(g)
        elif len(members) >= 2:
            rep = g.representative if any(m.index == g.representative for m in members) else \
                min(members, key=lambda m: m.distance).index
            out.append(Group(g.id, rep, members, g.also))
    if ignore.pairs:  # a pair said not to be duplicates is not noted "also similar" either
        for i, g in enumerate(out):
            also = [a for a in g.also if _pair(records[a.member].path,
                                               records[a.other].path) not in ignore.pairs]
            if len(also) != len(g.also):
                out[i] = Group(g.id, g.representative, g.members, also)
    return out


def _split_pairs(g: Group, members: list, paths: dict[int, str],
                 pairs: set[tuple[str, str]]) -> list:
    def rank(m) -> tuple:  # who stays: the reference, then the nearest
        sim = -1.0 if m.similarity is None else m.similarity
        return (m.index != g.representative, m.distance, -sim, paths[m.index])

    kept: list = []
    for m in sorted(members, key=rank):
        p = paths[m.index]
        if not any(_pair(p, paths[k.index]) in pairs for k in kept):
            kept.append(m)
    order = {m.index: i for i, m in enumerate(members)}
    return sorted(kept, key=lambda m: order[m.index])
