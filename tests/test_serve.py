"""`pan serve` over HTTP: every route, the token, the errors, read-only, live updates, Ctrl-C."""

import json
import os
import re
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import httpx
import pytest

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pancli.web.app import Site, create_app
from pancli.web.data import NotFound, Reader

from helpers import HANG, Pan, db_dump, start_server, stop_server

TOKEN = "test-token-123"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """A database with a Panguingue night (a hand in play, an undo), a contract and a Polish game."""
    db = tmp_path_factory.mktemp("serve") / "pan.db"
    pan = Pan(db)
    pan("session new tonight --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25")
    for line in ["deal", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH",
                 "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C", "deal", "meld dee AS 2S 3S", "meld ana KC KH KS",
                 "undo"]:
        pan(line)
    pan("session new rummy --game contract --players Ana,Ben,Cruz,Dee --dealer Dee")
    pan('contract lay ana "7S 7H 7D + QC QD QS"')
    pan("session new polski --game polish --players Ola,Piotr,Zosia")
    pan("polish lost piotr")
    pan("polish lost piotr")
    pan("session use tonight")
    return db


@pytest.fixture(scope="module")
def client(night):
    with TestClient(create_app(night, TOKEN)) as c:
        yield c


def get(client, path, **params):
    return client.get(path, params={"token": TOKEN, **params})


def cli_json(db, line):
    return Pan(db).json(line)


# -- pages ---------------------------------------------------------------------------------

