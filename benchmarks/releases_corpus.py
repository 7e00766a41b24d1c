"""Corpora of real text where every file's source document (its *origin*) is known.

    python3 benchmarks/releases_corpus.py releases /work/corpora/releases   # PyPI sdists
    python3 benchmarks/releases_corpus.py docs /work/corpora/docs           # /usr/share/doc + man
    python3 benchmarks/origin_eval.py /work/corpora/releases/heldout        # then score

Both write ``dev/`` and ``heldout/`` halves and a ``manifest.json`` whose ``files`` list gives
each file's ``path`` (relative to the corpus folder), ``origin``, ``half`` and what it came
from. Write them OUTSIDE the repository; they are never committed. ``origin_eval.py`` scores
simdup's groups against the origins (see its docstring for the rules).

``releases``: real released versions of 18 PyPI packages (6 with Chinese README / docs: jieba,
pypinyin, snownlp, opencc-python-reimplemented, xpinyin, cn2an; 12 English), 5-8 releases each
(a release without an sdist is skipped and named), fetched as source distributions with ``pip
download --no-deps --no-binary NAME NAME==VER`` (falling back to the sdist URL of PyPI's JSON
API when pip cannot prepare an old sdist's metadata; downloads are kept in ``OUT/.sdists`` and
reused). Unpacked, the text files are kept (README*, CHANGELOG* / CHANGES* / HISTORY* / NEWS*,
PKG-INFO, LICENSE* / COPYING* / AUTHORS*, and *.py, *.txt, *.rst, *.md, *.cfg, *.json), 1 byte
to 512 KB, no NUL byte, at least one letter or digit (egg-info's ``dependency_links.txt`` is a
lone newline: 900 "pairs" at J = 1 of nothing), as ``HALF/PACKAGE/VERSION/PATH``.

*Origin* is ``PACKAGE:PATH`` with PATH the path inside the sdist (its top folder dropped), so
the same file across versions has the same origin. Normalisations, for files that only changed
name: a leading ``src/`` is dropped (attrs, click, ... moved into ``src/``); the extension of
``.rst`` / ``.md`` / ``.txt`` / ``.markdown`` files is dropped (``README.rst`` -> ``README.md``
in a later release is one document); ``NAME.egg-info/FILE`` is ``egg-info/FILE`` (the folder's
name changed with the project's), and ``egg-info/PKG-INFO`` is ``PKG-INFO`` (setuptools writes
the same file twice; one release may ship only one of them). Any other rename or move
(``test_requests.py`` -> ``tests/test_requests.py``, ``HISTORY`` -> ``CHANGES``) makes a new
origin: such a pair is scored as two documents unless its text is the same (J >= 0.95). A
README and the PKG-INFO that embeds it are *different origins with (nearly) the same text*: the
scoring counts J >= 0.95 as a copy whatever the origin, so they are right to be grouped; at J
0.70-0.95 (a PKG-INFO header on a short README) they are two documents. So is a module vendored
by another package (idna inside requests).

Halves: packages are split by a hash of the name, balanced per language (each language's
packages ordered by the hash and dealt alternately, the first to ``heldout/``), so all the
releases of a package land in one half, and each half has both languages.

``docs``: this machine's ``/usr/share/doc`` and ``/usr/share/man`` (after ``devcorpus.py
--install-packages`` that includes manpages-zh, Chinese and English), each file decompressed
(``.gz``) and kept as its bytes (man pages as roff source): every file of ``/usr/share/doc``
that is text (no NUL; not html, images, pdf, css or js) and a sample of the man pages (by a
hash of the path: ``--man-rate`` 0.13, ``--zh-man-rate`` 0.4 for zh_CN / zh_TW), 200 bytes to
512 KB, exact duplicates (same bytes after decompression) and symbolic links dropped, at most
300 files of one split key (see below; google-cloud-cli alone has thousands of generated man
pages, whose template pairs would otherwise be most of the score). Each is an original under
``HALF/orig/PACKAGE/...``; a random ~20 % (hash of the path, ``--copy-rate``) also get a
planted light variant under ``HALF/copies/PACKAGE/...``: an exact copy, a re-wrap, 1-5 % of the
words edited (devcorpus's recipes), a header added (a forwarded-mail or archive header of a few
lines), a re-encoding (GBK, or GB18030 when GBK cannot hold it, for Chinese; UTF-16 for the
rest), or a re-wrap with 1-3 % edits. The *origin* of an original and of its variant is the
original's path (``/usr/share/man/man1/ls.1.gz``); two real files are two origins however alike
(two packages' copyright files, the man pages of one suite). PACKAGE is the Debian package
owning the file (from ``/var/lib/dpkg/info/*.list``; the folder under ``/usr/share/doc`` when
none). The split key is PACKAGE, and for a man page PACKAGE plus the project of its ``.TH``
line (manpages-zh holds every Chinese page, of many suites); keys go to the halves per language
(Chinese or not, by the majority of the key's files), largest first to the half with fewer
files, ties by a hash: every suite of man pages, every package's docs, and each planted variant
with its original, land in one half. The corpus depends on what is installed: compare manifests
before comparing figures.
"""

