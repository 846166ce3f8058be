"""`pan serve --dealer`: the write routes' trust rules, each refusal, and each action recorded once."""

import json
import re
import threading
import warnings

import pytest

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pancli.web.app import create_app
from pancli.web.dealer import MAX_BODY

from helpers import Pan, db_dump, event_count, sql_value, start_server, stop_server

PLAYERS_TOKEN = "players-token-1"
DEALER_TOKEN = "dealer-token-1"
ORIGIN = "http://testserver"


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    return db


@pytest.fixture
def client(db):
    with TestClient(create_app(db, PLAYERS_TOKEN, dealer_token=DEALER_TOKEN), base_url=ORIGIN) as c:
        yield c


def csrf_of(client) -> str:
    page = client.get("/dealer", params={"dealer": DEALER_TOKEN})
    assert page.status_code == 200
    return re.search(r'name="pan-csrf" content="([^"]+)"', page.text).group(1)


@pytest.fixture
def headers(client):
    return {"X-Pan-Dealer": DEALER_TOKEN, "X-Pan-CSRF": csrf_of(client), "Origin": ORIGIN}


KEYS = iter(range(10**6))


def session_uid(client, headers) -> str:
    """The session the dealer's page shows now, as a tap names it."""
    return client.get("/dealer/api/table", headers=headers).json()["session_uid"]


def act(client, headers, key=None, **body):
    """A tap, made on the session the page shows now unless ``session`` says otherwise (None: a
    tap that names none, as a page from before the sessions were named)."""
    key = key or f"key-{next(KEYS):08d}"
    if "session" not in body:
        body["session"] = session_uid(client, headers)
    elif body["session"] is None:
        del body["session"]
    return client.post("/dealer/api/action", json={"key": key, **body}, headers=headers)


# -- what is recorded, in the CLI's words --------------------------------------------------------

def test_an_action_answers_with_the_words_the_cli_prints(client, headers, tmp_path):
    other = tmp_path / "cli.db"
    cli = Pan(other)
    cli("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    for body, line in [({"action": "deal"}, "deal"), ({"action": "drop", "player": "cruz"}, "drop cruz"),
                       ({"action": "meld", "player": "ben", "cards": "5S 5S 5S"}, "meld ben 5S 5S 5S")]:
        r = act(client, headers, **body)
        assert r.status_code == 200, r.text
        assert r.json()["lines"] == cli(line).stdout.splitlines()
        assert r.json()["replayed"] is False


def test_a_refused_action_says_why_and_records_nothing(client, headers, db):
    assert act(client, headers, action="deal").status_code == 200
    before = db_dump(db)
    r = act(client, headers, action="meld", player="ben", cards="5S 6H 7D")
    assert r.status_code == 400
    cli = Pan(db)("meld ben 5S 6H 7D", ok=False)
    assert r.json()["error"] in cli.output and "rope" in r.json()["error"]
    r = act(client, headers, action="drop", player="zed")
    assert r.status_code == 400 and r.json()["error"] == "no player 'zed' in this session"
    assert "players: Ana, Ben, Cruz, Dee" in r.json()["hint"]
    assert db_dump(db) == before


def test_undo_shows_what_it_takes_back_and_refuses_when_the_table_moved_on(client, headers, db):
    act(client, headers, action="deal")
    act(client, headers, action="drop", player="cruz")
    preview = client.get("/dealer/api/undo", headers=headers).json()
    assert preview["text"] == "Undo takes back #2: Cruz drops" and preview["seq"] == 2
    assert client.get("/dealer/api/undo", headers=headers).json() == preview  # a preview records nothing
    Pan(db)("drop dee")  # another dealer, at the keyboard
    r = act(client, headers, action="undo", seq=preview["seq"])
    assert r.status_code == 400 and "the last event is now #3" in r.json()["error"]
    r = act(client, headers, action="undo", seq=3)
    assert r.status_code == 200 and r.json()["lines"][0] == "Undid #3: Dee drops"


def table_of(client, headers) -> dict:
    return client.get("/dealer/api/table", headers=headers).json()


