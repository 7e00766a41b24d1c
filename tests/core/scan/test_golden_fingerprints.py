"""Fingerprints, sketches and text hashes of fixed texts, against values stored in
data/golden_fingerprints.json: any change to decoding, normalisation, tokenising, weighting,
hashing or sketching that moves a fingerprint fails here. If a change is meant (and the
cache's version constants were bumped with it), regenerate with
``SIMDUP_REGEN_GOLDEN=1 python3 -m pytest tests/core/scan/test_golden_fingerprints.py``
and say why in the commit."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from simdup_gui.core.scan.features import FEATURE_MODES
from simdup_gui.core.scan.fingerprint import FeatureSettings, fingerprint_file

from tests.conftest import EN, OTHER, ZH

GOLDEN = Path(__file__).parent / "data" / "golden_fingerprints.json"
DEMO = Path(__file__).resolve().parents[3] / "resources" / "demo"

CASES = {
    "zh.txt": ZH.encode("utf-8"),
    "zh_gb18030.txt": ZH.replace("\n", "\r\n").encode("gb18030"),
    "zh_big5.txt": "這是一篇繁體中文的文章，講的是圖書館裡的舊書和新書。" .encode("big5") * 20,
    "en.txt": EN.encode("utf-8"),
    "en_utf16.txt": EN.encode("utf-16"),
    "other_bom.txt": b"\xef\xbb\xbf" + OTHER.encode("utf-8"),
    "cp1252.txt": ("Caf\u00e9 cr\u00e8me \u2013 na\u00efve fa\u00e7ade, " * 40).encode("cp1252"),
    "zero_width.txt": ("\u200b".join(ZH[:200]) + EN[:300]).encode("utf-8"),
    "rewrapped.txt": "\n".join(ZH[i:i + 37] for i in range(0, len(ZH), 37)).encode("utf-8"),
    "page.html": (f"<html><head><style>p{{color:red}}</style></head><body><p>{EN}</p>"
                  f"<p>{ZH}</p><!-- note --></body></html>").encode("utf-8"),
    "short.txt": "短文".encode("utf-8"),
    "numbers.txt": ("2024-01-01 12:00:00 INFO request 12345 ok\n" * 50).encode("ascii"),
}


def _values(tmp_path) -> dict:
    paths = []
    for name, data in CASES.items():
        p = tmp_path / name
        p.write_bytes(data)
        paths.append(p)
    paths += sorted(p for p in DEMO.iterdir() if p.is_file())
    out = {}
    for mode in FEATURE_MODES:
        for p in paths:
            try:
                r = fingerprint_file(str(p), str(p.parent), FeatureSettings(mode))
            except Exception as e:  # noqa: BLE001 - a problem file is recorded as such
                out[f"{mode}/{p.name}"] = f"error: {type(e).__name__}"
                continue
            if not hasattr(r, "fingerprint"):
                out[f"{mode}/{p.name}"] = f"problem: {r.kind}"
                continue
            out[f"{mode}/{p.name}"] = {
                "fingerprint": f"{r.fingerprint:032x}", "encoding": r.encoding,
                "text_hash": r.text_hash, "features": r.features, "shingles": r.shingles,
                "sketch": hashlib.blake2b(r.sketch, digest_size=8).hexdigest()}
    return out


@pytest.mark.parametrize("compiled", ["0", "1"])  # the numpy path, the numba kernels
def test_fingerprints_of_fixed_texts_are_the_stored_ones(tmp_path, compiled, monkeypatch):
    from simdup_gui.core.scan import kernels
    from simdup_gui.core.scan import vocab as vocab_mod

    if compiled == "1" and not kernels.available():
        pytest.skip("numba is not installed")
    monkeypatch.setenv("SIMDUP_COMPILED", compiled)
    vocab_mod._LOCAL.__dict__.clear()
    got = _values(tmp_path)
    vocab_mod._LOCAL.__dict__.clear()
    if compiled == "1":
        assert kernels.active()
    if os.environ.get("SIMDUP_REGEN_GOLDEN") == "1" and compiled == "0":
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")
        pytest.skip("golden values regenerated")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(got) == sorted(want)
    changed = {k: (want[k], got[k]) for k in want if want[k] != got[k]}
    assert not changed, f"{len(changed)} of {len(want)} changed, e.g. {next(iter(changed.items()))}"
