"""Server text made visible: invisible and control characters shown as `⟨U+202E⟩`.

A server chooses every name, title, description, URI and result it sends. Characters that draw
nothing can make that text lie about itself: a right-to-left override turns `rtl\u202egnp.exe`
into what looks like `rtlexe.png`, a zero width space makes two different tool names look the
same, tag characters (U+E0000 block) carry hidden instructions, and an ESC drives a terminal.
So wherever server text is shown (the window and the command line alike) such characters are
replaced by their code point in brackets, which nobody can mistake for text.

What is kept: letters of every script (Arabic and Hebrew stay as they are, right to left by
themselves), tab and newline (`visible`; `visible_line` shows newlines too, for one-line places),
and a zero width (non-)joiner between two non-ASCII letters or symbols, which Persian, the Indic
scripts and emoji sequences need. Prepended concatenation marks (the Arabic number sign U+0600...)
are format characters too, but they draw a visible sign, so they stay.

`visible_json` is the same for JSON views: those characters are written as JSON escapes
(`\\u202e`), so the text still parses to exactly what the server sent.

Plain Python (no Qt): the command line uses it too.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["visible", "visible_json", "visible_line"]

# Unicode category Cf (format) less the prepended concatenation marks, which draw a sign. The
# list is written out (a scan of all code points would cost ~0.3 s at start-up); a test checks it
# against `unicodedata`.
_FORMAT = (
    "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
# C0 controls but tab and newline, DEL and C1; lone surrogates (a JSON string may hold one, and
# Qt cannot show it); letters that draw nothing (Hangul fillers, used to make "blank" names).
_OTHER = "\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u115f\u1160\u3164\uffa0"
# Line breaks, shown only where the text is one line (a name, a title, a table cell's summary).
_BREAKS = "\n\u2028\u2029"

_CLASSES = {
    "text": f"[{_FORMAT}{_OTHER}]",
    "line": f"[{_FORMAT}{_OTHER}{_BREAKS}]",
    # In JSON text json.dumps has escaped C0 controls already; everything else is escaped here.
    "json": f"[{_FORMAT}{_OTHER}\u2028\u2029]",
}


@functools.cache
def _pattern(kind: str) -> re.Pattern[str]:
    # Compiled on first need (~10 ms for the first): plain Latin-1 text never needs them.
    return re.compile(_CLASSES[kind])


_JOINERS = "\u200c\u200d"  # zero width non-joiner, zero width joiner

# The Latin-1 characters that never need showing (all but C0 controls other than tab and newline,
# DEL, C1 and the soft hyphen). Most text is ASCII or Latin-1: dropping these bytes from it
# (bytes.translate, ~2 ns a character) says whether anything is left to show at all, some 20
# times faster than the regular expression over a large result.
_PLAIN_LATIN1 = bytes(
    c for c in range(256) if (c >= 0x20 or c in (0x09, 0x0A)) and not 0x7F <= c <= 0x9F and c != 0xAD
)
_PLAIN_LATIN1_LINE = bytes(c for c in _PLAIN_LATIN1 if c != 0x0A)


def _nothing_to_show(text: str, plain: bytes) -> bool:
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return not data.translate(None, plain)


def _joins(text: str, at: int) -> bool:
    """Is the joiner at `at` between two non-ASCII letters, marks or symbols (Persian, Devanagari,
    an emoji sequence)? Then it shapes the text and is left alone; elsewhere it only hides."""
    if at == 0 or at + 1 >= len(text):
        return False
    before, after = text[at - 1], text[at + 1]
    return (
        before > "\x7f"
        and after > "\x7f"
        and unicodedata.category(before)[0] in "LMS"
        and unicodedata.category(after)[0] in "LMS"
    )


def _code_point(m: re.Match[str]) -> str:
    c = m.group()
    if c in _JOINERS and _joins(m.string, m.start()):
        return c
    return f"⟨U+{ord(c):04X}⟩"


def visible(text: str) -> str:
    """`text` with invisible and control characters shown as ⟨U+XXXX⟩; tab and newline kept
    (a Windows line end, CR LF, is shown as a newline)."""
    if _nothing_to_show(text, _PLAIN_LATIN1):
        return text
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    return _pattern("text").sub(_code_point, text)


def visible_line(text: str) -> str:
    """Like `visible`, for text shown on one line: line breaks are shown as ⟨U+000A⟩ too."""
    if _nothing_to_show(text, _PLAIN_LATIN1_LINE):
        return text
    return _pattern("line").sub(_code_point, text)


def _json_escape(m: re.Match[str]) -> str:
    c = m.group()
    if c in _JOINERS and _joins(m.string, m.start()):
        return c
    cp = ord(c)
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    cp -= 0x10000
    return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"


def visible_json(value: Any, indent: int | None = None) -> str:
    """`value` as JSON text (non-ASCII letters as they are) with the characters `visible` would
    show written as JSON escapes: the text stays valid JSON and parses to the same value."""
    text = json.dumps(value, indent=indent, ensure_ascii=False, default=str)
    if _nothing_to_show(text, _PLAIN_LATIN1):  # json.dumps has escaped CR and the other C0 controls
        return text
    # Outside strings json.dumps writes only ASCII, so every match is inside a string.
    return _pattern("json").sub(_json_escape, text)