def test_table_page_shows_the_hand_standings_and_last_events(client, night):
    r = get(client, "/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html = r.text
    assert "Hand 2" in html and "in play" in html
    assert 'class="card red">A♥' not in html  # the undone meld is gone from the board
    assert "rope A-2-3 in spades" in html and "meld 1" in html
    ben = next(r for r in cli_json(night, "standings")["players"] if r["name"] == "Ben")
    assert "Standings" in html and f"+{ben['net']}</td>" in html
    assert "undo" in html and "undone" in html  # the undo and the event it voided, in the last events
    assert "pay Ben 7 each: Ben goes out: base 1 + conditions 6" in html  # a payment's one-line reason
    assert TOKEN in html  # links keep the token
    assert "/static/live.js" in html and "/static/pan.css" in html


def test_history_page_hand_by_hand(client):
    html = get(client, "/history").text
    assert "Hand 1" in html and "Hand 2" in html
    assert html.index("Hand 2") < html.index("Hand 1")  # newest first
    assert "takes the tops" in html


def test_settle_page(client, night):
    html = get(client, "/settle").text
    data = cli_json(night, "settle")
    for t in data["transfers"]:
        assert t["line"].replace("—", "—") in html.replace("&#39;", "'")
    assert "everyone is square" in html


def test_player_page_tonight_and_career(client, night):
    html = get(client, "/player/ben").text
    assert "<h1>Ben</h1>" in html and "Tonight" in html and "Career" in html
    assert "<svg" in html and 'class="dot"' in html  # the chart, drawn on the server (one night: a point)
    career = cli_json(night, "player ben")
    assert f"+{career['net']}" in html


def test_sessions_page_links_every_game(client):
    html = get(client, "/sessions").text
    for name in ("tonight", "rummy", "polski"):
        assert f"session={name}" in html


def assert_api_board_is_the_cli_status(client, night, session: str, status: str) -> None:
    """/api/board of a session is what `pan <status> --json` says with that session in use."""
    api = get(client, "/api/board", session=session).json()
    Pan(night)(f"session use {session}")
    try:
        assert api == cli_json(night, status)
    finally:
        Pan(night)("session use tonight")


def test_contract_board(client, night):
    html = get(client, "/", session="rummy").text
    assert "Deal 1" in html and "2 sets" in html and "7♥" in html
    assert_api_board_is_the_cli_status(client, night, "rummy", "contract status")


def test_polish_board_shows_the_letters(client, night):
    html = get(client, "/", session="polski").text
    assert re.search(r'class="letter has">P</span><span class="letter has">A</span><span class="letter">N', html)
    assert_api_board_is_the_cli_status(client, night, "polski", "polish status")


@pytest.mark.parametrize("path, session", [("/", None), ("/history", None), ("/player/ben", None), ("/sessions", None),
                                           ("/settle", None), ("/", "rummy"), ("/history", "rummy"), ("/", "polski"),
                                           ("/history", "polski")])
def test_no_page_shows_an_event_as_its_stored_fields(client, path, session):
    html = get(client, path, **({"session": session} if session else {})).text
    shown = re.sub(r"<(script|style)\b.*?</\1>|<[^>]+>", " ", html, flags=re.S)  # the text a person reads
    assert not re.search(r"\b[a-z_]+=\S", shown), re.search(r".{30}\b[a-z_]+=\S.{30}", shown)
    assert "meld #" not in shown


def test_fragment_is_only_the_main_content(client):
    r = get(client, "/", fragment="1")
    assert r.status_code == 200
    assert "<html" not in r.text and "Hand 2" in r.text


def test_head_is_answered_without_a_body(client):
    r = client.head("/", params={"token": TOKEN})
    assert r.status_code == 200 and r.content == b""


def test_static_files(client):
    assert get(client, "/static/pan.css").status_code == 200
    assert "EventSource" in get(client, "/static/live.js").text


# -- JSON: the same objects as the CLI's --json ----------------------------------------------

def test_api_board_is_pan_board_json(client, night):
    assert get(client, "/api/board").json() == cli_json(night, "board")


def test_api_standings_is_pan_standings_json(client, night):
    assert get(client, "/api/standings").json() == cli_json(night, "standings")
    assert get(client, "/api/standings", session="rummy").json() == cli_json(night, "standings --session rummy")


def test_api_history(client, night):
    assert get(client, "/api/history", all="1").json() == cli_json(night, "history")
    assert get(client, "/api/history", hand="1").json() == cli_json(night, "history --hand 1")
    page = get(client, "/api/history").json()
    assert page["page"] == 1 and page["pages"] == 1 and page["hands"] == [1, 2]
    assert page["events"] == cli_json(night, "history")["events"]


def test_api_settle_player_sessions(client, night):
    assert get(client, "/api/settle").json() == cli_json(night, "settle")
    assert get(client, "/api/player/ana").json() == cli_json(night, "player ana")
    got = get(client, "/api/sessions").json()
    assert [r["name"] for r in got] == [r["name"] for r in cli_json(night, "sessions")]


def test_history_pages_of_a_long_night(tmp_path):
    pan = Pan(tmp_path / "long.db")
    pan("session new long --players Ana,Ben,Cruz --dealer Cruz")
    for _ in range(23):
        pan("deal")
        pan("void")
    with TestClient(create_app(tmp_path / "long.db", TOKEN)) as c:
        first = get(c, "/api/history").json()
        assert first["pages"] == 3 and first["hands"] == list(range(14, 24))
        last = get(c, "/api/history", page="3").json()
        assert last["hands"] == [1, 2, 3]
        assert {e["hand"] for e in last["events"]} == {1, 2, 3}
        assert "older" in get(c, "/history").text
        assert get(c, "/history", page="4").status_code == 404
        assert get(c, "/api/history", hand="7").json() == pan.json("history --hand 7")


# -- one endpoint at a time: a Site method called with a request, no server ------------------

@pytest.fixture(scope="module")
def site(night):
    return Site(Reader(night), TOKEN)


def request(path: str, path_params: dict | None = None, **params):
    from urllib.parse import urlencode

    from starlette.requests import Request

    return Request({"type": "http", "method": "GET", "path": path, "headers": [],
                    "query_string": urlencode({"token": TOKEN, **params}).encode(),
                    "path_params": path_params or {}})


def test_the_table_endpoint_alone(site):
    r = site.table(request("/", session="polski"))
    assert r.status_code == 200 and r.headers["referrer-policy"] == "no-referrer"
    html = r.body.decode()
    assert "<h1>Deal 3</h1>" in html  # two deals lost so far
    assert "session=polski" in html and f"token={TOKEN}" in html  # links keep the session and the token
    fragment = site.table(request("/", session="polski", fragment="1")).body.decode()
    assert "<html" not in fragment


def test_the_json_endpoints_alone(site, night):
    r = site.api_standings(request("/api/standings", session="rummy"))
    assert r.media_type == "application/json"
    assert json.loads(r.body) == cli_json(night, "standings --session rummy")
    career = site.api_player(request("/api/player/ana", {"name": "ana"}))
    assert json.loads(career.body) == cli_json(night, "player ana")
    with pytest.raises(NotFound):
        site.api_board(request("/api/board", session="nosuch"))


def test_the_error_handlers_alone(site):
    import asyncio

    r = asyncio.run(site.on_pan_error(request("/api/board"), NotFound("no such thing", "try another")))
    assert r.status_code == 404 and json.loads(r.body) == {"error": "no such thing", "hint": "try another",
                                                             "status": 404}
    html = site.error_response("/history", 400, "page=x is not a whole number")
    assert html.status_code == 400 and "page=x is not a whole number" in html.body.decode()
    assert html.headers["content-security-policy"].startswith("default-src 'none'")


# -- the generic table page: any game's board JSON, for people -------------------------------

RICH_BOARD = {"session": "s", "game": "g", "seats": ["Ana", "Ben"], "deal_number": 3, "over": False,
              "winner": None, "trumps": "hearts", "cards_left": {"Ana": 4, "Ben_2": 0.5},
              "discards": ["7H", "8H"], "tricks": [{"player": "Ana", "won": 2}, {"player": "Ben", "won": 1}],
              "rounds": [[1, 2], {"note": "a long one"}], "passed": []}


def test_board_json_as_sections():
    from pancli.web import generic

    shown = dict(generic.sections(RICH_BOARD))
    assert list(shown) == ["Deal number", "Over", "Winner", "Trumps", "Cards left", "Discards", "Tricks",
                           "Rounds", "Passed"]  # session, game and seats are shown by the page itself
    assert shown["Over"] == {"kind": "text", "text": "no"} and shown["Winner"]["text"] == "-"
    assert shown["Cards left"] == {"kind": "pairs", "pairs": [("Ana", {"kind": "text", "text": "4"}),
                                                              ("Ben 2", {"kind": "text", "text": "0.5"})]}
    assert shown["Discards"]["kind"] == "list" and shown["Passed"]["text"] == "none"
    assert shown["Tricks"] == {"kind": "table", "columns": ["player", "won"], "rows": [["Ana", "2"], ["Ben", "1"]]}
    assert [n["kind"] for n in shown["Rounds"]["entries"]] == ["list", "pairs"]


def test_the_generic_table_template_draws_any_board(site):
    from pancli.web import generic

    standings = {"players": [{"name": "Ana", "net": 3, "hands": 0, "won": 2}, {"name": "Ben", "net": -3, "hands": 0}],
                 "pools": {}, "chip_value": None}
    html = site.env.get_template("table.html").render(
        title="t", fragment=True, live="session", generation=0, sessions=[], url=lambda path, **kw: path,
        token=TOKEN, path="/", session={"name": "s", "game": "g", "id": 1}, board=RICH_BOARD,
        standings=standings, recent=[], game_title="Some game", sections=generic.sections(RICH_BOARD),
        columns=generic.standing_columns(standings))
    assert "<h1>Some game</h1>" in html and '<a class="name" href="/player/Ana">Ana</a>' in html
    for heading in ("Deal number", "Cards left", "Tricks", "Passed"):
        assert f'<h2 class="board-head">{heading}</h2>' in html
    assert "<li>7H</li><li>8H</li>" in html and "<dt>Ben 2</dt><dd>0.5</dd>" in html
    assert '<th class="l">player</th><th>won</th>' in html and "a long one" in html
    for repr_ in ("{", "[", "None", "False", "&#39;"):
        assert repr_ not in html
    assert "<th>won</th></tr></thead>" in html and "<th>hands</th>" not in html  # counts nobody has are left out
    assert "<td>0</td>" in html  # Ben has no 'won' count: 0


def test_each_game_chooses_its_table_template():
    from pancli.games import game
    from pancli.games.protocol import GameBase
    from pancli.web.app import table_template

    assert table_template(game("panguingue")) == "table_panguingue.html"
    assert table_template(game("contract")) == "table_contract.html"
    assert table_template(game("polish")) == "table_polish.html"
    assert table_template(GameBase()) == "table.html"


def test_a_players_seat_is_found_on_any_board_with_a_hand_of_players():
    from pancli.web.app import seat_of

    board = {"hand": {"players": [{"name": "Ana", "status": "in"}, {"name": "Ben", "status": "dropped"}]}}
    assert seat_of(board, "Ben") == {"name": "Ben", "status": "dropped"}
    assert seat_of(board, "Cruz") is None and seat_of(board, None) is None
    for other in ({"hand": None}, {"seats": ["Ana"]}, {"hand": {"number": 2}}, {"hand": "in play"}):
        assert seat_of(other, "Ana") is None


# -- the token, methods and errors ------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/history", "/settle", "/player/ana", "/sessions", "/api/board",
                                  "/api/standings", "/api/history", "/api/settle", "/api/player/ana",
                                  "/api/sessions", "/events", "/static/pan.css", "/nowhere"])
