"""Panguingue behind the game contract: the adapter the recorder, reports and commands use."""

from __future__ import annotations

import functools

from pancli.games.protocol import GameBase


@functools.cache
def _engine():
    """The engine, imported on first use (a command that never applies an event does not load it)
    and then looked up in a dictionary: a replay applies every event of a long night."""
    from pancli.games.panguingue import engine

    return engine


class Panguingue(GameBase):
    name = "panguingue"
    title = "Panguingue"
    checkpoint_kind = "deal"
    zero_sum = True
    commands = None  # its commands are pan's own top-level ones (deal, meld, out …)

    @property
    def schema(self):
        from pancli.games.panguingue.rules import SCHEMA

        return SCHEMA

    def new_state(self, rules, players: list[str], dealer: str | None):
        from pancli.games.panguingue.engine import new_state

        return new_state(rules, players, dealer)

    def apply(self, state, event: dict):
        return _engine().apply(state, event)

    def restore(self, rules, checkpoint: dict):
        """The state just before a recorded deal, from what the deal payload remembers."""
        from pancli.games.panguingue.engine import PanState

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

    def seats(self, state) -> list[str]:
        return list(state.seats)

    def active_players(self, state) -> list[str]:
        hand = state.hand
        if hand is None or hand.over:
            return state.players()
        return [p for p in hand.order if hand.status.get(p) == "in"]

    def hand_open(self, state) -> bool:
        return state.hand_open

    def meld_numbers(self, state, owner: str | None = None) -> list[int]:
        hand = state.hand
        if hand is None:
            return []
        return [n for n, m in hand.melds.items() if owner in (None, m.owner)]

    def status(self, state) -> str | None:
        hand = state.hand
        if hand is None:
            return None
        return f"hand {hand.number}" + (" over" if hand.over else "")

    def board(self, session: dict, state) -> dict:
        from pancli.games.panguingue.melds import meld_order

        hand = state.hand
        out = {"session": session["name"], "seats": list(state.seats), "hand": None}
        if hand is None:
            return out
        rules = state.rules
        players = []
        for p in hand.order:
            melds = [{"number": m.number, "cards": meld_order(m.cards), "condition": m.tag,
                      "worth": m.worth(rules)} for m in hand.melds_of(p)]
            players.append({"name": p, "status": hand.status[p], "stayed": p in hand.stayed,
                            "melded": hand.melded(p), "melds": melds, "chips_this_hand": hand.moved.get(p, 0)})
        out["hand"] = {"number": hand.number, "dealer": hand.dealer, "eldest": hand.eldest, "over": hand.over,
                       "result": hand.result or "in play", "winner": hand.winner, "tops": hand.tops_total(),
                       "players": players}
        return out
