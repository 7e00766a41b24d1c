"""Results as JSON, CSV and text: what `simdup scan` writes and what `apply` and the app read."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..act.fileops import is_under
from ..group import also
from ..group.also import Note
from ..models import (ALLOWED_BITS, CATALOG_SCHEME, Also, Excerpt, FileRecord, Group, Member,
                      Problem)
from ..scan.simhash import to_hex
from ..textsim import DEFAULT_SIMILARITY, SKETCH_BYTES
from .catalog import catalogued_path, check_infos, original_path
from .schema import MAX_INT, Obj, ResultsError, parse

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
    chosen: set[str] = field(default_factory=set)  # references the user chose (never marked)
    excerpts: list[Excerpt] = field(default_factory=list)  # texts inside longer ones

    @property
    def bits(self) -> int:
        return int(self.settings.get("bits", 64))

    def snapshot(self) -> Results:
        """A copy whose lists, sets and dicts are its own (records and groups are shared, never
        changed once made): written out on a worker while the review goes on."""
        return Results(list(self.records), list(self.groups), list(self.problems),
                       copy.deepcopy(self.settings), copy.deepcopy(self.stats), set(self.marks),
                       set(self.chosen), list(self.excerpts))


def percent(sim: float | None) -> str:
    """A text similarity as users see it: "97 %" (or "?" when unknown)."""
    return "?" if sim is None else f"{100 * sim:.0f} %"


def _file_entry(r: FileRecord, m: Member, bits: int, rep: bool, marked: bool,
                closest: str | None) -> dict:
    entry = {
        "path": r.path, "size": r.size, "mtime": r.mtime_ns / 1e9, "encoding": r.encoding,
        "fingerprint": to_hex(r.fingerprint, bits), "distance": m.distance,
        "similarity": m.similarity, "similarity_measured": m.measured,
        "too_short": r.too_short, "exact": m.exact, "representative": rep,
        "mtime_ns": r.mtime_ns, "inode": r.inode, "root": r.root, "content_hash": r.content_hash,
        "text_hash": r.text_hash, "fingerprint128": f"{r.fingerprint:032x}",
        "features": r.features, "low_confidence": r.low_confidence, "newline": r.newline,
        "bad_bytes": r.bad_bytes, "chars": r.chars, "marked": marked,
        "closest": closest, "closest_similarity": m.closest_similarity,
        "template_documents": m.template, "copy_set": m.copy_set,
    }
    if r.catalog:  # not on this computer: a file the catalog names (review/catalog.py)
        entry["catalog"], entry["catalog_path"] = r.catalog, original_path(r)
    return entry


def _group_entry(res: Results, g: Group, bits: int, notes: list[Note] = ()) -> dict:
    recs = res.records
    files = [_file_entry(recs[m.index], m, bits, m.index == g.representative,
                         recs[m.index].path in res.marks,
                         recs[m.closest].path if m.closest >= 0 else None)
             for m in g.members]
    entry = {"id": g.id, "exact": g.exact, "reference": recs[g.representative].path,
             "template_members": g.templates, "files": files}
    if entry["reference"] in res.chosen:
        entry["reference_chosen"] = True  # the user's choice: keep rules keep it
    if notes:  # (only then: results files without such notes stay as they were)
        entry["also_similar"] = [{"file": recs[n.member].path, "other": recs[n.other].path,
                                  "other_group": n.group, "similarity": n.similarity}
                                 for n in notes]
    return entry


def _group_entries(res: Results) -> Iterator[dict]:
    bits = res.bits
    notes = also.resolve(res.groups)
    return (_group_entry(res, g, bits, n) for g, n in zip(res.groups, notes))


def _excerpt_entry(res: Results):
    recs = res.records
    return lambda e: {"part": recs[e.part].path, "whole": recs[e.whole].path,
                      "containment": e.containment}


def _excerpt_records(res: Results) -> list[FileRecord] | None:
    """The records an excerpt names that are in no group (a results file lists only the
    grouped files unless asked for every record), so that its excerpts can be read back."""
    grouped = {m.index for g in res.groups for m in g.members}
    named = sorted({i for e in res.excerpts for i in (e.part, e.whole)} - grouped)
    return [res.records[i] for i in named] or None


def _excerpts(top: Obj, index: dict[str, int]) -> list[Excerpt]:
    """The results file's ``excerpts``: each a part and a whole, two different files of
    the results, and a containment from 0 to 1."""
    out = []
    for ei, ed in enumerate(top.list("excerpts")):
        eo = Obj(ed, f"excerpts[{ei}]")
        part, whole = eo.path("part"), eo.path("whole")
        for key, path in (("part", part), ("whole", whole)):
            if path not in index:
                raise eo.fail(key, "a file of the results")
        if part == whole:
            raise eo.fail("whole", "another file than the part")
        out.append(Excerpt(index[part], index[whole], eo.float("containment", required=True)))
    return out


_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(text: str) -> str:
    """JSON text with every lone surrogate (a file name byte that is not valid UTF-8, kept
    by Python as a surrogate escape) written as a \\uXXXX escape: the text can then be
    encoded as UTF-8, and json.loads gives the same name back."""
    if text.isascii():
        return text
    try:  # a third of the time of searching every character: most text holds none
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


JSON_PIECE = 1 << 16  # characters :func:`iter_json` yields at a time, about


def _dumper():
    """json.dumps(x, ensure_ascii=False) of one entry, by json's C encoder made once, with
    no check for circular references (entries are plain dicts and lists): 4.7 us a file's
    entry, not 7.9 us through JSONEncoder.encode, which makes the encoder for every call.
    Without the C encoder (another Python), JSONEncoder.encode."""
    encoder = json.JSONEncoder(ensure_ascii=False)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder.encode
    once = make(None, encoder.default, json.encoder.encode_basestring, None, ": ", ", ",
                False, False, True)
    return lambda x: "".join(once(x, 0))


def _json_lines(res: Results, include_ungrouped: bool) -> Iterator[str]:
    """The results file's text: the top level and the lists indented, each group's head, each
    file, problem and record on a line of its own (grep finds a file with its fields), each
    of those encoded by json's C encoder as it is reached."""
    dump = _dumper()
    yield '{"version": ' + dump(RESULTS_VERSION)
    yield ',\n "settings": ' + dump(res.settings)
    yield ',\n "stats": ' + dump(res.stats)
    yield ',\n "groups": ['
    for n, g in enumerate(_group_entries(res)):
        files = g.pop("files")
        yield ("," if n else "") + "\n  " + dump(g)[:-1] + ', "files": ['
        yield ",".join("\n   " + dump(f) for f in files) + "\n  ]}"
    yield "\n ]" if res.groups else "]"
    for key, items, entry in (("excerpts", res.excerpts or None, _excerpt_entry(res)),
                              ("problems", res.problems, Problem.to_dict),
                              ("records", res.records if include_ungrouped else
                               _excerpt_records(res), FileRecord.to_dict)):
        if items is None:
            continue
        yield ',\n "' + key + '": ['
        for n, x in enumerate(items):
            yield ("," if n else "") + "\n  " + dump(entry(x))
        yield "\n ]" if items else "]"
    yield "\n}\n"


