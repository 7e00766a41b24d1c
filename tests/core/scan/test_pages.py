"""Shared libraries' pages a process read once (LLVM's, to load the kernels) are handed back:
only pages that cannot differ from their file, and the kernels still run; chardet's models
are loaded in the fork server's preload, once."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from simdup_gui.core.scan import kernels, pages


def _entry(start: int, perms: str, path: str, rss: int, dirty: int | None = 0,
           anon: int = 0, swap: int = 0) -> str:
    """One mapping of /proc/PID/smaps (64 KB long; None: no Private_Dirty line)."""
    lines = [f"{start:x}-{start + 0x10000:x} {perms} 00000000 08:01 11 {path}",
             f"Rss: {rss} kB", "Private_Clean: 0 kB", "Shared_Dirty: 0 kB",
             f"Anonymous: {anon} kB", f"Swap: {swap} kB", "VmFlags: rd mr mw me"]
    if dirty is not None:
        lines.insert(2, f"Private_Dirty: {dirty} kB")
    return "\n".join(lines)


LIB, BASE = "/a b/libjit.so.14", 0x7F0000000000
SMAPS = "\n".join([
    _entry(BASE, "r--p", LIB, 64),  # chosen (its path has a space)
    _entry(BASE + 0x10000, "r-xp", LIB, 32),  # chosen
    _entry(BASE + 0x20000, "r--p", LIB, 64, dirty=64, anon=64),  # relocated: written
    _entry(BASE + 0x30000, "rw-p", LIB, 64),  # writable
    _entry(BASE + 0x40000, "r--s", LIB, 64),  # shared
    _entry(BASE + 0x50000, "r--p", "/x/tables.npz", 64),  # a data file: not a library
    _entry(BASE + 0x60000, "r-xp", LIB, 0),  # nothing resident
    _entry(BASE + 0x70000, "r-xp", LIB, 16, dirty=None),  # its dirty count not there
    _entry(BASE + 0x80000, "r--p", LIB, 16, swap=48),  # written pages swapped out
    _entry(BASE + 0x90000, "r-xp", "/x/libold.so (deleted)", 64),  # its file replaced
])


def test_only_mappings_that_cannot_differ_from_their_file_are_chosen():
    """Not writable, private, resident, and no page written or anonymous (the relocated
    read-only part is left alone); a mapping whose dirty count is not there is not
    trusted (nor one with written pages swapped out, which its other counts do not show);
    files that are not libraries, or whose file was replaced, are not touched."""
    got = pages._clean_maps(SMAPS.splitlines(keepends=True))
    assert got == [(BASE, BASE + 0x10000, 64 * 1024), (BASE + 0x10000, BASE + 0x20000, 32 * 1024)]
    assert pages._clean_maps(["garbage line", "", "Rss: x kB"]) == []


@pytest.mark.skipif(not sys.platform.startswith("linux") or not kernels.available(),
                    reason="Linux with numba only")
def test_the_libraries_pages_are_dropped_and_the_kernels_still_run():
    """In a fresh process: every kernel loaded, the libraries' clean pages dropped (LLVM's
    among them: tens of MB resident before, little after), and a kernel gives the same
    answer as before the drop."""
    code = textwrap.dedent("""
        import numpy as np
        from simdup_gui.core.scan import kernels, pages

        def resident():
            with open("/proc/self/smaps") as fh:
                return sum(r for _, _, r in pages._clean_maps(fh))

        k = kernels.impl()
        k.warm()
        h = np.arange(5000, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        want = np.sort(k.distinct_hashes(np.concatenate((h, h[:100]))))
        before = resident()
        dropped = pages.drop_clean_pages()
        after = resident()
        got = np.sort(k.distinct_hashes(np.concatenate((h, h[:100]))))
        print(before, dropped, after, bool(np.array_equal(got, want)), len(got))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=True).stdout.split()
    before, dropped, after = map(int, out[:3])
    assert before > 10 << 20 and dropped >= before - (1 << 20) and after < before // 10, out
    assert out[3:] == ["True", "5000"]


def test_settle_loads_the_kernels_and_drops_their_pages_once(monkeypatch):
    """Once; while the kernels are still to be compiled (the workers compile them, and say
    so) only imported, each compiled when first used; not past a kernel that failed to
    load."""
    calls = []
    module = type("K", (), {"warm": staticmethod(lambda: calls.append("warm"))})
    monkeypatch.setattr(kernels, "_settled", False)
    monkeypatch.setattr(kernels, "will_compile", lambda: True)
    monkeypatch.setattr(kernels, "available", lambda: True)
    monkeypatch.setattr(kernels, "impl", lambda: calls.append("import") or module)
    kernels.settle()
    assert calls == ["import"] and not kernels._settled
    calls.clear()
    monkeypatch.setattr(kernels, "will_compile", lambda: False)
    monkeypatch.setattr(kernels, "impl", lambda: module)
    monkeypatch.setattr(pages, "drop_clean_pages", lambda: calls.append("drop") or 0)
    kernels.settle()
    kernels.settle()
    assert calls == ["warm", "drop"]


def test_chardets_models_are_loaded_by_the_preload():
    """In a fresh process, after the preload's call a worker's first guesses load no
    models (26 MB each worker loaded for itself before); without it the first does."""
    code = textwrap.dedent("""
        import sys, tracemalloc
        import chardet
        from simdup_gui.core.scan import decode

        if sys.argv[1] == "preload":
            decode.prepare_process()
        tracemalloc.start()
        chardet.detect("Grüße aus Köln, ein Versuch".encode("cp1252") * 4)
        chardet.detect("中文的文本，長一點".encode("big5") * 8)
        chardet.detect("Привет, это проба".encode("koi8-r") * 8)
        print(tracemalloc.get_traced_memory()[1])
    """)
    peak = {how: int(subprocess.run([sys.executable, "-c", code, how], capture_output=True,
                                    text=True, timeout=120, check=True).stdout)
            for how in ("preload", "none")}
    assert peak["preload"] < 2 << 20 < 10 << 20 < peak["none"], peak


def test_a_kernel_that_fails_to_load_leaves_the_pages_and_the_scan_alone(monkeypatch):
    calls = []

    def broken():
        raise RuntimeError("numba cache unreadable")
    monkeypatch.setattr(kernels, "_settled", False)
    monkeypatch.setattr(kernels, "will_compile", lambda: False)
    monkeypatch.setattr(kernels, "impl", lambda: type("K", (), {"warm": staticmethod(broken)}))
    monkeypatch.setattr(pages, "drop_clean_pages", lambda: calls.append("drop") or 0)
    kernels.settle()  # no exception
    assert calls == []