@pytest.mark.parametrize("token", [None, "", "wrong-token", TOKEN + "x"])
def test_without_the_right_token_403_and_no_data(client, path, token):
    params = {} if token is None else {"token": token}
    r = client.get(path, params=params)
    assert r.status_code == 403
    assert "Ana" not in r.text and "tonight" not in r.text and "Traceback" not in r.text


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head(client, method):
    r = client.request(method, "/api/board", params={"token": TOKEN})
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    r = client.request(method, "/", params={"token": "wrong"})
    assert r.status_code == 405


@pytest.mark.parametrize("path,status", [
    ("/nowhere", 404), ("/api/nowhere", 404), ("/static/../pancli.db", 404), ("/static/nothing.css", 404),
    ("/player/nobody", 404), ("/api/player/nobody", 404), ("/%2e%2e/%2e%2e/etc/passwd", 404),
    ("/player/", 404), ("/api/board/extra", 404),
])
def test_odd_paths_get_a_plain_error(client, path, status):
    r = client.get(path, params={"token": TOKEN})
    assert r.status_code == status
    assert "Traceback" not in r.text and 'File "' not in r.text
    if path.startswith("/api/"):
        assert r.json()["status"] == status and r.json()["error"]


def test_unknown_session(client):
    r = get(client, "/", session="nosuch")
    assert r.status_code == 404 and "no session named" in r.text and "Traceback" not in r.text
    r = get(client, "/api/board", session="nosuch")
    assert r.status_code == 404 and "no session named 'nosuch'" in r.json()["error"]