from __future__ import annotations

import argparse
import glob
import gzip
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from devcorpus import h01, th_project  # noqa: E402 - the same hash and man-page project

MAX_BYTES = 512 * 1024
MAX_PER_KEY = 300
SEED = 37

# (package, language, releases): versions spread over each project's history, every one
# with an sdist on PyPI
PACKAGES: list[tuple[str, str, list[str]]] = [
    ("jieba", "zh", ["0.42.1", "0.40", "0.39", "0.38", "0.37", "0.36.2"]),
    ("pypinyin", "zh", ["0.55.0", "0.51.0", "0.47.1", "0.44.0", "0.40.0", "0.35.0", "0.30.0",
                        "0.25.0"]),
    ("snownlp", "zh", ["0.12.3", "0.11.1", "0.10.1", "0.9.10", "0.9.8"]),
    ("opencc-python-reimplemented", "zh", ["0.1.7", "0.1.6", "0.1.5", "0.1.4", "0.1.3", "0.1.2"]),
    ("xpinyin", "zh", ["0.7.6", "0.7.0", "0.5.7", "0.5.5", "0.5.0", "0.4.9"]),
    ("cn2an", "zh", ["0.5.22", "0.5.19", "0.5.16", "0.5.10", "0.4.5", "0.3.6"]),
    ("requests", "en", ["2.31.0", "2.28.2", "2.26.0", "2.25.1", "2.22.0", "2.20.0", "2.18.4",
                        "2.12.5"]),
    ("click", "en", ["8.1.7", "8.1.3", "8.0.4", "7.1.2", "7.0", "6.7", "6.2"]),
    ("attrs", "en", ["23.2.0", "22.2.0", "22.1.0", "21.4.0", "20.3.0", "19.3.0", "18.2.0"]),
    ("six", "en", ["1.16.0", "1.15.0", "1.14.0", "1.12.0", "1.11.0", "1.10.0"]),
    ("chardet", "en", ["5.2.0", "5.1.0", "5.0.0", "4.0.0", "3.0.4"]),
    ("idna", "en", ["3.6", "3.4", "3.0", "2.10", "2.8", "2.6"]),
    ("certifi", "en", ["2024.2.2", "2023.7.22", "2022.12.7", "2021.10.8", "2020.6.20",
                       "2019.11.28"]),
    ("packaging", "en", ["24.0", "23.2", "22.0", "21.3", "21.0", "20.9", "19.2"]),
    ("pyparsing", "en", ["3.1.1", "3.0.9", "3.0.0", "2.4.7", "2.1.10"]),
    ("toml", "en", ["0.10.2", "0.10.1", "0.10.0", "0.9.6", "0.9.4"]),
    ("tomli", "en", ["2.0.1", "2.0.0", "1.2.3", "1.1.0", "1.0.4"]),
    ("itsdangerous", "en", ["2.1.2", "2.0.1", "2.0.0", "1.1.0", "0.24"]),
]

KEEP_NAMES = re.compile(r"^(readme|changelog|changes|history|news|pkg-info|license|licence|"
                        r"copying|authors)", re.I)
