"""The action journal: JSON lines, each flushed and fsynced before the operation it announces.

Entries (``type``): ``start`` (the whole plan), ``begin`` (about to touch one file), then
``done`` / ``failed`` / ``skipped`` for it, ``end``; undo and recovery append
``undo-begin`` (about to move one file back), ``undone``, ``undo-failed``, ``resolved`` and
``undo-end``; a release of a link action's held originals appends ``released`` (about to
delete one held original, once its bytes were found at the kept side) and
``release-failed``. A reader rebuilds the state from the lines it can parse, so a journal
cut off mid-line is still usable.

Journals are untrusted input: each line carries an HMAC under a secret in this user's data
folder (:func:`journal_key`), so a journal that was crafted, edited, or written by another
user is refused (:class:`JournalRefused`) wherever it is stored, as is one owned by another
user; and :func:`check_journal` refuses one that asks for anything an action never does.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import secrets
import stat
import time
import uuid
from dataclasses import dataclass, field

from .fileops import TMP_PREFIX, is_under, read_info_path, trash_dirs_for
from .lock import data_dir
from ..ourfiles import private_dir

JOURNAL_VERSION = 1
JOURNAL_SUFFIX = ".jsonl"
KEY_NAME = "journal.key"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def journal_dir() -> str:
    """Where journals live by default: ``<user data folder>/journals``."""
    return os.path.join(data_dir(), "journals")


def held_dir(journal_id: str | None = None) -> str:
    """Where the hardlink and symlink actions hold the originals they replaced, so undo can
    put them back byte-exact: ``<user data folder>/held/<journal id>``."""
    base = os.path.join(data_dir(), "held")
    return os.path.join(base, journal_id) if journal_id else base


def new_journal_path(folder: str | None = None) -> str:
    folder = folder or journal_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return os.path.join(folder, f"{stamp}-{uuid.uuid4().hex[:8]}{JOURNAL_SUFFIX}")


def list_journals(folder: str | None = None) -> list[str]:
    """Journals in ``folder``, oldest first (by modification time, then name)."""
    folder = folder or journal_dir()
    try:
        names = [n for n in os.listdir(folder) if n.endswith(JOURNAL_SUFFIX)]
    except FileNotFoundError:
        return []
    out = []
    for n in names:
        p = os.path.join(folder, n)
        try:
            out.append((os.stat(p).st_mtime_ns, p))
        except OSError:
            continue  # removed meanwhile
    return [p for _, p in sorted(out)]


def readable_journals(folder: str | None) -> list[JournalState]:
    """The journals that parse, oldest first by their start entry's time (then mtime)."""
    states = []
    for n, p in enumerate(list_journals(folder)):
        try:
            st = read_journal(p)
        except (OSError, ValueError):  # empty, cut before its start, not ours, bad bytes
            continue
        try:
            t = float(st.start.get("time", 0))
        except (TypeError, ValueError):
            t = 0.0
        states.append((t, n, st))
    return [st for _, _, st in sorted(states, key=lambda x: (x[0], x[1]))]


def symlinked_targets(folder: str | None = None) -> dict[str, list[str]]:
    """The files that simdup's symbolic-link actions (not undone) made other files point
    to: target -> the links that still point to it. Acting on such a file would leave
    those links dangling (after a release, with the bytes nowhere)."""
    out: dict[str, list[str]] = {}
    for st in readable_journals(folder):
        if st.start.get("action") != "symlink":
            continue
        for seq, r in st.results.items():
            if r.get("type") != "done" or seq in st.undone:
                continue
            target = (st.begun.get(seq) or {}).get("target")
            path = st.ops[seq].get("path") if isinstance(st.ops[seq], dict) else None
            if not (isinstance(target, str) and isinstance(path, str)):
                continue
            try:
                if os.readlink(path) == target:
                    out.setdefault(target, []).append(path)
            except OSError:  # no longer a link: nothing points there through it
                pass
    return out


def last_journal(folder: str | None = None) -> str | None:
    """The newest readable journal (by the time its action started), or None."""
    states = readable_journals(folder)
    return states[-1].path if states else None


def journal_to_undo(folder: str | None = None) -> str | None:
    """What a plain "undo" takes back: the newest journal (by its start time) that still has
    something to undo (see :meth:`JournalState.undoable`). Journals that are empty,
    unreadable, fully undone or where every file was skipped are passed over."""
    for st in reversed(readable_journals(folder)):
        if st.undoable():
            return st.path
    return None