def test_redo_records_again_what_undo_took_back_until_something_new_is_recorded(client, headers, db):
    act(client, headers, action="deal")
    act(client, headers, action="drop", player="cruz")
    act(client, headers, action="drop", player="dee")
    standings = Pan(db).json("standings")
    assert table_of(client, headers)["redo"] == {"seq": None, "text": "Nothing to redo."}
    assert act(client, headers, action="redo").status_code == 400  # nothing undone
    act(client, headers, action="undo", seq=3)
    Pan(db)("undo")  # undone at the keyboard counts too
    redo = table_of(client, headers)["redo"]
    assert redo["text"] == "Redo records again: Cruz drops"
    r = act(client, headers, action="redo", seq=redo["seq"])
    assert r.status_code == 200 and r.json()["lines"][0] == "Redid: Cruz drops", r.json()
    redo = table_of(client, headers)["redo"]
    assert redo["text"] == "Redo records again: Dee drops"
    r = act(client, headers, action="redo", seq=redo["seq"] - 1)  # a stale page
    assert r.status_code == 400 and "moved on" in r.json()["error"]
    assert act(client, headers, action="redo", seq=redo["seq"]).status_code == 200
    assert Pan(db).json("standings") == standings  # as if never undone
    assert table_of(client, headers)["redo"]["seq"] is None
    act(client, headers, action="undo", seq=redo["seq"] + 2)
    act(client, headers, action="drop", player="ben")  # something new: what was undone stays undone
    assert table_of(client, headers)["redo"]["seq"] is None


def test_the_dealer_sees_standings_tops_who_deals_and_the_winner(client, headers, db):
    t = table_of(client, headers)
    assert t["chips"] is True and [r["name"] for r in t["standings"]] == ["Ana", "Ben", "Cruz", "Dee"]
    assert t["deals"] == "Next hand: Dee deals, Ana is eldest."
    Pan(db)("seat add Eve")
    Pan(db)("deal --dealer Ana")
    act(client, headers, action="drop", player="ben")
    t = table_of(client, headers)
    assert t["deals"] == "Ana deals, Ben is eldest." and t["tops"] >= 2
    assert t["order"] == ["Ben", "Cruz", "Dee", "Eve", "Ana"]  # declarations go from the eldest
    assert {r["name"]: r["chips"] for r in t["standings"]}["Ben"] < 0
    for who in ("cruz", "dee", "eve"):
        act(client, headers, action="drop", player=who)
    t = table_of(client, headers)
    assert t["winner"] == "Ana" and t["result"] and t["deals"].startswith("Next hand:")


def test_the_check_judges_like_pan_check_and_records_nothing(client, headers, db):
    before = event_count(db)
    r = client.post("/dealer/api/check", json={"cards": "5S 5S 5S"}, headers=headers)
    assert r.json() == {"valid": True, "pays": 4,
                        "text": "legal set, one-suit valle set in spades; worth 4 from each payer"}
    r = client.post("/dealer/api/check", json={"cards": "5S 6H 7D"}, headers=headers)
    assert r.json()["valid"] is False and "rope" in r.json()["text"]
    r = client.post("/dealer/api/check", json={"cards": "5S", "onto": "5S 5S 5S"}, headers=headers)
    assert r.json()["valid"] is True and "2 from each payer" in r.json()["text"] and r.json()["text"].count("from each payer") == 1
    assert event_count(db) == before


def test_the_check_of_cards_without_a_meld_says_what_add_will_do(client, headers, db):
    act(client, headers, action="deal")
    assert act(client, headers, action="meld", player="ana", cards="5S 5S 5S").status_code == 200
    check = lambda **b: client.post("/dealer/api/check", json=b, headers=headers).json()  # noqa: E731
    said = check(cards="5S", player="ana")
    assert said["valid"] is True and said["onto"] == 1, said
    assert said["text"].startswith("Add puts it on meld 1: legal addition") and "at least 3" not in said["text"]
    r = act(client, headers, action="add", player="ana", cards="5S")  # and Add does just that
    assert r.status_code == 200 and "5" in " ".join(r.json()["lines"])
    assert check(cards="5S", player="ben")["valid"] is False  # Ben has no meld it fits
    assert "at least 3" in check(cards="5S")["text"]  # nobody chosen: judged as a new meld, as before