KEEP_EXT = {".py", ".txt", ".rst", ".md", ".cfg", ".json"}
DOC_EXT = {".rst", ".md", ".txt", ".markdown"}


def log(msg: str) -> None:
    print(msg, flush=True)


def _write(out: str, path: str, data: bytes, **entry) -> dict:
    """Write ``data`` at ``out/path`` (folders made); its manifest entry."""
    full = os.path.join(out, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as fh:
        fh.write(data)
    return dict(path=path, **entry, bytes=len(data))


def balanced_halves(keys_by_lang: dict[str, list[str]]) -> dict[str, str]:
    """Per language: keys ordered by their hash, dealt alternately (heldout first)."""
    out = {}
    for keys in keys_by_lang.values():
        for i, k in enumerate(sorted(keys, key=lambda k: h01(SEED, "half", k))):
            out[k] = "heldout" if i % 2 == 0 else "dev"
    return out


# --- releases ---------------------------------------------------------------------------------

def _sdist_in(folder: str) -> str | None:
    for f in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if f.endswith((".tar.gz", ".tgz", ".zip", ".tar.bz2")):
            return os.path.join(folder, f)
    return None


def download(name: str, ver: str, cache: str) -> str | None:
    """The sdist of NAME==VER in ``cache/NAME-VER/`` (pip download; PyPI's JSON API if pip
    cannot prepare the sdist's metadata)."""
    folder = os.path.join(cache, f"{name}-{ver}")
    if (got := _sdist_in(folder)) is not None:
        return got
    os.makedirs(folder, exist_ok=True)
    # --no-binary NAME, not :all: (which builds pip's own build dependencies, setuptools and
    # wheel, from source for every sdist: minutes each on a busy machine)
    r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary",
                        name, "-q", f"{name}=={ver}", "-d", folder],
                       capture_output=True, text=True, timeout=600)
    if (got := _sdist_in(folder)) is not None:
        return got
    try:  # pip could not build the metadata of an old sdist: take the file itself
        with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/{ver}/json", timeout=60) as fh:
            info = json.load(fh)
        for u in info.get("urls", []):
            if u.get("packagetype") == "sdist":
                dest = os.path.join(folder, u["filename"])
                urllib.request.urlretrieve(u["url"], dest + ".part")
                os.replace(dest + ".part", dest)
                return dest
    except Exception as e:  # noqa: BLE001
        log(f"  {name}=={ver}: no sdist ({e}); pip said: {r.stderr.strip()[-300:]}")
        return None
    log(f"  {name}=={ver}: no sdist on PyPI; pip said: {r.stderr.strip()[-300:]}")
    return None


def sdist_members(path: str):
    """(path inside the sdist without its top folder, bytes) of every regular file."""
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            for info in z.infolist():
                if not info.is_dir() and info.file_size <= MAX_BYTES:
                    yield info.filename.split("/", 1)[-1], z.read(info)
        return
    with tarfile.open(path) as t:
        for m in t:
            if m.isfile() and m.size <= MAX_BYTES:
                parts = m.name.lstrip("./").split("/", 1)
                if len(parts) == 2:
                    yield parts[1], t.extractfile(m).read()


def keep(rel: str, data: bytes) -> bool:
    base = rel.rsplit("/", 1)[-1]
    if not data or b"\0" in data[:8192] or ".." in rel.split("/"):
        return False
    if not re.search(rb"[A-Za-z0-9\x80-\xff]", data):  # "\n" (dependency_links.txt): no text
        return False
    return bool(KEEP_NAMES.match(base)) or os.path.splitext(base)[1].lower() in KEEP_EXT


def origin_path(rel: str) -> str:
    """The path of a file's origin: a leading src/, the name of an egg-info folder and the
    extension of doc files dropped; egg-info's PKG-INFO is the sdist's PKG-INFO."""
    if rel.startswith("src/"):
        rel = rel[4:]
    rel = re.sub(r"^[^/]*\.egg-info/", "egg-info/", rel)
    if rel == "egg-info/PKG-INFO":
        return "PKG-INFO"
    stem, ext = os.path.splitext(rel)
    return stem if ext.lower() in DOC_EXT else rel


