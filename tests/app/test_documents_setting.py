"""The app's "Read documents" setting (issue 41, part 1): ticked by default, a PDF and a .docx
of a text join its .txt in one group showing their formats; unticked, they are left out; the
choice is saved with the preferences and the results' settings."""

import os

import pytest

pytest.importorskip("PySide6")

from simdup_gui.app import options as opt  # noqa: E402
from tests import docfixtures as fx  # noqa: E402
from tests.app.conftest import scan  # noqa: E402
from tests.conftest import EN  # noqa: E402


@pytest.mark.skipif(not os.path.exists(fx.CJK_FONT), reason="fonts-wqy-microhei not installed")
def test_read_documents_is_a_setting_on_by_default(qtbot, make, tmp_path):
    fx.write_all(tmp_path, "en", EN)
    w = make([tmp_path])
    assert w.panel.documents_check.isChecked()
    scan(qtbot, w)
    assert len(w.model.groups) == 1
    g = w.model.groups[0]
    formats = {w.session.records[m.index].encoding for m in g.members}
    assert formats >= {"pdf", "docx", "odt", "epub", "rtf"}
    assert w.session.results().settings["documents"] is True
    w.panel.documents_check.setChecked(False)
    scan(qtbot, w)
    names = {os.path.basename(w.session.records[m.index].path)
             for g in w.model.groups for m in g.members}
    assert names == {"en.utf8.txt", "en.gbk.txt"}
    assert w.session.results().settings["documents"] is False
    w.panel.save()
    assert w.prefs.get(opt.DOCUMENTS) is False