def test_every_panguingue_action_of_a_hand_and_the_bank(client, headers, db):
    for body in [{"action": "deal"}, {"action": "stay", "player": "ana"}, {"action": "stay", "player": "ben"},
                 {"action": "drop", "player": "cruz"}, {"action": "meld", "player": "ben", "cards": "5S 5S 5S"},
                 {"action": "add", "player": "ben", "cards": "5S"},
                 {"action": "meld", "player": "ana", "cards": "JH QH KH"},
                 {"action": "meld", "player": "ben", "cards": "2C 3C 4C 5C"},
                 {"action": "out", "player": "ben", "cards": "6D 6H 6C"},
                 {"action": "buyin", "player": "ana", "chips": 100}, {"action": "cashout", "player": "ana", "chips": 40},
                 {"action": "join", "player": "Eve", "after": "ben"}, {"action": "leave", "player": "eve"}]:
        r = act(client, headers, **body)
        assert r.status_code == 200, (body, r.text)
    cli = tmp = db.parent / "cli.db"
    pan = Pan(tmp)
    pan("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    for line in ["deal", "stay ana", "stay ben", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH",
                 "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C", "buyin ana 100", "cashout ana 40",
                 "seat add Eve --after ben", "seat remove eve"]:
        pan(line)
    assert Pan(db).nets() == Pan(cli).nets()
    assert Pan(db)("db check").exit_code == 0


# -- nothing recorded twice -----------------------------------------------------------------------

def test_a_retry_with_the_same_key_is_answered_again_and_recorded_once(client, headers, db):
    first = act(client, headers, key="tap-000000001", action="deal")
    before = event_count(db)
    again = act(client, headers, key="tap-000000001", action="deal")
    assert again.status_code == 200 and again.json()["lines"] == first.json()["lines"]
    assert again.json()["replayed"] is True
    assert event_count(db) == before == 1


def test_a_double_tap_at_once_is_recorded_once(db):
    with TestClient(create_app(db, PLAYERS_TOKEN, dealer_token=DEALER_TOKEN), base_url=ORIGIN) as c:
        headers = {"X-Pan-Dealer": DEALER_TOKEN, "X-Pan-CSRF": csrf_of(c), "Origin": ORIGIN}
        act(c, headers, action="deal")
        answers = []

        def tap():
            answers.append(act(c, headers, key="double-tap-0001", action="drop", player="cruz"))

        taps = [threading.Thread(target=tap) for _ in range(4)]
        for t in taps:
            t.start()
        for t in taps:
            t.join()
    assert [a.status_code for a in answers] == [200] * 4
    assert sorted(a.json()["replayed"] for a in answers) == [False, True, True, True]
    assert sql_value(db, "SELECT count(*) FROM events WHERE kind = 'drop'") == 1
    assert sql_value(db, "SELECT count(*) FROM dealer_actions") == 2


def test_a_replayed_key_with_another_body_is_refused(client, headers, db):
    act(client, headers, key="tap-000000002", action="deal")
    before = db_dump(db)
    r = act(client, headers, key="tap-000000002", action="drop", player="cruz")
    assert r.status_code == 409 and "already used for another action" in r.json()["error"]
    assert db_dump(db) == before


def test_a_refused_action_keeps_its_key_free(client, headers, db):
    r = act(client, headers, key="tap-000000003", action="drop", player="cruz")  # no hand dealt yet
    assert r.status_code == 400
    assert sql_value(db, "SELECT count(*) FROM dealer_actions") == 0


def test_an_action_without_its_own_key_is_refused(client, headers, db):
    r = client.post("/dealer/api/action", json={"action": "deal"}, headers=headers)
    assert r.status_code == 400 and "key" in r.json()["error"]
    assert event_count(db) == 0


# -- trust: every refusal changes nothing ---------------------------------------------------------

def refused(client, db, status, **kw):
    before = db_dump(db)
    r = client.post("/dealer/api/action", **kw)
    assert r.status_code == status, r.text
    assert r.json()["error"] and db_dump(db) == before
    return r.json()


