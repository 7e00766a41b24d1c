"""Walk roots into candidate files: patterns, size limits, symlinks, hard links."""

from __future__ import annotations

import fnmatch
import os
import re
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..job import NULL_JOB, Job
from ..models import Problem, ProgressEvent
from .documents import document_kind

REPORT_EVERY = 0.05  # s between two progress reports of the walk (it was one a folder: the
# 768 MB tree's 8,598 folders in about a second, each a slot run on the app's window thread)

DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv",
    ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages",
    ".DS_Store", "Thumbs.db",
)


@dataclass(slots=True)
class Candidate:
    path: str
    root: str
    size: int
    mtime_ns: int
    inode: int
    dev: int


@dataclass(slots=True)
class WalkOptions:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    default_excludes: bool = True
    min_size: int = 1
    max_size: int | None = None
    follow_symlinks: bool = False
    documents: bool = True  # .pdf .docx .odt .epub .rtf read (documents.py); off: not walked

    def __post_init__(self) -> None:
        if self.min_size < 0:
            raise ValueError("min_size must be >= 0")
        if self.max_size is not None and self.max_size < self.min_size:
            raise ValueError("max_size must be >= min_size")


@dataclass
class WalkResult:
    files: list[Candidate] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    empty: int = 0
    excluded: int = 0


_GLOB_CHARS = frozenset("*?[")


def _matcher(patterns: Iterable[str]):
    """``m(name, rel, path)``: whether ``name`` or ``rel`` matches one of ``patterns`` (as
    fnmatch.fnmatch would say), or, for an absolute pattern ("/home/me/old/*", what
    :func:`folder_pattern` makes), the full ``path``. Plain names (the default excludes:
    ".git", "node_modules", ...) from a set, since such a pattern matches a relative path
    only where it is that name; the other patterns by one compiled regex each for the
    relative and the absolute ones."""
    pats = [os.path.normcase(p) for p in patterns]
    plain = frozenset(p for p in pats
                      if not (_GLOB_CHARS.intersection(p) or "/" in p or os.sep in p))
    absolute = [p for p in pats if os.path.isabs(p)]
    rest = [p for p in pats if p not in plain and p not in absolute]
    rx = _regex(rest)
    full = _regex(absolute)
    normcase = os.path.normcase
    folds = normcase("A") != "A"  # Windows: names and paths are compared folded

    def m(name: str, rel: str, path: str = "") -> bool:
        if folds:
            name, rel, path = normcase(name), normcase(rel), normcase(path)
        return name in plain or (rx is not None and (rx(name) is not None
                                                     or rx(rel) is not None)) or (
            full is not None and full(path) is not None)

    return m


def _regex(patterns: list[str]):
    return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in patterns)).match \
        if patterns else None


def folder_pattern(folder: str) -> str:
    """An exclude pattern for exactly ``folder`` (an absolute path): its glob characters
    escaped, and each space (or other white space) a ``?``, so that the pattern stays one
    word of a space-separated list of patterns."""
    escaped = re.sub(r"([*?\[])", r"[\1]", os.path.abspath(folder))
    return re.sub(r"\s", "?", escaped)


def _is_venv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def walk(roots: Iterable[str], options: WalkOptions | None = None, job: Job = NULL_JOB) -> WalkResult:
    """List the candidate files under ``roots`` (folders or single files).

    Every file that is skipped for a reason other than the user's own patterns
    is recorded as a :class:`Problem` with its path.
    """
    walker = _Walker(options or WalkOptions(), job)
    for root in roots:
        walker.root(os.path.abspath(root))
    return walker.out


