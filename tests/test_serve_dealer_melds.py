"""The dealer's picker with several melds (`/` between them): going out with two new melds is
recorded as `pan meld` then `pan out` would record it, all or nothing; the live verdict judges
new melds, a split and the contract game's lay-down before anything is recorded; and each game's
phone offers only what it has (no chips from the bank in a game of points or letters)."""

import re
import warnings
from contextlib import contextmanager

import pytest

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pancli.web.app import create_app

from helpers import Pan, db_dump

PLAYERS_TOKEN, DEALER_TOKEN, ORIGIN = "players-token-1", "dealer-token-1", "http://testserver"
HAND = ["deal", "meld ana JH QH KH", "meld ben 5S 5S 5S"]
KEYS = iter(range(10**6))


@contextmanager
def dealer(db):
    """The dealer's routes of this database, and a function that posts to one of them."""
    with TestClient(create_app(db, PLAYERS_TOKEN, dealer_token=DEALER_TOKEN), base_url=ORIGIN) as client:
        yield client, poster(client)


def poster(client):
    page = client.get("/dealer", params={"dealer": DEALER_TOKEN})
    csrf = re.search(r'name="pan-csrf" content="([^"]+)"', page.text).group(1)
    headers = {"X-Pan-Dealer": DEALER_TOKEN, "X-Pan-CSRF": csrf, "Origin": ORIGIN}

    def post(route, **body):
        if route == "action":  # a tap names the session the page shows
            seen = client.get("/dealer/api/table", headers=headers).json()["session_uid"]
            body = {"key": f"key-{next(KEYS):08d}", "session": seen, **body}
        return client.post(f"/dealer/api/{route}", json=body, headers=headers)

    return post


@pytest.fixture
def hand(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    for line in HAND:
        Pan(db)(line)
    with dealer(db) as (_client, post):
        yield db, post


def test_going_out_with_two_new_melds_records_as_meld_then_out(hand, tmp_path):
    db, post = hand
    r = post("action", action="out", player="ana", cards="2C 3C 4C 5C / 6D 6H 6C 6S")
    assert r.status_code == 200, r.text
    assert any("goes out" in line for line in r.json()["lines"])
    other = tmp_path / "cli.db"  # the same hand at the keyboard: the meld, then out with the last
    Pan(other)("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    for line in [*HAND, "meld ana 2C 3C 4C 5C", "out ana 6D 6H 6C 6S"]:
        Pan(other)(line)
    assert Pan(db).json("standings") == Pan(other).json("standings")
    assert Pan(db).json("board") == Pan(other).json("board")


def test_going_out_short_of_eleven_with_two_melds_records_nothing(hand):
    db, post = hand
    before = db_dump(db)
    r = post("action", action="out", player="ana", cards="2C 3C 4C / 6D 6H 6C")
    assert r.status_code == 400 and "going out needs 11" in r.json()["error"]
    assert db_dump(db) == before  # the first meld is not left behind


def test_the_verdict_judges_each_new_meld_and_a_split_and_records_nothing(hand):
    db, post = hand
    before = db_dump(db)
    said = post("check", cards="2C 3C 4C 5C / 6D 6H 6C 6S", player="ana").json()
    assert said["valid"] is True and said["text"].splitlines() == [
        "new meld 1: legal rope, no condition; worth 0 from each payer",
        "new meld 2: legal set, no condition; worth 0 from each payer"]
    said = post("check", cards="2C 3C 4C 5C / 6D 6H", player="ana").json()
    assert said["valid"] is False and "new meld 2: not legal" in said["text"]
    said = post("check", cards="JH QH / KH", player="ana", meld=1).json()  # a split of meld 1
    assert said["valid"] is False and said["text"].startswith("not legal: ") and "at least 3" in said["text"]
    assert db_dump(db) == before


def test_a_legal_split_is_judged_as_splitting_would_record_it(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    Pan(db)("deal")
    Pan(db)("meld ana AD 2D 3D 4D 5D 6D")
    with dealer(db) as (client, post):
        before = db_dump(db)
        said = post("check", cards="AD 2D 3D / 4D 5D 6D", player="ana", meld=1).json()
        assert said["valid"] is True and said["text"].startswith("legal: ") and "meld 2" in said["text"], said
        assert db_dump(db) == before


def test_the_contract_games_lay_is_judged_live(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new night --game contract --players Ana,Ben,Cruz,Dee --dealer Dee")
    with dealer(db) as (client, post):
        before = db_dump(db)
        table = client.get("/dealer/api/table", headers={"X-Pan-Dealer": DEALER_TOKEN}).json()
        assert table["checks_melds"] is True and table["checks_cards"] is False
        said = post("check", cards="7S 7H 7D / QC QD QS", player="ana").json()
        assert said["valid"] is True and "lays down the deal-1 contract" in said["text"], said
        said = post("check", cards="7S 7H 7D / QC QD", player="ana").json()
        assert said["valid"] is False and "combination 2 is not a legal meld" in said["text"]
        said = post("check", cards="7S 7H 7D / QC QD QS").json()
        assert said["valid"] is False and "choose who first" in said["text"]
        assert db_dump(db) == before


@pytest.mark.parametrize("game, chips", [("panguingue", True), ("contract", False), ("polish", False)])
def test_chips_from_the_bank_only_in_a_game_of_chips(tmp_path, game, chips):
    db = tmp_path / "pan.db"
    Pan(db)(f"session new night --game {game} --players Ana,Ben,Cruz,Dee --dealer Dee")
    with dealer(db) as (client, post):
        table = client.get("/dealer/api/table", headers={"X-Pan-Dealer": DEALER_TOKEN}).json()
        names = {a["name"] for a in table["actions"]}
        assert ({"buyin", "cashout"} <= names) == chips and not ({"buyin", "cashout"} & names and not chips)
        r = post("action", action="buyin", player="ana", chips=5)
        assert (r.status_code == 200) == chips, r.text
