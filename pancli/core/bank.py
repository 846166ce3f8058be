"""Events every game shares: chips bought from or cashed in to the bank.

They move no chips between players, so a game core never sees them; settle-up reads their
tallies. ``apply_event`` is how the recorder, import, `db check` and rescore all apply one
event, so they cannot disagree about bank events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from pancli.core.errors import InputError
from pancli.core.i18n import _, ngettext
from pancli.core.ledger import MAX_CHIPS, StateT, Step, Tally

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
        from pancli.core.numbers import grouped  # noqa: PLC0415 start-up: only a refusal writes the bound

        raise InputError(_("{chips} is not a number of chips").format(chips=repr(chips)),
                         _("give a whole number above 0 and at most {most}").format(most=grouped(MAX_CHIPS)))
    said = (ngettext("{player} buys {n} chip.", "{player} buys {n} chips.", chips) if event["kind"] == "buyin" else
            ngettext("{player} cashes out {n} chip.", "{player} cashes out {n} chips.", chips))
    return Step(state, tallies=[Tally(event["player"], event["kind"], chips)],
                lines=[said.format(player=event["player"], n=chips)])


def apply_event(game: _Core[StateT], state: StateT, event: JsonObject, worded: bool = True) -> Step[StateT]:
    """One event applied: a bank event here, any other by the game's core (without the lines
    for people, unless ``worded``)."""
    if event.get("kind") in BANK_KINDS:
        return apply_bank(state, event)
    return game.apply(state, event) if worded else game.apply_unworded(state, event)
