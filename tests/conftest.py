import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from simdup_gui.core.scan.numba_cache import use_private_cache  # noqa: E402

# numba's cache of the kernels: the user's own (keyed by the kernels' source), shared by every
# test and the processes they start, so the kernels compile once, not in each test's
# isolated cache folder (_isolated_dirs)
use_private_cache()

ZH = ("在过去的十年里，我们家的照片和文档越来越多。每次换电脑，都会把旧硬盘上的文件夹整个复制到新电脑上，"
      "时间一长，同一篇文章就有了好几个副本。普通的查重工具只比较文件的字节，所以这些副本在它们看来完全不同。"
      "其实它们的内容几乎一样，只是编码、换行符或者个别词语不同。要找到它们，就需要先把文件解码成文字，"
      "再比较文字本身。整理文件的时候，最重要的是不要丢失任何东西，每一组重复文件至少要保留一份。\n") * 3
EN = ("Every few years we buy a new computer and copy the old disk onto it, folder by folder. "
      "After a decade the same report exists in five places: one saved by an old editor in a legacy "
      "encoding, one with Windows line endings, one with a download notice pasted at the top, and one "
      "where somebody fixed two typos and cut a paragraph. Tools that compare bytes will never call "
      "these copies duplicates, because not a single byte needs to match.\n") * 3
OTHER = ("The lighthouse keeper climbed the spiral stairs twice every night, once at dusk to light the "
         "lamp and once after midnight to trim the wick. The wind off the headland rattled the windows, "
         "and the gulls that nested on the rocks below complained loudly whenever the beam swept.\n") * 3


@pytest.fixture
def zh_text() -> str:
    return ZH


@pytest.fixture
def en_text() -> str:
    return EN


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path_factory, monkeypatch):
    """Never touch the real user's cache, data or settings folders."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))


def signal_in_mask(pid: int, field: str, sig: int) -> bool:
    """Whether ``sig`` is in process ``pid``'s ``field`` mask of /proc/PID/status (SigBlk:
    blocked, SigCgt: caught by a handler)."""
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    raise AssertionError(f"no {field} line")
