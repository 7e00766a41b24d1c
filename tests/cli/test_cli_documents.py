"""`simdup scan` over documents (issue 41, part 1): one group per text whatever the format, each
file's format in its "encoding"; bad documents are problems; --no-documents leaves them out."""

from __future__ import annotations

import json
import os

import pytest

from simdup_gui.cli import main
from tests import docfixtures as fx
from tests.conftest import EN, ZH


@pytest.mark.skipif(not os.path.exists(fx.CJK_FONT), reason="fonts-wqy-microhei not installed")
def test_scan_groups_documents_with_texts_and_no_documents_leaves_them_out(tmp_path, capsys):
    fx.write_all(tmp_path, "zh", ZH)
    fx.write_all(tmp_path, "en", EN)
    fx.encrypted_pdf(tmp_path / "locked.pdf", EN)
    assert main(["scan", str(tmp_path), "--format", "json", "--no-cache"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["settings"]["documents"] is True
    groups = sorted(({os.path.basename(f["path"]): f["encoding"] for f in g["files"]}
                     for g in d["groups"]), key=len)
    assert [len(g) for g in groups] == [7, 7]
    zh = next(g for g in groups if "zh.pdf" in g)
    assert {zh["zh.pdf"], zh["zh.docx"], zh["zh.odt"], zh["zh.epub"], zh["zh.rtf"],
            zh["zh.gbk.txt"]} == {"pdf", "docx", "odt", "epub", "rtf", "gb18030"}
    assert all(f["similarity"] >= 0.95 for g in d["groups"] for f in g["files"]
               if f.get("similarity") is not None)
    probs = {os.path.basename(p["path"]): p["reason"] for p in d["problems"]}
    assert probs == {"locked.pdf": "encrypted: no text (the PDF needs a password)"}

    assert main(["scan", str(tmp_path), "--format", "json", "--no-cache", "--no-documents"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["settings"]["documents"] is False
    names = {os.path.basename(f["path"]) for g in d["groups"] for f in g["files"]}
    assert names == {"zh.utf8.txt", "zh.gbk.txt", "en.utf8.txt", "en.gbk.txt"}
    assert not d["problems"]
