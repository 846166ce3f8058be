"""A fourth game, defined only in the tests: "High card" (every deal each player shows one card;
the highest wins ``stake`` chips from each other player), plugged into pancli through the Game
protocol alone; and the same game with one more verb, `concede`, added by one declaration plus
its engine handler. tests/test_toy_game.py and tests/test_one_declaration.py hold what they do."""

from __future__ import annotations

from dataclasses import dataclass

from pancli.core.errors import InputError
from pancli.core.knobs import INT, KnobRules, Schema, Schema as KnobSchema, knob
from pancli.core.ledger import Params, Payment, Step, Tally
from pancli.core.payloads import TABLE, TEXT, Field, Payloads
from pancli.games.actions import BANK_ACTIONS, CARD_EACH, PLAYER, Action, Param
from pancli.games.protocol import Event, GameBase

RANKS = "23456789TJQKA"


@dataclass(frozen=True)
class HighCardRules(KnobRules):
    stake: int = knob(1, INT, (1, 100), "chips the highest card wins from each other player")


SCHEMA = Schema(HighCardRules, game="highcard", title="High card", presets={"one": {}, "five": {"stake": 5}},
                notes={"one": "one chip a deal", "five": "five chips a deal"}, default_preset="one")


def word(code: str, params: Params) -> str:
    return f"{params['card']} is high"


@dataclass(frozen=True)
class HighCardState:
    rules: HighCardRules
    players: tuple[str, ...]
    deals: int = 0


DEAL = Action("deal", ("highcard", "deal"), "Record one deal.", "Deal",
              (Param("cards", CARD_EACH, "NAME=CARD for every player.", many=True, arg="shown"),),
              lambda v: [{"kind": "deal", "cards": dict(v["cards"])}], ("deal",),
              example="pan highcard deal Ana=KS Ben=2H")


class HighCard(GameBase[HighCardRules, HighCardState]):
    name = "highcard"
    title = "High card"
    zero_sum = True
    payloads = Payloads({"deal": {"cards": Field(TABLE)}})  # NAME → the card shown
    actions = (DEAL, *BANK_ACTIONS)
    tallies = ("won", "deals")  # its standings show no Panguingue counts
    pack = tuple(rank + suit for rank in RANKS for suit in "SHDC")

    def read_cards(self, text: str, rules: HighCardRules) -> tuple[str, ...]:
        cards = tuple(w.upper() for w in text.replace(",", " ").split())
        bad = [c for c in cards if c not in self.pack]
        if bad:
            raise InputError(f"no card {bad[0]!r} in the pack", "write a rank and a suit, e.g. KS")
        return cards

    @property
    def schema(self) -> KnobSchema:
        return SCHEMA

    def new_state(self, rules: HighCardRules, players: list[str], dealer: str | None) -> HighCardState:
        if len(players) < 2:
            raise InputError("high card needs two players", "list them with --players")
        return HighCardState(rules, tuple(players))

    def apply(self, state: HighCardState, event: Event) -> Step[HighCardState]:
        if event["kind"] != "deal":
            raise InputError(f"high card has no '{event['kind']}'", "record deals")
        shown = event["cards"]
        if sorted(shown) != sorted(state.players):
            raise InputError("every player shows one card", f"players: {', '.join(state.players)}")
        best = max(shown, key=lambda p: RANKS.index(shown[p][0]))
        stake = state.rules.stake
        payments = [Payment(p, best, stake, "high_card", Params(card=shown[best]), wording=word)
                    for p in state.players if p != best]
        tallies = [Tally(p, "deals") for p in state.players] + [Tally(best, "won")]
        new = HighCardState(state.rules, state.players, state.deals + 1)
        return Step(new, payments, tallies, [f"Deal {new.deals}: {best} wins with {shown[best]}."])

    def hand_number(self, state: HighCardState) -> int | None:
        return state.deals or None

    def players(self, state: HighCardState) -> list[str]:
        return list(state.players)


def nets(pan, session=None):
    data = pan.json("standings" + (f" --session {session}" if session else ""))
    return {p["name"]: p["net"] for p in data["players"]}


TOKEN = "toy-token"


# The declaration: the verb, its parameter, its help, the event it makes.
CONCEDE = Action("concede", ("highcard", "concede"), "A player gives the deal up and pays each other player.",
                 "Concede", (Param("player", PLAYER, "Who gives the deal up."),),
                 lambda v: [{"kind": "concede", "player": v["player"]}], ("concede",),
                 example="pan highcard concede ben")


def conceded(code: str, params: Params) -> str:
    return "conceded"


class HighCardWithConcede(HighCard):
    payloads = Payloads({"deal": {"cards": Field(TABLE)}, "concede": {"player": Field(TEXT)}})
    actions = (DEAL, CONCEDE, *BANK_ACTIONS)

    # The engine's handler of the new event.
    def apply(self, state: HighCardState, event: Event) -> Step[HighCardState]:
        if event["kind"] != "concede":
            return super().apply(state, event)
        who = event["player"]
        if who not in state.players:
            raise InputError(f"{who} is not at the table", f"players: {', '.join(state.players)}")
        payments = [Payment(who, p, state.rules.stake, "conceded", Params(), wording=conceded)
                    for p in state.players if p != who]
        new = HighCardState(state.rules, state.players, state.deals + 1)
        return Step(new, payments, [Tally(p, "deals") for p in state.players], [f"Deal {new.deals}: {who} concedes."])
