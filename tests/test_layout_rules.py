"""The shape issue 12 asked for, kept: a thin GUI (no app file over 400 lines, no function
over 60), one-way imports (app -> core, cli -> core; the app never imports the CLI), and
the commands that act drive the Session instead of running engine steps themselves."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "simdup_gui"


def modules(folder: str):
    for path in sorted((PKG / folder).rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def imported_modules(tree: ast.AST, path: Path) -> set[str]:
    out = set()
    pkg = ".".join(path.relative_to(PKG.parent).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = pkg.rsplit(".", node.level - 1)[0] if node.level else ""
            out.add(".".join(x for x in (base, node.module or "") if x))
    return out


def test_app_files_and_functions_stay_small():
    big = [(p.name, n) for p, t in modules("app")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400]
    assert not big, big
    long = [(p.name, f.name, f.end_lineno - f.lineno + 1) for p, t in modules("app")
            for f in ast.walk(t) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            and f.end_lineno - f.lineno + 1 > 60]
    assert not long, long


def test_imports_go_one_way():
    for path, tree in modules("app"):
        assert not {m for m in imported_modules(tree, path) if m.startswith("simdup_gui.cli")}, path
    for path, tree in modules("core"):
        bad = {m for m in imported_modules(tree, path)
               if m.startswith(("simdup_gui.cli", "simdup_gui.app"))}
        assert not bad, (path, bad)
    for path, tree in modules("cli"):
        assert not {m for m in imported_modules(tree, path)
                    if m.startswith("simdup_gui.app")}, path