def test_bad_parameters(client):
    r = get(client, "/api/history", hand="two")
    assert r.status_code == 400 and "not a whole number" in r.json()["error"]
    assert get(client, "/history", page="x").status_code == 400


def test_security_headers(client):
    r = get(client, "/")
    assert r.headers["referrer-policy"] == "no-referrer"
    assert "script-src 'self'" in r.headers["content-security-policy"]


def test_a_missing_or_foreign_database_is_refused(tmp_path):
    from pancli.core.errors import StoreError

    with pytest.raises(StoreError):
        create_app(tmp_path / "none.db", TOKEN)
    import sqlite3

    con = sqlite3.connect(tmp_path / "other.db")
    con.execute("CREATE TABLE x (y)")
    con.close()
    with pytest.raises(StoreError):
        create_app(tmp_path / "other.db", TOKEN)
    assert not (tmp_path / "none.db").exists()


def test_readonly_store_refuses_writes(night):
    import sqlite3

    from pancli.storage.store import Store

    store = Store(night, readonly=True)
    with pytest.raises(sqlite3.OperationalError):
        store.conn.execute("INSERT INTO settings (key, value) VALUES ('x', 'y')")
    store.close()


# -- the real server -----------------------------------------------------------------------------

def test_serve_prints_the_url_first_then_a_qr_code_and_stops_cleanly(night):
    before = db_dump(night)
    proc, url = start_server(night)
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{16}", url)
        assert httpx.get(url, timeout=HANG).status_code == 200
        assert httpx.get(url.split("?")[0], timeout=HANG).status_code == 403
        assert httpx.get(url.replace("/?", "/api/board?"), timeout=HANG).json() == cli_json(night, "board")
    finally:
        rc, out, err = stop_server(proc)
    assert rc == 0, err
    assert "█" in out or "▀" in out  # the QR code
    assert "Stopped serving." in out and "Traceback" not in err and "Traceback" not in out
    assert db_dump(night) == before  # read-only: not one row changed


