"""Events every game shares: chips bought from or cashed in to the bank.

They move no chips between players, so a game core never sees them; settle-up reads their
tallies. ``apply_event`` is how the recorder, import, `db check` and rescore all apply one
event, so they cannot disagree about bank events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from pancli.core.errors import InputError
from pancli.core.ledger import MAX_CHIPS, StateT, Step, Tally
from pancli.core.words import plural

if TYPE_CHECKING:
    from pancli.core.json_types import JsonObject

BANK_KINDS = ("buyin", "cashout")


class _Core(Protocol[StateT]):
    """What ``apply_event`` needs of a game (pancli.games.protocol.Engine, which core cannot import)."""

    def apply(self, state: StateT, event: JsonObject, /) -> Step[StateT]: ...

    def apply_unworded(self, state: StateT, event: JsonObject, /) -> Step[StateT]: ...


def apply_bank(state: StateT, event: JsonObject) -> Step[StateT]:
    chips = event.get("chips")
    if isinstance(chips, bool) or not isinstance(chips, int) or not 0 < chips <= MAX_CHIPS:
        raise InputError(f"{chips!r} is not a number of chips", f"give a whole number above 0 and at most {MAX_CHIPS:,}")
    verb = "buys" if event["kind"] == "buyin" else "cashes out"
    return Step(state, tallies=[Tally(event["player"], event["kind"], chips)],
                lines=[f"{event['player']} {verb} {plural(chips, 'chip')}."])


def apply_event(game: _Core[StateT], state: StateT, event: JsonObject, worded: bool = True) -> Step[StateT]:
    """One event applied: a bank event here, any other by the game's core (without the lines
    for people, unless ``worded``)."""
    if event.get("kind") in BANK_KINDS:
        return apply_bank(state, event)
    return game.apply(state, event) if worded else game.apply_unworded(state, event)