def test_the_players_token_is_refused_on_every_write(client, headers, db):
    bad = {**headers, "X-Pan-Dealer": PLAYERS_TOKEN}
    said = refused(client, db, 403, json={"key": "k-00000001", "action": "deal"}, headers=bad)
    assert said["error"] == "the players' address is read-only"
    assert client.post("/dealer/api/check", json={"cards": "5S"}, headers=bad).status_code == 403
    assert client.get("/dealer", params={"dealer": PLAYERS_TOKEN}).status_code == 403
    assert client.get("/dealer/api/table", headers=bad).status_code == 403
    assert client.post("/", params={"token": PLAYERS_TOKEN}).status_code == 405  # the players' site is read-only


def test_the_dealer_token_only_in_the_address_is_refused(client, headers, db):
    refused(client, db, 403, json={"key": "k-00000002", "action": "deal"},
            params={"dealer": DEALER_TOKEN}, headers={k: v for k, v in headers.items() if k != "X-Pan-Dealer"})


def test_a_write_without_the_csrf_value_is_refused(client, headers, db):
    said = refused(client, db, 403, json={"key": "k-00000003", "action": "deal"},
                   headers={k: v for k, v in headers.items() if k != "X-Pan-CSRF"})
    assert "check value" in said["error"]
    refused(client, db, 403, json={"key": "k-00000004", "action": "deal"}, headers={**headers, "X-Pan-CSRF": "made.up"})


def test_a_cross_origin_write_is_refused(client, headers, db):
    said = refused(client, db, 403, json={"key": "k-00000005", "action": "deal"},
                   headers={**headers, "Origin": "http://evil.example"})
    assert said["error"] == "a write must come from the dealer's own page"
    refused(client, db, 403, json={"key": "k-00000006", "action": "deal"},
            headers={k: v for k, v in headers.items() if k != "Origin"})
    refused(client, db, 403, json={"key": "k-00000007", "action": "deal"},
            headers={**headers, "Sec-Fetch-Site": "cross-site"})


def test_an_oversized_write_is_refused(client, headers, db):
    body = json.dumps({"key": "k-00000008", "action": "deal", "pad": "x" * MAX_BODY})
    said = refused(client, db, 413, content=body, headers={**headers, "Content-Type": "application/json"})
    assert said["error"] == "the action is too large"


def test_a_body_nested_too_deep_or_a_number_in_other_digits_is_one_line_400(client, headers, db):
    deep = '{"key": "k-00000009", "action": "deal", "x": ' + "[" * 4000 + "]" * 4000 + "}"
    said = refused(client, db, 400, content=deep, headers={**headers, "Content-Type": "application/json"})
    assert said["error"] == "the action is nested too deep" and "\n" not in said["error"] + said["hint"]
    for chips in ("²", "٣", "1" * 5000):
        said = refused(client, db, 400, json={"key": f"k-{len(chips):04d}{ord(chips[0])}", "action": "buyin",
                                              "player": "ana", "chips": chips,
                                              "session": session_uid(client, headers)}, headers=headers)
        assert "chips" in said["error"] and "\n" not in said["error"]


def test_writes_are_limited_in_rate(client, headers, db):
    statuses = [client.post("/dealer/api/check", json={"cards": "5S 5S 5S"}, headers=headers).status_code
                for _ in range(60)]
    assert 429 in statuses and statuses[0] == 200


def test_the_dealer_token_is_never_on_the_players_pages(client, headers):
    act(client, headers, action="deal")
    for path in ["/", "/history", "/settle", "/sessions", "/player/Ana", "/api/board", "/api/history"]:
        r = client.get(path, params={"token": PLAYERS_TOKEN})
        assert r.status_code == 200 and DEALER_TOKEN not in r.text, path


def test_the_dealers_address_opens_the_players_pages_never_the_other_way_round(client, headers):
    for path in ["/", "/history", "/settle", "/sessions", "/player/Ana", "/api/board"]:
        for name in ("dealer", "token"):
            assert client.get(path, params={name: DEALER_TOKEN}).status_code == 200, (path, name)
    assert client.get("/", params={"dealer": PLAYERS_TOKEN}).status_code == 403
    assert client.get("/dealer", params={"dealer": PLAYERS_TOKEN}).status_code == 403
    assert client.get("/dealer/api/table", headers={"X-Pan-Dealer": PLAYERS_TOKEN}).status_code == 403
    assert client.get("/", params={"token": "dealer-token-"}).status_code == 403
    page = client.get("/dealer", params={"dealer": DEALER_TOKEN}).text
    assert f'href="/?dealer={DEALER_TOKEN}"' in page  # the link to them


