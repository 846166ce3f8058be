"""The games pancli keeps score for, behind one interface the recorder and reports use.

A game turns its rules to and from plain dicts (stored with the session), makes a starting
state, applies one event, and may name a checkpoint event from which the current state can
be rebuilt without replaying the whole night.
"""

from __future__ import annotations

from typing import Any

from pancli.errors import InputError


class Panguingue:
    name = "panguingue"
    title = "Panguingue"
    checkpoint_kind = "deal"
    zero_sum = True

    def rules_from_dict(self, data: dict) -> Any:
        from pancli.houserules import from_dict

        return from_dict(data)

    def rules_to_dict(self, rules) -> dict:
        from pancli.houserules import to_dict

        return to_dict(rules)

    def resolve_rules(self, preset: str | None, rules_file: str | None):
        from pancli.houserules import resolve

        return resolve(preset, rules_file)

    def new_state(self, rules, players: list[str], dealer: str | None):
        from pancli.panguingue import new_state

        return new_state(rules, players, dealer)

    def apply(self, state, event: dict):
        from pancli.panguingue import apply

        return apply(state, event)

    def restore(self, rules, checkpoint: dict):
        """The state just before a recorded deal, from what the deal payload remembers."""
        from pancli.panguingue import PanState

        p = checkpoint["payload"]
        return PanState(rules=rules, seats=list(p["seats"]), next_dealer=p["dealer"], hands=p["hand"] - 1)

    def enrich(self, state_before, event: dict, step) -> dict:
        """Fill in what the core decided, so a replay from this event needs nothing earlier."""
        if event["kind"] == "deal":
            hand = step.state.hand
            return {**event, "dealer": hand.dealer, "seats": list(state_before.seats), "hand": hand.number}
        return event

    def hand_number(self, state) -> int | None:
        return state.hand.number if state.hand else None

    def players(self, state) -> list[str]:
        return state.players()


GAMES: dict[str, Any] = {"panguingue": Panguingue()}


def game(name: str):
    try:
        return GAMES[name]
    except KeyError:
        raise InputError(f"unknown game '{name}'", f"choose one of {', '.join(GAMES)}") from None