def iter_json(res: Results, include_ungrouped: bool = False) -> Iterator[str]:
    """:func:`dumps_json`'s text (a results file, newline included) in pieces of about
    ``JSON_PIECE`` characters, made as they are written: memory stays at one piece and one
    group's entries, not the whole text (which, escaped and encoded, was four copies of a
    100 MB string)."""
    buf: list[str] = []
    size = 0
    for chunk in _json_lines(res, include_ungrouped):
        buf.append(chunk)
        size += len(chunk)
        if size >= JSON_PIECE:
            yield escape_surrogates("".join(buf))
            buf, size = [], 0
    if buf:
        yield escape_surrogates("".join(buf))


def dumps_json(res: Results, include_ungrouped: bool = False) -> str:
    return "".join(iter_json(res, include_ungrouped))


def to_csv(res: Results) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["group", "path", "size", "mtime", "encoding", "fingerprint", "distance",
                "similarity", "exact", "reference", "marked", "closest",
                "closest_similarity", "template_documents"])
    bits = res.bits
    for g in res.groups:
        for m in g.members:
            r = res.records[m.index]
            w.writerow([g.id, r.path, r.size, f"{r.mtime_ns / 1e9:.3f}", r.encoding,
                        to_hex(r.fingerprint, bits), m.distance,
                        "" if m.similarity is None else f"{m.similarity:.4f}",
                        int(m.exact), int(m.index == g.representative), int(r.path in res.marks),
                        res.records[m.closest].path if m.closest >= 0 else "",
                        "" if m.closest_similarity is None else f"{m.closest_similarity:.4f}",
                        m.template])
    return buf.getvalue()


