"""A fourth game, defined only in the tests (tests/toy_game.py), plugs into pancli through the Game
protocol alone.

"High card": every deal each player shows one card; the highest wins ``stake`` chips from each
other player. The test registers it, records through the command group made from its declared
action (it writes no command of its own), undoes,
reads standings and history, exports and imports, passes `pan db check` and is shown by `pan serve`
(on the generic table page), changing no pancli module: what the recorder, archives, reports,
database care and the web need of a game is the protocol.
"""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pancli.games import DEFAULT_GAME, GAMES, register
from pancli.games.protocol import Game
from pancli.web.app import create_app

from toy_game import TOKEN, HighCard, nets


@pytest.fixture
def highcard():
    g = register(HighCard())
    yield g
    GAMES.pop(g.name)


def without_ids(events):
    """Events as the log tells them, without the row ids a database gives them."""
    return [({k: v for k, v in e.items() if k not in ("undo_of", "payments")},
             [{k: v for k, v in p.items() if k != "event_id"} for p in e["payments"]]) for e in events]


def test_the_toy_game_keeps_the_contract(highcard):
    assert isinstance(highcard, Game)
    assert not highcard.at_top and highcard.schema.game_option() == " --game highcard"


def test_one_game_only_has_pans_own_commands(highcard):
    """`pan deal` is one game's: the default one's, which says so (its schema, read only when asked)."""
    assert [g.name for g in GAMES.values() if g.at_top] == [DEFAULT_GAME]


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

    table = pan("export hc --format csv").stdout.split("\n\n")[1].splitlines()
    assert table[0] == "player,net,won,deals,buyin,cashout"  # its own counts, then the bank's
    assert "Cruz,0,1,3,50,0" in table
    text = pan("standings").stdout
    assert "deals" in text and "dropped" not in text and "conditions" not in text
    report = pan.json("report")
    assert [list(r)[3:5] for r in report["players"]] == [["won", "deals"]] * 3  # its own counts, no conditions
    assert {r["name"]: (r["won"], r["deals"]) for r in report["players"]} == {"Ana": (1, 3), "Ben": (1, 3), "Cruz": (1, 3)}
    assert not {"hands", "dropped", "conditions", "condition_chips"} & {k for r in report["players"] for k in r}
    head, *rows = pan("report").stdout.splitlines()[1:5]
    assert head.split() == ["player", "net", "won", "deals", "best", "bought", "cashed"]
    assert "conds" not in pan("report").stdout and "best: the player's best hand." in pan("report").stdout

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
    assert "dropped" not in standings["players"][0] and standings["players"][0]["deals"] == 3


def test_its_commands_appear_in_pan_help(pan, highcard):
    """Its group and its command are made from its declaration (GameBase.register_commands)."""
    assert "highcard" in pan("--help").stdout
    group = pan("highcard --help").stdout
    assert "\n\n  High card.\n\n  Example: pan highcard deal Ana=KS Ben=2H\n" in group
    assert "  deal  Record one deal.\n" in group
    shown = pan("highcard deal --help").stdout
    assert "\n\n  Record one deal.\n\n  Example: pan highcard deal Ana=KS Ben=2H\n" in shown
    assert "NAME=CARD for every player." in shown
    refused = pan("highcard deal", code=2)
    assert refused.stderr == "Error: Missing argument 'shown'.\n" and "Traceback" not in refused.stderr


def test_rules_of_the_toy_game(pan, highcard):
    shown = json.loads(pan("rules show --game highcard --preset five --json").stdout)
    assert shown["rules"] == {"stake": 5}


# -- through `pan serve` ------------------------------------------------------------------------

@pytest.fixture
def served(pan, highcard):
    pan("session new hc --game highcard --preset five --players Ana,Ben,Cruz")
    pan("highcard deal ana=KS ben=2H cruz=7D")
    pan("highcard deal ana=3S ben=AH cruz=7D")
    pan("undo")
    pan("buyin cruz 50")
    with TestClient(create_app(pan.db, TOKEN)) as client:
        yield lambda path, **params: client.get(path, params={"token": TOKEN, **params})