def build_releases(out: str, jobs: int) -> dict:
    t0 = time.time()
    cache = os.path.join(out, ".sdists")
    os.makedirs(cache, exist_ok=True)
    for half in ("dev", "heldout"):
        shutil.rmtree(os.path.join(out, half), ignore_errors=True)
    halves = balanced_halves({lang: [n for n, lg, _ in PACKAGES if lg == lang]
                              for lang in ("zh", "en")})
    todo = [(n, v) for n, _, vs in PACKAGES for v in vs]
    log(f"downloading {len(todo)} sdists into {cache} ...")
    with ThreadPoolExecutor(jobs) as ex:
        sdists = dict(zip(todo, ex.map(lambda nv: download(*nv, cache), todo), strict=True))
    files, packages = [], []
    for name, lang, versions in PACKAGES:
        half = halves[name]
        got = []
        for ver in versions:
            sd = sdists[(name, ver)]
            if sd is None:
                continue
            got.append(ver)
            for rel, data in sdist_members(sd):
                if not keep(rel, data):
                    continue
                path = f"{half}/{name}/{ver}/{rel}"
                full = os.path.join(out, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "wb") as fh:
                    fh.write(data)
                files.append(dict(path=path, origin=f"{name}:{origin_path(rel)}", half=half,
                                  package=name, version=ver, lang=lang, bytes=len(data)))
        packages.append(dict(name=name, lang=lang, half=half, versions=got,
                             missing=[v for v in versions if v not in got]))
    manifest = dict(version=1, built_by="benchmarks/releases_corpus.py releases",
                    origin_rule="PACKAGE:path inside the sdist; leading src/ and the extension "
                                "of .rst/.md/.txt/.markdown dropped",
                    packages=packages, files=files)
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, ensure_ascii=False, indent=1)
    manifest["elapsed"] = time.time() - t0
    return manifest


# --- docs ----------------------------------------------------------------------------------

SKIP_EXT = {".html", ".htm", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".pdf", ".css", ".js",
            ".ico", ".bz2", ".xz", ".zip", ".woff", ".ttf", ".db", ".so", ".mo", ".gpg"}
HEADERS_EN = [
    "---------- Forwarded message ---------\nFrom: {who} <{who}@example.org>\nDate: {date}\n"
    "Subject: Fwd: {name}\nTo: team@example.org\n\n",
    "# Archived copy of {name}\n# saved {date} by {who}\n# do not edit: the original is in the "
    "package\n\n",
    "From the desk of {who}\n{date}\n\nAttached below is {name} as requested.\n"
    "Regards, {who}\n\n========================================\n\n",
]
HEADERS_ZH = [
    "---------- 转发的邮件 ----------\n发件人：{who}\n日期：{date}\n主题：转发：{name}\n\n",
    "【备份】{name}\n保存于 {date}，保存人：{who}\n原件在软件包中，请勿修改。\n\n",
]
WHO = ["alice", "bob", "chen", "li.wei", "maria", "ops", "zhang"]


def split_keys(decoded: list) -> dict[str, str]:
    """Half of each split key: per language (the majority of the key's files), keys dealt
    largest first to the half with fewer files, ties by a hash of the key."""
    size, zh = Counter(), Counter()
    for *_, key, is_zh in decoded:
        size[key] += 1
        zh[key] += is_zh
    out, count = {}, Counter()
    for lang in (True, False):
        keys = [k for k in size if (2 * zh[k] > size[k]) == lang]
        for k in sorted(keys, key=lambda k: (-size[k], h01(SEED, "half", k))):
            half = min(("heldout", "dev"), key=lambda h: (count[lang, h], h == "dev"))
            out[k] = half
            count[lang, half] += size[k]
    return out


def dpkg_owners() -> dict[str, str]:
    owner = {}
    for lst in glob.glob("/var/lib/dpkg/info/*.list"):
        pkg = os.path.basename(lst)[:-5].split(":")[0]
        try:
            with open(lst, encoding="utf-8", errors="surrogateescape") as fh:
                for ln in fh:
                    owner.setdefault(ln.rstrip("\n"), pkg)
        except OSError:
            pass
    return owner


