"""The phone pages in the table's words: who deals next, cards laid, the tops apart, a player's own
events and games, each game's result in its own terms, another device's sessions, the settle-up's
sentences."""

from __future__ import annotations

import html as htmllib
import json
import re
import sqlite3
import warnings

from pancli.core.words import signed
from pancli.web.app import create_app

from helpers import pan_in_process as pan, synced

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TOKEN = "words-token"


def page(db, path: str, **params) -> str:
    with TestClient(create_app(db, TOKEN)) as c:
        r = c.get(path, params={"token": TOKEN, **params})
    assert r.status_code == 200, r.text
    return r.text


def text_of(html: str) -> str:
    """What a person reads: the tags out, the entities back, the spaces as one."""
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


def hand_over(db):
    """Ben goes out in hand 1; no new deal yet."""
    for line in ["session new friday --players Ana,Ben,Cruz,Dee --dealer Dee", "deal", "drop cruz",
                 "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH", "meld ben 2C 3C 4C 5C",
                 "out ben 6D 6H 6C"]:
        pan(db, line)


def contract_deal(db):
    """A contract game's first deal, Ana out, the others' cards left counted."""
    for line in ["session new rummy --game contract --players Ana,Ben,Cruz,Dee --dealer Dee",
                 'contract lay ana "7S 7H 7D + QC QD QS"', "contract out ana --discard 2H",
                 "contract left ben 9C 9D", "contract left cruz AS 5H 5D", "contract left dee --points 12"]:
        pan(db, line)


def test_the_table_says_who_deals_next_once_the_hand_is_over(tmp_path):
    db = tmp_path / "p.db"
    hand_over(db)
    board = json.loads(pan(db, "board --json").output)["hand"]
    assert board["over"] and board["next_dealer"] and board["next_eldest"]
    text = text_of(page(db, "/"))
    assert f"Next hand: {board['next_dealer']} deals, {board['next_eldest']} is eldest." in text
    pan(db, "deal")  # the same as the deal then made
    now = json.loads(pan(db, "board --json").output)["hand"]
    assert (now["dealer"], now["eldest"]) == (board["next_dealer"], board["next_eldest"])
    assert "next_dealer" not in now and "Next hand:" not in text_of(page(db, "/"))


def test_cards_laid_in_words_and_the_tops_apart_from_the_players(tmp_path):
    db = tmp_path / "p.db"
    for line in ["session new friday --players Ana,Ben,Cruz,Dee --dealer Dee", "deal", "drop cruz",
                 "meld ben 5S 5S 5S"]:
        pan(db, line)
    html = page(db, "/")
    text = text_of(html)
    assert "/11" not in text and "3 of 11 cards laid" in text and "0 of 11 cards laid" in text
    tops = json.loads(pan(db, "standings --json").output)["pools"]["tops"]
    table = html[html.index('<table class="standings">'):html.index("</table>", html.index('<table class="standings">'))]
    assert "tops" not in table  # the standings are the players'
    assert f"On the tops: {tops} chips." in text
    player = text_of(page(db, "/player/Ben"))
    assert "3 of 11 cards laid" in player and "/11" not in player


def test_a_players_page_lists_their_own_events_not_the_whole_tables(tmp_path):
    db = tmp_path / "p.db"
    hand_over(db)
    text = text_of(page(db, "/player/Ana"))
    mine = section(text, "Tonight's last events", "Career")
    assert "Ana melds J♥ Q♥ K♥" in mine
    assert "Ben melds" not in mine and "Cruz drops" not in mine  # Ana paid for Ben's meld: still Ben's event


def test_the_career_separates_the_games_and_charts_one_point_per_night(tmp_path):
    db = tmp_path / "p.db"
    hand_over(db)
    contract_deal(db)
    assert [n["session"] for n in json.loads(pan(db, "player ana --json").output)["nights"]] == ["friday", "rummy"]
    html = page(db, "/player/Ana")
    text = text_of(html)
    career = section(text, "Career", "Other games")
    assert "rummy" not in career and "nights 1" in career
    assert "Other games" in text and "rummy" in section(text, "Other games", "A read-only view")
    chart = html[html.index("<svg"):html.index("</svg>")]
    assert "polyline" not in chart and chart.count('class="dot"') == 1  # one night: a point, not a flat line


def test_the_chart_places_nights_by_their_dates(tmp_path):
    db = tmp_path / "p.db"
    for name, day in (("one", "2026-10-01"), ("two", "2026-10-02"), ("three", "2026-10-31")):
        for line in [f"session new {name} --players Ana,Ben --dealer Ben", "deal", "meld ana 5S 5S 5S"]:
            pan(db, line)
        con = sqlite3.connect(db)
        with con:
            con.execute("UPDATE sessions SET created_at = ? WHERE name = ?", [f"{day}T21:00:00+00:00", name])
        con.close()
    pan(db, "session new four --players Ana,Ben --dealer Ben")  # the same day as three: the same night
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE sessions SET created_at = ? WHERE name = 'four'", ["2026-10-31T23:00:00+00:00"])
    con.close()
    html = page(db, "/player/Ana")
    chart = html[html.index("<svg"):html.index("</svg>")]
    xs = [float(x) for x in re.findall(r'<circle class="dot" cx="([\d.]+)"', chart)]
    assert len(xs) == 3  # four sessions, three nights
    assert (xs[1] - xs[0]) * 10 < xs[2] - xs[1]  # a day apart, then a month


