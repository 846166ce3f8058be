"""How people write several melds at once: one grammar for every command that takes a group.

The melds are separated by ``/`` (``AS 2S 3S / 5S 5S 5S``, no quotes needed on a shell command
line), by ``+`` (as the contract game always wrote them) or by ``|``, which a shell reads as a
pipe and so needs quotes there (``"AS 2S 3S | 5S 5S 5S"``). A separator may stand alone or touch the cards (``3S/5S``); the words
may be quoted together or not: ``AS 2S 3S / 5S 5S 5S``, ``"AS 2S 3S / 5S 5S 5S"`` and
``"AS 2S 3S" / "5S 5S 5S"`` are the same two melds. Empty melds (``/ /``, a separator at an end)
are skipped. Each game reads the cards of each meld with its own pack.

Pure functions only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SEPARATORS = ("/", "|", "+")
SEPARATOR = "/"  # the one the docs and hints write
_SPLIT = re.compile(r"\s*[/|+]\s*")

# Said once, used by every command's --help that takes several melds.
MELDS_HELP = 'melds separated by / (or +, or "|" in quotes): AS 2S 3S / 5S 5S 5S'


def has_separator(words: Iterable[str]) -> bool:
    """Whether the words write more than one meld."""
    return any(sep in w for w in words for sep in SEPARATORS)


def word_pieces(word: str) -> tuple[str, ...]:
    """One typed word as its pieces: the text of cards, with ``/`` wherever a separator stood."""
    out: list[str] = []
    for i, piece in enumerate(_SPLIT.split(word)):
        if i:
            out.append(SEPARATOR)
        if piece.strip():
            out.append(piece.strip())
    return tuple(out)


def meld_texts(words: Iterable[str | tuple[str, ...]] | None, each_word_a_meld: bool = False) -> list[str]:
    """The text of each meld written across the words (plain strings, or ``word_pieces``).

    With ``each_word_a_meld`` and no separator anywhere, every word is one meld, as in
    ``pan split ben 2 "AD 2D 3D" "4D 5D 6D"``.
    """
    pieces = [p if isinstance(p, tuple) else word_pieces(p) for p in words or ()]
    separated = any(SEPARATOR in p for p in pieces)
    groups: list[list[str]] = [[]]
    for word in pieces:
        for item in word:
            if item == SEPARATOR:
                groups.append([])
            else:
                groups[-1].append(item)
        if each_word_a_meld and not separated:
            groups.append([])
    return [" ".join(g) for g in groups if g]


def write_melds(melds: Iterable[Iterable[str]]) -> str:
    """Melds as the grammar writes them: ``AS 2S 3S / 5S 5S 5S``."""
    return f" {SEPARATOR} ".join(" ".join(m) for m in melds)