class JournalRefused(ValueError):
    """A journal that is not trusted: not this user's, not signed with this user's key, or
    asking for something a simdup action never does. Nothing was done."""


def _uid() -> int | None:
    return os.getuid() if hasattr(os, "getuid") else None


def key_path() -> str:
    return os.path.join(data_dir(), KEY_NAME)


def _read_key(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        st = os.fstat(fd)
        uid = _uid()
        if uid is not None and st.st_uid != uid:
            raise JournalRefused(f"the journal key {path} is not owned by this user; "
                                 "no journal can be trusted with it")
        key = os.read(fd, 4096)
    finally:
        os.close(fd)
    return key if len(key) >= 32 else None


def journal_key(create: bool = False) -> bytes | None:
    """This user's secret for signing journals (``<data folder>/journal.key``, mode 600),
    made on first use when ``create``. A journal carries an HMAC of each line under it, so
    one that was not written by simdup for this user (crafted, edited, or another user's)
    is refused wherever it is stored."""
    path = key_path()
    for _ in range(50):
        key = _read_key(path)
        if key is not None or not create:
            return key
        private_dir(os.path.dirname(path))
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC,
                         0o600)
        except FileExistsError:
            time.sleep(0.01)  # another process is writing it
            continue
        try:
            os.write(fd, secrets.token_bytes(32))
            os.fsync(fd)
        finally:
            os.close(fd)
    raise OSError(errno.EIO, "cannot read or make the journal key", path)


def _canonical(entry: dict) -> bytes:
    return json.dumps(entry, ensure_ascii=True, sort_keys=True,
                      separators=(",", ":")).encode("ascii")


def sign(key: bytes, journal_id: str, entry: dict) -> str:
    """The signature of ``entry`` (without its ``mac``) in the journal ``journal_id``."""
    return hmac.new(key, str(journal_id).encode("ascii", "replace") + b"\n"
                    + _canonical(entry), hashlib.sha256).hexdigest()[:32]


class JournalWriter:
    """Appends signed entries; by default each is on disk (fsync) when :meth:`write`
    returns. Each line is written with one unbuffered ``write``, so a failure (disk full)
    leaves at most one torn line and nothing pending."""

    def __init__(self, path: str, new: bool = False) -> None:
        """Open ``path`` to append; with ``new`` it must not exist yet (FileExistsError), so
        a journal never holds two actions."""
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.abspath(folder) == os.path.abspath(journal_dir()):
            private_dir(folder)
        else:
            os.makedirs(folder, exist_ok=True)
        self._key = journal_key(create=True)
        self._jid: str | None = None
        flags = os.O_WRONLY | os.O_APPEND | _NOFOLLOW | _CLOEXEC
        if new:
            try:
                self._fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                raise FileExistsError(
                    errno.EEXIST, "journal file already exists; give a new file name "
                    "(a journal holds one action, so it can be undone)", path) from None
            return
        self._jid = _start_id(path)
        self._fd = os.open(path, flags)
        size = os.fstat(self._fd).st_size
        if size:
            with open(path, "rb") as fh:
                fh.seek(size - 1)
                torn = fh.read(1) != b"\n"
            if torn:  # a crash cut the last line short: start ours on a fresh line
                os.write(self._fd, b"\n")

    def write(self, entry: dict, sync: bool = True) -> None:
        """Append ``entry``, signed. ``sync=False`` (outcome entries) skips the fsync:
        losing one in a crash is harmless, since recovery re-derives a begun op's outcome
        from the disk."""
        if entry.get("type") == "start":
            self._jid = str(entry.get("id", ""))
        if self._jid is None:
            raise ValueError(f"{self.path} has no start entry to append to")
        entry = dict(entry)
        entry.pop("mac", None)
        entry["mac"] = sign(self._key or b"", self._jid, entry)
        # ASCII only: file names that are not valid UTF-8 (surrogate escapes) round-trip
        data = memoryview((json.dumps(entry, ensure_ascii=True) + "\n").encode("ascii"))
        while data:
            data = data[os.write(self._fd, data):]
        if sync:
            os.fsync(self._fd)

    def close(self) -> None:
        fd, self._fd = self._fd, -1
        if fd >= 0:
            os.close(fd)

    def discard(self) -> None:
        """Close and remove the journal (only for one that recorded nothing yet)."""
        self.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _start_id(path: str) -> str:
    with open(path, "rb") as fh:
        for line in fh:
            try:
                e = json.loads(line)
            except (ValueError, RecursionError):
                continue
            if isinstance(e, dict) and e.get("type") == "start":
                return str(e.get("id", ""))
    raise ValueError(f"{path} is not a simdup journal (no start entry)")