def test_the_token_is_kept_from_one_start_to_the_next_and_new_token_replaces_it(night):
    urls = []
    for args in ((), (), ("--new-token",), ()):
        proc, url = start_server(night, "--no-qr", *args)
        urls.append(url.split("token=")[1])
        stop_server(proc)
    assert urls[0] == urls[1] != urls[2] == urls[3]


def test_serve_refuses_an_unknown_session_and_a_busy_port(night):
    env = dict(os.environ, PANCLI_DB=str(night))
    r = subprocess.run([sys.executable, "-m", "pancli", "serve", "--host", "127.0.0.1", "--port", "0",
                        "--session", "nosuch"], capture_output=True, text=True, env=env, timeout=HANG)
    assert r.returncode != 0 and "no session named 'nosuch'" in r.stderr and "Traceback" not in r.stderr
    proc, url = start_server(night, "--no-qr")
    try:
        port = url.split(":")[2].split("/")[0]
        r = subprocess.run([sys.executable, "-m", "pancli", "serve", "--host", "127.0.0.1", "--port", port],
                           capture_output=True, text=True, env=env, timeout=HANG)
        assert r.returncode != 0 and "cannot listen on 127.0.0.1:" in r.stderr and "Traceback" not in r.stderr
    finally:
        stop_server(proc)


def test_live_events_on_record_and_undo_while_the_recorder_writes(tmp_path):
    db = tmp_path / "live.db"
    pan = Pan(db)
    pan("session new live --players Ana,Ben,Cruz --dealer Cruz")
    pan("deal")
    proc, url = start_server(db, "--no-qr")
    messages: list[tuple[float, dict]] = []
    stop = threading.Event()
    ready = threading.Event()

    def listen():
        with httpx.stream("GET", url.replace("/?", "/events?"), timeout=HANG) as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            event = None
            for line in r.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                    if event == "hello":
                        ready.set()
                elif line.startswith("data: ") and event == "change":
                    messages.append((time.monotonic(), json.loads(line[6:])))
                if stop.is_set():
                    return

    t = threading.Thread(target=listen, daemon=True)
    t.start()
    try:
        assert ready.wait(HANG)
        for line in ("meld ana 5S 5S 5S", "undo"):
            n = len(messages)
            subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), *line.split()], check=True,
                           capture_output=True, cwd=ROOT)
            done = time.monotonic()
            while len(messages) == n and time.monotonic() - done < HANG:  # a hang guard: how soon is bench_serve's
                time.sleep(0.02)
            assert len(messages) > n, f"no live message after `pan {line}`"
            print(f"`pan {line}`: the live message came {messages[-1][0] - done:.2f} s after it finished")
            assert messages[-1][1]["sessions"] == [1]
        board = httpx.get(url.replace("/?", "/api/board?"), timeout=HANG).json()
        assert board["hand"]["players"][0]["melds"] == []  # the undo shows
    finally:
        stop.set()
        rc, out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err


