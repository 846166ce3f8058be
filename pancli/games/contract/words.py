"""Each contract-game event in words, as the table says it: "Rosa lays off K♦ on meld 3",
"Nena holds 30 points". History, undo, the phone pages and JSON ``text`` read these lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pancli.core.i18n import _, ngettext, pgettext
from pancli.core.words import listed
from pancli.games.frenchpack import shown_codes

Event = Mapping[str, Any]


def _who(e: Event) -> str:
    return str(e.get("player") or pgettext("player", "someone"))


def _melds(melds: Any) -> str:
    if isinstance(melds, str):
        melds = [m for m in melds.replace("/", "+").replace("|", "+").split("+") if m.strip()]
    return listed(shown_codes(m) for m in melds or ())


def _lay_off(e: Event) -> str:
    meld = e.get("meld")
    if meld is None:
        return _("{player} lays off {cards}").format(player=_who(e), cards=shown_codes(e.get("cards")))
    return _("{player} lays off {cards} on meld {meld}").format(player=_who(e), cards=shown_codes(e.get("cards")),
                                                                meld=meld)


def _goes_out(who: str, discard: Any) -> str:
    if discard:
        return _("{player} goes out, discarding {card}").format(player=who, card=shown_codes([discard]))
    return _("{player} goes out").format(player=who)


def _out(e: Event) -> str:
    return _goes_out(_who(e), e.get("discard"))


def _holds(who: str, held: Any) -> str:
    if isinstance(held, int) and not isinstance(held, bool):
        return ngettext("{player} holds {n} point", "{player} holds {n} points", held).format(player=who, n=held)
    cards = shown_codes(held)
    if not cards:
        return _("{player} holds no cards").format(player=who)
    return _("{player} holds {cards}").format(player=who, cards=cards)


def _hand(e: Event) -> str:
    points = e.get("points")
    return _holds(_who(e), points if points is not None else e.get("cards"))


def _deal(e: Event) -> str:
    contracts = e.get("contracts") or {}
    hands = e.get("hands") or {}
    parts = [_("{player} lays down {melds}").format(player=who, melds=_melds(melds)) for who, melds in contracts.items()]
    parts.append(_goes_out(e.get("out") or pgettext("player", "nobody"), e.get("discard")))
    held = [_holds(who, h) for who, h in hands.items()]
    return "; ".join(parts + ([", ".join(held)] if held else []))


def _contract(e: Event) -> str:
    return _("{player} lays down the contract: {melds}").format(player=_who(e), melds=_melds(e.get("melds")))


WORDS: dict[str, Callable[[Event], str]] = {
    "contract": _contract,
    "lay_off": _lay_off,
    "out": _out,
    "hand": _hand,
    "deal": _deal,
}


def event_words(event: Event) -> str | None:
    """The event in words, or None for a kind that is not the contract game's."""
    words = WORDS.get(str(event.get("kind")))
    return words(event) if words else None
