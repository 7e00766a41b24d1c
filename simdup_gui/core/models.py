"""Plain data shared by the engine, the CLI and the GUI."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

ALLOWED_BITS = (16, 32, 64, 128)


def human_size(n: float) -> str:
    """1536 -> "1.5 KB" (binary units, as file managers show them)."""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"


@dataclass(slots=True)
class FileRecord:
    """One fingerprinted file. ``fingerprint`` always holds the full 128 bits."""

    path: str
    size: int
    mtime_ns: int
    inode: int
    dev: int
    root: str
    encoding: str
    fingerprint: int
    features: int
    text_hash: str
    content_hash: str
    bad_bytes: int = 0
    newline: str = "none"
    low_confidence: bool = False
    chars: int = 0
    sketch: bytes = b""  # bottom-k sketch of the 5-gram set (textsim); b"" when unknown
    shingles: int = 0  # distinct character 5-grams of the normalised text
    catalog: str = ""  # the catalog it comes from (review/catalog.py): not a file here, and
    # ``path`` is then its catalog_key, never a path that can be opened or acted on

    @property
    def too_short(self) -> bool:
        """At most five characters after normalisation (one 5-gram): compared by exact text
        only."""
        return bool(self.sketch) and self.shingles <= 1

    def fp(self, bits: int) -> int:
        """The ``bits``-bit fingerprint: the low bits of the 128-bit one."""
        return self.fingerprint & ((1 << bits) - 1)

    def to_dict(self) -> dict:
        # every field is a str, int, bool or bytes: no deep copy (dataclasses.asdict's took
        # 5 of the 7 s of saving 100,000 records)
        d = {name: getattr(self, name) for name in _RECORD_FIELDS}
        if self.catalog:  # (only then: results files of present files stay as they were)
            d["catalog"] = self.catalog
        d["fingerprint"] = f"{self.fingerprint:032x}"
        d["sketch"] = self.sketch.hex()
        return d

    @classmethod
    def from_dict(cls, d: dict) -> FileRecord:
        d = dict(d)
        d["fingerprint"] = int(d["fingerprint"], 16)
        d["sketch"] = bytes.fromhex(d.get("sketch") or "")
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in d.items() if k in known})


_RECORD_FIELDS = tuple(f.name for f in fields(FileRecord) if f.name != "catalog")

# A catalogued record's path: "catalog:NAME:" and the path the catalog names. Never an
# absolute path, so it can never be a scanned file's (every scanned path is absolute), and
# two catalogs, or a catalog and the disk, never share a path (marks are kept by path).
CATALOG_SCHEME = "catalog:"


def catalog_key(name: str, path: str) -> str:
    """The path a record from catalog ``name`` (no ":" in it) has in a review."""
    return f"{CATALOG_SCHEME}{name}:{path}"


def split_catalog_key(path: str) -> tuple[str, str] | None:
    """(catalog name, the path it names) of a catalogued record's path; None for any
    other path."""
    if not path.startswith(CATALOG_SCHEME):
        return None
    name, sep, rest = path[len(CATALOG_SCHEME):].partition(":")
    return (name, rest) if sep and name else None


@dataclass(slots=True)
class Problem:
    """A file (or folder) that was not fingerprinted, with the reason."""

    path: str
    reason: str
    kind: str = "error"

    def to_dict(self) -> dict:
        return {"path": self.path, "reason": self.reason, "kind": self.kind}


@dataclass(slots=True)
class Member:
    index: int  # index into the record list
    distance: int  # Hamming distance to the representative at the group's size
    exact: bool  # same normalised text as the representative
    similarity: float | None = None  # text similarity (5-gram Jaccard) to the reference
    measured: bool = False  # similarity measured exactly from the texts, not estimated
    closest: int = -1  # record index of the member most similar to this one (-1: none known)
    closest_similarity: float | None = None  # its text similarity to this member
    template: int = 0  # > 0: most of the text shared with the reference is a template, found
    # in this many other documents of the collection (a sibling, maybe not a copy)
    copy_set: int = 0  # members joined by pairs that are not template pairs share a number
    # (the reference's set is 0): what a keep rule may treat as copies of each other


@dataclass(frozen=True, slots=True)
class Also:
    """A member of a group (record ``member``) is a near-duplicate, verified at or above the
    threshold, of record ``other``, a member of another group (group/also.py): information
    beside the groups ("also similar to ..."); the other's group is found when shown."""

    member: int
    other: int
    similarity: float


@dataclass(slots=True)
class Group:
    id: int
    representative: int  # index into the record list
    members: list[Member] = field(default_factory=list)
    also: list[Also] = field(default_factory=list)  # its members' near-duplicates elsewhere

    @property
    def exact(self) -> bool:
        return all(m.exact for m in self.members)

    @property
    def templates(self) -> int:
        """How many members share mostly template text with the reference."""
        return sum(1 for m in self.members if m.template)

    def indices(self) -> list[int]:
        return [m.index for m in self.members]


@dataclass(frozen=True, slots=True)
class Excerpt:
    """The text of record ``part`` is mostly inside the longer text of record ``whole``
    (group/excerpts.py): ``containment`` = |P & W| / |P| of their 5-gram sets. Information
    beside the groups; nothing marks or acts on it."""

    part: int
    whole: int
    containment: float


@dataclass(slots=True)
class ProgressEvent:
    phase: str  # "walk", "fingerprint", "group", "done"
    files_done: int = 0
    files_total: int = 0
    bytes_done: int = 0
    bytes_total: int = 0
    current: str = ""
