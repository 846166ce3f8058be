"""Each Panguingue event in words, as the table says it: "Chuy deals hand 6", "Tito's meld 3 is
fouled". History, undo, the shell, the phone pages and JSON ``text`` all read these lines.

An event as stored is plain data; a word that is not what this pancli would store (an archive
edited by hand) is shown as it is, never refused here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pancli.core.words import listed, possessive
from pancli.games.panguingue.cards import ORDINAL, SUIT_SYMBOL
from pancli.games.panguingue.melds import meld_order

Event = Mapping[str, Any]


def card(code: Any) -> str:
    text = str(code)
    return text[0] + SUIT_SYMBOL[text[1]] if len(text) == 2 and text[1] in SUIT_SYMBOL else text


def cards(codes: Any, as_meld: bool = False) -> str:
    """Cards of a payload (a list of codes, or one text of codes) as the table writes them; a
    meld's in the order the board shows it."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    codes = [str(c) for c in codes or ()]
    if as_meld and all(len(c) == 2 and c[0] in ORDINAL and c[1] in SUIT_SYMBOL for c in codes):
        codes = meld_order(codes)
    return " ".join(card(c) for c in codes)


def groups(melds: Any) -> list[str]:
    """The melds of a split or spread: each a text of codes, or a list of them."""
    return [cards(m, as_meld=True) for m in melds or ()]


def _who(e: Event) -> str:
    return str(e.get("player") or "someone")


def _meld(number: Any) -> str:
    return f"meld {number}"


def _seat_add(e: Event) -> str:
    after = e.get("after")
    return f"{_who(e)} takes a seat" + (f" after {after}" if after else "")


def _deal(e: Event) -> str:
    hand, dealer = e.get("hand"), e.get("dealer")
    what = f"hand {hand}" if hand is not None else "the next hand"
    return f"{dealer} deals {what}" if dealer else f"{what[0].upper()}{what[1:]} is dealt"


def _add(e: Event) -> str:
    to = e.get("to")
    return f"{_who(e)} adds {cards(e.get('cards'))}" + (f" to {_meld(to)}" if to is not None else "")


def _split(e: Event) -> str:
    return f"{_who(e)} splits {_meld(e.get('meld'))} into {listed(groups(e.get('into')))}"


def _borrow(e: Event) -> str:
    return (f"{_who(e)} borrows {cards(e.get('cards'))} from {_meld(e.get('from'))} "
            f"to meld with {cards(e.get('with'))}")


def _spread(e: Event) -> str:
    return f"{_who(e)} lays down {listed(groups(e.get('melds')))}"


def _out(e: Event) -> str:
    laid, to = cards(e.get("cards"), as_meld=e.get("to") is None), e.get("to")
    if not laid:
        return f"{_who(e)} goes out"
    return f"{_who(e)} goes out, adding {laid} to {_meld(to)}" if to is not None else f"{_who(e)} goes out with {laid}"


def _foul(e: Event) -> str:
    if e.get("after_discard"):
        return f"{possessive(_who(e))} foul is found after the discard: the hand is dead"
    return f"{possessive(_who(e))} {_meld(e.get('meld'))} is fouled"


WORDS: dict[str, Callable[[Event], str]] = {
    "seat_add": _seat_add,
    "seat_remove": lambda e: f"{_who(e)} leaves the table",
    "deal": _deal,
    "drop": lambda e: f"{_who(e)} drops",
    "stay": lambda e: f"{_who(e)} stays",
    "meld": lambda e: f"{_who(e)} melds {cards(e.get('cards'), as_meld=True)}",
    "add": _add,
    "split": _split,
    "borrow": _borrow,
    "spread": _spread,
    "out": _out,
    "foul": _foul,
    "dead": lambda e: f"{possessive(_who(e))} hand is dead",
    "void": lambda e: "The hand is void",
    "chop": lambda e: "The last two players chop the tops",
}


def event_words(event: Event) -> str | None:
    """The event in words, or None for a kind that is not Panguingue's."""
    words = WORDS.get(str(event.get("kind")))
    return words(event) if words else None