def test_other_commands_do_not_import_the_web_stack():
    code = ("import sys; from pancli.cli import app; "
            "bad = [m for m in ('starlette', 'uvicorn', 'jinja2', 'segno', 'anyio') if m in sys.modules]; "
            "print(bad)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.stdout.strip() == "[]", r.stdout + r.stderr


def test_serve_help_has_an_example():
    from typer.testing import CliRunner

    from pancli.cli import app

    r = CliRunner().invoke(app, ["serve", "--help"])
    assert r.exit_code == 0 and "Example: pan serve" in r.output


def test_the_listening_socket_is_tcp_so_nagle_is_off():
    import socket as s

    from pancli.cli.commands.sessions.serve import _bind

    sock = _bind("127.0.0.1", 0)
    try:
        assert sock.proto == s.IPPROTO_TCP  # asyncio sets TCP_NODELAY only on such sockets
    finally:
        sock.close()


# -- what `pan serve` prints and the addresses it answers --------------------------------------

def test_a_token_with_characters_an_address_reserves_is_encoded_in_the_url_and_the_qr(night):
    token = "tok&en=1#2%+x/y"
    proc, url = start_server(night, "--token", token)
    try:
        assert url.endswith("/?token=tok%26en%3D1%232%25%2Bx%2Fy")
        assert httpx.get(url, timeout=HANG).status_code == 200  # the address printed opens the table
        assert httpx.get(url.replace("/?", "/api/board?"), timeout=HANG).status_code == 200
    finally:
        rc, out, err = stop_server(proc)
    from pancli.cli.commands.sessions.serve import _qr

    assert rc == 0 and _qr(url) in out  # the QR code is of the same, encoded address


@pytest.mark.parametrize("port", ["70000", "-1", "65536"])
def test_a_port_out_of_range_is_refused_in_one_line(night, port):
    from helpers import pan_process

    r = pan_process(night, ["serve", "--host", "127.0.0.1", "--port", port, "--no-qr"])
    assert r.returncode != 0 and "Traceback" not in r.stderr and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) <= 2 and "between 0 and 65535" in r.stderr


def test_a_stored_session_name_is_printed_inert(tmp_path):
    from helpers import run_sql

    db = tmp_path / "old.db"
    Pan(db)("session new tonight --players Ana,Ben,Cruz --dealer Cruz")
    run_sql(db, "UPDATE sessions SET name = 'to' || char(27) || ']0;owned' || char(7) || 'night'")  # an old file's name
    proc, url = start_server(db, "--no-qr")
    rc, out, err = stop_server(proc)
    assert rc == 0 and "\x1b" not in out and "\x07" not in out
    assert "Serving session to\\x1b]0;owned\\x07night" in out


def test_a_player_named_with_a_slash_has_a_player_page(tmp_path):
    db = tmp_path / "slash.db"
    Pan(db)("session new tonight --players Ana/2,Ben,Cruz --dealer Cruz")
    with TestClient(create_app(db, TOKEN)) as c:
        link = re.search(r'href="(/player/Ana[^"]*)"', get(c, "/").text).group(1).replace("&amp;", "&")
        assert link.startswith("/player/Ana%2F2?")
        r = c.get(link)
        assert r.status_code == 200 and "<h1>Ana/2</h1>" in r.text
        assert get(c, "/api/player/Ana%2F2").json()["player"] == "Ana/2"


def test_static_files_carry_the_pages_headers_and_are_kept_by_their_versioned_address(client):
    page = get(client, "/").text
    for path in ("/static/pan.css", "/static/live.js"):
        linked = re.search(re.escape(path) + r'\?[^"]*', page).group(0).replace("&amp;", "&")
        assert "v=" in linked  # a new pancli's files are new addresses
        r = client.get(linked)
        assert r.status_code == 200 and r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["cache-control"].startswith("private, max-age=") and "no-store" not in r.headers["cache-control"]
        assert r.headers.get("etag")


