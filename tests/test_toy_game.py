"""A fourth game, defined only here, plugs into pancli through the Game protocol alone.

"High card": every deal each player shows one card; the highest wins ``stake`` chips from each
other player. The test registers it, records through a command group it brings itself, undoes,
reads standings and history, exports and imports, and passes `pan db check`, changing no pancli
module: what the recorder, archives, reports and database care need of a game is the protocol.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import List

import pytest
import typer

from pancli.cli.common import PanGroup
from pancli.cli.context import app_context
from pancli.core.errors import InputError
from pancli.core.knobs import INT, KnobRules, Schema, knob
from pancli.core.ledger import Params, Payment, Step, Tally
from pancli.games import GAMES, register
from pancli.games.protocol import Game, GameBase

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


class HighCard(GameBase):
    name = "highcard"
    title = "High card"
    zero_sum = True
    commands = f"{__name__}:highcard_app"

    @property
    def schema(self):
        return SCHEMA

    def new_state(self, rules, players, dealer):
        if len(players) < 2:
            raise InputError("high card needs two players", "list them with --players")
        return HighCardState(rules, tuple(players))

    def apply(self, state, event):
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

    def hand_number(self, state):
        return state.deals or None

    def players(self, state):
        return list(state.players)


highcard_app = typer.Typer(cls=PanGroup, add_completion=False, pretty_exceptions_enable=False)


@highcard_app.callback()
def highcard_commands():
    """High card: the highest card wins.

    Example: pan highcard deal Ana=KS Ben=2H
    """


@highcard_app.command("deal")
def deal(shown: List[str] = typer.Argument(..., help="NAME=CARD for every player.")):
    """Record one deal.

    Example: pan highcard deal Ana=KS Ben=2H
    """
    rec = app_context().open_recorder()
    cards = {rec.player(name): card.upper() for name, _, card in (w.partition("=") for w in shown)}
    step = rec.record({"kind": "deal", "cards": cards})
    for line in step.lines:
        typer.echo(line)


@pytest.fixture
def highcard():
    g = register(HighCard())
    yield g
    GAMES.pop(g.name)


def nets(pan, session=None):
    data = pan.json("standings" + (f" --session {session}" if session else ""))
    return {p["name"]: p["net"] for p in data["players"]}


def without_ids(events):
    """Events as the log tells them, without the row ids a database gives them."""
    return [({k: v for k, v in e.items() if k not in ("undo_of", "payments")},
             [{k: v for k, v in p.items() if k != "event_id"} for p in e["payments"]]) for e in events]


def test_the_toy_game_keeps_the_contract(highcard):
    assert isinstance(highcard, Game)


def test_a_night_of_high_card(pan, highcard, tmp_path):
    pan("session new hc --game highcard --preset five --players Ana,Ben,Cruz")
    assert "Ana wins with KS" in pan("highcard deal ana=KS ben=2H cruz=7D").stdout
    pan("highcard deal ana=3S ben=AH cruz=7D")
    pan("highcard deal ana=QS ben=2H cruz=KD")
    assert nets(pan) == {"Ana": 0, "Ben": 0, "Cruz": 0}
    pan("undo")
    assert nets(pan) == {"Ana": 5, "Ben": 5, "Cruz": -10}
    pan("highcard deal ana=2S ben=3H cruz=AD")
    pan("buyin cruz 50")
    refused = pan("highcard deal ana=2S", code=2)
    assert refused.stderr.startswith("Error: every player shows one card")
    assert nets(pan) == {"Ana": 0, "Ben": 0, "Cruz": 0}
    history = pan.json("history")
    assert [e["kind"] for e in history["events"]] == ["deal", "deal", "deal", "undo", "deal", "buyin"]
    assert [e["voided"] for e in history["events"]] == [False, False, True, False, False, False]
    pan("db check")

    archive = tmp_path / "hc.toml"
    pan(f"export hc --format toml -o {archive}")
    pan(f"import {archive} --as hc-again")
    assert nets(pan, "hc-again") == nets(pan, "hc")
    again = pan.json("history")  # the imported session is the current one now
    assert again["session"] == "hc-again"
    assert without_ids(again["events"]) == without_ids(history["events"])
    pan("db check")
    standings = pan.json("standings --session hc-again")
    assert {p["name"]: (p.get("won", 0), p.get("buyin", 0)) for p in standings["players"]} == \
        {"Ana": (1, 0), "Ben": (1, 0), "Cruz": (1, 50)}


def test_its_commands_appear_in_pan_help(pan, highcard):
    assert "highcard" in pan("--help").stdout
    assert "Record one deal." in pan("highcard deal --help").stdout


def test_rules_of_the_toy_game(pan, highcard):
    shown = json.loads(pan("rules show --game highcard --preset five --json").stdout)
    assert shown["rules"] == {"stake": 5}
