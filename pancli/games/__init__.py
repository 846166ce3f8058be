"""The games pancli keeps score for, behind one interface the recorder and reports use.

A game declares its house rules with the knob schema (``schema``: pancli.core.knobs; rules files are
read by pancli.app.rulesfile), turns them to and from plain dicts (stored with the session), makes a starting
state, applies one event, and may name a checkpoint event from which the current state can
be rebuilt without replaying the whole night.

Games that keep score in points or letters rather than chips say so through ``standings``:
it reorders the generic standings rows and names the columns that matter for that game.
"""

from __future__ import annotations

from typing import Any

from pancli.core.errors import InputError


class Game:
    """Defaults for the optional parts of the interface."""

    name = ""
    title = ""
    checkpoint_kind: str | None = None  # None: always replay the session from its first event
    zero_sum = False

    @property
    def schema(self):
        """The knob schema of this game's house rules (pancli.core.knobs.Schema)."""
        raise NotImplementedError

    def rules_from_dict(self, data: dict) -> Any:
        """Rules from a stored dict (or a preset name and overrides), every key and value checked."""
        return self.schema.from_dict(data)

    def rules_to_dict(self, rules) -> dict:
        """Every knob and its value: the form stored with a session and in archives."""
        return self.schema.to_dict(rules)

    def restore(self, rules, checkpoint: dict):
        raise NotImplementedError(f"{self.title} keeps no checkpoints")

    def enrich(self, state_before, event: dict, step) -> dict:
        return event

    def standings(self, rules_data: dict, rows: list[dict]) -> tuple[list[dict], list[str]] | None:
        """Game-aware standings from the session's stored rules and the generic rows:
        (rows in ranking order, the columns to show), or None to keep ranking by net chips."""
        return None


class Panguingue(Game):
    name = "panguingue"
    title = "Panguingue"
    checkpoint_kind = "deal"
    zero_sum = True

    @property
    def schema(self):
        from pancli.games.panguingue.rules import SCHEMA

        return SCHEMA

    def new_state(self, rules, players: list[str], dealer: str | None):
        from pancli.games.panguingue.engine import new_state

        return new_state(rules, players, dealer)

    def apply(self, state, event: dict):
        from pancli.games.panguingue.engine import apply

        return apply(state, event)

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


def _place(rows: list[dict], key) -> None:
    for row in rows:
        row["place"] = 1 + sum(1 for other in rows if key(other) < key(row))


class Contract(Game):
    """Mendelev's five-deal contract rummy: points per deal, running totals, a winner after deal 5."""

    name = "contract"
    title = "Contract rummy (five deals)"

    @property
    def schema(self):
        from pancli.games.contract.rules import SCHEMA

        return SCHEMA

    def new_state(self, rules, players: list[str], dealer: str | None):
        from pancli.games.contract.engine import new_state

        return new_state(rules, players)

    def apply(self, state, event: dict):
        from pancli.games.contract.engine import apply

        return apply(state, event)

    def hand_number(self, state) -> int | None:
        # An event that finishes a deal leaves the state at the start of the next one; it belongs
        # to the deal it scored.
        if state.over or not (state.down or state.table or state.out):
            return len(state.history) or None
        return state.deal

    def players(self, state) -> list[str]:
        return list(state.players)

    def standings(self, rules_data: dict, rows: list[dict]):
        highest = self.rules_from_dict(rules_data).scoring == "signed"
        for row in rows:
            for stat in ("points", "deals_played", "deals_won"):
                row.setdefault(stat, 0)
        key = (lambda r: -r["points"]) if highest else (lambda r: r["points"])
        rows = sorted(rows, key=key)
        _place(rows, key)
        return rows, ["points", "deals_played", "deals_won"]


class Polish(Game):
    """The Polish shedding game Pan: a letter of P-A-N for each lost deal; the first to complete it loses."""

    name = "polish"
    title = "Polish Pan"

    @property
    def schema(self):
        from pancli.games.polish.rules import SCHEMA

        return SCHEMA

    def new_state(self, rules, players: list[str], dealer: str | None):
        from pancli.games.polish.engine import new_state

        return new_state(rules, players)

    def apply(self, state, event: dict):
        from pancli.games.polish.engine import apply

        return apply(state, event)

    def hand_number(self, state) -> int | None:
        return len(state.deals) or None

    def players(self, state) -> list[str]:
        return list(state.players)

    def standings(self, rules_data: dict, rows: list[dict]):
        word = self.rules_from_dict(rules_data).word
        for row in rows:
            for stat in ("letters", "deals_played", "deals_lost", "games_lost"):
                row.setdefault(stat, 0)
            row["word"] = word[:row["letters"]]
        key = lambda r: r["letters"]  # noqa: E731
        rows = sorted(rows, key=key)
        _place(rows, key)
        return rows, ["word", "deals_played", "deals_lost"]


GAMES: dict[str, Any] = {"panguingue": Panguingue(), "contract": Contract(), "polish": Polish()}


def game(name: str):
    try:
        return GAMES[name]
    except KeyError:
        from pancli.core.knobs import did_you_mean

        raise InputError(f"unknown game '{name}'{did_you_mean(name, GAMES)}",
                         f"choose one of {', '.join(GAMES)}") from None
