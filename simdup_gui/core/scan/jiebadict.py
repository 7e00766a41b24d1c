"""jieba's word list as flat arrays, for the compiled cut (``_kernels.cut_ids``).

rjieba (jieba-rs) cuts a text into a Python list of str, which the vocabulary then joins,
encodes and hashes back into ids: about 40% of a worker's fingerprinting CPU on Chinese
text. With these arrays one compiled loop cuts the code points and looks the words up.

jieba-rs embeds the dictionary of jieba (``jieba/dict.txt``: "word freq tag" lines); a word
on two lines (one is, "B超") has the later line's frequency and counts once in the total
(so rjieba's ``suggest_freq`` says: 60,101,964, not the lines' 60,101,967). The arrays are
a trie of the words over code points, nodes numbered level by level:

- ``root[c]``: the node of the one-character prefix ``c`` (0: no word starts with c); the
  kernel walks only CJK and ASCII characters, all below ``ROOT_SPAN``;
- ``first[n] : first[n + 1]``: the children of node ``n``, ``label``: each node's last
  character (children sorted by it, for a binary search);
- ``word[n]``: the number of the word node ``n`` spells (in the file's order), or -1;
- ``logp[r]``: ``ln(freq) - ln(total)`` of word ``r``, the term jieba-rs adds, computed
  in the same order of operations (so the routes, and ties between them, are its own);
- ``log1``: ``0 - ln(total)``, the term of a character no word starts at;
- ``pairs`` (made when the arrays load, not kept): a bit filter of the words' first two
  characters, 2**PAIR_BITS bits (512 KB, most of it in a core's L2 cache), so the kernel
  skips the search of a character's children where no word can go on (:func:`pair_filter`).

Building them from the 350,000 lines costs about a second, so they are kept in the user's
cache folder (keyed by the file's size and mtime) and loaded in milliseconds; a file found
there is checked like any input (every index the kernel follows in range) and rebuilt if
it is not right.
"""

from __future__ import annotations

import math
import os
import time
import zipfile
from collections.abc import Callable
from functools import lru_cache

from ..ourfiles import cache_dir, private_dir, write_private

DICT_CACHE_VERSION = 1
ROOT_SPAN = 0x30000  # CJK ideographs end at U+2FA1F; ASCII is at the start
PAIR_BITS = 22  # 178,232 pairs in jieba's dictionary: about 4 % of other pairs pass
PAIR_MUL = 0x9E3779B97F4A7C15  # _token_kernels._may_pair's multiplier (2**64 / golden ratio)


def jieba_file(*parts: str) -> str:
    """A data file of the jieba package, found without importing it (its import alone
    costs about 0.3 s per process)."""
    import importlib.util

    spec = importlib.util.find_spec("jieba")
    return os.path.join(os.path.dirname(spec.origin), *parts)


def cached_arrays(kind: str, version: int, source: str, build: Callable[[], object],
                  valid: Callable[[object], bool]):
    """``build()`` (an array, or a dict of arrays) of the file ``source``, kept in the
    user's cache folder under a name with the file's size and mtime.

    A kept copy is untrusted input: one that does not load or that ``valid`` rejects is
    rebuilt and replaced. Without a cache folder (or with a read-only one) it is built each
    time. The KEEP_COPIES copies of a kind used last stay (:func:`_prune`): two installs
    of simdup or jieba used in turn each find their own.
    """
    import numpy as np

    try:
        st = os.stat(source)
        folder = private_dir(cache_dir())  # (only this user's: ourfiles)
        name = os.path.join(folder, f"{kind}-v{version}-{st.st_size}-{st.st_mtime_ns}")
    except (ImportError, OSError, AttributeError):
        name = None
    value = None
    if name:
        value = _load(name)
        if value is not None and not valid(value):
            value = None
    if value is None:
        value = build()
        if name:
            ext = ".npz" if isinstance(value, dict) else ".npy"
            try:
                write_private(name + ext, lambda fh: np.savez(fh, **value)
                              if isinstance(value, dict) else np.save(fh, value))
                _prune(os.path.dirname(name), kind, os.path.basename(name) + ext)
            except OSError:
                pass
    return value