def test_without_a_dealer_the_dealers_token_opens_nothing(db):
    with TestClient(create_app(db, PLAYERS_TOKEN), base_url=ORIGIN) as c:
        assert c.get("/", params={"token": DEALER_TOKEN}).status_code == 403
        assert c.get("/", params={"dealer": DEALER_TOKEN}).status_code == 403


def test_the_dealer_token_must_differ_from_the_players(db):
    from pancli.core.errors import InputError

    with pytest.raises(InputError):
        create_app(db, PLAYERS_TOKEN, dealer_token=PLAYERS_TOKEN)


# -- the command -----------------------------------------------------------------------------------

def test_serve_dealer_prints_a_second_address_that_records(db):
    import httpx

    proc, url = start_server(db, "--no-qr", "--token", PLAYERS_TOKEN, "--dealer")
    try:
        words = proc.stdout.readline()
        assert words.startswith("The dealer's address")
        dealer_url = proc.stdout.readline().strip()
        assert "/dealer?dealer=" in dealer_url and PLAYERS_TOKEN not in dealer_url
        page = httpx.get(dealer_url)
        token = dealer_url.split("dealer=")[1]
        csrf = re.search(r'name="pan-csrf" content="([^"]+)"', page.text).group(1)
        origin = url.split("/?")[0]
        uid = re.search(r'"session_uid":"([^"]+)"', page.text).group(1)  # the table comes with the page
        r = httpx.post(origin + "/dealer/api/action", json={"key": "serve-00000001", "action": "deal", "session": uid},
                       headers={"X-Pan-Dealer": token, "X-Pan-CSRF": csrf, "Origin": origin})
        assert r.status_code == 200 and r.json()["lines"][0].startswith("Hand 1: Dee deals")
        assert token not in httpx.get(url).text
    finally:
        rc, out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err, err
    assert token not in err


