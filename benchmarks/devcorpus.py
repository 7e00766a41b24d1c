"""Build a development corpus that looks like users' folders, from real Debian documentation.

    python benchmarks/devcorpus.py /tmp/devcorpus            # build from what is installed
    python benchmarks/devcorpus.py /tmp/devcorpus --install-packages   # apt-get missing ones
    python benchmarks/devcorpus.py /tmp/devcorpus --measure  # build, then J of each file
    python benchmarks/devcorpus.py /tmp/devcorpus --measure-only

Nobody on this project wrote the text: Chinese man pages (manpages-zh, zh_CN and zh_TW),
Chinese fortunes and poems (fortunes-zh), the Debian Reference in simplified and traditional
Chinese and English (debian-reference-*), English man pages of a few suites (coreutils,
util-linux, openssl, manpages, dpkg, apt), package copyright files and Debian changelogs,
/usr/share/common-licenses, English fortunes, and package descriptions from dpkg's status.
Only the boilerplate of the header/footer recipe and of the templated reports is ours.

Nothing is installed unless asked: without ``--install-packages`` the corpus is built from the
Debian packages already present, and the missing ones are named (with the apt-get command
that would add them). Such a corpus differs from the documented one (without manpages-zh,
fortunes-zh and debian-reference-zh-* it is mostly English): compare ``packages`` in the
manifests before comparing figures.

Each *source* document gets one original file and 0-6 *variants* made by a recipe (exact copy
under another name, re-encoding, line-ending change, re-wrap, 1-10 % word edits, header/footer
boilerplate, truncation, paragraph reordering, chains of edits, combinations). Sources that
are different documents sharing boilerplate (copyright files, changelog chunks of one package,
man pages of one project, reports of one template, licences) are *natural families*: not
duplicates. Nothing here labels duplicates: truth is measured (5-gram Jaccard, see
shared/near-duplicate.md, `simdup eval ROOT --reference jaccard:0.7`); ``--measure`` only
shows how the recipes land against 0.5 / 0.7.

Sources are split into ``dev/`` and ``heldout/`` by a hash of their split key (the source
package, the man pages' project, the template, the Debian Reference section), so every variant
of a source, and every family of one project, lands in one half. Every random choice is drawn
from a generator seeded by (seed, source id): a source added or missing on another machine
changes only its own files. ``manifest.json`` lists every file (path, source, half, recipe,
encoding, line endings, parent) and every source (origin, package version).
"""

from __future__ import annotations

import argparse
import codecs
import gzip
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import textwrap
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
VERSION = 1
DEFAULT_SEED = 20240615

# Debian packages and a file that shows each is installed.
PACKAGES = {
    "manpages-zh": "/usr/share/man/zh_CN/man1/ls.1.gz",
    "fortunes-zh": "/usr/share/games/fortunes/tang300",
    "debian-reference-zh-cn": "/usr/share/debian-reference/debian-reference.zh-cn.txt.gz",
    "debian-reference-zh-tw": "/usr/share/debian-reference/debian-reference.zh-tw.txt.gz",
    "debian-reference-en": "/usr/share/debian-reference/debian-reference.en.txt.gz",
    "fortunes": "/usr/share/games/fortunes/computers",
    "manpages": "/usr/share/man/man7/man-pages.7.gz",
    "openssl": "/usr/bin/openssl",
    "groff-base": "/usr/bin/groff",
}
EN_MAN_PACKAGES = ("coreutils", "util-linux", "openssl", "manpages", "dpkg", "apt")
MAN_CAP_PER_PROJECT = 36  # man pages taken from one project (one language)
MAX_SOURCE_CHARS = 60_000
MIN_SOURCE_CHARS = 500
MIN_MAN_CHARS = 1500  # shorter man pages are stubs; longer ones keep the median near 5 KB


def log(msg: str) -> None:
    print(msg, flush=True)


def h01(*parts: object) -> float:
    """A uniform number in [0, 1) from the parts: deterministic, independent of everything else."""
    d = hashlib.sha256("|".join(map(str, parts)).encode("utf-8")).digest()
    return int.from_bytes(d[:8], "big") / 2**64


def rng_for(seed: int, *parts: object) -> random.Random:
    return random.Random(int(h01(seed, *parts) * 2**53))


# --- installing the sources ----------------------------------------------------------------

def missing_packages() -> list[str]:
    """The source packages whose probe file is absent."""
    return [p for p, probe in PACKAGES.items() if not os.path.exists(probe)]


def ensure_packages(install: bool = False) -> list[str]:
    """Say which source packages are missing; with ``install``, apt-get them first (opt-in:
    ``--install-packages``). Returns the packages still missing; the build goes on with what
    is present, which makes a different corpus (the caller's manifest records the packages)."""
    missing = missing_packages()
    if not missing:
        return []
    hint = f"sudo apt-get install -y --no-install-recommends {' '.join(missing)}"
    if not install:
        log(f"missing Debian packages: {' '.join(missing)}; building from what is installed "
            f"(a different corpus: fewer sources, less Chinese). To add them: {hint}, "
            "or run again with --install-packages")
        return missing
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        sys.exit(f"missing Debian packages: {' '.join(missing)}; --install-packages needs root "
                 f"and apt-get: {hint}")
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log("installing: " + " ".join(missing))
    if subprocess.run(cmd, env=env).returncode != 0:
        log("apt-get install failed; running apt-get update and trying again")
        subprocess.run(["apt-get", "update", "-q"], env=env)
        if subprocess.run(cmd, env=env).returncode != 0:
            sys.exit("cannot install " + " ".join(missing) + " with apt-get: is a Debian "
                     "package archive reachable? (see the messages above)")
    still = missing_packages()
    if still:
        sys.exit(f"installed, but {', '.join(PACKAGES[p] for p in still)} is still missing: "
                 "documentation may be excluded by dpkg (path-exclude in /etc/dpkg/dpkg.cfg.d/)")
    return []


def dpkg_packages() -> dict[str, tuple[str, str]]:
    """Installed package -> (source package, version); empty where dpkg is missing."""
    if not shutil.which("dpkg-query"):
        log("dpkg-query not found (not a Debian system?): no copyright files, changelogs or "
            "package descriptions")
        return {}
    out = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package}\t${source:Package}\t${Version}\t${db:Status-Abbrev}\n"],
        capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 4 and parts[3].startswith("ii"):
            res[parts[0].split(":")[0]] = (parts[1] or parts[0], parts[2])
    return res


def dpkg_files(pkg: str) -> list[str]:
    if not shutil.which("dpkg"):
        return []
    r = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True)
    return sorted(r.stdout.splitlines()) if r.returncode == 0 else []


# --- sources ---------------------------------------------------------------------------------

@dataclass
class Source:
    id: str
    lang: str  # zh-Hans, zh-Hant, en
    kind: str  # man, debref, fortune, copyright, changelog, licence, report
    family: str  # natural family label ("" for none): shares boilerplate, not a duplicate
    split_key: str  # hashed to choose the half
    name: str  # file name of the original (without folder)
    folder: str  # folder of the original
    origin: str  # where the text came from
    text: str
    half: str = ""


def clean(text: str) -> str:
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    text = text.replace("\r\n", "\n").replace("\t", "    ")
    lines = [ln.rstrip() for ln in text.split("\n")]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")
    return text + "\n"


def read_text(path: str) -> str | None:
    try:
        raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
        return raw.decode("utf-8")
    except (OSError, UnicodeDecodeError, EOFError):
        return None


def safe_name(s: str) -> str:
    s = re.sub(r'[\\/:*?"<>|\x00-\x1f]+', " ", s).strip(" .")
    return re.sub(r"\s+", " ", s)[:80] or "untitled"


