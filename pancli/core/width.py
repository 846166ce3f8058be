"""How many terminal cells text takes, and where a line without spaces may break.

Widths come from ``wcwidth`` (the width library prompt_toolkit already brings): two cells for a
wide or full-width character (kanji, kana, ``￥``), none for a combining mark or a zero-width
character, one for the rest. East Asian "ambiguous" characters (♠ ♥ ♣, box drawing, ``·``, ``…``,
Cyrillic, ``ł``) are one cell, as most terminals draw them, or two where a terminal is set to draw
them wide (``use_ambiguous_wide``: ``--ambiguous-wide`` or ``PANCLI_AMBIGUOUS_WIDE=1``).

Text whose every character is plainly one cell is measured by its length: ``wcwidth`` is loaded
only for a line that holds a wide, zero-width or (when they are wide) ambiguous character, so
English, Polish and Russian start up without it.

A line with no spaces to break at (Japanese) breaks where UAX #14 allows (``wcwidth.linebreak``:
never before 。、」）！ or a small kana, classes CL, CP, EX and NS; never after 「（), by phrase
where it can (BudouX's Japanese model): ``break_points``. Both are loaded only for such a line.

Pure functions, and one setting (the width of ambiguous characters) that the command line sets
once for a process.
"""

from __future__ import annotations

import re
import unicodedata
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

_ambiguous: ContextVar[int] = ContextVar("pancli_ambiguous_width", default=1)

# East Asian widths that are one cell whatever the terminal does (N neutral, Na narrow, H half-width).
_NARROW = frozenset(("N", "Na", "H"))
# Categories that may take no cell at all: marks, controls and format characters (zero-width
# spaces and joiners), and Hangul's medial vowels (U+1160-U+11FF, "N" but drawn inside a syllable).
_MAYBE_NONE = frozenset(("Mn", "Me", "Mc", "Cc", "Cf"))


def use_ambiguous_wide(wide: bool) -> None:
    """Measure East Asian ambiguous characters as two cells (a terminal set to draw them wide) or
    one (the default), from now on in this context."""
    _ambiguous.set(2 if wide else 1)


def ambiguous_wide() -> bool:
    """Whether ambiguous characters are measured two cells wide."""
    return _ambiguous.get() == 2


@lru_cache(maxsize=4096)
def _plain(ch: str, ambiguous: int) -> bool:
    """Whether ``ch`` is one cell on every terminal set so."""
    eaw = unicodedata.east_asian_width(ch)
    if eaw not in _NARROW and not (eaw == "A" and ambiguous == 1):
        return False
    return unicodedata.category(ch) not in _MAYBE_NONE and not 0x1160 <= ord(ch) <= 0x11FF


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes (escape sequences such as colours take none)."""
    if text.isascii() and text.isprintable():
        return len(text)
    ambiguous = _ambiguous.get()
    if all(_plain(ch, ambiguous) for ch in text):
        return len(text)
    from wcwidth import width  # noqa: PLC0415 start-up: only a line with a character not one cell wide

    return width(text, ambiguous_width=ambiguous)


def char_cells(ch: str) -> int:
    """The cells of one character (0, 1 or 2), as ``cells`` counts them; a control character is 0."""
    if ch.isascii():
        return 1 if ch.isprintable() else 0
    if _plain(ch, _ambiguous.get()):
        return 1
    from wcwidth import wcwidth  # noqa: PLC0415 start-up: as in cells

    return max(0, wcwidth(ch, ambiguous_width=_ambiguous.get()))


def has_unspaced(text: str) -> bool:
    """Whether ``text`` holds a character of a script written without spaces between words (wide
    or full-width: kanji, kana, hangul, full-width letters), where a line may break with no space.
    Each character that is not ASCII is looked at once (a page of text holds the same few)."""
    if text.isascii():
        return False
    width = unicodedata.east_asian_width
    return any(width(ch) in "WF" for ch in set("".join(_NOT_ASCII.findall(text))))


_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")


def _phrases(text: str) -> set[int]:
    """Where BudouX's Japanese model ends a phrase in ``text`` (indices into it)."""
    import budoux  # noqa: PLC0415 start-up: only a Japanese line that must break

    ends, at = set(), 0
    for phrase in _parser(budoux).parse(text):
        at += len(phrase)
        ends.add(at)
    return ends


_PARSER: list[Any] = []


def _parser(budoux: Any) -> Any:
    """BudouX's Japanese parser, made once a process."""
    if not _PARSER:
        _PARSER.append(budoux.load_default_japanese_parser())
    return _PARSER[0]


def break_points(text: str) -> tuple[list[int], set[int]]:
    """Where a run of text without spaces may break (indices into it, 0 and its end left out),
    as UAX #14 allows, and of those the ones that end a phrase (BudouX) and so are breaks to
    prefer. Never inside a run of ASCII letters and digits (a card code, a number, a command)."""
    from wcwidth.linebreak import iter_line_breaks  # noqa: PLC0415 start-up: only a line without spaces

    allowed = [b.index for b in iter_line_breaks(text, hyphens=False)
               if 0 < b.index < len(text) and not (text[b.index - 1].isascii() and text[b.index].isascii()
                                                    and text[b.index - 1].isalnum() and text[b.index].isalnum())]
    if not allowed:
        return [], set()
    kana = any("\u3040" <= ch <= "\u30ff" for ch in text)
    preferred = _phrases(text) & set(allowed) if kana else set(allowed)
    return allowed, preferred
