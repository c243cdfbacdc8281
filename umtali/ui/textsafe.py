"""Control characters made visible, for text the program did not write itself.

A name read from a record, a line typed by a player, a file path: any of them may
hold an escape sequence that a terminal would obey (a new title, a clipboard
write).  :func:`visible` writes every control or format character as an escape
instead.  It needs nothing beyond the standard library, so the command line can
use it before anything else is loaded.

>>> visible("Ann\\x1b]0;pwned\\x07")
'Ann\\\\x1b]0;pwned\\\\x07'
"""

from __future__ import annotations

import unicodedata

# Control characters, format characters (bidi overrides and the like) and the
# Unicode line and paragraph separators.
_HIDDEN = {"Cc", "Cf", "Zl", "Zp"}


def visible(text: str) -> str:
    """``text`` with every control or format character written as an escape (``\\x1b``)."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if unicodedata.category(ch) in _HIDDEN:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


# The non-ASCII characters the program writes, and what an ASCII-only terminal gets.
_ASCII = str.maketrans(
    {
        "♠": "S",
        "♥": "H",
        "♦": "D",
        "♣": "C",
        "─": "-",
        "▒": "#",
        "·": "|",
        "—": "-",
        "–": "-",
        "…": "...",
        "×": "x",
        "⋮": ":",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
    }
)
#: A sample of what the table draws: a stream that cannot encode these cannot show it.
GLYPHS = "♠♥♦♣─▒·—–…×⋮"


def to_ascii(text: str) -> str:
    """``text`` with the program's own symbols spelt in ASCII (suits as letters)."""
    return text.translate(_ASCII)


def speaks_unicode(stream: object) -> bool:
    """Whether a text stream can take the card symbols and the table's lines."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        GLYPHS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
