"""The defaults the documentation quotes are the code's, and the README stays short.

README.md and docs/design.md each hold a defaults table whose last column names the constant
(`DEFAULT_DISTANCE[64]`, `MARGIN`, ...); each row's value must equal that constant. Prose in
README.md, CHANGELOG.md and docs/*.md that marks a candidate distance "(default)", names the
doubt band ("within 0.08 of the threshold") or the similarity's default is checked too, so
an old figure left in a sentence fails as a table would.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simdup_gui.core.defaults import DEFAULT_BITS, DEFAULT_DISTANCE, DEFAULT_VERIFY
from simdup_gui.core.group.verify import MARGIN
from simdup_gui.core.scan.features import DEFAULT_MODE
from simdup_gui.core.textsim import DEFAULT_SIMILARITY, DIFFERENT_BELOW, SKETCH_K

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DESIGN = ROOT / "docs" / "design.md"
README_MAX_LINES = 300

CODE = {
    "DEFAULT_BITS": DEFAULT_BITS,
    "DEFAULT_DISTANCE": DEFAULT_DISTANCE,
    "DEFAULT_VERIFY": DEFAULT_VERIFY,
    "DEFAULT_SIMILARITY": DEFAULT_SIMILARITY,
    "DIFFERENT_BELOW": DIFFERENT_BELOW,
    "MARGIN": MARGIN,
    "DEFAULT_MODE": DEFAULT_MODE,
    "SKETCH_K": SKETCH_K,
}
# every table must quote at least these
REQUIRED = {"DEFAULT_BITS", "DEFAULT_VERIFY", "DEFAULT_SIMILARITY", "MARGIN",
            *(f"DEFAULT_DISTANCE[{bits}]" for bits in DEFAULT_DISTANCE)}

_ROW = re.compile(r"^\|(?P<cells>.*)\|\s*$")
_REF = re.compile(r"^`(?P<name>[A-Z_]+)(?:\[(?P<key>\d+)\])?`$")


def _docs() -> list[Path]:
    return [README, ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


def code_value(name: str, key: str | None):
    value = CODE[name]
    return value[int(key)] if key is not None else value


def doc_value(cell: str):
    """A table cell as a value: '64 bits' -> 64, 'k=16' -> 16, '0.70' -> 0.7, 'sketch'."""
    cell = cell.strip().strip("`")
    m = re.fullmatch(r"(?:k\s*=\s*)?(\d+)(?:\s*bits)?", cell)
    if m:
        return int(m.group(1))
    m = re.fullmatch(r"±?\s*(\d*\.\d+)", cell)
    if m:
        return float(m.group(1))
    return cell


def defaults_table(path: Path) -> dict[str, tuple[object, object, str]]:
    """{`NAME` or `NAME[key]`: (value in the doc, value in the code, the row)} for every table
    row whose last cell is a backticked constant the code defines."""
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if not m:
            continue
        cells = [c.strip() for c in m.group("cells").split("|")]
        if len(cells) < 3:
            continue
        ref = _REF.match(cells[-1])
        if not ref or ref.group("name") not in CODE:
            continue
        name, key = ref.group("name"), ref.group("key")
        label = f"{name}[{key}]" if key is not None else name
        rows[label] = (doc_value(cells[1]), code_value(name, key), line)
    return rows


@pytest.mark.parametrize("path", [README, DESIGN], ids=lambda p: p.name)
def test_each_defaults_table_quotes_the_code_values(path):
    rows = defaults_table(path)
    missing = REQUIRED - rows.keys()
    assert not missing, f"{path.name}: no defaults-table row for {sorted(missing)}"
    wrong = [f"{label}: doc says {doc!r}, code has {code!r}\n    {line}"
             for label, (doc, code, line) in rows.items() if doc != code]
    assert not wrong, f"{path.name} disagrees with the code:\n" + "\n".join(wrong)


def test_doc_value_reads_the_table_forms():
    assert doc_value("64 bits") == 64
    assert doc_value("k=16") == 16
    assert doc_value("0.70") == 0.7
    assert doc_value("`sketch`") == "sketch"


def test_a_disagreeing_row_is_caught(tmp_path):
    """The check itself: a table that says 16 bits k=2 (an old README's figure) fails."""
    doc = tmp_path / "doc.md"
    doc.write_text("| setting | default | in the code |\n| --- | --- | --- |\n"
                   "| candidate distance at 16 bits | k=2 | `DEFAULT_DISTANCE[16]` |\n",
                   encoding="utf-8")
    doc_says, code_has, _ = defaults_table(doc)["DEFAULT_DISTANCE[16]"]
    assert doc_says == 2 and code_has == DEFAULT_DISTANCE[16] and doc_says != code_has


def _prose_claims(text: str):
    """(what, doc value, code value, excerpt) for each default a sentence or table cell states."""
    for m in re.finditer(r"(16|32|64|128) bits\b[^\n|]*?\|?[^\n]*?k\s*=\s*(\d+)\s*\(default\)",
                         text):
        yield (f"distance at {m.group(1)} bits", int(m.group(2)),
               DEFAULT_DISTANCE[int(m.group(1))], m.group(0))
    for m in re.finditer(r"within (0\.\d+) of the threshold", text):
        yield "doubt band", float(m.group(1)), MARGIN, m.group(0)
    for m in re.finditer(r"(?:--similarity|similarity threshold|threshold)`?[^.\n]{0,30}?"
                         r"default[: ]+(0\.\d+)", text):
        yield "similarity threshold", float(m.group(1)), DEFAULT_SIMILARITY, m.group(0)
    for m in re.finditer(r"16 bits:? k=(\d+), 32 bits:? k=(\d+), 64 bits:? k=(\d+), "
                         r"128 bits:? k=(\d+)", text):
        doc = tuple(int(g) for g in m.groups())
        yield "distances", doc, tuple(DEFAULT_DISTANCE[b] for b in (16, 32, 64, 128)), m.group(0)


@pytest.mark.parametrize("path", _docs(), ids=lambda p: p.name)
def test_defaults_stated_in_prose_are_the_code_values(path):
    wrong = [f"{what}: {doc} in the doc, {code} in the code: {excerpt!r}"
             for what, doc, code, excerpt in _prose_claims(path.read_text(encoding="utf-8"))
             if doc != code]
    assert not wrong, f"{path.name}:\n" + "\n".join(wrong)


def test_prose_checks_catch_the_old_contradictions():
    old = ("estimated ... and measured exactly when the estimate is within 0.12 of the "
           "threshold; 16 bits, candidates k=2 (default); `--similarity`, default 0.75")
    claims = {what: (doc, code) for what, doc, code, _ in _prose_claims(old)}
    assert claims["doubt band"] == (0.12, MARGIN)
    assert claims["distance at 16 bits"] == (2, DEFAULT_DISTANCE[16])
    assert claims["similarity threshold"] == (0.75, DEFAULT_SIMILARITY)


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_readme_keeps_the_two_fresh_machine_commands():
    text = README.read_text(encoding="utf-8")
    assert "python3 -m pip install -e . && python3 -m simdup_gui resources/demo --scan" in text
    assert ('python3 -m pip install -e ".[test]" && QT_QPA_PLATFORM=offscreen '
            'python3 -m pytest -m "not slow"') in text
