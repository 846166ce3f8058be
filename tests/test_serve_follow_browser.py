"""Open pages follow the table from one session to the next, in real headless Chromium.

A page opened for "the current session" follows `pan session new`/`use` (header, game, content);
one opened for a named session stays on it and says the table has moved on, with a link. A page
whose live stream is gone never says "live".
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cdp import Browser, chromium_path
from helpers import Pan, start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)


def pan_cli(db, line: str) -> None:
    subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), *line.split()], check=True,
                   capture_output=True, cwd=ROOT)


@pytest.fixture
def served(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    pan("deal")
    proc, url = start_server(db, "--no-qr")
    try:
        yield db, url, proc
    finally:
        if proc.poll() is None:
            rc, out, err = stop_server(proc)
            assert rc == 0 and "Traceback" not in err, err


LIVE = "document.getElementById('live-status').textContent === '● live'"


def test_a_session_change_while_two_pages_are_open(served):
    db, url, _ = served
    with Browser(390, 844) as following, Browser(390, 844) as named:
        following.goto(url)
        named.goto(url + "&session=friday")
        for b in (following, named):
            b.wait_for(LIVE)
            assert "friday" in b.text(".top") and "Hand 1" in b.text("#live")

        pan_cli(db, "session new saturday --game contract --players Ana,Ben,Cruz")
        following.wait_for("document.querySelector('.top').innerText.includes('saturday')")
        assert "Contract rummy" in following.text(".top")  # the game, by its title
        assert "Deal 1" in following.text("#live") and "Hand 1" not in following.text("#live")
        assert following.evaluate("document.title").startswith("saturday")
        assert following.evaluate("location.href") == url  # followed in place, never reloaded
        assert following.evaluate("document.getElementById('moved').hidden")

        named.wait_for("!document.getElementById('moved').hidden")
        assert "The table has moved on to saturday." in named.text("#moved")
        assert "friday" in named.text(".top") and "Hand 1" in named.text("#live")  # it stays on its session
        link = named.evaluate("document.getElementById('moved-link').href")
        assert "session=" not in link and "token=" in link

        # the following page keeps following: an event of the new session shows there
        pan_cli(db, "contract lay ana 5H 5D 5S / 9C 9D 9S")
        following.wait_for("document.getElementById('live').innerText.includes('5♥ 5♦ 5♠')")

        pan_cli(db, "session use friday")
        following.wait_for("document.querySelector('.top').innerText.includes('friday')")
        assert "Hand 1" in following.text("#live")
        named.wait_for("document.getElementById('moved').hidden")  # the table is back on its session
        for b in (following, named):
            assert b.evaluate(LIVE)


def test_a_page_without_its_live_stream_says_so_and_connects_again(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    with socket.socket() as s:  # a free port, for the server to come back on
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    proc, url = start_server(db, "--no-qr", "--port", port, "--token", "same-token-1")
    with Browser(390, 844) as b:
        try:
            b.goto(url)
            b.wait_for(LIVE)
        finally:
            rc, _, err = stop_server(proc)
        assert rc == 0, err
        b.wait_for("document.getElementById('live-status').textContent.startsWith('not live')")
        assert "live-status" in b.evaluate("document.querySelector('.live.stale').id")
        proc, again = start_server(db, "--no-qr", "--port", port, "--token", "same-token-1")
        try:
            assert again == url
            b.wait_for(LIVE)  # connected again by itself
            pan_cli(db, "deal")
            b.wait_for("document.getElementById('live').innerText.includes('Hand 1')")
        finally:
            rc, _, err = stop_server(proc)
        assert rc == 0, err


def test_an_old_night_looked_up_is_not_said_to_be_left_behind_until_the_table_moves(served):
    db, url, _ = served
    pan_cli(db, "session new saturday --players Ana,Ben,Cruz --dealer Cruz")
    with Browser(390, 844) as b:
        b.goto(url + "&session=friday")
        b.wait_for(LIVE)
        assert b.evaluate("document.getElementById('moved').hidden")  # looked up on purpose
        pan_cli(db, "session new sunday --players Ana,Ben,Cruz --dealer Cruz")
        b.wait_for("!document.getElementById('moved').hidden")
        assert "The table has moved on to sunday." in b.text("#moved")
        assert "friday" in b.text(".top")