def test_pages_json_and_static_files_are_compressed_but_never_the_stream(client):
    for path in ("/", "/history", "/api/board", "/static/pan.css"):
        r = client.get(path, params={"token": TOKEN}, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip", path


def hello_of(url: str, **headers) -> tuple[dict, httpx.Headers]:
    """The stream's first message (hello) and the stream's headers."""
    with httpx.stream("GET", url.replace("/?", "/events?"), timeout=HANG, headers=headers) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                return json.loads(line[6:]), r.headers
    raise AssertionError("the stream said nothing")


def test_each_server_start_is_told_apart_and_its_stream_is_never_compressed(tmp_path):
    """Two starts of the same server on the same database: both count their changes from 0, so
    only the hello's instance tells a page that the server it follows is a new one."""
    db = tmp_path / "pan.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz --dealer Cruz")
    starts = []
    for _ in range(2):
        proc, url = start_server(db, "--no-qr")
        try:
            hello, headers = hello_of(url, **{"Accept-Encoding": "gzip"})
            page = httpx.get(url, timeout=HANG).text
        finally:
            rc, _out, err = stop_server(proc)
        assert rc == 0, err
        assert headers.get("content-encoding") is None and headers["content-type"].startswith("text/event-stream")
        assert re.fullmatch(r"[0-9a-f]{16}", hello["instance"]) and hello["generation"] == 0
        assert f'data-instance="{hello["instance"]}"' in page  # the page knows the server it came from
        starts.append(hello["instance"])
    assert starts[0] != starts[1]


# -- the page cache: keyed by what changes the answer, bounded in bytes ------------------------

def kept_entries(reader, kind: str) -> list:
    return [key for key in reader.kept() if key[0] == kind]


def test_unknown_parameters_do_not_multiply_the_cache(night):
    with TestClient(create_app(night, TOKEN)) as c:
        reader = c.app.state.reader
        for i in range(150):
            assert get(c, "/", **{"_": str(i), f"x{i}": "junk"}).status_code == 200
            assert get(c, "/api/board", _=str(i), fragment="1", page=str(i)).status_code == 200
        assert len(kept_entries(reader, "page")) == 1 and len(kept_entries(reader, "api")) == 1
        one_page = len(get(c, "/").text)
        assert reader.kept_bytes() < 3 * one_page + 200_000  # one page and one board, not 150 of each


def test_the_same_answer_is_kept_once_however_it_is_asked_for(night):
    """A session named by a prefix, fragment=2 (not 1), page=01: the same answer, one entry each."""
    with TestClient(create_app(night, TOKEN)) as c:
        reader = c.app.state.reader
        pages = [get(c, "/history", session=s, page=p, fragment=f).text
                 for s in ("tonight", "toni", "ton") for p in ("1", "01") for f in ("0", "2")]
        assert len(set(pages)) == 1 and len(kept_entries(reader, "page")) == 1
        assert 'href="/?token=test-token-123&amp;session=tonight"' in pages[0]  # links name the session in full
        for name in ("ana", "Ana", "ANA"):
            assert "<h1>Ana</h1>" in get(c, f"/player/{name}").text
        assert len(kept_entries(reader, "page")) == 2
        for extra in ({}, {"all": "1", "page": "1"}, {"all": "1", "hand": "2"}):
            get(c, "/api/history", **({"all": "1"} | extra))
        assert len(kept_entries(reader, "api")) == 1


def test_the_cache_is_bounded_in_bytes(night):
    reader = Reader(night, cache_bytes=100_000)
    for i in range(30):
        assert reader.cached(("page", i), lambda: "x" * 10_000) == "x" * 10_000
    assert reader.kept_bytes() <= 100_000 and 5 <= len(reader.kept()) < 10
    assert ("page", 29) in reader.kept() and ("page", 0) not in reader.kept()  # the oldest went first
    assert reader.cached(("page", "huge"), lambda: "y" * 200_000) == "y" * 200_000  # served, not kept
    assert ("page", "huge") not in reader.kept() and ("page", 29) in reader.kept()