def read_doc(path: str) -> bytes | None:
    try:
        if os.path.getsize(path) > 4 * MAX_BYTES:
            return None
        with open(path, "rb") as fh:
            data = fh.read()
        if path.endswith(".gz"):
            data = gzip.decompress(data)
    except (OSError, EOFError, gzip.BadGzipFile, ValueError):
        return None
    if not 200 <= len(data) <= MAX_BYTES or b"\0" in data:
        return None
    return data


def is_chinese(text: str) -> bool:
    cjk = len(re.findall("[\u4e00-\u9fff]", text[:20000]))
    return cjk > 0.1 * min(len(text), 20000)


def plant(text: str, zh: bool, rng: random.Random, name: str) -> tuple[bytes, str]:
    """A light variant of a text: (bytes, recipe)."""
    import devcorpus as dc  # its re-wrap and word edits (rjieba for Chinese)

    lang = "zh" if zh else "en"
    recipe = rng.choice(["copy", "rewrap", "edit", "edit", "header", "reencode", "rewrap+edit"])
    codec = "utf-8"
    if recipe == "rewrap":
        text = dc.rewrap(text, lang, rng)[0]
    elif recipe in ("edit", "rewrap+edit"):
        frac = rng.choice([0.01, 0.02, 0.03, 0.04, 0.05] if recipe == "edit"
                          else [0.01, 0.02, 0.03])
        text = dc.edit_words(text, lang, frac, rng)
        recipe = f"{recipe}-{round(frac * 100)}%"
        if recipe.startswith("rewrap"):
            text = dc.rewrap(text, lang, rng)[0]
    elif recipe == "header":
        tpl = rng.choice(HEADERS_ZH if zh else HEADERS_EN)
        date = f"20{rng.randint(10, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        text = tpl.format(who=rng.choice(WHO), date=date, name=name) + text
    elif recipe == "reencode":
        codec = "gbk" if zh else "utf-16"
        recipe = f"reencode-{codec}"
    try:
        data = text.encode(codec)
    except UnicodeEncodeError:
        codec = "gb18030" if zh else "utf-8"
        data = text.encode(codec)
        recipe += f"->{codec}"
    return data, recipe


