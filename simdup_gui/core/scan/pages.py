"""Pages of shared libraries a process read once and no longer needs, handed back (Linux).

numba loads the compiled kernels through LLVM: the scan's fork server (scan/warm.py), and the
scan's own process before a large grouping (kernels.settle), read about 68 MB of the JIT
compiler's library to do it. Those pages stay mapped, counted in the process's resident
memory for the rest of the scan, although running the loaded kernels never touches them.
:func:`drop_clean_pages` unmaps every shared library's pages that are clean copies of its
file (whatever the library: nothing here knows which one loaded what), so the next touch
reads them back from the system's file cache; the code still in use comes back at once, at
the cost of a page fault a page.

A cold scan of the 764 MB tree (53,558 files, ``benchmarks/phase_memory.py``, summed PSS
every 0.2 s), the fork server's and the scan's process's pages dropped: the fork server 124
-> 57 MB; the fingerprinting's peak 633 -> 558 MB, the candidates' 564 -> 521, the stars'
and excerpts' 582 -> 504 MB, with only LLVM's library dropped. Every library's clean pages
(this module), against LLVM's alone, ``largetree.py run TREE --rounds 3 --no-peer``
alternated: peak 503, 518, 523 MB against 526, 530 MB, CPU 48.4-49.8 s against 48.0-48.3 s,
the fork server 47-64 MB against 57-74; the 25 MB mix's scan (``alternate.py /tmp/mix25 6``)
2.10-2.15 s against 2.08-2.13 s.
"""

from __future__ import annotations

import re
import sys

MADV_DONTNEED = 4  # Linux: the range's pages are unmapped; a private file page comes back
# from the file on the next touch, as it was, when no page of the range was written


LIBRARY = re.compile(r"\.so(\.[0-9.]+)?$")  # a shared library's file (libfoo.so, libfoo.so.1.2)


def drop_clean_pages() -> int:
    """Unmap the pages of this process's mappings of shared libraries that cannot differ
    from their file: mappings not writable, not shared, with no page written, anonymous or
    swapped out (a relocated read-only part is written once: it is left alone). Other
    files are left alone: a data file changed in place since would be read anew.
    The bytes they held (0 off Linux, or when nothing is mapped)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        import ctypes

        madvise = ctypes.CDLL(None, use_errno=True).madvise
        madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        with open("/proc/self/smaps", encoding="ascii", errors="replace") as fh:
            maps = _clean_maps(fh)
    except (OSError, AttributeError, ImportError):  # (a Python without ctypes)
        return 0
    dropped = 0
    for start, end, rss in maps:
        if madvise(start, end - start, MADV_DONTNEED) == 0:
            dropped += rss
    return dropped


def _clean_maps(lines) -> list[tuple[int, int, int]]:
    """(start, end, resident bytes) of the mappings in smaps ``lines`` that
    :func:`drop_clean_pages` may drop."""
    out = []
    head, fields = None, {}

    def done():
        if head is None:
            return
        start, end, perms, path = head
        if (LIBRARY.search(path) and "w" not in perms and perms.endswith("p")
                and fields.get("Rss", 0) and not fields.get("Private_Dirty", 1)
                and not fields.get("Shared_Dirty", 1) and not fields.get("Anonymous", 1)
                and not fields.get("Swap", 1)):  # (a written page swapped out counts there)
            out.append((start, end, fields["Rss"] * 1024))

    for line in lines:
        parts = line.split(None, 5)  # (the path, spaces and all, in one piece)
        if not parts:
            continue
        if parts[0].endswith(":"):
            if len(parts) >= 2 and parts[1].isdigit():
                fields[parts[0][:-1]] = int(parts[1])
            continue
        done()
        span = parts[0].split("-")
        try:
            head = (int(span[0], 16), int(span[1], 16), parts[1] if len(parts) > 1 else "",
                    parts[5].rstrip("\n") if len(parts) > 5 else "")
        except (IndexError, ValueError):
            head = None
        fields = {}
    done()
    return out