# man pages

def th_project(src: str) -> str:
    m = re.search(r"^\.TH\s+(.*)$", src, re.M)
    if not m:
        return ""
    try:
        args = shlex.split(m.group(1).replace("\\", ""))
    except ValueError:
        args = m.group(1).split()
    proj = args[3] if len(args) > 3 else ""
    proj = re.sub(r"[\d.]+", " ", proj.lower())
    return re.sub(r"\s+", " ", proj).strip(" -*&")


def render_man(path: str) -> str | None:
    raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
    env = dict(os.environ, GROFF_NO_SGR="1", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    try:
        r = subprocess.run(["groff", "-Tutf8", "-man", "-Kutf-8", "-P-c", "-rLL=78n", "-w", "none"],
                           input=raw, capture_output=True, env=env)
    except FileNotFoundError:  # groff-base missing: no man pages (ensure_packages said so)
        return None
    if r.returncode != 0:
        return None
    text = r.stdout.decode("utf-8", "replace")
    while "\b" in text:  # overstrike bold and underline: keep the last character
        new = re.sub(r".\x08", "", text)
        if new == text:
            break
        text = new
    # what `man` prints in an 8-bit locale: ASCII hyphens and minus signs
    return clean(text.replace("\u2010", "-").replace("\u2212", "-"))


def man_pages(lang_dir: str, lang: str, seed: int, rate: float) -> list[Source]:
    """Chinese man pages, up to MAN_CAP_PER_PROJECT per project (the .TH source field)."""
    by_project: dict[str, list[tuple[float, str, str]]] = defaultdict(list)
    seen = set()
    if not os.path.isdir(lang_dir):  # manpages-zh missing
        return []
    for sec in sorted(os.listdir(lang_dir)):
        d = os.path.join(lang_dir, sec)
        if not sec.startswith("man") or not os.path.isdir(d):
            continue
        for fn in sorted(os.listdir(d)):
            p = os.path.join(d, fn)
            real = os.path.realpath(p)
            if real in seen or os.path.islink(p):
                continue
            seen.add(real)
            src = read_text(p)
            if not src or src.lstrip().startswith(".so") or len(src) < 400:
                continue
            page = re.sub(r"\.gz$", "", fn)
            by_project[th_project(src)].append((h01(seed, "man", page), page, p))
    chosen = []
    for proj, items in sorted(by_project.items()):
        items.sort()
        cap = MAN_CAP_PER_PROJECT if proj else 10**6
        chosen += [(proj, page, p) for r, page, p in items[:cap] if r < rate or proj]
    return _render_pages(chosen, lang, "zh man", lambda proj, page: "zhman:" + (proj or page))


def en_man_pages(seed: int) -> list[Source]:
    chosen = []
    for pkg in EN_MAN_PACKAGES:
        items = []
        for p in dpkg_files(pkg):
            if not re.match(r"/usr/share/man/man\d/[^/]+\.gz$", p) or os.path.islink(p):
                continue
            src = read_text(p)
            if not src or src.lstrip().startswith(".so") or len(src) < 400:
                continue
            page = os.path.basename(p)[:-3]
            items.append((h01(seed, "enman", page), page, p))
        items.sort()
        chosen += [(pkg, page, p) for _, page, p in items[:MAN_CAP_PER_PROJECT]]
    return _render_pages(chosen, "en", "en man", lambda proj, page: "enman:" + proj)


def _render_pages(chosen, lang, family_prefix, split_key) -> list[Source]:
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        texts = list(ex.map(lambda c: render_man(c[2]), chosen))
    out = []
    for (proj, page, path), text in zip(chosen, texts):
        if not text or not MIN_MAN_CHARS <= len(text) <= MAX_SOURCE_CHARS:
            continue
        tag = {"zh-Hans": "zh_CN", "zh-Hant": "zh_TW"}.get(lang, "en")
        sec = page.rsplit(".", 1)[-1]
        sub = safe_name(proj) if proj else ""
        if lang == "en":
            folder = f"Documents/manuals/{sub}"
        elif lang == "zh-Hans":
            folder = f"文档/手册/{sub or '其他'}"
        else:
            folder = f"文件/手冊/{sub or '其他'}"
        out.append(Source(
            id=f"man/{tag}/{page}", lang=lang, kind="man",
            family=f"{family_prefix}: {proj}" if proj else "",
            split_key=split_key(proj, page), name=f"{page}.txt" if sec else page,
            folder=folder, origin=path, text=text))
    return out


# Debian Reference, split into chunks of sections; chunk boundaries from the English text so
# the three languages' chunks are translations of each other (same split key).

_SEC = re.compile(r"^((?:\d+|[A-Z])(?:\.\d+)*)\.[ \u00a0](\S.*)$")
_CHAP = re.compile(r"^(?:Chapter[ \u00a0](\d+)\.|第[ \u00a0](\d+)[ \u00a0]章|章[ \u00a0](\d+)\.|"
                   r"Appendix[ \u00a0]([A-Z])\.|附[录錄][ \u00a0]([A-Z])\.)[ \u00a0]?(.*)$")


def debref_sections(path: str) -> list[tuple[str, str, str]]:
    text = read_text(path) or ""
    lines = text.split("\n")
    start = next((i for i, ln in enumerate(lines) if _CHAP.match(ln)), len(lines))
    secs: list[tuple[str, str, list[str]]] = []
    for ln in lines[start:]:
        m, c = _SEC.match(ln), _CHAP.match(ln)
        if c:
            secs.append((next(g for g in c.groups()[:5] if g), c.group(6).strip(), [ln]))
        elif m:
            secs.append((m.group(1), m.group(2).strip(), [ln]))
        elif secs:
            secs[-1][2].append(ln)
    return [(num, title, clean("\n".join(body))) for num, title, body in secs]


def debref(seed: int) -> list[Source]:
    langs = {"en": "en", "zh-cn": "zh-Hans", "zh-tw": "zh-Hant"}
    parsed = {k: debref_sections(f"/usr/share/debian-reference/debian-reference.{k}.txt.gz")
              for k in langs}
    en = parsed["en"]
    chunks: list[list[str]] = []
    size, target = 0, 0
    for num, _, body in en:
        if not chunks or size >= target:
            chunks.append([])
            size = 0
            target = 1500 + int(h01(seed, "debref-size", num) * 8000)
        chunks[-1].append(num)
        size += len(body)
    out = []
    for k, lang in langs.items():
        secs = {num: (title, body) for num, title, body in parsed[k]}
        folder = {"en": "Documents/debian-reference", "zh-cn": "文档/Debian参考手册",
                  "zh-tw": "文件/Debian參考手冊"}[k]
        for ch in chunks:
            body = "\n".join(secs[n][1] for n in ch if n in secs)
            if len(body) < MIN_SOURCE_CHARS or ch[0] not in secs:
                continue
            title = secs[ch[0]][0]
            out.append(Source(
                id=f"debref/{k}/{ch[0]}", lang=lang, kind="debref",
                family="", split_key="debref:" + ch[0],
                name=safe_name(f"{ch[0]} {title}")[:60] + ".txt", folder=folder,
                origin=f"debian-reference-{k} section {ch[0]}", text=body[:MAX_SOURCE_CHARS]))
    return out


# fortunes, grouped into notes

def fortune_entries(path: str) -> list[str]:
    text = read_text(path) or ""
    return [clean(e) for e in re.split(r"\n%\n", text) if e.strip()]


def fortune_notes(seed: int, files: list[str], lang: str, rate: float,
                  skip_every: int = 0) -> list[Source]:
    out = []
    for path in files:
        entries = fortune_entries(path)
        if skip_every:  # those entries are kept for the reports' bodies
            entries = [e for i, e in enumerate(entries) if i % skip_every]
        base = os.path.basename(path)
        notes: list[list[str]] = []
        size, target = 0, 0
        for e in entries:
            if not notes or size >= target:
                notes.append([])
                size = 0
                target = 2000 + int(h01(seed, "note-size", base, len(notes)) * 8000)
            notes[-1].append(e)
            size += len(e.encode("utf-8"))
        for i, note in enumerate(notes):
            if h01(seed, "note", base, i) >= rate or sum(map(len, note)) < 300:
                continue
            folder = "笔记/摘抄" if lang != "en" else "notes/quotes"
            out.append(Source(
                id=f"fortune/{base}/{i:03d}", lang=lang, kind="fortune",
                family="", split_key=f"fortune:{base}:{i}",
                name=f"{base}-{i:03d}.txt", folder=folder,
                origin=f"{path} notes {i}", text="\n".join(note)))
    return out


# package copyright files, changelogs, licences

def copyrights(seed: int, pkgs: dict[str, tuple[str, str]], rate: float) -> list[Source]:
    out = []
    seen = set()
    for pkg in sorted(pkgs):
        p = f"/usr/share/doc/{pkg}/copyright"
        real = os.path.realpath(p)
        if real in seen or not os.path.isfile(p) or h01(seed, "copyright", pkg) >= rate:
            continue
        seen.add(real)
        text = read_text(p)
        if not text or not MIN_SOURCE_CHARS <= len(text) <= MAX_SOURCE_CHARS:
            continue
        src = pkgs[pkg][0]
        out.append(Source(
            id=f"copyright/{pkg}", lang="en", kind="copyright", family="copyright files",
            split_key="pkg:" + src, name=f"copyright-{pkg}.txt", folder="Documents/licenses/packages",
            origin=f"{p} ({pkg} {pkgs[pkg][1]})", text=clean(text)))
    return out


_ENTRY = re.compile(r"^\S+ \([^)]*\) [^;\n]*; *urgency=", re.M)


def changelogs(seed: int, pkgs: dict[str, tuple[str, str]], rate: float) -> list[Source]:
    out = []
    seen = set()
    for pkg in sorted(pkgs):
        p = f"/usr/share/doc/{pkg}/changelog.Debian.gz"
        src = pkgs[pkg][0]
        if src in seen or not os.path.isfile(p) or h01(seed, "changelog", src) >= rate:
            continue
        seen.add(src)
        text = read_text(p)
        if not text:
            continue
        starts = [m.start() for m in _ENTRY.finditer(text)] + [len(text)]
        entries = [text[a:b] for a, b in zip(starts, starts[1:])]
        chunks: list[list[str]] = []
        size, target = 0, 0
        for e in entries:
            if not chunks or size >= target:
                if len(chunks) == 4:
                    break
                chunks.append([])
                size = 0
                target = 1500 + int(h01(seed, "changelog-size", src, len(chunks)) * 8000)
            chunks[-1].append(e)
            size += len(e)
        for i, ch in enumerate(chunks):
            body = clean("".join(ch))
            if not MIN_SOURCE_CHARS <= len(body) <= MAX_SOURCE_CHARS:
                continue
            out.append(Source(
                id=f"changelog/{src}/{i}", lang="en", kind="changelog",
                family=f"changelog: {src}", split_key="pkg:" + src,
                name=f"changelog-{src}-part{i + 1}.txt", folder=f"projects/{src}",
                origin=f"{p} ({pkg} {pkgs[pkg][1]}) chunk {i}", text=body))
    return out


def licences() -> list[Source]:
    out = []
    seen = set()
    d = "/usr/share/common-licenses"
    for fn in sorted(os.listdir(d)):
        p = os.path.join(d, fn)
        real = os.path.realpath(p)
        if real in seen or not os.path.isfile(p):
            continue
        seen.add(real)
        text = read_text(p)
        if not text or len(text) < MIN_SOURCE_CHARS:
            continue
        fam = re.sub(r"[-\d.]+$", "", fn)
        out.append(Source(
            id=f"licence/{fn}", lang="en", kind="licence", family="licences",
            split_key="licence:" + fam, name=f"{fn}.txt", folder="Documents/licenses",
            origin=p, text=clean(text)[:MAX_SOURCE_CHARS]))
    return out


# templated reports: our template, real bodies (package descriptions; Chinese fortunes)

def dpkg_descriptions() -> list[dict[str, str]]:
    text = open("/var/lib/dpkg/status", encoding="utf-8", errors="replace").read()
    res = []
    for para in text.split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for ln in para.split("\n"):
            if ln.startswith((" ", "\t")) and key:
                fields[key] += "\n" + ln
            elif ":" in ln:
                key, _, val = ln.partition(":")
                fields[key] = val.strip()
        if "Description" in fields and "Package" in fields:
            synopsis, _, long = fields["Description"].partition("\n")
            long = "\n".join("" if ln.strip() == "." else ln.strip() for ln in long.split("\n"))
            if len(long) > 200:
                fields["synopsis"], fields["long"] = synopsis, long.strip()
                res.append(fields)
    res.sort(key=lambda f: f["Package"])
    return res


EN_TEMPLATES = {
    "software-evaluation": (
        "SOFTWARE EVALUATION REPORT\n"
        "Reference: {ref}    Date: {date}    Prepared by: {author}\n"
        "Distribution: IT operations; security review board; asset register\n\n"
        "1. Purpose\n"
        "This report records the evaluation of third-party software packages proposed for\n"
        "installation on managed workstations and servers. Each package below was reviewed\n"
        "for its function, maintenance status, licence and security history before approval.\n\n"
        "2. Scope\nPackages reviewed in this cycle: {pkglist}.\n\n"
        "3. Findings\n{body}\n"
        "4. Recommendation\n"
        "Unless noted otherwise above, the packages are approved for installation from the\n"
        "official distribution archive only. Locally built or third-party binaries remain\n"
        "prohibited. Owners must subscribe to the security announcement list and apply\n"
        "updates within the agreed service window.\n\n"
        "5. Sign-off\nReviewed by: {author2}\n"
        "Approved by: change advisory board, meeting of {date2}\n"
        "This document is controlled. Printed copies are for reference only.\n"),
    "change-request": (
        "CHANGE REQUEST {ref}\n"
        "Requested by: {author}          Submitted: {date}\n"
        "Change type: standard          Risk: low          Rollback plan: attached\n\n"
        "Summary of the change\n"
        "Install or upgrade the following packages on the hosts of the build farm: {pkglist}.\n\n"
        "Business justification\n"
        "The packages are needed by the teams listed in the request. Their descriptions, as\n"
        "published by the distribution, follow for the reviewers' convenience.\n\n"
        "{body}\n"
        "Implementation plan\n"
        "1. Announce the maintenance window to the affected teams at least two days ahead.\n"
        "2. Take a snapshot of each host before the change.\n"
        "3. Install the packages with the distribution's package manager, then run the smoke\n"
        "   tests of the build farm.\n"
        "4. Record the result in the change log and close the request.\n\n"
        "Approvals\nTechnical reviewer: {author2}\nChange manager: pending\n"),
    "release-digest": (
        "Internal newsletter -- What's new in our software catalogue\n"
        "Issue {n}, {date}, edited by {author}\n\n"
        "Every month this digest presents a few of the packages that were added to the\n"
        "approved software catalogue. Questions about a package go to the service desk;\n"
        "requests for new packages go through the usual change process.\n\n"
        "This month: {pkglist}\n\n"
        "{body}\n"
        "That's all for this issue. If you would like a package featured in the next\n"
        "digest, reply to this message with its name and a line about why you use it.\n"
        "You receive this newsletter because you are a member of the engineering mailing list.\n"
        "To unsubscribe, write to the list owner, {author2}.\n"),
}

ZH_TEMPLATES = {
    "读书笔记周报": (
        "读书笔记周报（第{n}期）\n"
        "整理人：{author}    日期：{date}    部门：{dept}\n\n"
        "一、本周概述\n"
        "本周读书会继续围绕“经典摘抄”主题开展活动。各位同事提交的摘抄内容经整理后汇总如下，\n"
        "供大家课余时间阅读参考。摘抄内容版权归原作者所有，仅限内部学习交流使用。\n\n"
        "二、摘抄内容\n{body}\n"
        "三、下周安排\n"
        "1. 请各位同事于下周三前提交新的摘抄内容，每人不少于两则。\n"
        "2. 读书会将于周五下午三点在三楼会议室举行，请准时参加。\n"
        "3. 如有问题，请联系{author2}。\n\n"
        "（本周报由行政部统一发送，请勿直接回复本邮件。）\n"),
    "学习分享会纪要": (
        "学习分享会会议纪要\n"
        "会议时间：{date} 下午两点至四点\n会议地点：二楼大会议室\n"
        "主持人：{author}    记录人：{author2}\n"
        "参会人员：研发部、测试部、产品部全体同事\n\n"
        "会议内容：\n"
        "本次分享会由各部门代表轮流分享近期阅读的好文章和好句子，大家踊跃发言，气氛热烈。\n"
        "现将分享内容记录如下：\n\n{body}\n"
        "会议决定：\n"
        "一、分享会每两周举行一次，由各部门轮流主持。\n"
        "二、分享内容统一整理后存入公司知识库，方便大家查阅。\n"
        "三、下次分享会由{dept}负责组织。\n\n"
        "特此纪要。\n"),
    "每日一读推送稿": (
        "【每日一读】第{n}期 推送稿\n"
        "编辑：{author}  审核：{author2}  计划推送时间：{date} 早上八点\n\n"
        "导语：忙碌的工作之余，读几段文字，让心情放松一下。今天为大家精选了以下内容，\n"
        "欢迎在评论区留言分享你的感想。\n\n{body}\n"
        "——\n"
        "以上内容来源于网络公开资料，如有侵权请联系删除。\n"
        "喜欢的话请点赞、转发，让更多的朋友看到。每天早上八点，我们不见不散！\n"),
}

NAMES_EN = ["Alice Moreau", "Brian O'Neill", "Carla Jensen", "David Kim", "Elena Petrova",
            "Farid Haddad", "Grace Liu", "Hugo Martins", "Irene Novak", "James Whitfield"]
NAMES_ZH = ["王建国", "李晓梅", "张伟", "刘洋", "陈静", "杨帆", "赵磊", "黄丽娟", "周杰", "吴敏"]
DEPTS_ZH = ["研发部", "测试部", "产品部", "行政部", "市场部"]


def fake_date(rng: random.Random, zh: bool = False) -> str:
    y, m, d = rng.randint(2015, 2024), rng.randint(1, 12), rng.randint(1, 28)
    return f"{y}年{m}月{d}日" if zh else f"{y}-{m:02d}-{d:02d}"


def reports(seed: int, descriptions: list[dict[str, str]], zh_bodies: list[str],
            per_template: int = 22) -> list[Source]:
    out = []
    for tname, tpl in EN_TEMPLATES.items():
        for i in range(per_template):
            rng = rng_for(seed, "report", tname, i)
            picks = rng.sample(descriptions, rng.randint(2, 4)) if len(descriptions) >= 6 else []
            if not picks:
                break
            date = fake_date(rng)
            body = "".join(
                f"{f['Package']} {f.get('Version', '')} ({f.get('Section', 'misc')}, maintained by "
                f"{f.get('Maintainer', 'unknown')})\n{f['synopsis']}\n{f['long']}\n"
                f"Installed size: {f.get('Installed-Size', '?')} KB\n\n" for f in picks)
            text = tpl.format(ref=f"R-{rng.randint(1000, 9999)}", date=date,
                              date2=fake_date(rng), author=rng.choice(NAMES_EN),
                              author2=rng.choice(NAMES_EN), n=rng.randint(2, 60), body=body,
                              pkglist=", ".join(f["Package"] for f in picks))
            out.append(Source(
                id=f"report/{tname}/{i:02d}", lang="en", kind="report",
                family=f"report: {tname}", split_key="report:" + tname,
                name=f"{tname}-{date}.txt", folder=f"work/reports/{tname}",
                origin="template + /var/lib/dpkg/status: " + ",".join(f["Package"] for f in picks),
                text=clean(text)))
    for tname, tpl in ZH_TEMPLATES.items():
        for i in range(per_template):
            rng = rng_for(seed, "report", tname, i)
            if len(zh_bodies) < 10:
                break
            picks = rng.sample(zh_bodies, rng.randint(4, 8))
            date = fake_date(rng, True)
            body = "\n".join(f"{k + 1}. {e}" for k, e in enumerate(picks))
            text = tpl.format(date=date, author=rng.choice(NAMES_ZH),
                              author2=rng.choice(NAMES_ZH), n=rng.randint(2, 120), body=body,
                              dept=rng.choice(DEPTS_ZH))
            out.append(Source(
                id=f"report/{tname}/{i:02d}", lang="zh-Hans", kind="report",
                family=f"report: {tname}", split_key="report:" + tname,
                name=f"{tname}-{date}.txt", folder=f"工作/报告/{tname}",
                origin="template + fortunes-zh entries", text=clean(text)))
    return out


# --- recipes ----------------------------------------------------------------------------------

_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f"
_CJK_RE = re.compile(f"[{_CJK}]")


def is_zh(lang: str) -> bool:
    return lang.startswith("zh")


def paragraphs(text: str) -> list[str]:
    return [p for p in re.split(r"\n[ \t\u00a0\u3000]*\n", text.strip("\n")) if p.strip()]


def join_lines(par: str, zh: bool) -> str:
    out = ""
    for ln in (x.strip() for x in par.split("\n")):
        if not ln:
            continue
        if out and not (zh and (_CJK_RE.match(out[-1]) or _CJK_RE.match(ln[0]))):
            out += " "
        out += ln
    return out


def wrap_cjk(s: str, width: int) -> list[str]:
    """Break between CJK characters or at spaces, by display width (CJK counts 2)."""
    tokens = re.findall(f"[{_CJK}]|[^\\s{_CJK}]+|\\s+", s)
    lines, cur, w = [], "", 0
    for t in tokens:
        tw = sum(2 if _CJK_RE.match(c) else 1 for c in t)
        if w + tw > width and cur:
            lines.append(cur.rstrip())
            cur, w = "", 0
            if t.isspace():
                continue
        cur += t
        w += tw
    if cur.strip():
        lines.append(cur.rstrip())
    return lines


def rewrap(text: str, lang: str, rng: random.Random) -> tuple[str, str]:
    zh = is_zh(lang)
    mode = rng.choice(["anywhere", "anywhere", "cjk"] if zh else ["width", "width", "width", "unwrap"])
    width = rng.choice([18, 22, 25, 30, 36, 40]) if mode == "anywhere" else rng.choice(
        [50, 60, 66, 72, 76, 90, 100, 120])
    out = []
    for par in paragraphs(text):
        s = join_lines(par, zh)
        if mode == "unwrap":
            out.append(s)
        elif mode == "anywhere":  # Chinese: every N characters, inside words and ASCII words
            out.append("\n".join(s[i:i + width] for i in range(0, len(s), width)))
        elif mode == "cjk":
            out.append("\n".join(wrap_cjk(s, width)))
        else:
            out.append(textwrap.fill(s, width=width, break_long_words=False))
    label = "rewrap-unwrap" if mode == "unwrap" else f"rewrap-{width}{'c' if zh else ''}"
    return "\n\n".join(out) + "\n", label


_segmenter = None


def segment(text: str) -> list[str]:
    global _segmenter
    if _segmenter is None:
        try:
            import rjieba
            _segmenter = ("rjieba", rjieba.cut)
        except ImportError:
            try:
                import jieba
                jieba.setLogLevel(60)
                _segmenter = ("jieba", lambda t: jieba.lcut(t, HMM=False))
            except ImportError:  # two-character chunks
                _segmenter = ("chunks", lambda t: re.findall(f"[{_CJK}]{{1,2}}|\\w+|\\s+|.", t))
    return _segmenter[1](text)


_WORD = re.compile(f"[\\w{_CJK}]")


def edit_words(text: str, lang: str, frac: float, rng: random.Random) -> str:
    """Edit frac of the words, scattered: substitute, delete, insert (a word of the document)
    or swap with the next word."""
    zh = is_zh(lang)
    tokens = segment(text) if zh else re.findall(r"\w+|\s+|[^\w\s]", text)
    words = [i for i, t in enumerate(tokens) if _WORD.match(t) and not t.isspace()]
    if not words:
        return text
    vocab = sorted({tokens[i] for i in words})
    n = max(1, round(frac * len(words)))
    for i in rng.sample(words, min(n, len(words))):
        op = rng.random()
        other = rng.choice(vocab)
        if op < 0.5:
            tokens[i] = other if other != tokens[i] else other + other[-1]
        elif op < 0.7:
            tokens[i] = ""
            if not zh and i + 1 < len(tokens) and tokens[i + 1] == " ":
                tokens[i + 1] = ""
        elif op < 0.9:
            tokens[i] = tokens[i] + ("" if zh else " ") + other
        else:
            j = next((k for k in words if k > i), None)
            if j is not None:
                tokens[i], tokens[j] = tokens[j], tokens[i]
    return "".join(tokens)


BOILER_EN_HEAD = [
    "---------- Forwarded message ---------\nFrom: {name} <{email}>\nDate: {date}\n"
    "Subject: Fwd: {title}\nTo: {name2} <{email2}>\n\n",
    "Printed from {host}:{path} on {date} by {user}\n\n",
    "Notes - {title}\nSaved: {date}\nTags: reference, to-read, {user}\nSource: https://{host}/{path}\n\n",
    "CONFIDENTIAL - for internal use only. Do not distribute outside the company.\n"
    "Document ID: {ref} - Revision {n} - Owner: {name}\n\n",
]
BOILER_EN_FOOT = [
    "\n--\n{name}\nSenior Systems Engineer, Infrastructure Group\nPhone +1 555 01{n:02d} {n2:04d}\n\n"
    "This e-mail and any attachments are confidential and may be privileged. If you are not the\n"
    "intended recipient, please notify the sender immediately and delete this message. Any\n"
    "unauthorised use, disclosure or copying of it is prohibited.\n",
    "\nDownloaded from https://{host}/{path} on {date}. Page 1 of 1.\n",
    "\n[End of document {ref}. Checked by {name2}; next review due {date2}.]\n",
]
BOILER_ZH_HEAD = [
    "转发：{title}\n发件人：{zname} <{email}>\n发送时间：{zdate}\n收件人：{zname2}\n主题：{title}\n\n",
    "【内部资料 注意保密】\n文档编号：{ref}  版本：V{n}.{n3}\n整理：{zname}  日期：{zdate}\n\n",
    "来源：https://{host}/{path}\n收藏于 {zdate}\n标签：学习资料、待整理\n\n",
]
BOILER_ZH_FOOT = [
    "\n——\n本文仅供个人学习交流使用，版权归原作者所有。如需转载，请注明出处并保留本声明；如有侵权，请联系删除。\n",
    "\n{zname}\n{dept} 电话：010-{n2:04d}{n:04d}  邮箱：{email}\n本邮件及其附件含有保密信息，仅限于发送给上面地址中列出的"
    "个人或群组。禁止任何其他人以任何形式使用（包括但不限于全部或部分地泄露、复制或散发）本邮件中的信息。"
    "如果您错收了本邮件，请您立即电话或邮件通知发件人并删除本邮件！\n",
    "\n（完）\n整理者注：以上内容摘自网络与公开文档，整理时略有删改，错漏之处在所难免，欢迎指正。\n",
]
BOILER_ZHT_HEAD = [
    "轉寄：{title}\n寄件者：{zname} <{email}>\n寄件日期：{zdate}\n收件者：{zname2}\n主旨：{title}\n\n",
    "【內部資料 請勿外流】\n文件編號：{ref}  版本：V{n}.{n3}\n整理：{zname}  日期：{zdate}\n\n",
]
BOILER_ZHT_FOOT = [
    "\n——\n本文僅供個人學習交流使用，版權歸原作者所有。如需轉載，請註明出處並保留本聲明；如有侵權，請聯繫刪除。\n",
    "\n{zname}\n電話：02-{n2:04d}{n:04d}  電子郵件：{email}\n本郵件及其附件含有機密資訊，僅限於寄給上面地址中列出的"
    "個人或群組。禁止任何其他人以任何形式使用本郵件中的資訊。如果您誤收了本郵件，請立即通知寄件者並刪除本郵件！\n",
    "\n（完）\n整理者註：以上內容摘自網路與公開文件，整理時略有刪改，錯漏之處在所難免，歡迎指正。\n",
]
_LICENCE_PARAS: list[str] = []


def licence_paragraphs() -> list[str]:
    if not _LICENCE_PARAS:
        for fn in ("GPL-3", "Apache-2.0", "MPL-2.0"):
            text = read_text(os.path.join("/usr/share/common-licenses", fn)) or ""
            _LICENCE_PARAS.extend(p for p in paragraphs(text) if 300 < len(p) < 1500)
    return _LICENCE_PARAS


def boilerplate(text: str, src: Source, rng: random.Random) -> tuple[str, str]:
    """A header and/or a footer of about 5-15 % of the text."""
    share = rng.uniform(0.05, 0.15)
    fields = dict(
        name=rng.choice(NAMES_EN), name2=rng.choice(NAMES_EN), zname=rng.choice(NAMES_ZH),
        zname2=rng.choice(NAMES_ZH), email=f"user{rng.randint(1, 999)}@example.com",
        email2=f"team{rng.randint(1, 99)}@example.org", date=fake_date(rng), date2=fake_date(rng),
        zdate=fake_date(rng, True), title=os.path.splitext(src.name)[0], host="intranet.example.com",
        path=f"docs/{rng.randint(100, 999)}", user=f"u{rng.randint(1000, 9999)}",
        ref=f"DOC-{rng.randint(10000, 99999)}", n=rng.randint(1, 9), n2=rng.randint(0, 9999),
        n3=rng.randint(0, 9), dept=rng.choice(DEPTS_ZH))
    heads, foots = {
        "en": (BOILER_EN_HEAD, BOILER_EN_FOOT), "zh-Hans": (BOILER_ZH_HEAD, BOILER_ZH_FOOT),
        "zh-Hant": (BOILER_ZHT_HEAD, BOILER_ZHT_FOOT)}[src.lang]
    where = rng.choice(["head", "foot", "both", "both"])
    head = rng.choice(heads).format(**fields) if where in ("head", "both") else ""
    foot = rng.choice(foots).format(**fields) if where in ("foot", "both") else ""
    target = share * len(text)
    extra = [f.format(**fields) for f in foots if f.format(**fields) != foot]
    rng.shuffle(extra)
    if src.lang == "en":
        paras = licence_paragraphs()
        extra += ["\n" + p + "\n" for p in rng.sample(paras, min(6, len(paras)))]
    while len(head) + len(foot) < target and extra:
        foot += extra.pop(0)
    return head + text + foot, f"header-footer-{where}"


def truncate(text: str, rng: random.Random) -> tuple[str, str]:
    keep = rng.uniform(0.5, 0.97)
    tail = rng.random() < 0.25
    if tail:
        cut = text.find("\n", int(len(text) * (1 - keep)))
        out = text[cut + 1:] if cut >= 0 else text
    else:
        cut = text.rfind("\n", 0, int(len(text) * keep))
        out = text[:cut + 1] if cut > 0 else text
    return out, f"truncate-{'tail' if tail else 'head'}-{round(100 * len(out) / len(text))}%"


def reorder(text: str, rng: random.Random) -> tuple[str, str]:
    pars = paragraphs(text)
    if len(pars) < 3:
        lines = text.split("\n")
        k = max(1, len(lines) // rng.randint(3, 5))
        pars = ["\n".join(lines[i:i + k]) for i in range(0, len(lines), k)]
    moved = rng.randint(1, min(3, len(pars) - 1)) if len(pars) > 1 else 0
    for _ in range(moved):
        p = pars.pop(rng.randrange(len(pars)))
        pars.insert(rng.randrange(len(pars) + 1), p)
    return "\n\n".join(pars) + "\n", f"reorder-{moved}"


# --- encodings and line endings ------------------------------------------------------------

# label -> (codec, BOM)
ENCODINGS = {
    "utf-8": ("utf-8", b""), "utf-8-sig": ("utf-8", codecs.BOM_UTF8),
    "utf-16-le-bom": ("utf-16-le", codecs.BOM_UTF16_LE), "gbk": ("gbk", b""),
    "gb18030": ("gb18030", b""), "big5": ("big5", b""), "cp950": ("cp950", b""),
    "cp1252": ("cp1252", b""),
}
ENCODING_MIX = {
    "zh-Hans": [("utf-8", 50), ("gbk", 15), ("gb18030", 12), ("utf-8-sig", 10), ("utf-16-le-bom", 13)],
    "zh-Hant": [("utf-8", 45), ("big5", 30), ("utf-8-sig", 10), ("utf-16-le-bom", 15)],
    "en": [("utf-8", 55), ("cp1252", 25), ("utf-8-sig", 8), ("utf-16-le-bom", 12)],
}
FALLBACK = {"gbk": "gb18030", "big5": "cp950", "cp950": "utf-8", "cp1252": "utf-8"}


def pick_encoding(lang: str, rng: random.Random, avoid: str = "") -> str:
    choices = [(e, w) for e, w in ENCODING_MIX[lang] if e != avoid]
    return rng.choices([e for e, _ in choices], [w for _, w in choices])[0]


def encode(text: str, label: str, eol: str, rng: random.Random) -> tuple[bytes, str]:
    """Bytes of the text; the label actually used (an encoding that cannot hold the text falls
    back: gbk -> gb18030, big5 -> cp950 -> utf-8, cp1252 -> utf-8; pure ASCII is 'ascii')."""
    if eol == "crlf":
        text = text.replace("\n", "\r\n")
    elif eol == "mixed":  # runs of CRLF and LF lines, as after editing on two systems
        out, crlf = [], rng.random() < 0.5
        for ln in text.split("\n"):
            out.append(ln + ("\r\n" if crlf else "\n"))
            if rng.random() < 0.15:
                crlf = not crlf
        text = "".join(out)[:-2 if out and out[-1].endswith("\r\n") else -1]
    while True:
        codec, bom = ENCODINGS[label]
        try:
            data = bom + text.encode(codec)
            break
        except UnicodeEncodeError:
            label = FALLBACK.get(label, "utf-8")
    if not bom and codec != "utf-16-le" and data.isascii():
        label = "ascii"
    return data, label


def decode(data: bytes, label: str) -> str:
    if label == "utf-16-le-bom":
        return data[2:].decode("utf-16-le")
    if label == "utf-8-sig":
        return data.decode("utf-8-sig")
    return data.decode("utf-8" if label == "ascii" else ENCODINGS[label][0])


# --- building ------------------------------------------------------------------------------

VARIANT_FOLDERS_EN = ["backup", "Downloads", "Desktop", "old", "USB-stick/docs", "archive/2019",
                      "Dropbox/shared", "mail-attachments"]
VARIANT_FOLDERS_ZH = ["备份", "下载", "桌面", "旧文件", "U盘/资料", "微信文件", "归档/2020"]
NAME_PATTERNS_EN = ["{s} (1){e}", "{s} - Copy{e}", "Copy of {s}{e}", "{s}_v2{e}", "{s}.bak{e}",
                    "{s}-final{e}", "{s}-edited{e}", "{s}{e}", "{s}{e}", "{s} (2){e}"]
NAME_PATTERNS_ZH = ["{s} - 副本{e}", "{s}(1){e}", "{s}_修改版{e}", "{s}_最终版{e}", "{s}{e}",
                    "{s}{e}", "{s}（备份）{e}", "{s}_v2{e}"]

# (recipe, weight): each variant draws one
RECIPES = [("copy", 17), ("reencode", 13), ("eol", 7), ("rewrap", 10), ("edit", 22),
           ("header-footer", 10), ("truncate", 8), ("reorder", 6), ("combo", 7)]
EDIT_FRACS = [0.01, 0.02, 0.03, 0.05, 0.05, 0.07, 0.10]


@dataclass
class FileOut:
    path: str
    source: str
    half: str
    recipe: str
    encoding: str
    eol: str
    parent: str
    data: bytes = field(repr=False)
    text: str = field(repr=False)


def make_files(src: Source, seed: int) -> list[FileOut]:
    rng = rng_for(seed, "source", src.id)
    zh = is_zh(src.lang)
    files: list[FileOut] = []
    eol = rng.choices(["lf", "crlf", "mixed"], [75, 20, 5])[0]
    enc = pick_encoding(src.lang, rng)
    stem, ext = os.path.splitext(src.name)
    orig_path = f"{src.folder}/{src.name}"

    def add(text: str, recipe: str, label: str, eol_: str, parent: str, path: str,
            data: bytes | None = None) -> FileOut:
        if data is None:
            data, label = encode(text, label, eol_, rng)
        f = FileOut(path, src.id, src.half, recipe, label, eol_, parent, data, text)
        files.append(f)
        return f

    orig = add(src.text, "original", enc, eol, "", orig_path)
    n_var = rng.choices([0, 1, 2, 3, 4, 5, 6], [42, 28, 15, 7, 4, 2, 2])[0]
    chain = n_var >= 2 and rng.random() < 0.12
    for k in range(n_var):
        folder = rng.choice(VARIANT_FOLDERS_ZH if zh else VARIANT_FOLDERS_EN)
        if rng.random() < 0.5:
            folder = f"{folder}/{os.path.basename(src.folder)}"
        name = rng.choice(NAME_PATTERNS_ZH if zh else NAME_PATTERNS_EN).format(s=stem, e=ext)
        path = f"{folder}/{name}"
        if chain:  # successive edits, each of the previous one: a chain that drifts away
            base = files[-1]
            frac = rng.choice([0.05, 0.07, 0.10])
            text = edit_words(base.text, src.lang, frac, rng)
            add(text, f"edit-chain{k + 1}-{round(frac * 100)}%", base.encoding.replace("ascii", enc),
                base.eol, base.path, path)
            continue
        # most variants derive from the original, some from an earlier variant
        base = orig if len(files) == 1 or rng.random() < 0.8 else rng.choice(files[1:])
        recipe = rng.choices([r for r, _ in RECIPES], [w for _, w in RECIPES])[0]
        label = base.encoding if base.encoding != "ascii" else enc
        if recipe == "copy":
            add(base.text, "copy", base.encoding, base.eol, base.path, path, data=base.data)
            continue
        if recipe == "reencode":
            new = pick_encoding(src.lang, rng, avoid=label)
            add(base.text, f"reencode-{new}", new, rng.choice([base.eol, base.eol, "lf", "crlf"]),
                base.path, path)
            continue
        if recipe == "eol":
            add(base.text, "eol", label, "lf" if base.eol != "lf" else "crlf", base.path, path)
            continue
        steps = [recipe] if recipe != "combo" else rng.sample(
            ["edit", "rewrap", "header-footer", "truncate", "reorder"], 2) + ["reencode"]
        text, names = base.text, []
        out_label, out_eol = label, base.eol
        for step in steps:
            if step == "edit":
                frac = rng.choice(EDIT_FRACS)
                text = edit_words(text, src.lang, frac, rng)
                names.append(f"edit-{round(frac * 100)}%")
            elif step == "rewrap":
                text, nm = rewrap(text, src.lang, rng)
                names.append(nm)
            elif step == "header-footer":
                text, nm = boilerplate(text, src, rng)
                names.append(nm)
            elif step == "truncate":
                text, nm = truncate(text, rng)
                names.append(nm)
            elif step == "reorder":
                text, nm = reorder(text, rng)
                names.append(nm)
            elif step == "reencode":
                out_label = pick_encoding(src.lang, rng, avoid=label)
                out_eol = rng.choice(["lf", "crlf"])
                names.append(f"reencode-{out_label}")
        if rng.random() < 0.3 and recipe != "combo":  # saved again with the editor's defaults
            out_label = pick_encoding(src.lang, rng)
        add(text, "+".join(names), out_label, out_eol, base.path, path)
    return files


BALANCED_KINDS = ("man", "report")


def assign_halves(sources: list[Source], seed: int) -> None:
    """dev or heldout by split key, so all variants of a source and every family of one
    project or template land in one half. Most keys are hashed. Man pages (per project) and
    reports (per template) come in a few big blocks that a hash alone would leave lopsided: per
    kind and language, the blocks go largest first to the half with fewer sources so far (ties
    by the hash)."""
    hashed = {k: h01(seed, "half", k) for k in {s.split_key for s in sources}}
    half_of = {k: "dev" if v < 0.5 else "heldout" for k, v in hashed.items()}
    strata: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for s in sources:
        if s.kind in BALANCED_KINDS:
            strata[(s.kind, s.lang[:2])][s.split_key] += 1
    for _, sizes in sorted(strata.items()):
        load = {"dev": 0, "heldout": 0}
        for key in sorted(sizes, key=lambda k: (-sizes[k], hashed[k])):
            if load["dev"] != load["heldout"]:
                half = min(load, key=load.get)
            else:
                half = half_of[key]
            half_of[key] = half
            load[half] += sizes[key]
    for s in sources:
        s.half = half_of[s.split_key]


def collect(seed: int) -> tuple[list[Source], dict]:
    t0 = time.time()
    pkgs = dpkg_packages()
    sources: list[Source] = []
    sources += man_pages("/usr/share/man/zh_CN", "zh-Hans", seed, rate=0.55)
    sources += man_pages("/usr/share/man/zh_TW", "zh-Hant", seed, rate=0.45)
    log(f"  Chinese man pages: {len(sources)} ({time.time() - t0:.0f} s)")
    n = len(sources)
    sources += en_man_pages(seed)
    log(f"  English man pages: {len(sources) - n} ({time.time() - t0:.0f} s)")
    sources += debref(seed)
    fz = "/usr/share/games/fortunes"
    sources += fortune_notes(seed, [f"{fz}/chinese", f"{fz}/tang300", f"{fz}/song100"],
                             "zh-Hans", rate=0.85, skip_every=5)
    en_fortunes = sorted(
        p for p in dpkg_files("fortunes") + dpkg_files("fortunes-min")
        if p.startswith(fz + "/") and "." not in os.path.basename(p) and os.path.isfile(p)
        and not os.path.islink(p) and "/off/" not in p)
    sources += fortune_notes(seed, en_fortunes, "en", rate=0.2)
    sources += copyrights(seed, pkgs, rate=0.42)
    sources += changelogs(seed, pkgs, rate=0.15)
    sources += licences()
    zh_bodies = [e for i, e in enumerate(fortune_entries(f"{fz}/chinese")) if i % 5 == 0
                 and 40 < len(e) < 600]
    sources += reports(seed, dpkg_descriptions(), zh_bodies)
    # one source per distinct text (copyright files of one source package are often equal)
    seen: set[str] = set()
    unique = []
    for s in sorted(sources, key=lambda s: s.id):
        key = hashlib.sha256(re.sub(r"\s+", "", s.text).encode()).hexdigest()
        if key not in seen:
            seen.add(key)
            unique.append(s)
    assign_halves(unique, seed)
    used_pkgs = {"manpages-zh", "fortunes-zh", "debian-reference-zh-cn", "debian-reference-zh-tw",
                 "debian-reference-en", "fortunes", "fortunes-min", *EN_MAN_PACKAGES}
    for s in unique:
        m = re.match(r"(copyright|changelog)/([^/]+)", s.id)
        if m:
            used_pkgs.add(m.group(2))
    inventory = {p: pkgs[p][1] for p in sorted(used_pkgs) if p in pkgs}
    log(f"  {len(unique)} sources ({len(sources) - len(unique)} duplicate texts dropped) "
        f"in {time.time() - t0:.0f} s")
    return unique, inventory


def build(out: str, seed: int) -> dict:
    t0 = time.time()
    log("collecting sources ...")
    sources, inventory = collect(seed)
    for half in ("dev", "heldout"):
        if os.path.exists(os.path.join(out, half)):
            shutil.rmtree(os.path.join(out, half))
    used: set[str] = set()
    records = []
    log("writing files ...")
    base_time = 1_600_000_000
    for src in sources:
        written: dict[str, str] = {}  # a variant names its parent by the path it was meant for
        for k, f in enumerate(make_files(src, seed)):
            path = "/".join(safe_name(c) for c in f"{src.half}/{f.path}".split("/") if c.strip())
            stem, ext = os.path.splitext(path)
            n = 2
            while path.lower() in used:
                path = f"{stem} ({n}){ext}"
                n += 1
            used.add(path.lower())
            written.setdefault(f.path, path)
            full = os.path.join(out, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as fh:
                fh.write(f.data)
            mtime = base_time + int(h01(seed, "mtime", src.id) * 1e8) + k * 86400 * 3
            os.utime(full, (mtime, mtime))
            records.append(dict(path=path, source=src.id, half=src.half, recipe=f.recipe,
                                encoding=f.encoding, eol=f.eol, bytes=len(f.data),
                                parent=written.get(f.parent, ""), lang=src.lang,
                                kind=src.kind, family=src.family))
    manifest = dict(
        version=VERSION, seed=seed, built_by="benchmarks/devcorpus.py",
        note="truth is not the recipe: measure it (5-gram Jaccard of normalised text)",
        segmenter=_segmenter[0] if _segmenter else None, packages=inventory,
        sources=[dict(id=s.id, lang=s.lang, kind=s.kind, family=s.family, split_key=s.split_key,
                      half=s.half, origin=s.origin) for s in sources],
        files=records)
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, ensure_ascii=False, indent=1)
    manifest["elapsed"] = time.time() - t0
    return manifest


def summary(manifest: dict) -> None:
    files = manifest["files"]
    log(f"\n{len(files)} files, {len(manifest['sources'])} sources")
    for half in ("dev", "heldout"):
        fs = [f for f in files if f["half"] == half]
        ss = [s for s in manifest["sources"] if s["half"] == half]
        langs = Counter(f["lang"] for f in fs)
        log(f"  {half}: {len(fs)} files, {len(ss)} sources, "
            f"{sum(f['bytes'] for f in fs) / 1e6:.1f} MB, median "
            f"{statistics.median(f['bytes'] for f in fs) / 1024:.1f} KB ("
            + ", ".join(f"{k} {v}" for k, v in sorted(langs.items())) + ")")
    sizes = sorted(f["bytes"] for f in files)
    log(f"  size: median {statistics.median(sizes) / 1024:.1f} KB, p10 {sizes[len(sizes) // 10] / 1024:.1f}"
        f" KB, p90 {sizes[9 * len(sizes) // 10] / 1024:.1f} KB, max {sizes[-1] / 1024:.0f} KB")
    for key in ("lang", "kind", "encoding", "eol"):
        c = Counter(f[key] for f in files)
        log(f"  {key}: " + ", ".join(f"{k} {v}" for k, v in c.most_common()))
    c = Counter(recipe_group(f["recipe"]) for f in files)
    log("  recipes: " + ", ".join(f"{k} {v}" for k, v in c.most_common()))
    fams = Counter(s["family"] for s in manifest["sources"] if s["family"])
    log(f"  natural families: {len(fams)} ({sum(1 for v in fams.values() if v > 1)} with 2+ sources;"
        f" largest: " + ", ".join(f"{k} {v}" for k, v in fams.most_common(5)) + ")")


def recipe_group(recipe: str) -> str:
    """The recipe's family for summaries: edit-3%, header-footer, combo, ..."""
    if "+" in recipe:
        return "combo"
    if recipe.startswith("edit-chain"):
        return "edit-chain"
    if recipe.startswith("edit-"):
        return recipe if recipe in ("edit-1%", "edit-2%", "edit-3%", "edit-10%") else "edit-5%/7%"
    if recipe.startswith("header-footer"):
        return "header-footer"
    return recipe.split("-")[0]


# --- measuring ----------------------------------------------------------------------------------

BANDS = [(0.0, 0.1), (0.1, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.0001)]


def band_line(js: list[float]) -> str:
    n = len(js) or 1
    cells = [f"{100 * sum(a <= j < b for j in js) / n:4.0f}%" for a, b in BANDS]
    return " ".join(cells)


def measure(out: str, manifest: dict, seed: int) -> None:
    sys.path.insert(0, REPO)
    from simdup_gui.core.textsim import jaccard, shingle_set
    t0 = time.time()
    sets = {}
    for f in manifest["files"]:
        with open(os.path.join(out, f["path"]), "rb") as fh:
            sets[f["path"]] = shingle_set(decode(fh.read(), f["encoding"]))
    original = {f["source"]: f["path"] for f in manifest["files"] if f["recipe"] == "original"}
    log(f"\nJ of each variant against its source's original ({time.time() - t0:.0f} s to shingle)")
    log(f"  {'recipe':<16} {'n':>6} <0.1   0.1-  0.3-  0.5-  0.7-  0.9-1   min    median")
    by: dict[str, list[float]] = defaultdict(list)
    for f in manifest["files"]:
        if f["recipe"] == "original":
            continue
        group = recipe_group(f["recipe"])
        j = jaccard(sets[f["path"]], sets[original[f["source"]]])
        by[group].append(j)
        by["ALL variants"].append(j)
    for g in sorted(by, key=lambda g: (g == "ALL variants", g)):
        js = by[g]
        log(f"  {g:<16} {len(js):>6}{band_line(js)}  {min(js):.3f}  {statistics.median(js):.3f}")
    # natural families: every pair of originals of two different sources of one family
    fam: dict[str, list[str]] = defaultdict(list)
    kind_of = {}
    for s in manifest["sources"]:
        if s["family"]:
            fam[s["family"]].append(s["id"])
            kind_of[s["family"]] = s["kind"]
    pairs_by_kind: dict[str, list[float]] = defaultdict(list)
    nearest_by_kind: dict[str, list[float]] = defaultdict(list)
    for name, ids in sorted(fam.items()):
        near = [0.0] * len(ids)
        for a in range(len(ids)):
            for b in range(a + 1, len(ids)):
                j = jaccard(sets[original[ids[a]]], sets[original[ids[b]]])
                pairs_by_kind[kind_of[name]].append(j)
                near[a], near[b] = max(near[a], j), max(near[b], j)
        if len(ids) > 1:
            nearest_by_kind[kind_of[name]] += near
    # translations: simplified and traditional Chinese of one man page or Debian Reference part
    for s in manifest["sources"]:
        for a, b, kind in (("man/zh_CN/", "man/zh_TW/", "zh_CN~zh_TW man"),
                           ("debref/zh-cn/", "debref/zh-tw/", "zh-cn~zh-tw ref")):
            other = s["id"].replace(a, b)
            if s["id"].startswith(a) and other in original:
                j = jaccard(sets[original[s["id"]]], sets[original[other]])
                pairs_by_kind[kind].append(j)
    for title, table in (
            ("all pairs of two sources of one natural family (originals)", pairs_by_kind),
            ("each family member's nearest other member", nearest_by_kind)):
        log(f"\nJ of {title}")
        log(f"  {'family kind':<16} {'n':>6} <0.1   0.1-  0.3-  0.5-  0.7-  0.9-1   max    median")
        for g in sorted(table):
            js = table[g]
            log(f"  {g:<16} {len(js):>6}{band_line(js)}  {max(js):.3f}  {statistics.median(js):.3f}")
        allj = [j for g, js in table.items() if "~" not in g for j in js]
        log(f"  {'ALL families':<16} {len(allj):>6}{band_line(allj)}  {max(allj):.3f}  "
            f"{statistics.median(allj):.3f}")
    log(f"measured in {time.time() - t0:.0f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="output folder (dev/, heldout/ and manifest.json are written there)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--measure", action="store_true",
                    help="after building, J of each variant against its original, and of "
                         "natural-family pairs (needs simdup_gui from this repository)")
    ap.add_argument("--measure-only", action="store_true", help="measure an existing corpus")
    ap.add_argument("--install-packages", action="store_true",
                    help="apt-get the missing Debian source packages first (needs root); "
                         "default: build from what is installed and name what is missing")
    ap.add_argument("--no-install", action="store_true",
                    help=argparse.SUPPRESS)  # the old opt-out; never installing is the default now
    args = ap.parse_args(argv)
    if args.measure_only:
        with open(os.path.join(args.out, "manifest.json"), encoding="utf-8") as fh:
            manifest = json.load(fh)
        summary(manifest)
        measure(args.out, manifest, manifest["seed"])
        return 0
    ensure_packages(args.install_packages and not args.no_install)
    os.makedirs(args.out, exist_ok=True)
    manifest = build(args.out, args.seed)
    summary(manifest)
    log(f"built in {manifest['elapsed']:.0f} s: {os.path.abspath(args.out)}")
    if args.measure:
        measure(args.out, manifest, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
