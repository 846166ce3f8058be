"""`pan serve --dealer`: the dealer starts the next game of the night from the phone, once."""

import re
import warnings

import pytest

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pancli.storage.catalogs import available
from pancli.web.app import create_app

from helpers import Pan, db_dump, sql_value

PLAYERS_TOKEN = "players-token-1"
DEALER_TOKEN = "dealer-token-1"
ORIGIN = "http://testserver"


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25")
    return db


@pytest.fixture
def client(db):
    with TestClient(create_app(db, PLAYERS_TOKEN, dealer_token=DEALER_TOKEN), base_url=ORIGIN) as c:
        yield c


@pytest.fixture
def headers(client):
    page = client.get("/dealer", params={"dealer": DEALER_TOKEN})
    csrf = re.search(r'name="pan-csrf" content="([^"]+)"', page.text).group(1)
    return {"X-Pan-Dealer": DEALER_TOKEN, "X-Pan-CSRF": csrf, "Origin": ORIGIN}


def seen(client, headers):
    """The session the page shows, as the New game form has it."""
    return client.get("/dealer/api/new-game", headers=headers).json()["session_uid"]


def start(client, headers, key="newgame-0001", **body):
    """A tap on Start the game, from a page that shows the table as it is now (unless ``session`` says)."""
    if "session" not in body:
        body["session"] = seen(client, headers)
    return client.post("/dealer/api/new-game", json={"key": key, **body}, headers=headers)


CONTRACT = {"game": "contract", "name": "fri-contract", "players": ["Dee", "Ana", "Ben"], "dealer": "Ben"}


def test_the_form_proposes_the_games_their_presets_and_the_players(client, headers):
    r = client.get("/dealer/api/new-game", headers=headers)
    assert r.status_code == 200, r.text
    data = r.json()
    from pancli.games import GAMES

    assert [g["name"] for g in data["games"]] == list(GAMES)
    by = {g["name"]: g for g in data["games"]}
    assert by["panguingue"]["chips"] is True and by["contract"]["chips"] is False
    assert by["panguingue"]["preset"] in [p["name"] for p in by["panguingue"]["presets"]]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-contract", by["contract"]["proposed"])
    assert data["players"] == ["Ana", "Ben", "Cruz", "Dee"] and data["chip_value"] == "0.25"


def test_a_new_game_is_created_and_current_as_at_the_keyboard(client, headers, db, tmp_path):
    r = start(client, headers, **CONTRACT)
    assert r.status_code == 200, r.text
    cli = Pan(tmp_path / "cli.db")("session new fri-contract --players Dee,Ana,Ben --dealer Ben --game contract")
    assert r.json()["lines"] == cli.stdout.splitlines() and r.json()["replayed"] is False
    assert Pan(db)("session list").stdout.splitlines()[-1].startswith("* fri-contract  contract")
    table = client.get("/dealer/api/table", headers={**headers, "X-Pan-Follow": "1"}).json()
    assert table["session"] == "fri-contract" and table["seats"] == ["Dee", "Ana", "Ben"]


def test_a_double_tap_makes_one_session(client, headers, db):
    page = seen(client, headers)
    first = start(client, headers, session=page, **CONTRACT)
    again = start(client, headers, session=page, **CONTRACT)  # the table has moved on: to this very tap's game
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["lines"] == first.json()["lines"]
    assert sql_value(db, "SELECT COUNT(*) FROM sessions") == 2
    other = start(client, headers, session=page, **{**CONTRACT, "name": "another"})
    assert other.status_code == 409 and sql_value(db, "SELECT COUNT(*) FROM sessions") == 2


def test_the_players_token_cannot_start_a_game(client, headers, db):
    before = db_dump(db)
    r = start(client, {**headers, "X-Pan-Dealer": PLAYERS_TOKEN}, session=seen(client, headers), **CONTRACT)
    assert r.status_code == 403 and r.json()["error"] == "the players' address is read-only"
    assert db_dump(db) == before


@pytest.mark.parametrize("body, error", [
    ({**CONTRACT, "game": "snap"}, "unknown game 'snap'"),
    ({**CONTRACT, "players": "Dee,Ana"}, "the new game has no list of players"),
    ({**CONTRACT, "players": ["Dee", "dee", "Ben"]}, "'dee' "),
    ({**CONTRACT, "name": ""}, "the new game has no name"),
    ({**CONTRACT, "name": "friday"}, "a session named 'friday' exists already"),
    ({**CONTRACT, "dealer": "Zed"}, "no player 'Zed' in this session"),
    ({**CONTRACT, "preset": "nope"}, "unknown preset 'nope'"),
    ({**CONTRACT, "game": "panguingue", "chip_value": "abc"}, "is not an amount of money"),
    ({**CONTRACT, "players": ["x" * 500]}, "more than"),
    ({**CONTRACT, "name": ["x"]}, "the new game's name is not a short text"),
])
def test_bad_input_is_refused_in_one_line_and_records_nothing(client, headers, db, body, error):
    before = db_dump(db)
    r = start(client, headers, **body)
    assert r.status_code == 400, r.text
    assert error in r.json()["error"] and "\n" not in r.json()["error"] + r.json()["hint"]
    assert "pan " not in r.json()["hint"] and "--" not in r.json()["hint"]
    assert db_dump(db) == before