def test_the_sessions_page_gives_each_games_result_in_its_own_terms(tmp_path):
    db = tmp_path / "p.db"
    hand_over(db)
    contract_deal(db)
    pan(db, "session new polski --game polish --players Ola,Piotr,Zosia")
    pan(db, "polish lost piotr")
    pan(db, "polish lost piotr")
    text = text_of(page(db, "/sessions"))
    polish = json.loads(pan(db, "standings --json --session polski").output)["players"]
    piotr = next(r for r in polish if r["name"] == "Piotr")
    assert len(piotr["word"]) == 2 and f"Piotr {piotr['word']}" in text and "Ola no letters" in text
    contract = json.loads(pan(db, "standings --json --session rummy").output)["players"]
    for r in contract:
        assert f"{r['name']} {signed(r['points'])} points" in text
    rummy = section(text, "rummy", "friday")
    assert "best" not in rummy and "hand" not in rummy  # not a zero-chip Panguingue night


def test_the_sessions_page_marks_another_devices_session_and_names_the_device(tmp_path):
    db = synced(tmp_path)
    text = text_of(page(db, "/sessions"))
    away = section(text, "friday@ana-laptop", "A read-only view")
    assert "read-only" in away and "Recorded on ana-laptop; read-only here" in away
    own = section(text, "Sessions", "friday@ana-laptop")
    assert "read-only" not in own and "Recorded on" not in own


def test_the_settle_page_says_the_settle_ups_sentences(tmp_path):
    db = tmp_path / "p.db"
    for line in ["session new night --players Ana,Ben,Cruz --chip-value 0.5", "buyin ana 20", "buyin ben 20",
                 "buyin cruz 5", "deal", "drop ben", "meld ana 5S 5S 5S", "meld ana 3S 3S 3S", "cashout ben 18"]:
        pan(db, line)
    data = json.loads(pan(db, "settle --json").output)
    text = text_of(page(db, "/settle"))
    assert data["mode_line"] in text and data["bank_line"] in text
    [flag] = data["flags"]
    assert flag["line"] in text and "stack went below zero" not in text
    ana = next(p for p in data["parties"] if p["name"] == "Ana")
    assert ana["line"] in text


def test_no_phone_page_tells_anyone_to_type_a_command(tmp_path):
    db = synced(tmp_path)
    for path in ("/", "/history", "/settle", "/sessions", "/tv", "/player/Ana"):
        text = text_of(page(db, path))
        assert "`" not in text and "pan sync" not in text and "pan serve" not in text, (path, text)
    with TestClient(create_app(db, TOKEN)) as c:
        refused = text_of(c.get("/", params={"token": "wrong-token"}).text)
    assert "`" not in refused and "scan its QR code" in refused


def test_the_settle_page_lays_out_the_night_hand_by_hand_up_to_a_sheets_worth(tmp_path):
    from pancli.web import data

    from helpers import CYCLE

    db = tmp_path / "p.db"
    pan(db, "session new night --players A,B,C,D,E,F")
    for _ in range(3):
        for line in CYCLE:
            pan(db, line)
    text = text_of(page(db, "/settle"))
    grid = section(text, "Hand by hand", "A read-only view")
    assert "hand A B C D E F 1 +54 -13 -13 -13 -13 -2 2 +54" in grid and "total +162" in grid
    limit, data.SHEET_HANDS = data.SHEET_HANDS, 2
    try:
        assert "Hand by hand" not in text_of(page(db, "/settle"))  # more hands than a sheet holds
    finally:
        data.SHEET_HANDS = limit


def test_the_contract_games_pages_say_its_deals_in_one_word(tmp_path):
    """Russian says розыгрыш for a deal of the contract game and сдача for a hand of Panguingue:
    the contract game's table and settle-up never call its deals hands."""
    db = tmp_path / "c.db"
    contract_deal(db)
    seen = lambda path: text_of(re.sub(r"(?s)<script.*?</script>", "", page(db, path, lang="ru")))  # noqa: E731
    table, settle, history = seen("/"), seen("/settle"), seen("/history")
    assert "#2 розыгрыш 1 Ana выходит" in table and "Весь вечер, розыгрыш за розыгрышем" in table
    assert "Розыгрыш за розыгрышем" in settle
    assert "Розыгрыш 1" in history
    assert "сдача" not in (table + settle + history).lower(), (table, settle, history)