@dataclass
class JournalState:
    """What a journal says happened, op by op (``seq`` is the plan position)."""

    path: str
    start: dict
    ops: list[dict]  # the planned ops from the start entry
    begun: dict[int, dict] = field(default_factory=dict)  # last begin entry per seq
    results: dict[int, dict] = field(default_factory=dict)  # done/failed/skipped per seq
    undone: dict[int, dict] = field(default_factory=dict)
    ended: bool = False
    undo_runs: int = 0  # undo-end entries: how often an undo has run on this journal
    undo_begun: dict[int, dict] = field(default_factory=dict)  # last undo-begin per seq
    undo_open: set[int] = field(default_factory=set)  # an undo began, with no outcome yet
    released: dict[int, dict] = field(default_factory=dict)  # held original released
    release_failed: dict[int, dict] = field(default_factory=dict)
    torn_lines: int = 0

    @property
    def action(self) -> str:
        return str(self.start.get("action", ""))

    @property
    def interrupted(self) -> bool:
        """Cut off before its end entry (crash, power loss, kill)."""
        return not self.ended

    def pending(self) -> list[int]:
        """Ops that began but have no outcome: the file may be half-way."""
        return [s for s in sorted(self.begun) if s not in self.results]

    def not_started(self) -> list[int]:
        return [i for i in range(len(self.ops)) if i not in self.begun and i not in self.results]

    def done(self) -> list[int]:
        return [s for s, r in sorted(self.results.items()) if r.get("type") == "done"]

    def undoable(self) -> bool:
        """Is there still something for an undo to do here: a half-done op to roll back, a
        done move or restorable trash not undone yet, or (until the first undo has said so)
        done ops that cannot be restored (deletes, links whose held original was
        released)?"""
        if self.pending():
            return True
        left = [s for s in self.done() if s not in self.undone]
        if not left:
            return False
        if self.undo_runs == 0:
            return True
        for s in left:
            action = self.ops[s].get("action") if 0 <= s < len(self.ops) else None
            r = self.results[s]
            if action in ("hardlink", "symlink") and s in self.released:
                continue  # its original is gone: nothing to put back
            if action in ("move", "rename", "hardlink", "symlink") or (
                    action == "trash" and r.get("restorable")):
                return True
        return False


_SEQ_TYPES = ("begin", "done", "failed", "skipped", "resolved", "undone", "undo-failed",
              "undo-begin", "released", "release-failed")


def read_journal(path: str, verify: bool = True) -> JournalState:
    """Parse a journal; raises ValueError if it is not one, and :class:`JournalRefused`
    (a ValueError) if ``verify`` and it is not this user's: owned by another user, or a
    line not signed with this user's key (see :func:`journal_key`)."""
    start: dict | None = None
    state: JournalState | None = None
    torn = 0
    key = journal_key() if verify else None
    with open(path, "rb") as fh:
        uid = _uid()
        owner = os.fstat(fh.fileno()).st_uid
        if verify and uid is not None and owner != uid:
            raise JournalRefused(f"refusing journal {path}: it belongs to another user "
                                 f"(uid {owner}), not to this one (uid {uid})")
        for n, raw in enumerate(fh, 1):
            try:
                e = json.loads(raw.decode("ascii"))
            except (ValueError, RecursionError):  # torn, not ASCII, absurdly nested
                torn += 1
                continue
            if not isinstance(e, dict):
                torn += 1
                continue
            t = e.get("type")
            if verify:
                _verify_line(path, n, e, key, start)
            if t == "start":
                if start is not None:
                    raise JournalRefused(f"refusing journal {path}: it holds two actions")
                start = e
                ops = e.get("ops", [])
                state = JournalState(path, e, list(ops) if isinstance(ops, list) else [])
            elif state is not None:
                _apply_entry(state, n, e)
    if start is None or state is None:
        raise ValueError(f"{path} is not a simdup journal (no start entry)")
    if start.get("version") != JOURNAL_VERSION:
        raise ValueError(f"{path}: unsupported journal version {start.get('version')!r}")
    state.torn_lines = torn
    return state