class _Walker:
    """One walk's state: its options and patterns, what it found, and the files and folders
    seen so far (by device and inode: a hard link or a followed symlink is read once)."""

    def __init__(self, opt: WalkOptions, job: Job) -> None:
        self.opt = opt
        self.job = job
        excludes = tuple(opt.exclude) + (DEFAULT_EXCLUDES if opt.default_excludes else ())
        self.excluded = _matcher(excludes)
        self.included = _matcher(opt.include)
        self.out = WalkResult()
        self.seen_files: dict[tuple[int, int], str] = {}
        self.seen_dirs: set[tuple[int, int]] = set()
        self.reported = -REPORT_EVERY  # when progress was last reported (the first folder is)

    def problem(self, path: str, reason: str, kind: str) -> None:
        self.out.problems.append(Problem(path, reason, kind))

    def root(self, root: str) -> None:
        """A root: a file is a candidate, a folder is walked depth first in name order."""
        try:
            st = (os.stat(root) if self.opt.follow_symlinks or not os.path.islink(root)
                  else os.lstat(root))
        except OSError as e:
            self.problem(root, f"cannot read root: {e.strerror or e}", "unreadable")
            return
        if stat.S_ISREG(st.st_mode):
            self.consider(root, os.path.dirname(root), st)
            return
        if not stat.S_ISDIR(st.st_mode):
            self.problem(root, "not a regular file or folder", "special")
            return
        self.seen_dirs.add((st.st_dev, st.st_ino))
        prefix = root if root.endswith(os.sep) else root + os.sep
        stack = [root]
        while stack:
            self.job.check()
            d = stack.pop()
            if time.monotonic() - self.reported >= REPORT_EVERY:
                self.reported = time.monotonic()
                self.job.report(ProgressEvent("walk", files_done=len(self.out.files), current=d))
            stack.extend(reversed(self.folder(d, root, prefix)))

    def folder(self, d: str, root: str, prefix: str) -> list[str]:
        """The entries of the folder ``d`` (under ``root``) considered; its subfolders to
        walk."""
        try:
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            self.problem(d, f"cannot list folder: {e.strerror or e}", "unreadable")
            return []
        subdirs: list[str] = []
        for e in entries:
            p = e.path
            rel = p[len(prefix):] if p.startswith(prefix) else os.path.relpath(p, root)
            est = self.stat(e)
            if est is None:
                continue
            if stat.S_ISDIR(est.st_mode):
                if self.enters(e, rel, est):
                    subdirs.append(e.path)
            elif stat.S_ISREG(est.st_mode):
                if self.excluded(e.name, rel, p) or (self.opt.include
                                                     and not self.included(e.name, rel, p)):
                    self.out.excluded += 1
                    continue
                if not self.opt.documents and document_kind(e.name):
                    self.out.excluded += 1  # documents off: left out like a pattern's
                    continue
                self.consider(e.path, root, est)
            elif not self.excluded(e.name, rel, p):
                self.problem(e.path, "not a regular file (FIFO, socket or device); not read",
                             "special")
        return subdirs

    def stat(self, e: os.DirEntry) -> os.stat_result | None:
        """The entry's stat (symlinks followed when the options say so), or None and a
        problem: a symlink not followed, broken or in a loop, a file gone or unreadable."""
        try:
            if e.is_symlink() and not self.opt.follow_symlinks:
                self.problem(e.path, "symbolic link not followed (use --follow-symlinks)",
                             "symlink")
                return None
            return e.stat(follow_symlinks=True)
        except FileNotFoundError:
            reason = "broken symbolic link" if e.is_symlink() else "vanished during the scan"
            self.problem(e.path, reason, "vanished")
        except OSError as err:
            if err.errno == 40:  # ELOOP
                self.problem(e.path, "symbolic link loop", "symlink_loop")
            else:
                self.problem(e.path, f"cannot stat: {err.strerror or err}", "unreadable")
        return None

    def enters(self, e: os.DirEntry, rel: str, est: os.stat_result) -> bool:
        """Whether the walk goes into the subfolder ``e``: not excluded, not a virtual
        environment, not a folder seen before (a loop or an alias through a symlink)."""
        if self.excluded(e.name, rel, e.path) or _is_venv(e.path):
            self.out.excluded += 1
            return False
        key = (est.st_dev, est.st_ino)
        if key in self.seen_dirs:
            self.problem(e.path, "folder already visited through a symbolic link (a loop or an "
                         "alias); not entered again", "symlink_loop")
            return False
        self.seen_dirs.add(key)
        return True

    def consider(self, path: str, root: str, st: os.stat_result) -> None:
        """A regular file: a candidate, unless it was seen before, is empty, or is outside
        the size limits."""
        key = (st.st_dev, st.st_ino)
        if key in self.seen_files:
            self.problem(path, f"same file as {self.seen_files[key]} (hard link or followed "
                         "symlink); read once", "same_file")
            return
        self.seen_files[key] = path
        opt, out = self.opt, self.out
        if st.st_size == 0:
            out.empty += 1
            self.problem(path, "empty file (0 bytes); not fingerprinted", "empty")
        elif st.st_size < opt.min_size:
            self.problem(path, f"smaller than the minimum size ({opt.min_size} bytes)",
                         "too_small")
        elif opt.max_size is not None and st.st_size > opt.max_size:
            self.problem(path, f"larger than the maximum size ({opt.max_size} bytes)",
                         "too_large")
        else:
            out.files.append(Candidate(path, root, st.st_size, st.st_mtime_ns, st.st_ino,
                                       st.st_dev))
