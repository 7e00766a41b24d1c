"""A self-contained HTML report of the groups: one file, inline CSS, no scripts or links out."""

from __future__ import annotations

import html
import time

from .results import Results
from ..scan.simhash import to_hex

_CSS = """
body{font:14px system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.4em}table{border-collapse:collapse;margin:0 0 1.5em;width:100%}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;font-size:13px}
th{background:#f3f3f3}td.n{text-align:right}tr.marked td{background:#fde8e8}
tr.rep td:first-child{font-weight:bold}.path{font-family:monospace;word-break:break-all}
.meta{color:#666}
"""


def _e(v: object) -> str:
    return html.escape(str(v), quote=True)


def to_html(res: Results, title: str = "simdup report") -> str:
    """The groups of ``res`` with marks, as one HTML page. Every path and value is escaped."""
    bits = res.bits
    marked = set(res.marks)
    n_files = sum(len(g.members) for g in res.groups)
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
           f"<h1>{_e(title)}</h1>",
           f'<p class="meta">{len(res.groups)} groups, {n_files} files, {len(marked)} marked; '
           f"{bits}-bit fingerprints, distance &le; {_e(res.settings.get('distance', '?'))}; "
           f"written {_e(time.strftime('%Y-%m-%d %H:%M'))}</p>"]
    for g in res.groups:
        kind = "exact text" if g.exact else "near-duplicates"
        out.append(f"<h2>Group {_e(g.id)} <span class=\"meta\">({len(g.members)} files, "
                   f"{kind})</span></h2>")
        out.append("<table><tr><th>marked</th><th>path</th><th>size</th><th>modified</th>"
                   "<th>encoding</th><th>distance</th><th>similarity</th><th>fingerprint</th>"
                   "</tr>")
        for m in g.members:
            r = res.records[m.index]
            cls = " ".join(c for c, on in (("marked", r.path in marked),
                                           ("rep", m.index == g.representative)) if on)
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(r.mtime_ns / 1e9))
            out.append(
                f'<tr class="{cls}"><td>{"&#10003;" if r.path in marked else ""}</td>'
                f'<td class="path">{_e(r.path)}</td><td class="n">{r.size}</td>'
                f"<td>{when}</td><td>{_e(r.encoding)}</td><td class=\"n\">{m.distance}</td>"
                f'<td class="n">{1 - m.distance / bits:.1%}</td>'
                f'<td class="path">{_e(to_hex(r.fingerprint, bits))}</td></tr>')
        out.append("</table>")
    if res.problems:
        out.append(f"<h2>Problems ({len(res.problems)})</h2><table><tr><th>path</th>"
                   "<th>reason</th></tr>")
        out += [f'<tr><td class="path">{_e(p.path)}</td><td>{_e(p.reason)}</td></tr>'
                for p in res.problems]
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