def _verify_line(path: str, n: int, e: dict, key: bytes | None, start: dict | None) -> None:
    """Line ``n`` (``e``, its ``mac`` taken out) signed with this user's ``key`` in the
    journal that ``start`` (or this line) begins; else JournalRefused."""
    if key is None:
        raise JournalRefused(
            f"refusing journal {path}: it was not written by simdup for this "
            f"user (this user's journal key {key_path()} is missing, so no "
            "journal can be told apart from a crafted one)")
    mac = e.pop("mac", None)
    jid = e.get("id") if e.get("type") == "start" else (start or {}).get("id")
    if not isinstance(mac, str) or jid is None or not hmac.compare_digest(
            mac, sign(key, str(jid), e)):
        raise JournalRefused(
            f"refusing journal {path}: line {n} was not written by simdup for "
            "this user (its signature is missing or does not match): the "
            "journal was edited, crafted, or written by another user or an "
            "older simdup")


def _apply_entry(state: JournalState, n: int, e: dict) -> None:
    """What the entry ``e`` (line ``n``, after the start) says of the action's files."""
    t, seq = e.get("type"), e.get("seq")
    if t in _SEQ_TYPES and (not isinstance(seq, int) or isinstance(seq, bool)
                            or not 0 <= seq < len(state.ops)):
        raise JournalRefused(f"refusing journal {state.path}: line {n} names file "
                             f"{seq!r}, which the action does not have")
    if t == "begin":
        state.begun[seq] = e
    elif t in ("done", "failed", "skipped"):
        state.results[seq] = e
    elif t == "resolved":
        # recovery settled a half-done op: "none" means the file was never touched
        if e.get("outcome") == "none":
            state.begun.pop(seq, None)
        else:
            state.results[seq] = dict(e, type=e.get("outcome", "failed"))
    elif t == "undone":
        state.undone[seq] = e
        state.undo_open.discard(seq)
    elif t == "undo-failed":
        state.undo_open.discard(seq)
    elif t == "undo-begin":
        state.undo_begun[seq] = e
        state.undo_open.add(seq)
    elif t == "released":
        state.released[seq] = e
    elif t == "release-failed":  # the held original could not be deleted: still there
        state.released.pop(seq, None)
        state.release_failed[seq] = e
    elif t == "end":
        state.ended = True
    elif t == "undo-end":
        state.undo_runs += 1


# ---- what a journal may ask for ------------------------------------------------------------

def _plain(p: object) -> bool:
    """An absolute, normalised path (no ``..``, no doubled separators)."""
    return isinstance(p, str) and bool(p) and os.path.isabs(p) and os.path.normpath(p) == p


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def trash_entry_reason(path: str, trash_file: object, trash_info: object,
                       on_disk: bool = False) -> str | None:
    """Why (``trash_file``, ``trash_info``) is not the freedesktop trash entry of ``path``
    (None if it is): the note must be ``<trash>/info/<name>.trashinfo`` and the file
    ``<trash>/files/<name>`` in one of the trash folders for ``path``; ``on_disk`` also
    reads the note, which must be a regular file whose Path= is ``path``."""
    if not (_plain(trash_file) and _plain(trash_info)):
        return "its trash entry is not a plain absolute path"
    info_dir, note = os.path.split(trash_info)
    trash = os.path.dirname(info_dir)
    if not note.endswith(".trashinfo") or os.path.basename(info_dir) != "info":
        return f"{trash_info} is not a .trashinfo note in a trash info/ folder"
    if trash_file != os.path.join(trash, "files", note[: -len(".trashinfo")]):
        return f"{trash_file} is not the trashed file of the note {trash_info}"
    homes = {os.path.normpath(t): top for t, top in trash_dirs_for(path)}
    if os.path.normpath(trash) not in homes:
        return f"{trash} is not a trash folder for {path}"
    if on_disk:
        try:
            st = os.lstat(trash_info)
        except OSError as e:
            return f"cannot read the trash note {trash_info}: {e.strerror or e}"
        if not stat.S_ISREG(st.st_mode):
            return f"the trash note {trash_info} is not a regular file"
        p = read_info_path(trash_info)
        if p is None or os.path.normpath(os.path.join(homes[os.path.normpath(trash)], p)) \
                != os.path.normpath(path):
            return f"the trash note {trash_info} is not about {path}"
    return None


def check_journal(state: JournalState, for_resume: bool = False) -> None:
    """Refuse (:class:`JournalRefused`) a journal that asks for anything an action never
    does: files outside their recorded roots, moves anywhere but between the roots and the
    recorded destination, temporary files that are not simdup's beside the destination,
    originals of links held anywhere but in the recorded holding folder (under
    :func:`held_dir`), links to anything but the file's kept copies, trash entries that
    are not real trash notes, releases of originals the action never held, and
    (``for_resume``) kept copies that are outside the roots or are themselves files the
    action removes."""
    c = _Checker(state)
    c.start()
    c.ops()
    c.begun()
    c.released()
    c.results()
    if for_resume:
        c.kept_copies()