# -- a database put in place of the one served (a restore) -------------------------------------

class Listener:
    """A phone's live channel: the change messages /events sends, in a thread of its own."""

    def __init__(self, url: str):
        self.url, self.messages, self.ready = url.replace("/?", "/events?"), [], threading.Event()
        threading.Thread(target=self.listen, daemon=True).start()
        assert self.ready.wait(HANG)

    def listen(self) -> None:
        with httpx.stream("GET", self.url, timeout=HANG) as r:
            event = None
            for line in r.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                    if event == "hello":
                        self.ready.set()
                elif line.startswith("data: ") and event == "change":
                    self.messages.append(json.loads(line[6:]))

    def wait_for_more_than(self, n: int) -> dict:
        deadline = time.monotonic() + HANG  # a hang guard, not a bound
        while len(self.messages) <= n and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(self.messages) > n, "no live message came"
        return self.messages[-1]


def test_a_database_put_in_place_of_the_served_one_is_read_and_the_phones_told(tmp_path):
    """As `pan restore` does: the -wal and -shm removed, a whole other file renamed over the path.
    The other night has as many events and the same current session, so only the file changed."""
    db, other = tmp_path / "pan.db", tmp_path / "restored.db"
    for path, name, players in ((db, "friday", "Ana,Ben,Cruz"), (other, "saturday", "Dee,Eve,Fay")):
        pan = Pan(path)
        pan(f"session new {name} --players {players} --dealer {players.split(',')[-1]}")
        pan("deal")
    proc, url = start_server(db, "--no-qr")
    try:
        assert "friday" in httpx.get(url, timeout=HANG).text
        assert "Cruz deals" in httpx.get(url + "&fragment=1", timeout=HANG).text  # kept by the server
        phone = Listener(url)
        for suffix in ("-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        os.replace(other, db)
        message = phone.wait_for_more_than(0)
        assert message["any"] is True
        fragment = httpx.get(url + "&fragment=1", timeout=HANG).text  # what the live script fetches
        assert "Fay deals" in fragment and "Cruz" not in fragment
        assert "saturday" in httpx.get(url, timeout=HANG).text
        assert httpx.get(url.replace("/?", "/api/board?"), timeout=HANG).json() == cli_json(db, "board")
        Pan(db)("drop fay")  # and the restored file is followed as the old one was
        phone.wait_for_more_than(1)
        assert httpx.get(url.replace("/?", "/api/board?"), timeout=HANG).json() == cli_json(db, "board")
    finally:
        rc, out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err, err


def test_a_database_restored_in_place_with_a_shorter_log_is_read_afresh(tmp_path):
    """`sqlite3 pan.db ".restore old.db"`: the same file, a shorter log. The hands of the history
    pages are those of the restored log, not those the server had indexed."""
    import sqlite3

    db, old = tmp_path / "pan.db", tmp_path / "old.db"
    pan = Pan(db)
    pan("session new friday --players Ana,Ben,Cruz --dealer Cruz")
    pan("deal")
    pan("db backup " + str(old))
    for _ in range(2):
        pan("void")
        pan("deal")
    with TestClient(create_app(db, TOKEN, poll_interval=0.05)) as c:
        assert get(c, "/api/history").json()["hands"] == [1, 2, 3]
        generation = c.app.state.reader.generation
        source, target = sqlite3.connect(old), sqlite3.connect(db)
        source.backup(target)
        source.close()
        target.close()
        deadline = time.monotonic() + HANG  # a hang guard, not a bound
        while c.app.state.reader.generation == generation and time.monotonic() < deadline:
            time.sleep(0.02)
        assert get(c, "/api/history").json()["hands"] == [1]
        assert get(c, "/api/history").json() == {**cli_json(db, "history"), "hands": [1], "page": 1, "pages": 1}
