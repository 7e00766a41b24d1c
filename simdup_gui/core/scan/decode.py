"""Bytes to text: BOM first, then strict UTF-8, strict GB18030 / Big5 / cp1252 trials with a
plausibility test, and chardet on a bounded sample only when none of them settles it.

chardet costs about 5 ms a file; on the mixed benchmark corpus (benchmarks/mixcorpus.py) the
trials settle every file but a handful, and they label more files right than chardet did
(it took some cp1252 files for cp437 or ISO-8859-1, and one Big5 and one GBK file for
ISO-8859-15)."""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from functools import cache

DECODE_VERSION = 3  # bump when the same bytes may decode (or be labelled) differently
SNIFF_BYTES = 8192
CHARDET_SAMPLE = 16384
MAX_BAD_RATIO = 0.05  # more undecodable than this: "binary or unknown encoding"

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig", "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
)
_GB_FAMILY = {"gb2312", "gbk", "gb18030", "hz-gb-2312", "cp936"}
_CONTROL = bytes(list(range(0, 8)) + [11, 14, 15] + list(range(16, 27)) + list(range(28, 32)))
_HIGH = bytes(range(0x80, 0x100))
# The most frequent Chinese characters: about a sixth of any Chinese text, and rare in the
# ideographs that a strict GB18030 decode makes out of other 8-bit encodings.
_COMMON_HANZI = frozenset("的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突专费号尽另周较注语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音跟志底站严巴例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朝友诉止细愿千值仍男钱破网热助倒育属坐帝限船脸职速刻乐否刚威毛状率甚独球般普怕弹校苦创假久错承印晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤素药适波夜省初喜卫源食险待述陆习置居劳财环排福纳欢雷警获模充负云停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担州静退既衣您宗积余痛检差富灵协角占配征修皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控税左右份穿艺背阵草脚概恶块顿敢守酒岛托央户烈洋哥索胡款靠评版宝座释景顾弟登货互付伯慢欧换闻危忙核暗姐介坏讨丽良序升监临亮露永呼味野架域沙掉括舰鱼杂误湖")


class DecodeError(ValueError):
    """The bytes are not text we can read; ``kind`` is the problem kind."""

    def __init__(self, reason: str, kind: str = "binary") -> None:
        super().__init__(reason)
        self.kind = kind


