"""Each Polish Pan event in words, as the table says it: "Piotr loses the deal"."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pancli.core.words import possessive

Event = Mapping[str, Any]


def _deal(e: Event) -> str:
    loser = e.get("loser")
    return f"{loser} loses the deal" if loser else "A deal ends with no loser"


WORDS: dict[str, Callable[[Event], str]] = {
    "deal": _deal,
    "clock_flag": lambda e: f"{possessive(str(e.get('player') or 'someone'))} time runs out",
}


def event_words(event: Event) -> str | None:
    """The event in words, or None for a kind that is not Polish Pan's."""
    words = WORDS.get(str(event.get("kind")))
    return words(event) if words else None
