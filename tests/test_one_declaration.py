"""Adding a verb to a game is one declaration plus its engine handler.

The toy game of tests/toy_game.py gains a second action, `concede` (a player gives the deal
up and pays the stake to each other player): an ``Action`` in its ``actions`` and the engine's
handling of its event, and nothing else (``HighCardWithConcede``, beside it in tests/toy_game.py).
It is then a command of `pan highcard …` (its help, its refusals, what it records), a line of
`pan table`, and a button of the dealer's page that records the same event.
"""

from __future__ import annotations

import re
import warnings

import pytest

from pancli.games import GAMES, register
from pancli.games.actions import PLAYER

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pancli.web.app import create_app

from toy_game import TOKEN, HighCardWithConcede, nets


@pytest.fixture
def highcard():
    g = register(HighCardWithConcede())
    yield g
    GAMES.pop(g.name)


def test_the_new_verb_is_a_command(pan, highcard):
    pan("session new hc --game highcard --preset five --players Ana,Ben,Cruz")
    assert "concede" in pan("highcard --help").stdout
    shown = pan("highcard concede --help").stdout
    assert "\n\n  A player gives the deal up and pays each other player.\n\n" \
           "  Example: pan highcard concede ben\n" in shown
    assert "Who gives the deal up." in shown
    assert pan("highcard concede be").stdout.startswith("Deal 1: Ben concedes.\n")  # a unique start of a name
    assert nets(pan) == {"Ana": 5, "Ben": -10, "Cruz": 5}
    refused = pan("highcard concede zed", code=2)
    assert refused.stderr.startswith("Error: ") and refused.stderr.count("\n") == 1  # one line
    assert "Traceback" not in refused.stderr
    assert pan("highcard concede", code=2).stderr == "Error: Missing argument 'player'.\n"
    assert nets(pan) == {"Ana": 5, "Ben": -10, "Cruz": 5}  # the refusals recorded nothing
    history = pan.json("history")
    assert [(e["kind"], e["payload"]) for e in history["events"]] == [("concede", {"kind": "concede", "player": "Ben"})]
    pan("undo")
    assert nets(pan) == {"Ana": 0, "Ben": 0, "Cruz": 0}
    pan("db check")


def test_the_new_verb_is_a_line_of_the_table_shell(tmp_path, highcard):
    from pancli.cli.shell.table_shell import TableShell

    sh = TableShell(db=tmp_path / "hc.db")
    try:
        assert sh.execute("session new hc --game highcard --preset one --players Ana,Ben,Cruz").ok
        shown = sh.execute("highcard concede cruz")
        assert shown.ok and "Deal 1: Cruz concedes." in shown.out
        assert shown.board == ["night: Ana +1 · Ben +1 · Cruz -2"]
        refused = sh.execute("highcard concede")
        assert not refused.ok and "Missing argument" in refused.err
    finally:
        sh.close()


def test_the_new_verb_is_a_button_of_the_dealers_page(pan, highcard):
    pan("session new hc --game highcard --preset five --players Ana,Ben,Cruz")
    origin = "http://testserver"
    with TestClient(create_app(pan.db, TOKEN, dealer_token="toy-dealer"), base_url=origin) as client:
        html = client.get("/dealer", params={"dealer": "toy-dealer"})
        assert html.status_code == 200, html.text
        csrf = re.search(r'name="pan-csrf" content="([^"]+)"', html.text).group(1)
        headers = {"X-Pan-Dealer": "toy-dealer", "X-Pan-CSRF": csrf, "Origin": origin}
        table = client.get("/dealer/api/table", headers=headers).json()
        offered = {a["name"]: a for a in table["actions"]}
        assert list(offered) == ["deal", "concede", "buyin", "cashout"]
        concede = offered["concede"]
        assert concede["face"] == "seat" and concede["label"] == "Concede"  # a button on each seat
        assert [(p["name"], p["kind"], p["required"]) for p in concede["params"]] == [("player", PLAYER, True)]
        r = client.post("/dealer/api/action", headers=headers,
                        json={"key": "toy-key-0002", "action": "concede", "player": "ana", "session": table["session_uid"]})
        assert r.status_code == 200, r.text
        assert r.json()["lines"][0] == "Deal 1: Ana concedes."
    assert nets(pan) == {"Ana": -10, "Ben": 5, "Cruz": 5}
    assert [e["payload"] for e in pan.json("history")["events"]] == [{"kind": "concede", "player": "Ana"}]  # the CLI's event
