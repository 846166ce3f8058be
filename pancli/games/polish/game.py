"""Polish Pan behind the game contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pancli.core.i18n import N_, _
from pancli.core.ledger import Step
from pancli.core.payloads import TEXT, Field, Payloads
from pancli.games.protocol import CommandHooks, Event, GameBase, SessionRow, Sheet, dealer_of, place

if TYPE_CHECKING:
    from pancli.core.knobs import Schema
    from pancli.games.polish.board import PolishBoard
    from pancli.games.polish.engine import GameState
    from pancli.games.polish.rules import PolishRules

PANEL = N_("The other games called Pan")  # where `pan --help` lists its commands

PAYLOADS = Payloads({
    "deal": {"loser": Field(TEXT, nullable=True)},
    "clock_flag": {"player": Field(TEXT)},
})


class Polish(GameBase["PolishRules", "GameState"]):
    """The Polish shedding game Pan: a letter of P-A-N for each lost deal; the first to complete it loses."""

    name = "polish"
    title = N_("Polish Pan")
    board_template = "table_polish.html"
    sheet_shows = "letters"
    payloads = PAYLOADS
    in_chips = False  # letters of P-A-N, not chips
    round_word = "deal"  # its history lists deals, not hands
    tallies = ("letters", "deals_played", "deals_lost", "games_lost")  # what its engine counts per player

    declarations = "pancli.games.polish.actions"  # its ACTIONS and PACK

    def read_cards(self, text: str, rules: PolishRules) -> tuple[str, ...]:
        from pancli.games.polish.engine import parse_cards  # adapter: the game's modules load on first use

        return tuple(c.code for c in parse_cards(text))

    def register_commands(self, cli: CommandHooks) -> None:
        cli.add_group(self.name, "pancli.cli.commands.other_games.polish", "polish_app", PANEL)

    @property
    def schema(self) -> Schema[PolishRules]:
        from pancli.games.polish.rules import SCHEMA  # adapter: the game's modules load on first use

        return SCHEMA

    def new_state(self, rules: PolishRules, players: list[str], dealer: str | None) -> GameState:
        from pancli.games.polish.engine import new_state  # adapter: the game's modules load on first use

        return new_state(rules, players)

    def apply(self, state: GameState, event: Event) -> Step[GameState]:
        from pancli.games.polish.engine import apply  # adapter: the game's modules load on first use

        return apply(state, event)

    def hand_number(self, state: GameState) -> int | None:
        return len(state.deals) or None

    def hand_open(self, state: GameState) -> bool:
        """Never: a deal of Polish Pan is recorded in one event once it is over (its loser, or
        none), so between two events no deal of it is in play."""
        return False

    def event_words(self, event: Event, undone: Event | None = None) -> str:
        from pancli.games.polish.words import event_words  # adapter: the game's modules load on first use

        return event_words(event) or super().event_words(event, undone)

    def players(self, state: GameState) -> list[str]:
        return list(state.players)

    def status(self, state: GameState) -> str | None:
        return _("over") if state.over else _("deal {deal}").format(deal=len(state.deals) + 1)

    def board(self, session: SessionRow, state: GameState) -> PolishBoard:
        from pancli.games.polish.engine import standings  # adapter: the game's modules load on first use

        players = list(state.players)
        return {"session": session.name, "word": state.rules.word, "deals": len(state.deals),
                "losers": list(state.deals), "over": state.over, "loser": state.loser,
                "next_dealer": None if state.over else dealer_of(session, players, len(state.deals) + 1),
                "letters": {p: state.letters_of(p) for p in players}, "standings": standings(state),
                "clock_minutes": state.rules.clock_minutes}

    def sheet(self, state: GameState) -> Sheet:
        from pancli.games.polish.sheet import sheet  # adapter: the game's modules load on first use

        return sheet(state)

    def standings(self, rules_data: Mapping[str, Any],
                  rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
        word = self.rules_from_dict(rules_data).word
        for row in rows:
            for stat in self.tallies:
                row.setdefault(stat, 0)
            row["word"] = word[:row["letters"]]
        def key(r: dict[str, Any]) -> int:
            letters: int = r["letters"]
            return letters
        rows = sorted(rows, key=key)
        place(rows, key)
        return rows, ["word", "deals_played", "deals_lost"]


if TYPE_CHECKING:  # the type checker holds the adapter to the whole contract, with this game's own types
    from pancli.games.protocol import Game

    _checked: Game[PolishRules, GameState] = Polish()