def test_refused_while_a_hand_is_in_play_and_allowed_once_it_is_over(client, headers, db):
    Pan(db)("deal")
    before = db_dump(db)
    r = start(client, headers, **CONTRACT)
    assert r.status_code == 400 and "still in play" in r.json()["error"]
    assert db_dump(db) == before
    Pan(db)("undo")
    assert start(client, headers, key="newgame-0002", **CONTRACT).status_code == 200


def test_a_fourth_game_is_offered_and_started_with_its_own_preset(client, headers, db):
    from pancli.games import GAMES, register

    from toy_game import HighCard

    register(HighCard())
    try:
        offered = {g["name"]: g for g in client.get("/dealer/api/new-game", headers=headers).json()["games"]}
        assert [p["name"] for p in offered["highcard"]["presets"]] == ["one", "five"]
        r = start(client, headers, game="highcard", name="hc", players=["Ana", "Ben", "Cruz"], preset="five")
        assert r.status_code == 200, r.text
        assert r.json()["lines"] == ["Session hc (High card): Ana, Ben, Cruz. Ana deals first. It is now the current session."]
        assert sql_value(db, "SELECT game FROM sessions WHERE name = 'hc'") == "highcard"
    finally:
        GAMES.pop("highcard")


# -- a New game inherits the night: its money, its currency and its house language ---------------

@pytest.fixture
def polish_db(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new piatek --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.5 --currency PLN "
            "--house-language pl")
    return db


@pytest.fixture
def polish(polish_db):
    """A client of a Polish-speaking night in złoty, and the dealer page's headers (the phone asks
    for no language: the house language speaks)."""
    with TestClient(create_app(polish_db, PLAYERS_TOKEN, dealer_token=DEALER_TOKEN), base_url=ORIGIN) as c:
        page = c.get("/dealer", params={"dealer": DEALER_TOKEN})
        csrf = re.search(r'name="pan-csrf" content="([^"]+)"', page.text).group(1)
        yield c, {"X-Pan-Dealer": DEALER_TOKEN, "X-Pan-CSRF": csrf, "Origin": ORIGIN}


def session_row(db, name):
    return tuple(sql_value(db, f"SELECT {column} FROM sessions WHERE name = '{name}'")
                 for column in ("currency", "language", "chip_value"))


PAN = {"game": "panguingue", "name": "drugi", "players": ["Ana", "Ben", "Cruz", "Dee"], "dealer": "Ana"}


def test_the_form_offers_the_nights_money_and_language_as_the_page_writes_them(polish):
    client, headers = polish
    data = client.get("/dealer/api/new-game", headers=headers).json()
    assert (data["currency"], data["language"], data["chip_value"]) == ("PLN", "pl", "0,5")
    currencies = {c["value"]: c["label"] for c in data["currencies"]}
    assert currencies[""] and currencies["PLN"] == "PLN · złoty polski" and "EUR" in currencies
    assert "XAU" not in currencies and "DEM" not in currencies  # gold, and a money no one pays with now
    assert [lang["value"] for lang in data["languages"]] == ["", *available()]
    assert {lang["value"]: lang["label"] for lang in data["languages"]}["pl"] == "Polski"
    assert re.fullmatch(r"[0-9a-f]{32}", data["session_uid"])


def test_a_new_game_from_the_phone_keeps_the_nights_currency_language_and_chip_value(polish, polish_db):
    client, headers = polish
    r = start(client, headers, **PAN)  # as the page sent it before it had these fields: none of them
    assert r.status_code == 200, r.text
    assert session_row(polish_db, "drugi") == ("PLN", "pl", 0.5)
    table = client.get("/dealer/api/table", headers={**headers, "X-Pan-Follow": "1"}).json()
    assert table["session"] == "drugi" and table["title"] == "Panguingue"  # the next game speaks Polish too
    assert "Sesja" in r.json()["lines"][0]


def test_the_dealer_changes_them_on_the_form_typing_the_amount_as_the_page_writes_it(polish, polish_db):
    client, headers = polish
    r = start(client, headers, **PAN, chip_value="0,25", currency="EUR", language="ru")
    assert r.status_code == 200, r.text
    assert session_row(polish_db, "drugi") == ("EUR", "ru", 0.25)
    r = start(client, headers, key="newgame-0002", **{**PAN, "name": "trzeci"}, chip_value="1 000,5",
              currency="", language="")
    assert r.status_code == 200, r.text
    assert session_row(polish_db, "trzeci") == (None, None, 1000.5)  # none chosen: none kept


