import subprocess
import sys


def test_engine_imports_no_qt():
    code = ("import sys, pkgutil, importlib, simdup_gui.core as c\n"
            "for m in pkgutil.iter_modules(c.__path__):\n"
            "    importlib.import_module('simdup_gui.core.' + m.name)\n"
            "import simdup_gui.cli\n"
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'PyQt'))]\n"
            "print(bad)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