def to_text(res: Results) -> str:
    bits = res.bits
    lines = []
    notes = also.resolve(res.groups)
    for g, g_notes in zip(res.groups, notes):
        kind = "exact text" if g.exact else "near-duplicates"
        lines.append(f"Group {g.id} ({len(g.members)} files, {kind}; similarity to the "
                     f"reference *)")
        for m in g.members:
            r = res.records[m.index]
            tag = "*" if m.index == g.representative else " "
            said = ([f"in catalog {r.catalog}, not connected"] if r.catalog else []) + (
                ["similarity estimated"] if m.index != g.representative and not m.measured
                and (r.catalog or res.records[g.representative].catalog) else [])
            where = original_path(r) + (f"  ({'; '.join(said)})" if said else "")
            lines.append(f"  {tag} {percent(m.similarity):>5s}  d={m.distance:<3d} "
                         f"{to_hex(r.fingerprint, bits)}  {r.encoding:<10s} {r.size:>10d}  "
                         f"{where}")
            if m.template:
                lines.append(f"      template: most of the text it shares with the reference "
                             f"is found in {m.template} other documents (maybe not a copy; "
                             f"keep rules leave it alone)")
            for n in also.member_notes(g_notes, m.index):
                lines.append(f"      also similar to {original_path(res.records[n.other])} "
                             f"in group {n.group} ({percent(n.similarity)})")
    for e in res.excerpts:
        lines.append(f"excerpt: {original_path(res.records[e.part])} is inside "
                     f"{original_path(res.records[e.whole])} ({percent(e.containment)})")
    st = res.stats
    lines.append(f"{len(res.groups)} groups; {st.get('files', 0)} files fingerprinted, "
                 f"{st.get('bytes', 0)} bytes in {st.get('seconds', 0)} s; "
                 f"{len(res.problems)} problems")
    for p in res.problems:
        lines.append(f"  problem: {p.path}: {p.reason}")
    return "\n".join(lines) + "\n"


def _catalogs(so: Obj, settings: dict) -> tuple[str, ...]:
    """The names of the catalogs ``settings.catalogs`` lists (checked into ``settings``):
    those the catalogued files may come from."""
    if "catalogs" in so.d:
        settings["catalogs"] = check_infos(so)
    return tuple(c["name"] for c in settings.get("catalogs") or ())


def _closest_path(fo: Obj, key: str = "closest") -> str:
    """A file entry's ``closest`` (or another ``key`` naming a file of the results): a
    path, or a catalogued file's path (a catalog key)."""
    v = fo.d.get(key)
    if isinstance(v, str) and v.startswith(CATALOG_SCHEME):
        return fo.str(key, max_len=65600)  # (must be a file of the results: the caller)
    return fo.path(key, required=False)


