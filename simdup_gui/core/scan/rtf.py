"""RTF to text: our own small converter (the format is a stream of control words and groups;
no package is needed, and none of the small ones handles fonts' character sets).

What it keeps: the body's text, \\uN characters (their fallback skipped as \\ucN says),
\\'hh bytes decoded in the character set of the current font (\\fcharset, e.g. 134 for GBK)
or of the document (\\ansicpgN), paragraphs, line breaks, tabs and table cells. What it leaves
out: every destination that is not body text (font and colour tables, style sheets, the info
block, pictures, objects, headers, footers, footnotes, fields' instructions and any group
marked \\*)."""

from __future__ import annotations

import codecs
import re

from .decode import DocumentError

_TOKEN = re.compile(rb"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z'])"
                    rb"|([{}])|([^\\{}\r\n]+)|[\r\n]+|\\")
_SKIP = frozenset(b"""
    fonttbl colortbl stylesheet info pict object header headerl headerr headerf footer footerl
    footerr footerf footnote fldinst themedata colorschememapping datastore latentstyles
    listtable listoverridetable rsidtbl generator xmlnstbl mmathPr pgdsctbl revtbl filetbl
    bkmkstart bkmkend nonshppict shppict userprops docvar template private""".split())
_CHARS = {b"par": "\n", b"line": "\n", b"sect": "\n", b"page": "\n", b"row": "\n",
          b"tab": "\t", b"cell": "\t", b"emdash": "\u2014", b"endash": "\u2013",
          b"lquote": "\u2018", b"rquote": "\u2019", b"ldblquote": "\u201c",
          b"rdblquote": "\u201d", b"bullet": "\u2022", b"emspace": " ", b"enspace": " "}
_SYMBOLS = {b"~": "\u00a0", b"-": "", b"_": "-", b"\\": "\\", b"{": "{", b"}": "}",
            b"\n": "\n", b"\r": "\n", b"\t": "\t"}
_CHARSETS = {0: None, 128: "cp932", 129: "cp949", 134: "gbk", 136: "big5", 161: "cp1253",
             162: "cp1254", 177: "cp1255", 178: "cp1256", 186: "cp1257", 204: "cp1251",
             222: "cp874", 238: "cp1250"}


class _State:
    """A group's: whether its text is skipped, how many fallback characters follow \\uN,
    whether it is the font table, and the current font."""

    __slots__ = ("skip", "uc", "fonttbl", "font")

    def __init__(self, skip=False, uc=1, fonttbl=False, font=-1) -> None:
        self.skip, self.uc, self.fonttbl, self.font = skip, uc, fonttbl, font

    def copy(self) -> _State:
        return _State(self.skip, self.uc, self.fonttbl, self.font)


class _Rtf:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.pending = bytearray()  # \'hh bytes not yet decoded
        self.codec = "cp1252"
        self.fonts: dict[int, str] = {}  # font number -> codec (from the font table)
        self.font_no = -1  # the font the table is describing
        self.fallback = 0  # characters still to skip after a \uN
        self.state = _State()
        self.stack: list[_State] = []
        self.first = False  # the next token is a group's first

    def text(self, s: str) -> None:
        self.flush()
        if not self.state.skip and not self.state.fonttbl:
            self.out.append(s)

    def flush(self) -> None:
        if self.pending:
            codec = self.fonts.get(self.state.font) or self.codec
            if not self.state.skip and not self.state.fonttbl:
                self.out.append(bytes(self.pending).decode(codec, errors="replace"))
            self.pending.clear()

    def group(self, brace: bytes) -> None:
        self.flush()
        if brace == b"{":
            self.stack.append(self.state)
            self.state = self.state.copy()
            self.first = True
        elif self.stack:
            self.state = self.stack.pop()
        self.fallback = 0

    def word(self, name: bytes, arg: int | None) -> None:
        first, self.first = self.first, False
        st = self.state
        if first and name in _SKIP:
            self.flush()
            if name == b"fonttbl":
                st.fonttbl = True
            else:
                st.skip = True
            return
        if name == b"u" and arg is not None:
            self.text(chr(arg % 65536) if -32768 <= arg < 65536 else "\ufffd")
            self.fallback = st.uc
            return
        self._setting(name, arg)

    def _setting(self, name: bytes, arg: int | None) -> None:
        st = self.state
        if name == b"uc" and arg is not None:
            st.uc = max(0, min(arg, 8))
        elif name == b"ansicpg" and arg is not None:
            self.codec = _codec(f"cp{arg}") or self.codec
        elif name == b"f" and arg is not None:
            self.flush()
            if st.fonttbl:
                self.font_no = arg
            st.font = arg
        elif name == b"fcharset" and arg is not None and st.fonttbl:
            codec = _CHARSETS.get(arg)
            if codec:
                self.fonts[self.font_no] = codec
        elif name in _CHARS:
            self.text(_CHARS[name])

    def hex_byte(self, value: int) -> None:
        if self.fallback:
            self.fallback -= 1
            return
        self.pending.append(value)

    def plain(self, run: bytes) -> None:
        if self.fallback:
            n = min(self.fallback, len(run))
            self.fallback -= n
            run = run[n:]
        if run:
            self.text(run.decode(self.fonts.get(self.state.font) or self.codec,
                                 errors="replace"))


def _codec(name: str) -> str | None:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def rtf_text(data: bytes) -> str:
    """The text of an RTF document's body."""
    if not data.lstrip()[:5] == b"{\\rtf":
        raise DocumentError("not an RTF document: it does not start with {\\rtf")
    r = _Rtf()
    for m in _TOKEN.finditer(data):
        name, arg, hexa, symbol, brace, run = m.groups()
        if name is not None:
            r.word(name, int(arg) if arg else None)
            continue
        r.first = False
        if hexa is not None:
            r.hex_byte(int(hexa, 16))
        elif symbol is not None:
            if symbol == b"*":
                r.state.skip = True
            else:
                r.text(_SYMBOLS.get(symbol, ""))
        elif brace is not None:
            r.group(brace)
        elif run is not None:
            r.plain(run)
    r.flush()
    return "".join(r.out)
