"""Text from a rule file made safe for a terminal.

A rule file is untrusted input: its quoted texts (the game's name, ``say`` texts, labels, suit
symbols) and its comments may hold escape sequences that clear the screen, set the window title
or fake a line such as "Player 2 wins!", and bidirectional controls that make a line read other
than it is.  :func:`safe` shows every such character as an escape (``\\x1b``, ``\\u202e``):
control characters (C0 but the newline where asked, DEL, C1), format characters (bidi overrides
and isolates, zero-width characters, the BOM) and the line and paragraph separators.
:mod:`rulelang.cli.common` passes everything it prints through here; ``rich`` markup is never
interpreted in printed text (its console is made with ``markup=False``), so ``[red]`` in a rule
file prints as ``[red]``.
"""
from __future__ import annotations

import re
import unicodedata

_UNSAFE_CATEGORIES = ("Cc", "Cf", "Zl", "Zp", "Cs")
# Characters of those categories below U+0100 and the usual suspects above are listed once;
# others are found by their Unicode category (rare: checked only when the fast test fails).
_FAST_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
                          "\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]")


_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    o = ord(ch)
    if o < 0x100:
        return f"\\x{o:02x}"
    if o < 0x10000:
        return f"\\u{o:04x}"
    return f"\\U{o:08x}"


def _unsafe(ch: str) -> bool:
    return unicodedata.category(ch) in _UNSAFE_CATEGORIES


def safe(text, keep_newlines: bool = False) -> str:
    """``text`` with every character that could act on a terminal shown as an escape;
    ``keep_newlines`` keeps ``\\n`` as a line break (for text of several lines)."""
    text = str(text)
    if text.isascii():
        if text.isprintable() or (keep_newlines and text.replace("\n", "").isprintable()):
            return text
    elif not _FAST_UNSAFE.search(text) and not any(_unsafe(ch) for ch in text if ord(ch) > 0x7f):
        return text
    out = []
    for ch in text:
        if ch == "\n" and keep_newlines:
            out.append(ch)
        elif (ch < " " or "\x7f" <= ch <= "\x9f" or (ord(ch) > 0x9f and _unsafe(ch))):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


def is_safe(text: str, keep_newlines: bool = True) -> bool:
    """Whether ``text`` holds no character that :func:`safe` would escape."""
    return safe(text, keep_newlines) == text


def safe_json(obj, **kwargs) -> str:
    """``json.dumps(obj, ensure_ascii=False, ...)`` with the characters a terminal would act on
    written as ``\\uXXXX`` escapes (still the same JSON value)."""
    import json
    text = json.dumps(obj, ensure_ascii=False, **kwargs)
    if text.isascii() and text.isprintable():
        return text
    out = []
    for ch in text:
        if ch != "\n" and (ch < " " or "\x7f" <= ch <= "\x9f" or (ord(ch) > 0x9f and _unsafe(ch))):
            o = ord(ch)
            if o >= 0x10000:         # JSON writes characters beyond the BMP as a surrogate pair
                o -= 0x10000
                out.append(f"\\u{0xd800 + (o >> 10):04x}\\u{0xdc00 + (o & 0x3ff):04x}")
            else:
                out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out)