KEEP_COPIES = 3  # copies of a kind kept: the one just written and the two used last
STALE_TMP = 600  # seconds: a copy being written this long ago was never finished
USED_EVERY = 3600  # seconds: a load marks its copy used (its mtime) at most this often


def _prune(folder: str, kind: str, keep: str) -> None:
    """Remove the copies of ``kind`` that ``keep`` replaces (another version, or the same
    source at another size or mtime), but for the KEEP_COPIES - 1 others used last (their
    mtimes, which loads refresh: :func:`_mark_used`), and the temporary files of writes
    that never finished (a process killed while it wrote one, STALE_TMP seconds ago).

    Each new jieba install or simdup upgrade otherwise left 6-10 MB behind for good (a
    machine here had gathered 300 MB); with only the newest kept, two installs used in
    turn (two virtual environments, or two checkouts, each with its own jieba or
    features.py) removed each other's and each of their scans built it again in its fork
    server (the Unicode tables take about 70 ms to build, jieba's trie a second). A process
    still using one keeps its open file; one about to load it builds the arrays again."""
    now = time.time()
    found = []
    for f in os.listdir(folder):
        if f == keep or not f.startswith(kind + "-v"):
            continue
        path = os.path.join(folder, f)
        try:
            mtime = os.stat(path, follow_symlinks=False).st_mtime
        except OSError:
            continue
        if f.endswith((".npy", ".npz", ".bin")):  # (.bin: _image's kernel images)
            # a copy dated ahead of the clock (another machine's, a clock set back) would
            # stay newest for good: ranked oldest instead
            found.append((mtime if mtime <= now + 60 else float("-inf"), path))
        elif f.endswith(".tmp") and now - mtime > STALE_TMP:
            unlink_quietly(path)
    found.sort(reverse=True)
    for _, path in found[KEEP_COPIES - 1:]:
        unlink_quietly(path)


def unlink_quietly(path: str) -> None:
    """Remove the file ``path`` if it can be; a cache file gone or kept is no error."""
    try:
        os.remove(path)
    except OSError:
        pass


def _mark_used(fh) -> None:
    """Mark the kept copy open as ``fh`` used now (its mtime), for :func:`_prune`; at most
    once every USED_EVERY seconds (or when it is dated ahead of the clock), and not where
    the copy cannot be changed. The open file itself is marked, not whatever its path
    names by now (a link put there meanwhile is not followed)."""
    try:
        if abs(time.time() - os.fstat(fh.fileno()).st_mtime) > USED_EVERY:
            os.utime(fh.fileno() if os.utime in os.supports_fd else fh.name)
    except OSError:
        pass


def _load(name: str):
    """The array kept as ``name.npy`` or the arrays as ``name.npz``, or None."""
    import numpy as np

    for ext in (".npy", ".npz"):
        if not os.path.exists(name + ext):
            continue
        try:  # the file opened here: np.load left it open when it was no zip file
            with open(name + ext, "rb") as fh:
                got = np.load(fh, allow_pickle=False)
                if isinstance(got, np.ndarray):
                    value = got
                else:
                    with got:
                        value = {k: got[k] for k in got.files}
                _mark_used(fh)
                return value
        except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):
            return None
    return None


def _parse(path: str) -> dict[str, int]:
    """Each word's frequency, as jieba-rs reads the file (a missing frequency is 0, the
    tag is not needed, a later line of a word replaces its frequency)."""
    freq: dict[str, int] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            fields = line.split()
            if fields:
                freq[fields[0]] = int(fields[1]) if len(fields) > 1 else 0
    return freq


