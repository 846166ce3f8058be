"""Each Polish Pan event in words, as the table says it: "Piotr loses the deal"."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pancli.core.i18n import _

Event = Mapping[str, Any]


def _deal(e: Event) -> str:
    loser = e.get("loser")
    return _("{player} loses the deal").format(player=loser) if loser else _("A deal ends with no loser")


def _flag(e: Event) -> str:
    player = e.get("player")
    if not player:
        return _("someone's time runs out")
    # Translators: "Ana's time runs out" (English adds only ' after a name ending in s)
    if str(player).endswith("s"):
        return _("{player}' time runs out").format(player=player)
    return _("{player}'s time runs out").format(player=player)


WORDS: dict[str, Callable[[Event], str]] = {
    "deal": _deal,
    "clock_flag": _flag,
}


def event_words(event: Event) -> str | None:
    """The event in words, or None for a kind that is not Polish Pan's."""
    words = WORDS.get(str(event.get("kind")))
    return words(event) if words else None
