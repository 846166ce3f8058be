"""The contract game behind the game contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pancli.core.hints import Hint
from pancli.core.i18n import N_, _
from pancli.core.ledger import Step
from pancli.core.payloads import LIST, TABLE, TEXT, TEXTS, WHOLE, Field, Payloads
from pancli.games.protocol import (
    CommandHooks,
    CompletionKind,
    Event,
    GameBase,
    SessionRow,
    Sheet,
    dealer_of,
    place,
    starting,
)

if TYPE_CHECKING:
    from pancli.core.knobs import Schema
    from pancli.games.contract.board import ContractBoard
    from pancli.games.contract.engine import GameState
    from pancli.games.contract.rules import ContractRules

PANEL = N_("The other games called Pan")  # where `pan --help` lists its commands

_PLAYER, _CARDS = Field(TEXT), Field(TEXTS)

PAYLOADS = Payloads({
    "contract": {"player": _PLAYER, "melds": Field(LIST)},
    "lay_off": {"player": _PLAYER, "meld": Field(WHOLE, nullable=True), "cards": _CARDS},
    "out": {"player": _PLAYER, "discard": Field(TEXT, nullable=True)},
    "hand": {"player": _PLAYER, "cards": _CARDS, "points": Field(WHOLE, nullable=True)},
    "deal": {"out": Field(TEXT, nullable=True), "discard": Field(TEXT, nullable=True), "hands": Field(TABLE),
             "contracts": Field(TABLE)},
})


class Contract(GameBase["ContractRules", "GameState"]):
    """Mendelev's five-deal contract rummy: points per deal, running totals, a winner after deal 5."""

    name = "contract"
    title = N_("Contract rummy (five deals)")
    board_template = "table_contract.html"
    sheet_shows = "points"
    payloads = PAYLOADS
    in_chips = False  # points per deal, not chips
    round_word = "deal"  # its history lists deals, not hands
    tallies = ("points", "deals_played", "deals_won")  # what its engine counts per player

    declarations = "pancli.games.contract.actions"  # its ACTIONS and PACK

    def still_to_record(self, state: GameState) -> Hint | None:
        from pancli.games.contract.actions import still_to_record  # adapter: the game's modules load on first use

        return still_to_record(state)

    def read_cards(self, text: str, rules: ContractRules) -> tuple[str, ...]:
        from pancli.games.contract.engine import parse_cards  # adapter: the game's modules load on first use

        return tuple(c.code for c in parse_cards(text))

    def register_commands(self, cli: CommandHooks) -> None:
        cli.add_group(self.name, "pancli.cli.commands.other_games.contract", "contract_app", PANEL)

    @property
    def schema(self) -> Schema[ContractRules]:
        from pancli.games.contract.rules import SCHEMA  # adapter: the game's modules load on first use

        return SCHEMA

    def new_state(self, rules: ContractRules, players: list[str], dealer: str | None) -> GameState:
        from pancli.games.contract.engine import new_state  # adapter: the game's modules load on first use

        return new_state(rules, players)

    def apply(self, state: GameState, event: Event) -> Step[GameState]:
        from pancli.games.contract.engine import apply  # adapter: the game's modules load on first use

        return apply(state, event)

    def hand_number(self, state: GameState) -> int | None:
        # An event that finishes a deal leaves the state at the start of the next one; it belongs
        # to the deal it scored.
        if state.over or not (state.down or state.table or state.out):
            return len(state.history) or None
        return state.deal

    def hand_open(self, state: GameState) -> bool:
        """A deal is in play once anything of it is recorded (a contract laid, a lay-off, who went
        out, cards left), until its last player's cards left score it."""
        return not state.over and bool(state.down or state.table or state.out or state.leftovers)

    def event_words(self, event: Event, undone: Event | None = None) -> str:
        from pancli.games.contract.words import event_words  # adapter: the game's modules load on first use

        return event_words(event) or super().event_words(event, undone)

    def players(self, state: GameState) -> list[str]:
        return list(state.players)

    def complete(self, kind: CompletionKind, word: str, state: GameState | None = None,
                 owner: str | None = None) -> list[str]:
        if kind == "card":
            from pancli.games.contract.engine import RANK_NAMES  # adapter: the game's modules load on first use
            from pancli.games.frenchpack import card_candidates

            return card_candidates(word, RANK_NAMES)
        if kind == "meld":
            table = state.table if state is not None else ()
            return [str(i) for i, m in enumerate(table, 1) if owner in (None, m.owner) and str(i).startswith(word)]
        if kind == "preset":
            return starting(word, self.schema.presets)
        return []

    def status(self, state: GameState) -> str | None:
        return _("over") if state.over else _("deal {deal}").format(deal=state.deal)

    def board(self, session: SessionRow, state: GameState) -> ContractBoard:
        # adapter: the game's modules load on first use
        from pancli.games.contract.engine import CONTRACTS, DEALS, describe_contract, parse_cards, standings, winners

        players = list(state.players)
        return {"session": session.name, "deal": state.deal, "deals": DEALS,
                "contract": describe_contract(state.deal), "contract_counts": CONTRACTS[state.deal],
                "dealer": dealer_of(session, players, state.deal), "over": state.over,
                "down": list(state.down), "out": state.out,
                "table": [{"number": i, "owner": m.owner, "kind": m.kind, "cards": list(m.cards),
                           "shown": " ".join(str(c) for c in parse_cards(m.cards))}
                          for i, m in enumerate(state.table, 1)],
                "left": {x.player: x.points for x in state.leftovers},
                "totals": {p: state.total(p) for p in players},
                "history": [dict(zip(players, h)) for h in state.history],
                "standings": standings(state), "scoring": state.rules.scoring,
                "winners": winners(state) if state.over else []}

    def sheet(self, state: GameState) -> Sheet:
        from pancli.games.contract.sheet import sheet  # adapter: the game's modules load on first use

        return sheet(state)

    def standings(self, rules_data: Mapping[str, Any],
                  rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
        highest = self.rules_from_dict(rules_data).scoring == "signed"
        for row in rows:
            for stat in self.tallies:
                row.setdefault(stat, 0)

        def key(r: dict[str, Any]) -> int:
            points: int = r["points"]
            return -points if highest else points

        rows = sorted(rows, key=key)
        place(rows, key)
        return rows, list(self.tallies)


if TYPE_CHECKING:  # the type checker holds the adapter to the whole contract, with this game's own types
    from pancli.games.protocol import Game

    _checked: Game[ContractRules, GameState] = Contract()