class DocumentError(DecodeError):
    """A document (.pdf, .docx, ...: scan/documents.py) that gives no text; the reason
    says why (problem kind "document")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, "document")


@dataclass(slots=True)
class Decoded:
    text: str
    encoding: str  # the name recorded for the user, e.g. "utf-8", "gb18030", "utf-16-le (BOM)"
    codec: str  # the Python codec that decodes the whole file
    bom: int  # bytes of BOM to skip
    bad_bytes: int


def bom_of(head: bytes) -> tuple[str, int, str] | None:
    """(codec, bom length, label) for a byte-order mark at the start, else None."""
    for bom, codec, label in _BOMS:
        if head.startswith(bom):
            return codec, len(bom), label
    return None


def _utf16_without_bom(head: bytes) -> str | None:
    even, odd = head[0::2], head[1::2]
    if len(head) < 4:
        return None
    z_even = even.count(0) / max(1, len(even))
    z_odd = odd.count(0) / max(1, len(odd))
    if z_odd > 0.3 and z_even < 0.05:
        return "utf-16-le"
    if z_even > 0.3 and z_odd < 0.05:
        return "utf-16-be"
    return None


def sniff(head: bytes) -> tuple[str, int, str] | None:
    """Decide from the first bytes whether this is text.

    Returns (codec, bom length, label) when a BOM or BOM-less UTF-16 fixes the
    codec, None when the codec is still open; raises DecodeError for binary.
    """
    b = bom_of(head)
    if b:
        return b
    if 0 in head:
        codec = _utf16_without_bom(head)
        if codec:
            return codec, 0, codec
        raise DecodeError("binary content (NUL bytes)", "binary")
    if head:
        ctrl = len(head) - len(head.translate(None, _CONTROL))
        if ctrl / len(head) > 0.05:
            raise DecodeError("binary content (control bytes)", "binary")
    return None


def _count_bad(text: str) -> int:
    return text.count("\ufffd")


def normalise_codec(name: str | None) -> str | None:
    if not name:
        return None
    n = name.lower()
    if n in _GB_FAMILY:
        return "gb18030"
    if n == "ascii":
        return "utf-8"
    try:
        return codecs.lookup(n).name
    except LookupError:
        return None


def choose_codec(data: bytes) -> tuple[str, int, str]:
    """Pick (codec, bom length, label) for ``data`` (the whole file or a prefix)."""
    return _choose(data)[:3]


def _choose(data: bytes) -> tuple[str, int, str, str | None]:
    """choose_codec(data), and the whole of ``data`` decoded when the choice came from a
    strict decode of all of it (else None): decode_bytes then need not decode it again."""
    fixed = sniff(data[:SNIFF_BYTES])
    if fixed:
        return (*fixed, None)
    try:
        text = data.decode("utf-8")
        return "utf-8", 0, "ascii" if data.isascii() else "utf-8", text
    except UnicodeDecodeError as e:
        # A prefix may end inside a character: that is not an error.
        if e.start >= len(data) - 3 and e.reason == "unexpected end of data":
            return "utf-8", 0, "utf-8", None
    # Mostly valid UTF-8 with a few bad bytes stays UTF-8.
    # (It must hold real multi-byte characters too: cp1252 text with two curly quotes
    # has no valid UTF-8 sequence at all and is left to the detector.)
    limit = max(4, len(data) // 200)
    if not _too_bad_for_utf8(data, limit):
        probe = data.decode("utf-8", errors="replace")
        if _count_bad(probe) <= limit and _UTF8_MULTI.search(probe):
            return "utf-8", 0, "utf-8", probe
    # Chinese in the GBK family is the common case here, and chardet costs ~5 ms a file:
    # a strict GB18030 decode whose text is full of everyday characters settles it first.
    high = len(data) - len(data.translate(None, _HIGH))
    gb = _try_cjk(data, high, "gb18030", _common_chars(), GB_COMMON_SHARE)
    if gb:
        return gb
    big5 = _try_cjk(data, high, "big5", _common_trad(), BIG5_COMMON_SHARE)
    if big5:
        return big5
    if _looks_cp1252(data, high):
        return "cp1252", 0, "cp1252", None
    # Sample from the start and the middle: headers are often ASCII.
    if len(data) > CHARDET_SAMPLE:
        half = CHARDET_SAMPLE // 2
        mid = len(data) // 2
        sample = data[:half] + data[mid : mid + half]
    else:
        sample = data
    import chardet  # here: few files get this far (its import: 8 ms of a worker's start)

    guess = chardet.detect(sample)
    codec = normalise_codec(guess.get("encoding"))
    high = (len(sample) - len(sample.translate(None, _HIGH))) / max(1, len(sample))
    if (guess.get("confidence") or 0) < 0.2 and high > 0.3:
        raise DecodeError(f"binary or unknown encoding (no encoding fits; best guess "
                          f"{guess.get('encoding')} at {guess.get('confidence') or 0:.0%})",
                          "undecodable")
    if codec is None:
        # chardet could not tell: GB18030 decodes any byte pair; judge it by the bad ratio.
        codec = "gb18030"
    return codec, 0, codec, None


_UTF8_MULTI = re.compile("[^\x00-\x7f\ufffd]")
UTF8_HEAD = 256  # bytes: at least this much of a file is probed for bad UTF-8 first


def prepare_process() -> None:
    """chardet's models loaded now (its first detect: 26 MB, 0.1 s): in the fork server's
    preload (features.prepare_process) they are loaded once and shared by every worker
    forked from it, where each worker that met a file needing a guess loaded its own copy.
    A cold scan of the 764 MB tree (``benchmarks/phase_memory.py``, PSS every 0.2 s): the
    fingerprinting's peak 558 -> 517 MB, its two workers 173, 166 -> 150, 144 MB. Its cost
    is in every pooled scan's start: the 25 MB mix (``benchmarks/alternate.py /tmp/mix25
    6``, with and without it) 2.01 -> 2.07 s wall, 3.01 -> 3.05 CPU s (medians)."""
    import chardet

    chardet.detect("Привет, это проба; 中文的文本".encode("gb18030") * 8)


def _too_bad_for_utf8(data: bytes, limit: int) -> bool:
    """Whether ``data.decode("utf-8", errors="replace")`` surely holds more than ``limit``
    U+FFFD, judged from a head of it (a 32nd, at least UTF8_HEAD bytes) decoded alone.
    The decoder goes left to right: the head's text is the whole's up to where the head
    ends, but for one U+FFFD more where the head cuts a character. So more than ``limit``
    + 1 in the head settles it; the whole file is then not decoded a second time. GBK, Big5
    or cp1252 bytes read as UTF-8 give one every few bytes, and that decode of the whole was
    about half of what their files' decoding cost (1,065 such files of the 25 MB mix)."""
    head = max(UTF8_HEAD, len(data) // 32)
    if head >= len(data):
        return False
    return _count_bad(data[:head].decode("utf-8", errors="replace")) > limit + 1


# The character classes of the plausibility test are counted through tables
# (_hanzi_counts), never matched as regexes; their regexes (_HANZI_RE, _COMMON_RE,
# _COMMON_TRAD_RE: what the counts equal, for the tests) are compiled only when asked for:
# compiling them took 5 ms of every process that imports this module (the scan's, and the
# fork server's on the way to the first fingerprint).
_LAZY_CLASSES = {"_HANZI_RE": lambda: "\u4e00-\u9fff", "_COMMON_RE": lambda: _common_chars(),
                 "_COMMON_TRAD_RE": lambda: _common_trad()}


def __getattr__(name: str):
    if name in _LAZY_CLASSES:
        return _class_re(_LAZY_CLASSES[name]())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _class_re(chars: str) -> re.Pattern:
    return re.compile("[" + chars + "]")


@cache
def _common_chars() -> str:
    """The frequent simplified characters, sorted (the GB18030 trial's class)."""
    return "".join(sorted(_COMMON_HANZI))


# Traditional forms of frequent characters whose simplified form differs (the frequent
# characters that Big5 can encode are shared by both scripts and are added to these).
_TRAD_EXTRA = ("這個們來為國說時會對過後裡學經麼還進開當動現關點機長與見問間實樣種從應頭發體無電業將"
               "兩報結區義條數產氣書處號話語則軍務幾員變總專車東華歷師聲賣買讓認識運連爭讀寫聽雖邊議論"
               "錢鐵錯題顯類風飛馬鳥魚龍齊萬內門陽陰雲齒夠並係愛憶戰戲擊據擁擇擔攝晝勞勢勵單團圍圖園"
               "場塊壞壓夢壯備復態戶損斷於極構槍標樂權歲歸殺漢湯溫滿準澤濟灣燈營爾獨獎環畫畢異療盡監"
               "盤確稱積穩競筆節範築簡紅約級紀純紙紛細組絕統絲綠維綱網線練編緣縣織職聯腦腳臉興舊艦藝"
               "葉蘇術衛衝裝製複規視覺親觀計訂討訓記設訪證評試詩該詳誠誤課調談請諸講謝護貝負財責貨貧"
               "貴貸費貿資質購趕趙趨軌軟較載輕輸轉農達遠適選遺鄉鄭醫針銀銷鋼錄鎮陣陳陸隊階際隨險隱雙"
               "雜難靜響頁頂項順須領顏願飯館驗髮鬥麥黨齡")
GB_COMMON_SHARE = 0.35  # measured on mixcorpus: GBK/GB18030 >= 0.47, Big5 read as GB <= 0.23
BIG5_COMMON_SHARE = 0.40  # Big5 >= 0.76, GBK/GB18030 read as Big5 <= 0.18
CJK_SAMPLE_CHARS = 1 << 16


@cache
def _common_trad() -> str:
    """The frequent characters Big5 can encode and the traditional forms of the others,
    sorted (the Big5 trial's class)."""
    shared = []
    for c in sorted(_COMMON_HANZI):
        try:
            c.encode("big5")
        except UnicodeEncodeError:
            continue
        shared.append(c)
    return "".join(sorted(set(shared) | set(_TRAD_EXTRA)))


_TABLES: dict = {}


def _hanzi_counts(sample: str, common: str) -> tuple[int, int]:
    """(characters matching _HANZI_RE, characters of ``common``, a class's characters) in
    ``sample``: counted in numpy over the code points (a lookup table of the class, all in
    the BMP), which gives the regexes' counts at a tenth of findall's cost."""
    import numpy as np

    table = _TABLES.get(common)
    if table is None:
        table = np.zeros(0x10000, dtype=bool)
        table[np.frombuffer(common.encode("utf-32-le"), dtype="<u4")] = True
        _TABLES[common] = table
    cps = np.frombuffer(sample.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    hanzi = int(np.count_nonzero((cps >= 0x4E00) & (cps <= 0x9FFF)))
    return hanzi, int(np.count_nonzero(table[cps[cps < 0x10000]]))


def _try_cjk(data: bytes, high: int, codec: str, common: str,
             share: float) -> tuple[str, int, str, str | None] | None:
    """``codec`` (as _choose gives it) when a strict decode gives text full of everyday
    characters (those of ``common``), else None."""
    if high < 32:
        return None  # too little to judge (fewer than 16 hanzi): let chardet weigh it
    whole = True
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as e:
        if e.start < len(data) - 3:  # a prefix may end inside a character
            return None
        text = data[: e.start].decode(codec, errors="replace")
        whole = False
    sample = text[:CJK_SAMPLE_CHARS]  # a man page may hold a few dozen hanzi among English
    hanzi, n_common = _hanzi_counts(sample, common)
    if hanzi < 16:
        return None
    # few characters need a clearer majority: garbage reaches a share of 0.23 at most
    if n_common >= (share if hanzi >= 32 else 0.6) * hanzi:
        return codec, 0, codec, text if whole else None
    return None


# What Western European text holds past ASCII: accented letters, typographic punctuation and
# a few symbols. cp1250 (Polish ą ł ś ż) read as cp1252 gives ¹ ³ œ ¿ instead, which are not here.
_CP1252_PLAUSIBLE = frozenset(
    "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝßàáâãäåæçèéêëìíîïñòóôõöøùúûüýÿ"
    "€‘’‚“”„…–—•™ "
    "©®°±·«»½¼¾£§¶¢¥¡¿µ´¨ª²")
_HIGH_RUN = re.compile(rb"[\x80-\xff]{2,}")
_NON_ASCII = re.compile("[^\x00-\x7f]")


def _looks_cp1252(data: bytes, high: int) -> bool:
    """Western European single-byte text: strict cp1252, few high bytes, each one on its own
    (a letter or a quote between ASCII; CJK and Cyrillic come in runs), nearly all of them
    accented letters or typographic punctuation."""
    if not high or high > len(data) // 10:
        return False
    in_runs = sum(len(m) for m in _HIGH_RUN.findall(data.replace(b"\xa0", b" ")))
    if in_runs > 0.1 * high:
        return False
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return False
    odd = sum(1 for c in _NON_ASCII.findall(text) if c not in _CP1252_PLAUSIBLE)
    return odd <= 0.05 * high


def decode_bytes(data: bytes) -> Decoded:
    """Decode a whole file's bytes, counting what failed to decode."""
    if not data:
        raise DecodeError("empty file", "empty")
    codec, bom, label, text = _choose(data)
    if not codec.startswith(("utf-16", "utf-32")):
        nul = data.count(0)
        if nul > max(16, len(data) // 1000):  # the sniff saw only the first bytes
            raise DecodeError(f"binary content ({nul} NUL bytes after the first "
                              f"{SNIFF_BYTES} bytes)", "binary")
    if text is None:  # (else the choice decoded all of it already, bom 0)
        text = data[bom:].decode(codec, errors="replace")
    bad = _count_bad(text)
    if text and bad / max(1, len(text)) > MAX_BAD_RATIO:
        raise DecodeError(f"binary or unknown encoding ({bad} undecodable characters, "
                          f"best guess {label})", "undecodable")
    if label == "utf-8" and bad:
        label = "utf-8"
    return Decoded(text, label, codec, bom, bad)