def _also_notes(top: Obj, groups: list[Group], index: dict[str, int]) -> list[Group]:
    """``groups`` with each one's ``also_similar`` (optional: results files before it have
    none): a file of the group, a file of another group, its similarity; ``other_group``,
    when given, must be that group's id (it is found again from the path)."""
    where = {m.index: g.id for g in groups for m in g.members}
    by_id = {g.id: g for g in groups}
    for gi, gd in enumerate(top.list("groups")):
        go = Obj(gd, f"groups[{gi}]")
        g = by_id.get(go.d["id"])  # (checked when the group was read)
        for ni, nd in enumerate(go.list("also_similar", max_len=100_000)):
            no = Obj(nd, f"{go.where}.also_similar[{ni}]")
            file, other = _closest_path(no, "file"), _closest_path(no, "other")
            if g is None or where.get(index.get(file, -1)) != g.id:
                raise no.fail("file", "a file of this group")
            o = where.get(index.get(other, -1))
            if o is None or o == g.id:
                raise no.fail("other", "a file of another group")
            if no.int("other_group", o, hi=1 << 40) != o:
                raise no.fail("other_group", f"the id of the group of {other!r} ({o})")
            g.also.append(Also(index[file], index[other],
                               no.float("similarity", required=True)))
    return groups


def _closest_members(go: Obj, members: list[Member], closest: list[str],
                     index: dict[str, int]) -> None:
    """Each member's closest member, given by path: one of the group's other files."""
    mine = {m.index for m in members}
    for fi, (m, path) in enumerate(zip(members, closest)):
        if not path:
            continue
        c = index.get(path, -1)
        if c not in mine or c == m.index:
            raise ResultsError(f"{go.where}.files[{fi}].closest: expected another file of "
                               f"the group, got {path!r}")
        m.closest = c


def _record(o: Obj, roots: list[str], f: Obj | None = None,
            catalogs: tuple[str, ...] = ()) -> FileRecord:
    """A FileRecord from a record (``records[i]``) or a group's file entry, every field
    checked; ``path`` must lie under its ``root``, one of the results' ``roots``; a
    catalogued one's (with ``catalog``: one of ``catalogs``) is a path in that catalog."""
    if "catalog" in o.d:
        path, root, name = catalogued_path(o, catalogs)
    else:
        path, root, name = o.path("path"), o.path("root", required=False), ""
    if roots and not name:
        if root and root not in roots:
            raise ResultsError(f"{o.where}.root: {root!r} is not one of the scanned roots "
                               f"(settings.roots)")
        root = root or max((r for r in roots if is_under(path, r)), key=len, default="")
    if roots and not name and not (root and is_under(path, root)):
        raise ResultsError(f"{o.where}.path: {path!r} is not under "
                           f"{'its root ' + repr(root) if root else 'any scanned root'}")
    if "mtime_ns" in o.d:  # (a file dated before 1970 has a negative time)
        mtime_ns = o.int("mtime_ns", required=True, lo=-MAX_INT)
    else:
        mtime_ns = round(o.float("mtime", required=True, lo=-MAX_INT / 1e9,
                                 hi=MAX_INT / 1e9) * 1e9)
    if f is None:
        fp = int(o.hex("fingerprint", max_digits=32) or "0", 16)
    else:
        fp = int(o.hex("fingerprint128", "") or o.hex("fingerprint", max_digits=32) or "0", 16)
    sketch = o.hex("sketch", "", max_digits=2 * SKETCH_BYTES, even=True)
    if sketch and len(sketch) != 2 * SKETCH_BYTES:
        raise o.fail("sketch", f"{2 * SKETCH_BYTES} hexadecimal digits or none")
    return FileRecord(
        path=path, size=o.int("size", required=True), mtime_ns=mtime_ns,
        inode=o.int("inode", 0), dev=o.int("dev", 0), root=root,
        encoding=o.str("encoding", "", max_len=64), fingerprint=fp,
        features=o.int("features", 0), text_hash=o.hex("text_hash", "", max_digits=128),
        content_hash=o.hex("content_hash", "", max_digits=128),
        bad_bytes=o.int("bad_bytes", 0), newline=o.str("newline", "none", max_len=16),
        low_confidence=o.bool("low_confidence"), chars=o.int("chars", 0),
        sketch=bytes.fromhex(sketch), shingles=o.int("shingles", 0), catalog=name)


