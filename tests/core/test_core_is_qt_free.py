import subprocess
import sys


def test_engine_imports_no_qt():
    """Every module of the engine, subpackages included, and the CLI import without Qt."""
    code = ("import sys, pkgutil, importlib, simdup_gui.core as c\n"
            "names = [m.name for m in pkgutil.walk_packages(c.__path__, 'simdup_gui.core.')]\n"
            "for n in names:\n"
            "    importlib.import_module(n)\n"
            "import simdup_gui.cli\n"
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'PyQt'))]\n"
            "print(len(names), bad)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    count, bad = out.stdout.strip().split(" ", 1)
    assert bad == "[]"
    assert int(count) >= 30  # the subpackages are walked, not only the top level