def _build(path: str) -> dict:
    import numpy as np

    freq = _parse(path)
    record = {w: r for r, w in enumerate(freq)}
    log_total = math.log(sum(freq.values()))  # Rust's f64::ln and math.log: the C library's
    logp = np.array([(math.log(f) if f else -math.inf) - log_total for f in freq.values()])
    # nodes level by level (prefixes of d characters), each level sorted: as the level
    # above is sorted too, that groups the children of a node, in order of last character
    levels: dict[int, set[str]] = {}
    for w in freq:
        if ord(w[0]) < ROOT_SPAN:
            for d in range(1, len(w) + 1):
                levels.setdefault(d, set()).add(w[:d])
    nodes = [""] + [p for d in sorted(levels) for p in sorted(levels[d])]
    number = {p: i for i, p in enumerate(nodes)}
    n = len(nodes)
    parent = np.fromiter((number[p[:-1]] for p in nodes[1:]), dtype=np.int64, count=n - 1)
    label = np.zeros(n, dtype=np.int32)
    label[1:] = np.fromiter((ord(p[-1]) for p in nodes[1:]), dtype=np.int32, count=n - 1)
    word = np.fromiter((record.get(p, -1) for p in nodes), dtype=np.int32, count=n)
    first = np.empty(n + 1, dtype=np.int32)
    first[0] = 1
    first[1:] = 1 + np.cumsum(np.bincount(parent, minlength=n))
    root = np.zeros(ROOT_SPAN, dtype=np.int32)
    root[label[first[0] : first[1]]] = np.arange(first[0], first[1], dtype=np.int32)
    return {"root": root, "first": first, "label": label, "word": word, "logp": logp,
            "log1": np.array([0.0 - log_total])}


def _valid(t) -> bool:
    """Whether kept arrays have the shapes, types and index ranges the kernel relies on
    (it does not check bounds: an index out of range would read outside an array)."""
    import numpy as np

    if not isinstance(t, dict) or set(t) != {"root", "first", "label", "word", "logp", "log1"}:
        return False
    root, first, label, word, logp, log1 = (t[k] for k in ("root", "first", "label", "word",
                                                             "logp", "log1"))
    kinds = ((root, np.int32), (first, np.int32), (label, np.int32), (word, np.int32),
             (logp, np.float64), (log1, np.float64))
    if any(a.dtype != k or a.ndim != 1 for a, k in kinds):
        return False
    n = len(label)
    if (n < 1 or len(root) != ROOT_SPAN or len(first) != n + 1 or len(word) != n
            or len(log1) != 1 or first[0] != 1 or first[n] != n):
        return False
    return bool((np.diff(first) >= 0).all() and (root >= 0).all() and (root < n).all()
                and (word >= -1).all() and (word < len(logp)).all()
                and not np.isnan(logp).any() and not np.isnan(log1).any())


def pair_filter(t: dict, bits: int = PAIR_BITS):
    """The bit filter of the pairs (x, y) that begin a word of two or more characters (a
    child y of the one-character node x): bit ``h`` of the uint8 array (byte h >> 3, bit
    h & 7) where ``h`` is the top ``bits`` bits of ``((x << 21) | y) * PAIR_MUL`` mod 2**64.
    Made from the trie itself, so it is right for whatever arrays were loaded: never clear
    for a pair of the trie (the cut would miss words), set for some others (a search
    that finds nothing, as without the filter)."""
    import numpy as np

    first, label = t["first"], t["label"]
    ones = np.arange(first[0], first[1])  # the nodes of one character: the root's children
    x = np.repeat(label[ones].astype(np.uint64), first[ones + 1] - first[ones])
    y = label[first[first[0]] : first[first[1]]].astype(np.uint64)  # their children, in order
    with np.errstate(over="ignore"):
        h = (((x << np.uint64(21)) | y) * np.uint64(PAIR_MUL)) >> np.uint64(64 - bits)
    on = np.zeros(1 << bits, dtype=bool)
    on[h.astype(np.int64)] = True
    return np.packbits(on, bitorder="little")


@lru_cache(maxsize=1)
def tables() -> dict | None:
    """The trie arrays of jieba's dictionary (see the module's docstring), with their
    ``pairs`` filter, or None when jieba's dict.txt cannot be read."""
    try:
        path = jieba_file("dict.txt")
        t = cached_arrays("dict", DICT_CACHE_VERSION, path, lambda: _build(path), _valid)
    except (OSError, ValueError, AttributeError):
        return None
    return {**t, "pairs": pair_filter(t)}