def build_docs(out: str, man_rate: float, zh_man_rate: float, copy_rate: float) -> dict:
    from simdup_gui.core.scan.decode import decode_bytes

    t0 = time.time()
    for half in ("dev", "heldout"):
        shutil.rmtree(os.path.join(out, half), ignore_errors=True)
    owner = dpkg_owners()
    paths = []
    for top in ("/usr/share/doc", "/usr/share/man"):
        for dirpath, dirs, names in os.walk(top):
            dirs.sort()
            for n in sorted(names):
                p = os.path.join(dirpath, n)
                if os.path.islink(p) or not os.path.isfile(p):
                    continue
                ext = os.path.splitext(n[:-3] if n.endswith(".gz") else n)[1].lower()
                if ext in SKIP_EXT:
                    continue
                rate = zh_man_rate if "/man/zh_" in p else man_rate
                if top.endswith("man") and h01(SEED, "man", p) >= rate:
                    continue
                paths.append(p)
    log(f"{len(paths)} candidate files")
    seen: set[str] = set()
    items = []
    for p in paths:
        data = read_doc(p)
        if data is None:
            continue
        digest = hashlib.blake2b(data, digest_size=16).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        pkg = owner.get(p)
        if pkg is None:
            rel = os.path.relpath(p, "/usr/share")
            pkg = rel.split("/")[1] if rel.startswith("doc/") else "man-unowned"
        items.append((p, pkg, data))
    decoded = []
    for p, pkg, data in items:
        try:
            text = decode_bytes(data).text
        except Exception:  # noqa: BLE001 - not text after all
            continue
        key = pkg
        if p.startswith("/usr/share/man/"):  # a package holding many suites (manpages-zh)
            proj = th_project(text[:20000])
            key = f"{pkg}:{proj}" if proj else pkg
        decoded.append((p, pkg, data, text, key, is_chinese(text)))
    # at most MAX_PER_KEY files of one split key (by a hash of the path): google-cloud-cli
    # alone has thousands of generated man pages, which would be most of the pairs scored
    per_key: dict[str, list] = defaultdict(list)
    for it in decoded:
        per_key[it[4]].append(it)
    decoded = [it for key in sorted(per_key) for it in sorted(
        per_key[key], key=lambda it: h01(SEED, "cap", it[0]))[:MAX_PER_KEY]]
    halves = split_keys(decoded)
    files, recipes = [], Counter()
    for p, pkg, data, text, key, zh in decoded:
        half = halves[key]
        rel = os.path.relpath(p, "/usr/share")
        if rel.endswith(".gz"):
            rel = rel[:-3]
        path = f"{half}/orig/{pkg}/{rel}"
        files.append(_write(out, path, data, origin=p, half=half, package=pkg,
                            split_key=key, recipe="original", lang="zh" if zh else "other"))
        if h01(SEED, "copy", p) >= copy_rate:
            continue
        rng = random.Random(int(h01(SEED, "variant", p) * 2**53))
        vdata, recipe = plant(text, zh, rng, os.path.basename(rel))
        recipes[recipe.split("-")[0]] += 1
        stem, ext = os.path.splitext(rel)
        vpath = f"{half}/copies/{pkg}/{stem}{rng.choice([' (copy)', '.bak', '-old', ''])}{ext}"
        files.append(_write(out, vpath, vdata, origin=p, half=half, package=pkg,
                            split_key=key, recipe=recipe, lang="zh" if zh else "other"))
    manifest = dict(version=1, built_by="benchmarks/releases_corpus.py docs",
                    origin_rule="the original file's path on this machine (.gz: decompressed)",
                    man_rate=man_rate, zh_man_rate=zh_man_rate, copy_rate=copy_rate,
                    recipes=dict(recipes), files=files)
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, ensure_ascii=False, indent=1)
    manifest["elapsed"] = time.time() - t0
    return manifest


def summary(manifest: dict) -> None:
    by = defaultdict(lambda: [0, 0, set(), Counter()])
    for f in manifest["files"]:
        s = by[f["half"]]
        s[0] += 1
        s[1] += f["bytes"]
        s[2].add(f["origin"])
        s[3][f.get("lang", "?")] += 1
    for half in sorted(by):
        n, b, o, langs = by[half]
        log(f"  {half}: {n} files, {b / 1e6:.1f} MB, {len(o)} origins, "
            f"languages {dict(langs)}")
    for p in manifest.get("packages", []):
        log(f"  {p['half']:8} {p['lang']} {p['name']}: {', '.join(p['versions'])}"
            + (f" (missing {', '.join(p['missing'])})" if p["missing"] else ""))
    log(f"built in {manifest['elapsed']:.0f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 2)[2])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("releases", help="PyPI sdists of 18 packages x 5-8 releases")
    r.add_argument("out")
    r.add_argument("--jobs", type=int, default=3, help="downloads at once")
    d = sub.add_parser("docs", help="/usr/share/doc and man pages with planted copies")
    d.add_argument("out")
    d.add_argument("--man-rate", type=float, default=0.13, help="share of man pages taken")
    d.add_argument("--zh-man-rate", type=float, default=0.4,
                   help="share of Chinese man pages (zh_CN, zh_TW) taken")
    d.add_argument("--copy-rate", type=float, default=0.20, help="share of files given a copy")
    a = ap.parse_args(argv)
    out = os.path.abspath(a.out)
    if os.path.commonpath([out, os.path.dirname(HERE)]) == os.path.dirname(HERE):
        ap.error("write the corpus outside the repository")
    os.makedirs(out, exist_ok=True)
    if a.cmd == "releases":
        m = build_releases(out, a.jobs)
    else:
        sys.path.insert(0, os.path.dirname(HERE))
        m = build_docs(out, a.man_rate, a.zh_man_rate, a.copy_rate)
    log(f"{out}: {len(m['files'])} files")
    summary(m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