@pytest.mark.parametrize("fields, error", [
    ({"chip_value": "abc"}, "Money per chip: 'abc' is not an amount of money"),
    ({"chip_value": "0.33333"}, "Money per chip: 0.33333 has more than 4 decimal places"),
    ({"chip_value": "0.125"}, "Money per chip: 0.125 is not a whole number of PLN's smallest unit"),
    ({"currency": "XYZ"}, "Currency: XYZ is not a currency code"),
    ({"language": "xx"}, "House language: xx is not a language pancli speaks"),
])
def test_a_refused_field_is_named_as_the_form_names_it_never_as_an_option(client, headers, db, fields, error):
    before = db_dump(db)
    r = start(client, headers, **{**PAN, "currency": "PLN", **fields})
    assert r.status_code == 400, r.text
    said = r.json()["error"] + " " + r.json()["hint"]
    assert r.json()["error"] == error, said
    for option in ("--chip-value", "--currency", "--house-language", "--"):
        assert option not in said
    assert db_dump(db) == before


# -- refused while anything is in play --------------------------------------------------------------

@pytest.mark.parametrize("setup, play, error, finish", [
    ("session new fri-c --game contract --players Ana,Ben,Cruz --dealer Ana",
     ["contract lay ana 7S 7H 7D / QC QD QS"], "Contract rummy (five deals): deal 1 is still in play",
     ["contract out ana --discard QH", "contract left ben KC KD 4S", "contract left cruz --points 12"]),
    ("session new fri-p --players Ana,Ben,Cruz,Dee --dealer Ana",
     ["deal"], "Panguingue: hand 1 is still in play", ["void"]),
])
def test_refused_while_a_hand_or_deal_of_any_game_is_in_play(client, headers, db, setup, play, error, finish):
    pan = Pan(db)
    pan(setup)
    for line in play:
        pan(line)
    before = db_dump(db)
    r = start(client, headers, **CONTRACT)
    assert r.status_code == 400 and r.json()["error"] == error, r.text
    assert r.json()["hint"] == "finish it, or undo it, before a new game"
    assert db_dump(db) == before
    for line in finish:
        pan(line)
    assert start(client, headers, key="newgame-0002", **CONTRACT).status_code == 200


def test_polish_pan_records_a_deal_once_over_so_a_new_game_follows_any_deal(client, headers, db):
    pan = Pan(db)
    pan("session new fri-pl --game polish --players Ana,Ben,Cruz --dealer Ana")
    pan("polish lost ben")
    r = start(client, headers, **CONTRACT)
    assert r.status_code == 200, r.text


# -- a session's name is looked up exactly -----------------------------------------------------------

def test_a_new_name_that_starts_an_existing_sessions_name_is_not_a_duplicate(polish, polish_db):
    client, headers = polish
    db = polish_db
    Pan(db)("session new 'Friday night' --players Ana,Ben,Cruz,Dee")
    r = start(client, headers, **{**CONTRACT, "name": "Friday"})
    assert r.status_code == 200, r.text
    assert sql_value(db, "SELECT COUNT(*) FROM sessions WHERE name IN ('Friday', 'Friday night')") == 2
    r = start(client, headers, key="newgame-0002", **{**CONTRACT, "name": "FRIDAY NIGHT"})
    assert r.status_code == 400 and r.json()["error"] == "a session named 'FRIDAY NIGHT' exists already"


# -- refused if the table moved on since the page showed it ------------------------------------------

def test_a_new_game_is_refused_when_the_table_moved_on_meanwhile(client, headers, db):
    page = seen(client, headers)
    Pan(db)("session new keyboard --players Ana,Ben")  # the keyboard starts a game meanwhile
    before = db_dump(db)
    r = start(client, headers, session=page, **CONTRACT)
    assert r.status_code == 409, r.text
    assert r.json()["code"] == "moved_on"
    assert r.json()["error"] == "the table moved on since the page showed it (now: keyboard)"
    assert "\n" not in r.json()["error"] + r.json()["hint"]
    assert db_dump(db) == before
    assert start(client, headers, key="newgame-0002", **CONTRACT).status_code == 200  # from the page as it is now


def test_a_new_game_that_names_no_session_is_refused(client, headers, db):
    before = db_dump(db)
    r = client.post("/dealer/api/new-game", json={"key": "newgame-0001", **CONTRACT}, headers=headers)
    assert r.status_code == 400 and "code" not in r.json()
    assert r.json()["hint"] == "reload the dealer page and tap again"
    assert db_dump(db) == before


def test_the_phones_refusals_of_points_say_the_points_field_never_the_option(client, headers, db):
    Pan(db)("session new fri-c --game contract --players Ana,Ben,Cruz --dealer Ana")
    Pan(db)("contract lay ana 7S 7H 7D / QC QD QS")
    Pan(db)("contract out ana --discard QH")
    before = db_dump(db)
    said = []
    uid = seen(client, headers)
    for body in ({"player": "ben"}, {"player": "ben", "cards": "KC KD", "points": 12}):
        r = client.post("/dealer/api/action", json={"key": f"tap-left-{len(said):04}", "action": "left",
                                                    "session": uid, **body}, headers=headers)
        assert r.status_code == 400, r.text
        said.append(r.json()["error"] + ": " + r.json()["hint"])
    assert said == ["no cards given for Ben: choose the cards, or type the points (0 for none)",
                    "choose the cards or type the points, not both: choose the cards left, e.g. KC KD 4S"]
    assert db_dump(db) == before
