"""The types of the views (pancli/app/view_types.py and each game's board) are what the views give.

The types are for the type checker only, so nothing at run time holds them to the JSON: these
tests do. Each view's keys are the type's required keys, and of its optional ones only those it
declares; the nested parts likewise.
"""

from typing import NotRequired, get_origin, get_type_hints

import pytest
from starlette.testclient import TestClient

from pancli.app.view_types import EventJson, HistoryJson, HistoryPageJson, PaymentJson, SettleJson
from pancli.core.settle import FlagJson, PartyJson, TransferJson
from pancli.games.contract.board import ContractBoard, TableMeld
from pancli.games.panguingue.board import HandJson, MeldJson, PanguingueBoard, SeatJson
from pancli.games.polish.board import PolishBoard
from pancli.web.app import create_app

TOKEN = "types-token"


def shaped(value: dict, kind) -> None:
    # (a module with postponed annotations leaves NotRequired unread in __required_keys__)
    hints = get_type_hints(kind, include_extras=True)
    optional = set(kind.__optional_keys__) | {k for k, t in hints.items() if get_origin(t) is NotRequired}
    required = set(hints) - optional
    keys = set(value)
    assert required <= keys, (kind.__name__, required - keys)
    assert keys <= set(hints), (kind.__name__, keys - set(hints))


@pytest.fixture
def night(pan):
    pan("session new tonight --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25")
    for line in ["deal", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH", "buyin ana 20",
                 "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C", "deal", "meld dee AS 2S 3S", "undo"]:
        pan(line)
    return pan


def test_a_board_of_panguingue_is_its_type(pan):
    pan("session new fri --players Ana,Ben,Cruz")
    shaped(pan.json("board"), PanguingueBoard)  # before the first deal: no hand
    assert pan.json("board")["hand"] is None
    for line in ["deal", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH"]:
        pan(line)
    board = pan.json("board")
    shaped(board, PanguingueBoard)
    shaped(board["hand"], HandJson)
    for seat in board["hand"]["players"]:
        shaped(seat, SeatJson)
        for meld in seat["melds"]:
            shaped(meld, MeldJson)
    pan("meld ben 2C 3C 4C 5C")
    pan("out ben 6D 6H 6C")
    over = pan.json("board")["hand"]
    shaped(over, HandJson)
    assert over["over"] and {"next_dealer", "next_eldest"} <= set(over)


def test_the_boards_of_the_other_games_are_their_types(pan):
    pan("session new rummy --game contract --players Ana,Ben,Cruz,Dee --dealer Dee")
    pan('contract lay ana "7S 7H 7D + QC QD QS"')
    board = pan.json("contract status")
    shaped(board, ContractBoard)
    assert board["table"]
    for meld in board["table"]:
        shaped(meld, TableMeld)
    pan("session new polski --game polish --players Ola,Piotr,Zosia")
    pan("polish lost piotr")
    shaped(pan.json("polish status"), PolishBoard)


def test_history_and_settle_are_their_types(night):
    history = night.json("history")
    shaped(history, HistoryJson)
    assert any(e["payments"] for e in history["events"])
    for e in history["events"]:
        shaped(e, EventJson)
        for p in e["payments"]:
            shaped(p, PaymentJson)
    settle = night.json("settle")
    shaped(settle, SettleJson)
    assert settle["banked"] and settle["transfers"]
    for party in settle["parties"]:
        shaped(party, PartyJson)
    for t in settle["transfers"]:
        shaped(t, TransferJson)
    for f in settle["flags"]:
        shaped(f, FlagJson)


def test_the_pages_history_is_its_type(night):
    with TestClient(create_app(night.db, TOKEN)) as client:
        page = client.get("/api/history", params={"token": TOKEN}).json()
        everything = client.get("/api/history", params={"token": TOKEN, "all": "1"}).json()
        one_hand = client.get("/api/history", params={"token": TOKEN, "hand": "1"}).json()
    shaped(page, HistoryPageJson)
    assert page["page"] == 1 and page["pages"] == 1 and page["hands"] == [1, 2]
    shaped(everything, HistoryJson)
    shaped(one_hand, HistoryJson)
    assert {e["hand"] for e in one_hand["events"]} == {1}
