"""The contract every game keeps with the rest of pancli.

The recorder, re-scoring, reports, archives, the board, standings, the shell's completion and
the command line talk to a game only through these methods; none of them looks inside a
game's state. A game is pure: it turns events into states and payments, and states into
plain data for people and scripts. ``GameBase`` gives the optional parts their defaults.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from pancli.core.ledger import Step


@runtime_checkable
class Game(Protocol):
    name: str              # stored with each session: never rename
    title: str             # for people
    zero_sum: bool         # every chip a player wins another player (or a pool) pays
    checkpoint_kind: str | None  # an event from which the state can be rebuilt, or None: replay all
    commands: str | None   # "module:attribute" of a Typer app mounted as `pan NAME`, or None

    # -- house rules ------------------------------------------------------------------------
    @property
    def schema(self) -> Any:
        """The knob schema of the game's house rules (``pancli.core.knobs.Schema``): knobs, presets."""

    def rules_from_dict(self, data: dict) -> Any:
        """Rules from their stored form (a session's rules, a rules file's keys); validates."""

    def rules_to_dict(self, rules: Any) -> dict:
        """The stored form of rules: plain JSON/TOML values."""

    # -- playing ----------------------------------------------------------------------------
    def new_state(self, rules: Any, players: list[str], dealer: str | None) -> Any:
        """The state before the first event; refuses a table the rules do not allow."""

    def apply(self, state: Any, event: dict) -> Step:
        """One event applied: the new state, the payments, tallies and lines it makes."""

    def restore(self, rules: Any, checkpoint: dict) -> Any:
        """The state just before a checkpoint event, from what its payload remembers."""

    def enrich(self, state_before: Any, event: dict, step: Step) -> dict:
        """The event as stored: with whatever the core decided that a replay must not recompute."""

    def hand_number(self, state: Any) -> int | None:
        """The hand (or deal) an event that left this state belongs to."""

    # -- looking ----------------------------------------------------------------------------
    def players(self, state: Any) -> list[str]:
        """Every name a command may refer to now."""

    def seats(self, state: Any) -> list[str]:
        """Who sits at the table now, in playing order."""

    def active_players(self, state: Any) -> list[str]:
        """The players still in the current hand (all players between hands)."""

    def hand_open(self, state: Any) -> bool:
        """Whether a hand is in play (a session cannot be closed then)."""

    def meld_numbers(self, state: Any, owner: str | None = None) -> list[int]:
        """Numbers of the melds on the table (of one owner), as commands refer to them."""

    def status(self, state: Any) -> str | None:
        """A few words on where the game is, for the shell's prompt: "hand 3", "deal 2"."""

    def board(self, session: dict, state: Any) -> dict:
        """The table now, as JSON-ready data (`pan board --json` and the web view)."""

    def standings(self, rules_data: dict, rows: list[dict]) -> tuple[list[dict], list[str]] | None:
        """Rows in ranking order and the columns to show, or None to rank by net chips."""


class GameBase:
    """Defaults for the optional parts of the contract."""

    name = ""
    title = ""
    zero_sum = False
    checkpoint_kind: str | None = None
    commands: str | None = None

    def rules_from_dict(self, data: dict):
        return self.schema.from_dict(data)

    def rules_to_dict(self, rules) -> dict:
        return self.schema.to_dict(rules)

    def restore(self, rules, checkpoint: dict):
        raise NotImplementedError(f"{self.title} keeps no checkpoints")

    def enrich(self, state_before, event: dict, step) -> dict:
        return event

    def seats(self, state) -> list[str]:
        return self.players(state)

    def active_players(self, state) -> list[str]:
        return self.players(state)

    def hand_open(self, state) -> bool:
        return False

    def meld_numbers(self, state, owner: str | None = None) -> list[int]:
        return []

    def status(self, state) -> str | None:
        return None

    def board(self, session: dict, state) -> dict:
        return {"session": session["name"], "game": self.name, "seats": self.seats(state)}

    def standings(self, rules_data: dict, rows: list[dict]):
        return None


def place(rows: list[dict], key) -> None:
    """Shared places for equal scores (1, 2, 2, 4)."""
    for row in rows:
        row["place"] = 1 + sum(1 for other in rows if key(other) < key(row))


def dealer_of(session: dict, players: list[str], number: int) -> str:
    """Who deals deal ``number``: the first dealer, then one seat on in playing order each deal."""
    first = session["dealer"] if session["dealer"] in players else players[0]
    return players[(players.index(first) + number - 1) % len(players)]
