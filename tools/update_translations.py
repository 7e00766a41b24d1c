"""Refresh simdup_gui/resources/i18n/simdup_zh_CN.ts from the app's sources and the presenters' texts,
fill it from ZH, build the .qm.

Run: python tools/update_translations.py   (needs pyside6-lupdate / pyside6-lrelease)
"""

from __future__ import annotations

import glob
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "simdup_gui" / "resources" / "i18n" / "simdup_zh_CN.ts"  # shipped in the wheel
QM = TS.with_suffix(".qm")
sys.path.insert(0, str(Path(__file__).parent))
from zh_cn import ZH  # noqa: E402


def main() -> int:
    sources = sorted(glob.glob(str(ROOT / "simdup_gui" / "app" / "*.py"))
                     + glob.glob(str(ROOT / "simdup_gui" / "core" / "presenters" / "*.py")))
    subprocess.run(["pyside6-lupdate", *sources, "-no-obsolete", "-ts", str(TS)], check=True)
    tree = ET.parse(TS)
    missing = []
    for msg in tree.iter("message"):
        src = msg.findtext("source")
        tr = msg.find("translation")
        if src in ZH:
            tr.text = ZH[src]
            tr.attrib.pop("type", None)
        else:
            missing.append(src)
    tree.write(TS, encoding="utf-8", xml_declaration=True)
    subprocess.run(["pyside6-lrelease", str(TS), "-qm", str(QM)], check=True)
    for m in missing:
        print("untranslated:", repr(m))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