def test_an_action_whose_key_cannot_be_stored_records_nothing_and_can_be_retried(client, headers, db):
    from helpers import run_sql

    act(client, headers, action="deal")
    before = db_dump(db)
    # A real failure inside the transaction, after the events are written and before the commit.
    run_sql(db, "CREATE TRIGGER fail_keys BEFORE INSERT ON dealer_actions BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
    r = act(client, headers, key="tap-000000009", action="drop", player="cruz")
    assert r.status_code >= 400 and r.json()["error"]
    run_sql(db, "DROP TRIGGER fail_keys")
    assert db_dump(db) == before  # neither the drop nor its key
    r = act(client, headers, key="tap-000000009", action="drop", player="cruz")
    assert r.status_code == 200 and r.json()["replayed"] is False
    assert sql_value(db, "SELECT count(*) FROM events WHERE kind = 'drop'") == 1


def dealer_of(db):
    c = TestClient(create_app(db, PLAYERS_TOKEN, dealer_token=DEALER_TOKEN), base_url=ORIGIN)
    return c


@pytest.mark.parametrize("game, lines", [
    ("contract", [({"action": "lay", "player": "ana", "melds": "7S 7H 7D / QC QD QS"},
                   "contract lay ana 7S 7H 7D / QC QD QS"),
                  ({"action": "out", "player": "ana"}, "contract out ana"),
                  ({"action": "left", "player": "ben", "cards": "KC KD 4S"}, "contract left ben KC KD 4S"),
                  ({"action": "left", "player": "cruz", "points": 12}, "contract left cruz --points 12"),
                  ({"action": "left", "player": "dee", "cards": "AS"}, "contract left dee AS")]),
    ("polish", [({"action": "lost", "player": "ben"}, "polish lost ben"),
                ({"action": "nolose"}, "polish nolose"), ({"action": "lost", "player": "ben"}, "polish lost ben")]),
])
def test_the_other_games_record_what_their_commands_record(tmp_path, game, lines):
    db, other = tmp_path / "pan.db", tmp_path / "cli.db"
    for path in (db, other):
        Pan(path)(f"session new night --game {game} --players Ana,Ben,Cruz,Dee --dealer Dee")
    with dealer_of(db) as c:
        headers = {"X-Pan-Dealer": DEALER_TOKEN, "X-Pan-CSRF": csrf_of(c), "Origin": ORIGIN}
        for body, line in lines:
            r = act(c, headers, **body)
            assert r.status_code == 200, r.text
            printed = Pan(other)(line).stdout
            # the same lines, but what is still to record: each face words it (the CLI names its
            # command, the phone its button)
            said = [w for w in r.json()["lines"] if not w.startswith("Still to record")]
            assert " ".join(said).split() == printed.split("Still to record")[0].split()  # the CLI breaks at 80
            for note in (w for w in r.json()["lines"] if w.startswith("Still to record")):
                assert note.startswith("Still to record (Cards left): the cards left of ") and "`" not in note
    assert Pan(db).json("standings") == Pan(other).json("standings")


def test_the_dealer_page_cannot_record_a_whole_deal_over_lay_downs(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new night --game contract --players Ana,Ben,Cruz,Dee --dealer Dee")
    with dealer_of(db) as c:
        headers = {"X-Pan-Dealer": DEALER_TOKEN, "X-Pan-CSRF": csrf_of(c), "Origin": ORIGIN}
        assert act(c, headers, action="lay", player="ana", melds="7S 7H 7D / QC QD QS").status_code == 200
        before = db_dump(db)
        r = act(c, headers, action="deal", out="ben", hands={"Ana": 10, "Cruz": 5, "Dee": 0})
        assert r.status_code == 400 and "no action 'deal'" in r.json()["error"]
        assert db_dump(db) == before
    # the engine refuses it for every face: the lay-down stays on the table
    r = Pan(db)("contract deal --out ben --left Ana=10 --left Cruz=5 --left Dee=0", code=1)
    assert "already has lay-downs on the table (Ana)" in r.output and db_dump(db) == before


# -- a file that is not there: a client's 404, never a bug -----------------------------------------

NOT_THERE = ["/nosuch.js", "/%2e%2e/app.py", "/..%2fapp.py", "/%2e%2e%2fapp.py", "/a%2fb", "/", "/a%00b",
             "/" + "a" * 300, "/dealer.js/x"]


def test_a_static_file_that_is_not_there_is_a_404_on_every_static_route_and_no_bug(client):
    import logging

    logged: list = []
    catch = logging.Handler(logging.DEBUG)
    catch.emit = logged.append
    loggers = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.error", "asyncio")]
    for log in loggers:
        log.addHandler(catch)
    try:
        for tail in NOT_THERE:
            for method in (client.get, client.head):
                r = method("/dealer/static" + tail)
                assert r.status_code == 404, (tail, r.status_code)
                if method is client.get:
                    assert r.json()["error"] == "Not found"
                r = method("/static" + tail, params={"token": PLAYERS_TOKEN})
                assert r.status_code == 404, (tail, r.status_code)
        assert client.get("/dealer/static/dealer.js").status_code == 200
        assert client.get("/static/live.js", params={"token": PLAYERS_TOKEN}).status_code == 200
    finally:
        for log in loggers:
            log.removeHandler(catch)
    assert logged == []


def test_a_static_file_that_is_not_there_leaves_the_hosts_terminal_quiet(db):
    import httpx

    proc, url = start_server(db, "--no-qr", "--token", PLAYERS_TOKEN, "--dealer")
    try:
        origin = url.split("/?")[0]
        for tail in NOT_THERE:
            assert httpx.get(origin + "/dealer/static" + tail).status_code == 404, tail
            assert httpx.get(origin + "/static" + tail, params={"token": PLAYERS_TOKEN}).status_code == 404, tail
    finally:
        rc, out, err = stop_server(proc)
    assert rc == 0 and err == "", err  # no notice of a request that could not be answered
# -- every tap names its session: never recorded into another game ---------------------------------

def keyboard(db, line: str) -> None:
    """`pan` at the host's keyboard: a process of its own, as the host types it."""
    import subprocess
    import sys
    from pathlib import Path

    subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), *line.split()], check=True, capture_output=True,
                   cwd=Path(__file__).resolve().parent.parent)