def page(r) -> str:
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), r.text
    assert "Traceback" not in r.text and "{&#39;" not in r.text and "None" not in r.text
    return r.text


def test_the_table_page_of_the_toy_game(served):
    html = page(served("/"))
    assert "<h1>High card</h1>" in html and "<h2>Seats</h2>" in html
    for name in ("Ana", "Ben", "Cruz"):
        assert f'href="/player/{name}?token={TOKEN}">{name}</a>' in html
    head = html[html.index("<h2>Standings</h2>"):]
    counts = '<th class="n"><span>{}</span></th>'.format
    assert counts("won") + counts("deals") + counts("buyin") in head  # the counts someone has, not Panguingue's
    assert counts("dropped") not in head and counts("conds") not in head and "conds" not in head
    assert "Ben, Cruz pay Ana 5 each: KS is high" in html  # the last events, with their reasons
    assert "undone" in html


def test_the_history_settle_and_player_pages_of_the_toy_game(served, pan):
    html = page(served("/history"))
    assert "Hand 1" in html and "Hand 2" in html and html.index("Hand 2") < html.index("Hand 1")
    assert "Ana, Cruz pay Ben 5 each: AH is high" in html
    html = page(served("/settle")).replace("&#39;", "'")
    for t in pan.json("settle")["transfers"]:
        assert t["line"] in html
    assert "everyone is square" in html
    html = page(served("/player/ana"))
    assert "<h1>Ana</h1>" in html and "+10" in html and "KS is high" in html
    assert "<dt>won</dt><dd>1</dd>" in html and "<dt>deals</dt><dd>1</dd>" in html  # tonight, its own counts
    assert "<small>High card, in chips</small>" in html and "Panguingue" not in html
    nights = html[html.index("Net over time"):]
    assert "<th>won</th><th>deals</th><th>total</th>" in nights and "<td>1</td><td>1</td>" in nights
    for word in ("dropped", "conditions", "hands"):
        assert f"<dt>{word}</dt>" not in html and f"<th>{word}</th>" not in html


def test_the_career_of_a_toy_game_player_shows_its_own_counts(served, pan):
    career = pan.json("player ana")
    assert career["won"] == 1 and "hands" not in career and "dropped" not in career
    assert "win_rate" not in career and "drop_rate" not in career  # no hands to rate them by
    assert [{k: n[k] for k in ("session", "net", "won", "deals", "running")} for n in career["nights"]] == [
        {"session": "hc", "net": 10, "won": 1, "deals": 1, "running": 10}]
    assert "dropped" not in career["nights"][0] and "conditions" not in career["nights"][0]
    text = pan("player ana").stdout
    assert text.startswith("Ana: 1 session, won 1, net +10.\n") and "Best night: hc" in text
    head = next(line for line in text.splitlines() if "date" in line)
    assert head.split("┃")[1:-1] == [" date       ", " session ", " net ", " won ", " deals ", " running "]
    assert "hc" in page(served("/sessions"))


def test_the_json_of_the_toy_game_is_the_clis(served, pan):
    assert served("/api/board").json() == {"session": "hc", "game": "highcard", "seats": ["Ana", "Ben", "Cruz"]}
    assert served("/api/standings").json() == pan.json("standings")
    assert served("/api/history", all="1").json() == pan.json("history")
    assert served("/api/history").json()["hands"] == [1, 2]
    assert served("/api/settle").json() == pan.json("settle")
    assert served("/api/player/ana").json() == pan.json("player ana")
    assert [r["name"] for r in served("/api/sessions").json()] == ["hc"]


def completions(sh, text: str) -> list[str]:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from pancli.cli.shell.completion import completer

    return [c.text for c in completer(sh).get_completions(Document(text), CompleteEvent(completion_requested=True))]


