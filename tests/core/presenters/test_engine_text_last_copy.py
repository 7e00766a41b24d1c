"""The review's new engine texts (the last copy on a catalog's word, two catalogs of one
name) are known phrases: the interface shows them in its language, piece by piece."""

from simdup_gui.core.act.kept import LAST_COPY_REASON
from simdup_gui.core.presenters import set_translator
from simdup_gui.core.presenters.engine_text import REASONS, REFUSALS


def test_the_last_copy_and_catalog_name_texts_are_translated():
    set_translator(lambda ctx, text: f"<{text}>")
    try:
        reason = REASONS(LAST_COPY_REASON)
        assert reason.count("<") == 3 and "not touched>" in reason  # two phrases and "; "
        refusal = REFUSALS("group 3: /d/a.txt is the last copy on this computer; on a "
                           "catalog's word it may be moved or trashed, never be deleted "
                           "permanently (its copy is in the catalog backup)")
        assert refusal.startswith("<group 3: /d/a.txt is the last copy on this computer>")
        assert "<on a catalog's word" in refusal and refusal.endswith("catalog backup)>")
        clash = REFUSALS("/d/b.simcat is not compared: another catalog is called 'backup' "
                         "already; compare again")
        assert "<another catalog is called 'backup' already>" in clash
        assert clash.endswith("<compare again>")
    finally:
        set_translator(None)
