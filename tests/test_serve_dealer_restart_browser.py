"""The dealer's phone through a real stop of `pan serve --dealer`: headless Chromium at 390x844,
the server process killed and started again with the same command line on the same port. Taps
made meanwhile wait in the page's outbox (the browser's storage), are shown waiting in the dock,
and are recorded once each, in order, when the server answers again, untouched, or after the page
was closed and opened again. A refused tap stops the rest; a tap made on the game before a
session change is refused as moved on and recorded nowhere."""

import json
import os
import signal
import sqlite3
import subprocess
import sys

import pytest

from cdp import Browser, chromium_path
from dealer_page import ROOT, Dealer, Server, button, opened, tap_meld, waiting
from helpers import Pan

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

def kinds(pan: Pan, session: str = "friday") -> list[tuple]:
    """The session's event log, in order, as the database holds it (undos included)."""
    con = sqlite3.connect(pan.db)
    try:
        rows = con.execute("SELECT e.payload FROM events e JOIN sessions s ON s.id = e.session_id "
                           "WHERE s.name = ? ORDER BY e.seq", [session]).fetchall()
    finally:
        con.close()
    payloads = [json.loads(r[0]) for r in rows]
    return [(p["kind"], p.get("player"), p.get("cards")) for p in payloads]


def a_night(tmp_path) -> tuple[Pan, Server]:
    pan = Pan(tmp_path / "pan.db")
    pan("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    pan("deal")
    return pan, Server(tmp_path / "pan.db")


FIRST = ("meld", "Ben", ["5S", "5S", "5S"])
THEN = [("meld", "Ana", ["JH", "QH", "KH"]), ("meld", "Ben", ["2C", "3C", "4C", "5C"])]


def outage_with_two_taps(b, d: Dealer, pan: Pan, server: Server) -> None:
    """A meld recorded, the server killed, two taps made: they wait, and the dock says so."""
    assert "4 from each payer" in tap_meld(b, d, "Ben", "5S 5S 5S")
    server.kill()
    b.wait_for("!document.getElementById('net').hidden")  # not live, said by itself
    tap_meld(b, d, "Ana", "JH QH KH")
    waiting(b, 1)
    tap_meld(b, d, "Ben", "2C 3C 4C 5C")
    waiting(b, 2)
    assert "2 taps waiting" in b.text("#net"), b.text("#net")
    assert b.evaluate("document.getElementById('dock').contains(document.getElementById('retry'))")
    assert kinds(pan) == [("deal", None, None), FIRST]  # nothing arrived


def test_taps_made_while_the_server_is_down_are_recorded_once_each_in_order_when_it_is_back(tmp_path):
    pan, server = a_night(tmp_path)
    try:
        url = server.start()
        with Browser(390, 844) as b:
            d = opened(b, url)
            outage_with_two_taps(b, d, pan, server)
            assert server.start() == url  # the same command line: the same dealer's address
            waiting(b, 0)  # the page, untouched, sends them by itself
            b.wait_for("document.getElementById('net').hidden")
            assert "Ben melds" in b.text("#said"), b.text("#said")
            assert b.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        server.stop()
    assert kinds(pan) == [("deal", None, None), FIRST, *THEN]
    assert pan("db check").exit_code == 0


def test_taps_kept_while_the_page_is_closed_are_recorded_when_it_is_opened_again(tmp_path):
    pan, server = a_night(tmp_path)
    try:
        url = server.start()
        with Browser(390, 844) as b:
            d = opened(b, url)
            outage_with_two_taps(b, d, pan, server)
            b.call("Page.navigate", url="about:blank")  # the page closed
            b.wait_for("location.href === 'about:blank'")
            server.start()
            opened(b, url)  # opened again: its outbox is where it was
            waiting(b, 0)
    finally:
        server.stop()
    assert kinds(pan) == [("deal", None, None), FIRST, *THEN]
    assert pan("db check").exit_code == 0


def test_a_refused_tap_in_the_outbox_stops_the_rest_until_it_is_dropped(tmp_path):
    pan, server = a_night(tmp_path)
    try:
        url = server.start()
        with Browser(390, 844) as b:
            d = opened(b, url)
            server.kill(signal.SIGINT)
            b.wait_for("!document.getElementById('net').hidden")
            tap_meld(b, d, "Ana", "2D 5H 7C")  # not a meld: refused once it arrives
            d.act(button(act="drop", player="Cruz"))
            waiting(b, 2)
            server.start()
            b.wait_for("!document.getElementById('stop').hidden")
            said = b.text("#said")
            assert said.startswith("Meld for Ana: 2♦ 5♥ 7♣ was refused: "), said
            assert b.evaluate("document.getElementById('said').classList.contains('bad')")
            assert "2 taps waiting" in b.text("#net")  # the refused tap and the one behind it
            assert kinds(pan) == [("deal", None, None)]  # the drop waits behind the refusal
            b.tap("document.getElementById('stop-drop')")
            waiting(b, 0)
            b.wait_for("document.getElementById('stop').hidden")
            assert "Cruz drops" in b.text("#said")
    finally:
        server.stop()
    assert kinds(pan) == [("deal", None, None), ("drop", "Cruz", None)]


def test_a_tap_waiting_through_a_session_change_is_refused_as_moved_on(tmp_path):
    pan, server = a_night(tmp_path)
    try:
        url = server.start()
        with Browser(390, 844) as b:
            d = opened(b, url)
            server.kill()
            b.wait_for("!document.getElementById('net').hidden")
            d.act(button(act="drop", player="Cruz"))
            d.act("document.querySelector('#dock button[data-act=undo]')")  # an Undo for friday's deal
            waiting(b, 2)
            subprocess.run([sys.executable, "-m", "pancli", "--db", str(server.db), "session", "new", "saturday",
                            "--players", "Ana,Ben,Cruz,Dee", "--dealer", "Dee"], check=True, capture_output=True, cwd=ROOT)
            subprocess.run([sys.executable, "-m", "pancli", "--db", str(server.db), "deal"], check=True,
                           capture_output=True, cwd=ROOT)
            server.start()
            b.wait_for("!document.getElementById('stop-go').hidden")
            said = b.text("#said")
            assert said.startswith("Drop for Cruz was refused: the table moved on"), said
            assert "friday" in said and "saturday" in said
            b.tap("document.getElementById('stop-go')")  # both of friday's taps go; the page shows saturday
            waiting(b, 0)
            b.wait_for("document.getElementById('where').textContent.startsWith('saturday')")
    finally:
        server.stop()
    assert kinds(pan, "friday") == [("deal", None, None)]
    assert kinds(pan, "saturday") == [("deal", None, None)]  # neither the drop nor the undo landed here
    assert pan("db check").exit_code == 0
