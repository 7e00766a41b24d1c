"""Walk roots into candidate files: patterns, size limits, symlinks, hard links."""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..job import NULL_JOB, Job
from ..models import Problem, ProgressEvent

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


def _matches(patterns: Iterable[str], name: str, rel: str) -> bool:
    for p in patterns:
        if fnmatch.fnmatch(name, p) or fnmatch.fnmatch(rel, p):
            return True
    return False


_GLOB_CHARS = frozenset("*?[")


def _matcher(patterns: Iterable[str]):
    """``m(name, rel)`` == ``_matches(patterns, name, rel)``: plain names (the default
    excludes: ".git", "node_modules", ...) from a set, since such a pattern matches a relative
    path only where it is that name; the other patterns by one compiled regex."""
    pats = [os.path.normcase(p) for p in patterns]
    plain = frozenset(p for p in pats
                      if not (_GLOB_CHARS.intersection(p) or "/" in p or os.sep in p))
    rest = [p for p in pats if p not in plain]
    rx = re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in rest)).match if rest else None
    normcase = os.path.normcase
    folds = normcase("A") != "A"  # Windows: names and paths are compared folded

    def m(name: str, rel: str) -> bool:
        if folds:
            name, rel = normcase(name), normcase(rel)
        return name in plain or (rx is not None and (rx(name) is not None
                                                     or rx(rel) is not None))

    return m


def _is_venv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def walk(roots: Iterable[str], options: WalkOptions | None = None, job: Job = NULL_JOB) -> WalkResult:
    """List the candidate files under ``roots`` (folders or single files).

    Every file that is skipped for a reason other than the user's own patterns
    is recorded as a :class:`Problem` with its path.
    """
    opt = options or WalkOptions()
    excludes = tuple(opt.exclude) + (DEFAULT_EXCLUDES if opt.default_excludes else ())
    excluded = _matcher(excludes)
    included = _matcher(opt.include)
    out = WalkResult()
    seen_files: dict[tuple[int, int], str] = {}
    seen_dirs: set[tuple[int, int]] = set()

    def consider(path: str, root: str, st: os.stat_result) -> None:
        key = (st.st_dev, st.st_ino)
        if key in seen_files:
            out.problems.append(Problem(path, f"same file as {seen_files[key]} (hard link or "
                                               "followed symlink); read once", "same_file"))
            return
        seen_files[key] = path
        if st.st_size == 0:
            out.empty += 1
            out.problems.append(Problem(path, "empty file (0 bytes); not fingerprinted", "empty"))
            return
        if st.st_size < opt.min_size:
            out.problems.append(Problem(path, f"smaller than the minimum size ({opt.min_size} bytes)",
                                        "too_small"))
            return
        if opt.max_size is not None and st.st_size > opt.max_size:
            out.problems.append(Problem(path, f"larger than the maximum size ({opt.max_size} bytes)",
                                        "too_large"))
            return
        out.files.append(Candidate(path, root, st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev))

    for root_in in roots:
        root = os.path.abspath(root_in)
        try:
            st = os.stat(root) if opt.follow_symlinks or not os.path.islink(root) else os.lstat(root)
        except OSError as e:
            out.problems.append(Problem(root, f"cannot read root: {e.strerror or e}", "unreadable"))
            continue
        if stat.S_ISREG(st.st_mode):
            consider(root, os.path.dirname(root), st)
            continue
        if not stat.S_ISDIR(st.st_mode):
            out.problems.append(Problem(root, "not a regular file or folder", "special"))
            continue
        seen_dirs.add((st.st_dev, st.st_ino))
        prefix = root if root.endswith(os.sep) else root + os.sep
        stack = [root]
        while stack:
            job.check()
            d = stack.pop()
            job.report(ProgressEvent("walk", files_done=len(out.files), current=d))
            try:
                with os.scandir(d) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as e:
                out.problems.append(Problem(d, f"cannot list folder: {e.strerror or e}", "unreadable"))
                continue
            subdirs = []
            for e in entries:
                p = e.path
                rel = p[len(prefix):] if p.startswith(prefix) else os.path.relpath(p, root)
                try:
                    is_link = e.is_symlink()
                    if is_link and not opt.follow_symlinks:
                        out.problems.append(Problem(e.path, "symbolic link not followed "
                                                    "(use --follow-symlinks)", "symlink"))
                        continue
                    est = e.stat(follow_symlinks=True)
                except FileNotFoundError:
                    reason = "broken symbolic link" if e.is_symlink() else "vanished during the scan"
                    out.problems.append(Problem(e.path, reason, "vanished"))
                    continue
                except OSError as err:
                    if err.errno == 40:  # ELOOP
                        out.problems.append(Problem(e.path, "symbolic link loop", "symlink_loop"))
                    else:
                        out.problems.append(Problem(e.path, f"cannot stat: {err.strerror or err}",
                                                    "unreadable"))
                    continue
                if stat.S_ISDIR(est.st_mode):
                    if excluded(e.name, rel) or _is_venv(e.path):
                        out.excluded += 1
                        continue
                    key = (est.st_dev, est.st_ino)
                    if key in seen_dirs:
                        out.problems.append(Problem(e.path, "folder already visited through a symbolic "
                                                    "link (a loop or an alias); not entered again", "symlink_loop"))
                        continue
                    seen_dirs.add(key)
                    subdirs.append(e.path)
                elif stat.S_ISREG(est.st_mode):
                    if excluded(e.name, rel):
                        out.excluded += 1
                        continue
                    if opt.include and not included(e.name, rel):
                        out.excluded += 1
                        continue
                    consider(e.path, root, est)
                elif not excluded(e.name, rel):
                    out.problems.append(Problem(e.path, "not a regular file (FIFO, socket or "
                                                "device); not read", "special"))
            stack.extend(reversed(subdirs))
    return out