def load_json(text: str) -> Results:
    """Read what :func:`dumps_json` wrote (or `simdup scan --format json`). The file is
    untrusted: every value is checked (types, ranges, every path absolute, normalised and
    under one of ``settings.roots``), and anything else raises :class:`ResultsError` saying
    where. Fingerprints and similarities in the file are only a claim: acting re-measures
    from the files (:func:`simdup_gui.core.act.actions.plan_action`)."""
    top = Obj(parse(text), "")
    if top.d.get("version") != RESULTS_VERSION:
        raise ResultsError(f"not a simdup results file (version {RESULTS_VERSION})")
    so = top.obj("settings")
    bits = so.int("bits", 64)
    if bits not in ALLOWED_BITS:
        raise so.fail("bits", "one of " + ", ".join(map(str, ALLOWED_BITS)))
    so.int("distance", 0, hi=bits)
    so.float("similarity", DEFAULT_SIMILARITY, lo=0.01, hi=1.0)
    roots_list = so.list("roots", max_len=10_000)
    roots: list[str] = []
    for i, _ in enumerate(roots_list):
        roots.append(Obj({"root": roots_list[i]}, f"settings.roots[{i}]").path("root"))
    for key in ("grouping", "verify", "features", "index", "measure"):
        so.str(key, "", max_len=4096)
    settings = dict(so.d)
    settings["bits"] = bits
    names = _catalogs(so, settings)
    stats = top.obj("stats").d
    records: list[FileRecord] = []
    index: dict[str, int] = {}
    for i, rd in enumerate(top.list("records")):
        r = _record(Obj(rd, f"records[{i}]"), roots, catalogs=names)
        if r.path in index:
            raise ResultsError(f"records[{i}].path: {r.path!r} is listed twice")
        index[r.path] = len(records)
        records.append(r)
    groups: list[Group] = []
    marks: set[str] = set()
    chosen: set[str] = set()
    seen_ids: set[int] = set()
    grouped: set[str] = set()
    for gi, gd in enumerate(top.list("groups")):
        go = Obj(gd, f"groups[{gi}]")
        gid = go.int("id", required=True, hi=1 << 40)
        if gid in seen_ids:
            raise go.fail("id", "a group id not used before")
        seen_ids.add(gid)
        members: list[Member] = []
        closest: list[str] = []
        rep = -1
        for fi, fd in enumerate(go.list("files", required=True)):
            fo = Obj(fd, f"groups[{gi}].files[{fi}]")
            path = catalogued_path(fo, names)[0] if "catalog" in fo.d else fo.path("path")
            if path in grouped:
                raise ResultsError(f"{fo.where}.path: {path!r} is in two groups")
            grouped.add(path)
            if path not in index:
                index[path] = len(records)
                records.append(_record(fo, roots, fo, names))
            i = index[path]
            members.append(Member(i, fo.int("distance", 0, hi=128), fo.bool("exact"),
                                  fo.float("similarity", None, null=True),
                                  fo.bool("similarity_measured"), -1,
                                  fo.float("closest_similarity", None, null=True),
                                  fo.int("template_documents", 0, hi=MAX_INT),
                                  fo.int("copy_set", 0, hi=1 << 40)))
            closest.append(_closest_path(fo) if fo.d.get("closest") is not None else "")
            if fo.bool("representative"):
                rep = i
            if fo.bool("marked") and not records[i].catalog:  # (never a catalogued file)
                marks.add(path)
        if members:
            _closest_members(go, members, closest, index)
            groups.append(Group(gid, rep if rep >= 0 else members[0].index, members))
            if go.bool("reference_chosen"):
                chosen.add(records[groups[-1].representative].path)
    problems = []
    for pi, pd in enumerate(top.list("problems")):
        po = Obj(pd, f"problems[{pi}]")
        problems.append(Problem(po.str("path", max_len=65536), po.str("reason", max_len=65536),
                                po.str("kind", "error", max_len=64)))
    return Results(records, _also_notes(top, groups, index), problems, settings, stats, marks,
                   chosen, _excerpts(top, index))
