"""Each Panguingue event in words, as the table says it: "Chuy deals hand 6", "Tito's meld 3 is
fouled". History, undo, the shell, the phone pages and JSON ``text`` all read these lines.

An event as stored is plain data; a word that is not what this pancli would store (an archive
edited by hand) is shown as it is, never refused here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pancli.core.i18n import ENGLISH, _, language
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


def whose(player: str) -> str:
    """A player's name as the owner of something: ``Tito's``, ``Chris'`` in English; the name
    itself in another language, whose sentence places it (``{whose}`` in a message)."""
    return possessive(player) if language() == ENGLISH else player


def _who(e: Event) -> str:
    return str(e.get("player") or _("someone"))


def _and(items: list[str]) -> str:
    return listed(items, _("and"))


def _seat_add(e: Event) -> str:
    after = e.get("after")
    if after:
        return _("{player} takes a seat after {after}").format(player=_who(e), after=after)
    return _("{player} takes a seat").format(player=_who(e))


def _deal(e: Event) -> str:
    hand, dealer = e.get("hand"), e.get("dealer")
    if dealer:
        if hand is not None:
            return _("{dealer} deals hand {number}").format(dealer=dealer, number=hand)
        return _("{dealer} deals the next hand").format(dealer=dealer)
    return _("Hand {number} is dealt").format(number=hand) if hand is not None else _("The next hand is dealt")


def _add(e: Event) -> str:
    to = e.get("to")
    if to is not None:
        return _("{player} adds {cards} to meld {number}").format(player=_who(e), cards=cards(e.get("cards")), number=to)
    return _("{player} adds {cards}").format(player=_who(e), cards=cards(e.get("cards")))


def _split(e: Event) -> str:
    return _("{player} splits meld {number} into {melds}").format(
        player=_who(e), number=e.get("meld"), melds=_and(groups(e.get("into"))))


def _borrow(e: Event) -> str:
    return _("{player} borrows {cards} from meld {number} to meld with {with_cards}").format(
        player=_who(e), cards=cards(e.get("cards")), number=e.get("from"), with_cards=cards(e.get("with")))


def _spread(e: Event) -> str:
    return _("{player} lays down {melds}").format(player=_who(e), melds=_and(groups(e.get("melds"))))


def _out(e: Event) -> str:
    laid, to = cards(e.get("cards"), as_meld=e.get("to") is None), e.get("to")
    if not laid:
        return _("{player} goes out").format(player=_who(e))
    if to is not None:
        return _("{player} goes out, adding {cards} to meld {number}").format(player=_who(e), cards=laid, number=to)
    return _("{player} goes out with {cards}").format(player=_who(e), cards=laid)


def _foul(e: Event) -> str:
    who = _who(e)
    if e.get("after_discard"):
        return _("{whose} foul is found after the discard: the hand is dead").format(whose=whose(who), player=who)
    return _("{whose} meld {number} is fouled").format(whose=whose(who), player=who, number=e.get("meld"))


WORDS: dict[str, Callable[[Event], str]] = {
    "seat_add": _seat_add,
    "seat_remove": lambda e: _("{player} leaves the table").format(player=_who(e)),
    "deal": _deal,
    "drop": lambda e: _("{player} drops").format(player=_who(e)),
    "stay": lambda e: _("{player} stays").format(player=_who(e)),
    "meld": lambda e: _("{player} melds {cards}").format(player=_who(e), cards=cards(e.get("cards"), as_meld=True)),
    "add": _add,
    "split": _split,
    "borrow": _borrow,
    "spread": _spread,
    "out": _out,
    "foul": _foul,
    "dead": lambda e: _("{whose} hand is dead").format(whose=whose(_who(e)), player=_who(e)),
    "void": lambda e: _("The hand is void"),
    "chop": lambda e: _("The last two players chop the tops"),
}


def event_words(event: Event) -> str | None:
    """The event in words, or None for a kind that is not Panguingue's."""
    words = WORDS.get(str(event.get("kind")))
    return words(event) if words else None
