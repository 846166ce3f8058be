"""The games pancli keeps score for, behind one interface the recorder and reports use.

A game turns its rules to and from plain dicts (stored with the session), makes a starting
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

    def rules_from_dict(self, data: dict) -> Any:
        from pancli.games.panguingue.rules import from_dict

        return from_dict(data)

    def rules_to_dict(self, rules) -> dict:
        from pancli.games.panguingue.rules import to_dict

        return to_dict(rules)

    def resolve_rules(self, preset: str | None, rules_file: str | None):
        from pancli.games.panguingue.rules import resolve

        return resolve(preset, rules_file)

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


def _load_toml_rules(path: str, from_dict):
    """House rules from a TOML file: the keys of the game's rules, optionally ``preset = NAME``."""
    import tomllib
    from pathlib import Path

    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"rules file {p} does not exist", "check the path") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read rules file {p}", str(e)) from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{p} is not valid TOML ({e})", "fix the line it names") from None
    try:
        return from_dict(data)
    except InputError as e:
        raise InputError(f"{p}: {e.message}", e.hint) from None


def _resolve(preset: str | None, rules_file: str | None, rules_class, default: str):
    if preset and rules_file:
        raise InputError("give --preset or --rules, not both", "a rules file can name its preset itself")
    if rules_file:
        return _load_toml_rules(rules_file, rules_class.from_dict)
    return rules_class.preset(preset or default)


def _place(rows: list[dict], key) -> None:
    for row in rows:
        row["place"] = 1 + sum(1 for other in rows if key(other) < key(row))


class Contract(Game):
    """Mendelev's five-deal contract rummy: points per deal, running totals, a winner after deal 5."""

    name = "contract"
    title = "Contract rummy (five deals)"

    def rules_from_dict(self, data: dict):
        from pancli.games.contract.engine import ContractRules

        return ContractRules.from_dict(data)

    def rules_to_dict(self, rules) -> dict:
        return rules.to_dict()

    def resolve_rules(self, preset: str | None, rules_file: str | None):
        from pancli.games.contract.engine import ContractRules

        return _resolve(preset, rules_file, ContractRules, "mendelev")

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

    def rules_from_dict(self, data: dict):
        from pancli.games.polish.engine import PolishRules

        return PolishRules.from_dict(data)

    def rules_to_dict(self, rules) -> dict:
        return rules.to_dict()

    def resolve_rules(self, preset: str | None, rules_file: str | None):
        from pancli.games.polish.engine import PolishRules

        return _resolve(preset, rules_file, PolishRules, "standard")

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
        raise InputError(f"unknown game '{name}'", f"choose one of {', '.join(GAMES)}") from None