def test_the_table_names_its_session_by_its_uid(client, headers, db):
    table = client.get("/dealer/api/table", headers=headers).json()
    assert table["session_uid"] == sql_value(db, "SELECT uid FROM sessions WHERE name = 'friday'")
    assert re.fullmatch(r"[0-9a-f]{32}", table["session_uid"])
    page = client.get("/dealer", params={"dealer": DEALER_TOKEN}).text  # the first table comes with the page
    embedded = json.loads(re.search(r'<script type="application/json" id="pan-table">(.*?)</script>', page, re.S).group(1))
    assert embedded["session_uid"] == table["session_uid"] and embedded["seats"] == table["seats"]


def test_a_tap_that_names_no_session_is_refused_and_records_nothing(client, headers, db):
    before = db_dump(db)
    r = act(client, headers, action="deal", session=None)
    assert r.status_code == 400 and "which game" in r.json()["error"] and "reload" in r.json()["hint"]
    assert set(r.json()) == {"error", "hint", "status"}  # not "moved on": the page is only old
    assert db_dump(db) == before


def test_a_tap_made_on_the_game_before_a_session_change_is_refused_as_moved_on(client, headers, db):
    friday = session_uid(client, headers)
    assert act(client, headers, action="deal").status_code == 200
    keyboard(db, "session new saturday --players Ana,Ben,Cruz --dealer Cruz")  # while a tap waits on the phone
    before = db_dump(db)
    r = act(client, headers, key="tap-waiting-001", action="drop", player="cruz", session=friday)
    said = r.json()
    assert r.status_code == 409 and said["code"] == "moved_on" and said["status"] == 409
    assert "moved on" in said["error"] and "friday" in said["error"] and "saturday" in said["error"]
    assert said["hint"] and "\n" not in said["error"] + said["hint"]
    assert db_dump(db) == before  # nothing recorded, in either game, and the key not kept
    # The same tap made on the new game records there, once.
    assert act(client, headers, action="deal").status_code == 200
    assert sql_value(db, "SELECT count(*) FROM events e JOIN sessions s ON s.id = e.session_id "
                         "WHERE s.name = 'saturday'") == 1


def test_an_undo_for_the_old_game_never_voids_the_new_games_event(client, headers, db):
    friday = session_uid(client, headers)
    act(client, headers, action="deal")
    act(client, headers, action="drop", player="cruz")
    keyboard(db, "session new saturday --players Ana,Ben,Cruz --dealer Cruz")
    keyboard(db, "deal")
    keyboard(db, "drop ana")  # #2 in the new game, as #2 in the old one
    before = db_dump(db)
    for action in ("undo", "redo"):
        r = act(client, headers, action=action, seq=2, session=friday)
        assert r.status_code == 409 and r.json()["code"] == "moved_on", r.text
    assert db_dump(db) == before
    assert Pan(db).json("history")["events"][-1]["kind"] == "drop"  # saturday's drop stands
    assert sql_value(db, "SELECT count(*) FROM events WHERE undo_of IS NOT NULL") == 0


def test_a_tap_recorded_before_the_session_changed_is_answered_again_never_recorded_twice(client, headers, db):
    friday = session_uid(client, headers)
    first = act(client, headers, key="tap-recorded-01", action="deal", session=friday).json()
    keyboard(db, "session new saturday --players Ana,Ben,Cruz --dealer Cruz")
    before = db_dump(db)
    again = act(client, headers, key="tap-recorded-01", action="deal", session=friday)  # its answer was lost
    assert again.status_code == 200 and again.json() == {**first, "replayed": True}
    assert db_dump(db) == before


def test_the_dealer_pages_files_are_compressed_and_kept_by_their_versioned_address(client, headers):
    page = client.get("/dealer", params={"dealer": DEALER_TOKEN}, headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and page.headers["cache-control"] == "no-store"
    for name in ("dealer.css", "dealer.js", "words.js"):
        linked = re.search(rf'"(/dealer/static/{re.escape(name)}\?v=[0-9a-f]+)"', page.text).group(1)
        r = client.get(linked, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip", name
        assert r.headers["cache-control"].startswith("private, max-age=") and r.headers["x-content-type-options"] == "nosniff"
    # the slow safety look: the same table again is answered in a few bytes
    first = client.get("/dealer/api/table", headers=headers)
    again = client.get("/dealer/api/table", headers={**headers, "If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