def _renamed_in_place(path: str, dest: object) -> bool:
    """``dest`` is another plain name in the folder of ``path``, not a temporary one."""
    return (_plain(dest) and dest != path and os.path.dirname(dest) == os.path.dirname(path)
            and not os.path.basename(dest).startswith(TMP_PREFIX))


def _tmp_beside(tmp: object, path: object) -> bool:
    """``tmp`` is a simdup temporary file in the folder of ``path``."""
    return (_plain(tmp) and isinstance(path, str)
            and os.path.dirname(tmp) == os.path.dirname(path)
            and os.path.basename(tmp).startswith(TMP_PREFIX))


_OP_FIELDS = (("seq", _int), ("size", _int), ("mtime_ns", _int), ("group_id", _int),
              ("path", lambda v: isinstance(v, str)), ("root", lambda v: isinstance(v, str)),
              ("content_hash", lambda v: isinstance(v, str)),
              ("kept", lambda v: isinstance(v, list)),
              ("dest", lambda v: v is None or isinstance(v, str)), ("ino", _int), ("dev", _int))


class _Checker:
    """:func:`check_journal`'s checks, one method per part of the journal."""

    def __init__(self, state: JournalState) -> None:
        self.state = state
        self.paths: set[str] = set()
        self.roots: set[str] = set()
        self.live: set[int] = set()  # ops that can have been acted on (plain path, in root)

    def bad(self, msg: str) -> None:
        raise JournalRefused(f"refusing journal {self.state.path}: {msg}")

    def start(self) -> None:
        s, bad = self.state.start, self.bad
        self.action = action = s.get("action")
        if action not in ("move", "trash", "delete", "hardlink", "symlink", "copy", "rename"):
            bad(f"unknown action {action!r}")
        self.linking = action in ("hardlink", "symlink")
        self.held = held = s.get("held")
        if self.linking and not (_plain(held) and is_under(held, held_dir())):
            bad(f"its folder for the replaced originals {held!r} is not inside {held_dir()}")
        if not self.linking and held is not None:
            bad(f"a {action} holds no originals")
        self.move_to = s.get("move_to")
        self.to_folder = action in ("move", "copy")
        if self.to_folder and not _plain(self.move_to):
            bad("its destination folder is not a plain absolute path")
        if not self.to_folder and self.move_to is not None:
            bad(f"a {action} has no destination folder")
        self.raw = s.get("ops")
        if not isinstance(self.raw, list):
            bad("it lists no files")

    def ops(self) -> None:
        bad, action = self.bad, self.action
        for i, op in enumerate(self.raw):
            if not isinstance(op, dict):
                bad(f"file {i} is not a record")
            for key, ok in _OP_FIELDS:
                if key in op and not ok(op[key]) or key not in op and key not in ("ino", "dev"):
                    bad(f"file {i} has a missing or malformed {key!r}")
            if op["seq"] != i or op.get("action") != action:
                bad(f"file {i} is out of order or has another action")
            path, root = op["path"], op["root"]
            if path in self.paths:
                bad(f"{path} is listed twice")
            self.paths.add(path)
            if _plain(path) and _plain(root) and is_under(path, root):
                self.live.add(i)
                self.roots.add(root)
            if self.to_folder and op["dest"] is not None and not is_under(op["dest"],
                                                                         self.move_to):
                bad(f"the destination of {path} is not inside {self.move_to}")
            if action == "rename" and not _renamed_in_place(path, op["dest"]):
                bad(f"{path} is renamed to {op['dest']!r}, not a new name in its folder")

    def begun(self) -> None:
        state, raw, bad = self.state, self.raw, self.bad
        for seq in set(state.begun) | {q for q, r in state.results.items()
                                       if r.get("type") in ("done", "kept-both")}:
            if seq not in self.live:
                bad(f"it says it acted on {raw[seq]['path']!r}, which is not a plain path "
                    "inside its recorded scan root")
        for seq, b in state.begun.items():
            if "path" in b and b["path"] != raw[seq]["path"]:
                bad(f"an entry names {b['path']!r} for {raw[seq]['path']!r}")
            if self.to_folder:
                self._begun_move(seq, b)
            if self.action == "rename" and b.get("dest") != raw[seq]["dest"]:
                bad(f"it renames {raw[seq]['path']} to {b.get('dest')!r}, not its new name")
            if self.linking:
                self._begun_link(seq, b)

    def _begun_move(self, seq: int, b: dict) -> None:
        dest, tmp, move_to = b.get("dest"), b.get("tmp"), self.move_to
        if dest is not None and not (_plain(dest) and is_under(dest, move_to)):
            self.bad(f"it moves {self.raw[seq]['path']} to {dest!r}, outside {move_to}")
        if tmp is not None and not (dest is not None and _tmp_beside(tmp, dest)):
            self.bad(f"{tmp!r} is not a simdup temporary file beside {dest!r}")

    def _begun_link(self, seq: int, b: dict) -> None:
        bad, path = self.bad, self.raw[seq]["path"]
        h, tmp, target = b.get("held"), b.get("tmp"), b.get("target")
        if not (_plain(h) and is_under(h, self.held)):
            bad(f"it holds the original of {path} at {h!r}, outside {self.held}")
        if not _tmp_beside(tmp, path):
            bad(f"{tmp!r} is not a simdup temporary file beside {path!r}")
        kept = [k.get("path") for k in self.raw[seq]["kept"] if isinstance(k, dict)]
        if not _plain(target) or target not in kept or target == path:
            bad(f"it links {path} to {target!r}, which is not one of its kept copies")
        if not (_int(b.get("target_dev")) and _int(b.get("target_ino"))):
            bad(f"the link target of {path} has no device and inode")

    def released(self) -> None:
        state, bad = self.state, self.bad
        for seq, e in list(state.released.items()) + list(state.release_failed.items()):
            path = self.raw[seq]["path"]
            if not self.linking:
                bad(f"it says it released a held original of {path!r}, but a {self.action} "
                    "holds none")
            b = state.begun.get(seq)
            if seq not in self.live or b is None or state.results.get(seq, {}).get(
                    "type") != "done":
                bad(f"it says it released the held original of {path!r}, which the action "
                    "never replaced by a link")
            if e.get("held") != b.get("held"):
                bad(f"it says it released {e.get('held')!r}, which is not where the original "
                    f"of {path} is held")
        for seq, ub in state.undo_begun.items():
            tmp = ub.get("tmp")
            if seq not in self.live or tmp is not None and not _tmp_beside(
                    tmp, self.raw[seq]["path"]):
                bad(f"{tmp!r} is not a simdup temporary file beside {self.raw[seq]['path']!r}")

    def results(self) -> None:
        raw, move_to = self.raw, self.move_to
        for seq, r in self.state.results.items():
            if r.get("type") not in ("done", "kept-both"):
                continue
            if self.to_folder:
                dest = r.get("dest")
                if not (_plain(dest) and is_under(dest, move_to)):
                    self.bad(f"it says {raw[seq]['path']} went to {dest!r}, outside {move_to}")
            elif self.action == "rename" and r.get("dest") != raw[seq]["dest"]:
                self.bad(f"it says {raw[seq]['path']} was renamed to {r.get('dest')!r}, not "
                         "its new name")
            elif self.action == "trash" and (r.get("trash_file") or r.get("trash_info")):
                why = trash_entry_reason(raw[seq]["path"], r.get("trash_file"),
                                         r.get("trash_info"))
                if why:
                    self.bad(why)

    def kept_copies(self) -> None:
        bad = self.bad
        for i, op in enumerate(self.raw):
            if i not in self.live or self.action in ("copy", "rename"):  # (nothing removed)
                continue
            if not op["kept"] and not (isinstance(op.get("catalog"), str) and op["catalog"]
                                       and self.action in ("move", "trash", "delete")):
                bad(f"{op['path']} has no kept copy")  # (but the user chose to let it go
                # on a catalog's word: actions.plan_action's catalog_copies)
            for k in op["kept"]:
                if not isinstance(k, dict) or not isinstance(k.get("path"), str):
                    bad(f"a kept copy of {op['path']} is malformed")
                kp, kr = k["path"], k.get("root") or ""
                if kp in self.paths:
                    bad(f"the kept copy {kp} of {op['path']} is itself a file the action "
                        "removes")
                if not _plain(kp) or not (any(is_under(kp, r) for r in self.roots)
                                          or _plain(kr) and is_under(kp, kr)):
                    bad(f"the kept copy {kp!r} of {op['path']} is not inside a scanned root")
