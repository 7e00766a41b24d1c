import subprocess
import sys

from simdup_gui.core.scan.fingerprint import STREAM_ABOVE, fingerprint_file

from tests.conftest import EN, ZH

CHILD = r"""
import sys
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
from simdup_gui.core.scan.fingerprint import fingerprint_file
from simdup_gui.core.scan.features import default_tokenizer
default_tokenizer()("预热")
fingerprint_file(sys.argv[2], sys.argv[3])  # warm every import and table first
before = hwm()
rec = fingerprint_file(sys.argv[1], sys.argv[3])
print(type(rec).__name__, rec.size if hasattr(rec, "size") else rec.reason, hwm() - before)
"""


def _growth(tmp_path, megabytes):
    path = tmp_path / f"big{megabytes}.txt"
    block = ((ZH + EN) * 20).encode("utf-8")
    with open(path, "wb") as fh:
        written = i = 0
        while written < megabytes << 20:
            chunk = block + f"\nparagraph {i}\n".encode()
            fh.write(chunk)
            written += len(chunk)
            i += 1
    small = tmp_path / "small.txt"
    small.write_text(ZH + EN, encoding="utf-8")
    size = path.stat().st_size
    assert size > STREAM_ABOVE
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(small), str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "FileRecord" and int(out[1]) == size
    return int(out[2])


def test_a_fifty_megabyte_file_is_fingerprinted_with_bounded_memory(tmp_path):
    # Streamed in pieces: the peak is set by the piece size, not the file size, so a
    # file 2.5 times larger does not raise it much (reading it whole would).
    g20 = _growth(tmp_path, 20)
    g50 = _growth(tmp_path, 50)
    assert g50 < 1.3 * g20 + (8 << 20), (g20, g50)
    assert g50 < 400 << 20


def test_streamed_and_whole_file_give_the_same_fingerprint(tmp_path, monkeypatch):
    import importlib

    fp_mod = importlib.import_module("simdup_gui.core.scan.fingerprint")
    path = tmp_path / "mid.txt"
    path.write_bytes(((ZH + EN) * 400).encode("gb18030"))
    whole = fingerprint_file(str(path), str(tmp_path))
    monkeypatch.setattr(fp_mod, "STREAM_ABOVE", 1000)
    monkeypatch.setattr(fp_mod, "READ_BLOCK", 4096)
    streamed = fingerprint_file(str(path), str(tmp_path))
    assert streamed.fingerprint == whole.fingerprint
    assert streamed.content_hash == whole.content_hash
    assert streamed.text_hash == whole.text_hash
