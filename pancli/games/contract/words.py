"""Each contract-game event in words, as the table says it: "Rosa lays off K♦ on meld 3",
"Nena holds 30 points". History, undo, the phone pages and JSON ``text`` read these lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pancli.core.words import listed, plural
from pancli.games.frenchpack import shown_codes

Event = Mapping[str, Any]


def _who(e: Event) -> str:
    return str(e.get("player") or "someone")


def _melds(melds: Any) -> str:
    if isinstance(melds, str):
        melds = [m for m in melds.replace("/", "+").replace("|", "+").split("+") if m.strip()]
    return listed(shown_codes(m) for m in melds or ())


def _lay_off(e: Event) -> str:
    meld = e.get("meld")
    return f"{_who(e)} lays off {shown_codes(e.get('cards'))}" + (f" on meld {meld}" if meld is not None else "")


def _out(e: Event) -> str:
    discard = e.get("discard")
    return f"{_who(e)} goes out" + (f", discarding {shown_codes([discard])}" if discard else "")


def _held(held: Any) -> str:
    if isinstance(held, int) and not isinstance(held, bool):
        return plural(held, "point")
    return shown_codes(held) or "no cards"


def _hand(e: Event) -> str:
    points = e.get("points")
    return f"{_who(e)} holds {_held(points if points is not None else e.get('cards'))}"


def _deal(e: Event) -> str:
    contracts = e.get("contracts") or {}
    hands = e.get("hands") or {}
    parts = [f"{who} lays down {_melds(melds)}" for who, melds in contracts.items()]
    parts.append(f"{e.get('out') or 'nobody'} goes out"
                 + (f", discarding {shown_codes([e['discard']])}" if e.get("discard") else ""))
    held = [f"{who} holds {_held(h)}" for who, h in hands.items()]
    return "; ".join(parts + ([", ".join(held)] if held else []))


WORDS: dict[str, Callable[[Event], str]] = {
    "contract": lambda e: f"{_who(e)} lays down the contract: {_melds(e.get('melds'))}",
    "lay_off": _lay_off,
    "out": _out,
    "hand": _hand,
    "deal": _deal,
}


def event_words(event: Event) -> str | None:
    """The event in words, or None for a kind that is not the contract game's."""
    words = WORDS.get(str(event.get("kind")))
    return words(event) if words else None
