"""Documents (issue 41, part 1): how fast each format's text is extracted, what a scan of a
folder of PDFs costs against the same texts as .txt, and pypdfium2 against pypdf on speed and
text quality.

Texts: sections of about 4,000 characters of the Debian Reference's chapters (HTML, Chinese and
English halves: apt-get install debian-reference-en debian-reference-zh-cn), written as .txt,
.docx, .odt, .epub, .rtf and .pdf by tests/docfixtures.py (the PDF with the WenQuanYi font).

1. Documents per second of each format: text_of (read, extract, checks) in this process, one
   core, the best of --rounds.
2. A cold scan (no cache, --workers processes) of the folder of PDFs against the folder of the
   same texts as UTF-8 .txt, alternating round by round: wall seconds, best of --rounds.
3. pypdfium2 against pypdf (if installed): seconds a page, and text quality as the 5-gram
   Jaccard of the extracted text against the source text: on the generated PDFs (source: the
   text written) and on real PDFs made by other tools (the Debian Reference's LaTeX PDFs,
   source: the same chapters' HTML, so J < 1 for headers, footers and the table of contents).

    python3 benchmarks/documents.py [--work /tmp/simdup-docbench] [--texts 60] [--rounds 3]
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simdup_gui.core.scan.documents import html_text, text_of  # noqa: E402
from simdup_gui.core.scan.pipeline import ScanOptions, scan  # noqa: E402
from simdup_gui.core.textsim import text_similarity  # noqa: E402
from tests import docfixtures as fx  # noqa: E402

REF = "/usr/share/debian-reference"
SECTION = 4000


def sections(lang: str, n: int) -> list[str]:
    """``n`` sections of about SECTION characters of the Debian Reference in ``lang``."""
    out: list[str] = []
    for page in sorted(glob.glob(f"{REF}/ch*.{lang}.html")):
        text = html_text(Path(page).read_bytes())
        paras = [p.strip() for p in text.split("\n") if len(p.strip()) > 20]
        cur: list[str] = []
        for p in paras:
            cur.append(p)
            if sum(map(len, cur)) >= SECTION:
                out.append("\n".join(cur))
                cur = []
                if len(out) == n:
                    return out
    return out


def build(work: Path, n: int) -> dict[str, list[Path]]:
    """Every text in every format: {format: paths}; the .txt folders and the PDFs apart."""
    texts = sections("zh-cn", n // 2) + sections("en", n - n // 2)
    if not texts:
        raise SystemExit(f"no texts: {REF} is missing (apt-get install debian-reference-en "
                         "debian-reference-zh-cn)")
    shutil.rmtree(work, ignore_errors=True)
    out: dict[str, list[Path]] = {}
    for i, t in enumerate(texts):
        for fmt, p in fx.write_all(work / "all", f"t{i:03d}", t).items():
            out.setdefault(fmt, []).append(p)
        (work / "txt").mkdir(parents=True, exist_ok=True)
        (work / "pdf").mkdir(parents=True, exist_ok=True)
        shutil.copy(out["utf8.txt"][-1], work / "txt" / f"t{i:03d}.txt")
        shutil.copy(out["pdf"][-1], work / "pdf" / f"t{i:03d}.pdf")
    out["texts"] = texts  # type: ignore[assignment]
    return out


def per_format(made: dict, rounds: int) -> None:
    print("\n1. Extraction, one core (text_of: read, extract, checks), best of", rounds)
    print(f"{'format':10s} {'files':>6s} {'MB':>7s} {'docs/s':>9s} {'MB/s':>7s}")
    for fmt in fx.FORMATS:
        paths = made[fmt]
        data = [p.read_bytes() for p in paths]
        pairs = list(zip(paths, data, strict=True))
        best = min(_time(lambda pairs=pairs: [text_of(str(p), d) for p, d in pairs])
                   for _ in range(rounds))
        mb = sum(map(len, data)) / 1e6
        print(f"{fmt:10s} {len(paths):6d} {mb:7.2f} {len(paths) / best:9.0f} {mb / best:7.1f}")


def _time(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def scan_cost(work: Path, rounds: int, workers: int) -> None:
    print(f"\n2. Cold scan (no cache, {workers} workers), alternating, best of {rounds}")
    times: dict[str, list[float]] = {"txt": [], "pdf": []}
    for _ in range(rounds):
        for kind in ("txt", "pdf"):
            res = scan([str(work / kind)], ScanOptions(use_cache=False, workers=workers))
            assert not res.problems, res.problems[:3]
            times[kind].append(res.stats["seconds"])
    n = len(os.listdir(work / "pdf"))
    for kind, ts in times.items():
        print(f"{kind}: {n} files, best {min(ts):.2f} s (median {statistics.median(ts):.2f} s),"
              f" {n / min(ts):.0f} files/s")
    print(f"PDF folder / txt folder: {min(times['pdf']) / min(times['txt']):.1f}x")


def _pdfium(data: bytes) -> tuple[str, int]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(data)
    parts = []
    for i in range(len(doc)):
        page = doc[i]
        tp = page.get_textpage()
        parts.append(tp.get_text_range())
        tp.close()
        page.close()
    n = len(doc)
    doc.close()
    return "\n".join(parts), n


def _pypdf(data: bytes) -> tuple[str, int]:
    import io

    import pypdf

    r = pypdf.PdfReader(io.BytesIO(data))
    return "\n".join(p.extract_text() or "" for p in r.pages), len(r.pages)


def libraries(made: dict, rounds: int) -> None:
    libs = {"pypdfium2": _pdfium}
    try:
        import pypdf

        libs[f"pypdf {pypdf.__version__}"] = _pypdf
    except ImportError:
        print("\n(pypdf is not installed: pip install pypdf for the comparison)")
    cases = [("generated (fpdf2)", [p.read_bytes() for p in made["pdf"]], made["texts"])]
    for lang in ("en", "zh-cn"):
        pdf = Path(f"{REF}/debian-reference.{lang}.pdf")
        if pdf.exists():
            html = "\n".join(html_text(Path(p).read_bytes())
                             for p in sorted(glob.glob(f"{REF}/*.{lang}.html")))
            cases.append((f"Debian Reference {lang} (LaTeX)", [pdf.read_bytes()], [html]))
    print("\n3. PDF libraries: ms a page (best of", rounds, "), J of the text against the source")
    for name, datas, sources in cases:
        for lib, fn in libs.items():
            best, js, pages = float("inf"), [], 0
            for _ in range(rounds):
                t = time.perf_counter()
                got = [fn(d) for d in datas]
                best = min(best, time.perf_counter() - t)
            pages = sum(n for _, n in got)
            js = [text_similarity(src, text) for (text, _), src in zip(got, sources, strict=True)]
            print(f"{name:32s} {lib:14s} {pages:5d} pages {1000 * best / pages:7.2f} ms/page  "
                  f"J median {statistics.median(js):.3f} min {min(js):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", default="/tmp/simdup-docbench")
    ap.add_argument("--texts", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    work = Path(args.work)
    made = build(work, args.texts)
    per_format(made, args.rounds)
    scan_cost(work, args.rounds, args.workers)
    libraries(made, args.rounds)


if __name__ == "__main__":
    main()