def test_the_shell_completes_and_shows_the_toy_game(tmp_path, highcard):
    from pancli.cli.shell.board import prompt_text
    from pancli.cli.shell.table_shell import TableShell

    sh = TableShell(db=tmp_path / "hc.db")
    try:
        assert completions(sh, "session new hc --game highcard --preset ") == ["one", "five"]
        assert sh.execute("session new hc --game highcard --preset one --players Ana,Ben,Cruz").ok
        assert completions(sh, "high") == ["highcard"]
        assert completions(sh, "highcard ") == ["deal"]
        assert completions(sh, "rules show --game highcard --preset f") == ["five"]
        assert completions(sh, "rules show --preset cardroom") == ["cardroom-ca"]  # the default game's
        assert completions(sh, "seat remove b") == ["Ben"]
        assert completions(sh, "standings --session h") == ["hc"]
        assert completions(sh, "add ana 4h --to ") == []  # the toy game has no melds to number
        assert prompt_text(sh) == "hc> "
        shown = sh.execute("highcard deal ana=KS ben=2H cruz=7D")
        assert shown.ok and shown.board == ["night: Ana +2 · Ben -1 · Cruz -1"]
    finally:
        sh.close()


def test_pan_rules_show_of_the_toy_game(pan, highcard):
    shown = pan("rules show --game highcard --preset five").stdout
    assert "High card house rules: preset five" in shown
    assert "stake" in shown and "chips the highest card wins from each other player" in shown
    assert "stake = 5  (one: 1)" in shown
    assert "(recorded only)" not in shown  # nothing of it is recorded only
    reference = pan("rules show --markdown --game highcard").stdout
    assert "## High card" in reference and "| `five` | five chips a deal | `stake = 5` |" in reference


def test_the_toy_game_declares_its_payloads(pan, highcard, tmp_path):
    pan("session new hc --game highcard --players Ana,Ben")
    pan("highcard deal ana=KS ben=2H")
    archive = tmp_path / "hc.json"
    pan(f"export hc --format json -o {archive}")
    data = json.loads(archive.read_text(encoding="utf-8"))
    data["events"][0]["payload"]["cards"] = ["KS", "2H"]  # a list where the game says a table
    archive.write_text(json.dumps(data), encoding="utf-8")
    refused = pan(f"import {archive} --as hc-bad", code=2)
    assert "payload 'cards': must be a table" in refused.stderr


def test_the_dealer_records_the_toy_games_own_action_with_its_pack(pan, highcard):
    """`pan serve --dealer` for the toy game: its page lays out its own pack and offers its own
    action, made from its declaration alone, and a deal tapped there is the CLI's."""
    import re

    pan("session new hc --game highcard --preset five --players Ana,Ben,Cruz")
    origin = "http://testserver"
    with TestClient(create_app(pan.db, TOKEN, dealer_token="toy-dealer"), base_url=origin) as client:
        html = client.get("/dealer", params={"dealer": "toy-dealer"})
        assert html.status_code == 200, html.text
        assert html.text.count('data-card="') == 52 and 'data-card="TS"' in html.text
        csrf = re.search(r'name="pan-csrf" content="([^"]+)"', html.text).group(1)
        headers = {"X-Pan-Dealer": "toy-dealer", "X-Pan-CSRF": csrf, "Origin": origin}
        table = client.get("/dealer/api/table", headers=headers).json()
        assert [(a["name"], a["face"]) for a in table["actions"]] == [("deal", "form"), ("buyin", "form"),
                                                                      ("cashout", "form")]
        r = client.post("/dealer/api/action", headers=headers,
                        json={"key": "toy-key-0001", "action": "deal", "cards": {"ana": "ks", "Ben": "2H", "cruz": "7D"},
                              "session": table["session_uid"]})
        assert r.status_code == 200, r.text
        assert r.json()["lines"][0] == "Deal 1: Ana wins with KS."
    assert nets(pan) == {"Ana": 10, "Ben": -5, "Cruz": -5}
    career = pan.json("player ana")
    assert career["best_night"] == {"session": "hc", "date": career["nights"][0]["date"], "net": 10}
