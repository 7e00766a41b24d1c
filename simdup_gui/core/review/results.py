"""Results as JSON, CSV and text: what `simdup scan` writes and what `apply` and the app read."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field

from ..models import FileRecord, Group, Member, Problem
from ..scan.simhash import to_hex

RESULTS_VERSION = 1


@dataclass
class Results:
    """Everything a review needs: records, groups at one setting, problems, marks."""

    records: list[FileRecord]
    groups: list[Group]
    problems: list[Problem]
    settings: dict
    stats: dict = field(default_factory=dict)
    marks: set[str] = field(default_factory=set)  # marked paths

    @property
    def bits(self) -> int:
        return int(self.settings.get("bits", 64))


def percent(sim: float | None) -> str:
    """A text similarity as users see it: "97 %" (or "?" when unknown)."""
    return "?" if sim is None else f"{100 * sim:.0f} %"


def _file_entry(r: FileRecord, m: Member, bits: int, rep: bool, marked: bool) -> dict:
    return {
        "path": r.path, "size": r.size, "mtime": r.mtime_ns / 1e9, "encoding": r.encoding,
        "fingerprint": to_hex(r.fingerprint, bits), "distance": m.distance,
        "similarity": m.similarity, "similarity_measured": m.measured,
        "too_short": r.too_short, "exact": m.exact, "representative": rep,
        "mtime_ns": r.mtime_ns, "inode": r.inode, "root": r.root, "content_hash": r.content_hash,
        "text_hash": r.text_hash, "fingerprint128": f"{r.fingerprint:032x}",
        "features": r.features, "low_confidence": r.low_confidence, "newline": r.newline,
        "bad_bytes": r.bad_bytes, "chars": r.chars, "marked": marked,
    }


def to_json_dict(res: Results, include_ungrouped: bool = False) -> dict:
    bits = res.bits
    groups = []
    for g in res.groups:
        files = [_file_entry(res.records[m.index], m, bits, m.index == g.representative,
                             res.records[m.index].path in res.marks) for m in g.members]
        groups.append({"id": g.id, "exact": g.exact,
                       "reference": res.records[g.representative].path, "files": files})
    out = {"version": RESULTS_VERSION, "settings": res.settings, "stats": res.stats,
           "groups": groups, "problems": [p.to_dict() for p in res.problems]}
    if include_ungrouped:
        out["records"] = [r.to_dict() for r in res.records]
    return out


_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(text: str) -> str:
    """JSON text with every lone surrogate (a file name byte that is not valid UTF-8, kept
    by Python as a surrogate escape) written as a \\uXXXX escape: the text can then be
    encoded as UTF-8, and json.loads gives the same name back."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def dumps_json(res: Results, include_ungrouped: bool = False) -> str:
    return escape_surrogates(json.dumps(to_json_dict(res, include_ungrouped),
                                        ensure_ascii=False, indent=1))


def to_csv(res: Results) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["group", "path", "size", "mtime", "encoding", "fingerprint", "distance",
                "similarity", "exact", "reference", "marked"])
    bits = res.bits
    for g in res.groups:
        for m in g.members:
            r = res.records[m.index]
            w.writerow([g.id, r.path, r.size, f"{r.mtime_ns / 1e9:.3f}", r.encoding,
                        to_hex(r.fingerprint, bits), m.distance,
                        "" if m.similarity is None else f"{m.similarity:.4f}",
                        int(m.exact), int(m.index == g.representative), int(r.path in res.marks)])
    return buf.getvalue()


def to_text(res: Results) -> str:
    bits = res.bits
    lines = []
    for g in res.groups:
        kind = "exact text" if g.exact else "near-duplicates"
        lines.append(f"Group {g.id} ({len(g.members)} files, {kind}; similarity to the "
                     f"reference *)")
        for m in g.members:
            r = res.records[m.index]
            tag = "*" if m.index == g.representative else " "
            lines.append(f"  {tag} {percent(m.similarity):>5s}  d={m.distance:<3d} "
                         f"{to_hex(r.fingerprint, bits)}  {r.encoding:<10s} {r.size:>10d}  "
                         f"{r.path}")
    st = res.stats
    lines.append(f"{len(res.groups)} groups; {st.get('files', 0)} files fingerprinted, "
                 f"{st.get('bytes', 0)} bytes in {st.get('seconds', 0)} s; "
                 f"{len(res.problems)} problems")
    for p in res.problems:
        lines.append(f"  problem: {p.path}: {p.reason}")
    return "\n".join(lines) + "\n"


def load_json(text: str) -> Results:
    """Read what :func:`dumps_json` wrote (or `simdup scan --format json`)."""
    d = json.loads(text)
    if not isinstance(d, dict) or d.get("version") != RESULTS_VERSION:
        raise ValueError("not a simdup results file (version 1)")
    bits = int(d.get("settings", {}).get("bits", 64))
    records: list[FileRecord] = []
    index: dict[str, int] = {}
    for rd in d.get("records", []):
        index[rd["path"]] = len(records)
        records.append(FileRecord.from_dict(rd))
    groups: list[Group] = []
    marks: set[str] = set()
    for gd in d.get("groups", []):
        members: list[Member] = []
        rep = -1
        for f in gd["files"]:
            if f["path"] not in index:
                fp = int(f.get("fingerprint128") or f["fingerprint"], 16)
                index[f["path"]] = len(records)
                records.append(FileRecord(
                    path=f["path"], size=int(f["size"]),
                    mtime_ns=int(f.get("mtime_ns") or round(float(f["mtime"]) * 1e9)),
                    inode=int(f.get("inode", 0)), dev=0, root=f.get("root", ""),
                    encoding=f.get("encoding", ""), fingerprint=fp,
                    features=int(f.get("features", 0)), text_hash=f.get("text_hash", ""),
                    content_hash=f.get("content_hash", ""), bad_bytes=int(f.get("bad_bytes", 0)),
                    newline=f.get("newline", "none"),
                    low_confidence=bool(f.get("low_confidence", False)),
                    chars=int(f.get("chars", 0))))
            i = index[f["path"]]
            sim = f.get("similarity")
            members.append(Member(i, int(f.get("distance", 0)), bool(f.get("exact", False)),
                                  None if sim is None else float(sim),
                                  bool(f.get("similarity_measured", False))))
            if f.get("representative"):
                rep = i
            if f.get("marked"):
                marks.add(f["path"])
        if members:
            groups.append(Group(int(gd["id"]), rep if rep >= 0 else members[0].index, members))
    problems = [Problem(p["path"], p["reason"], p.get("kind", "error"))
                for p in d.get("problems", [])]
    return Results(records, groups, problems, d.get("settings", {"bits": bits}),
                   d.get("stats", {}), marks)

