"""The dealer's page in a real browser (headless Chromium at 390x844): it follows the table to
another session (or, opened for a named one, says the table moved on, with a link); it keeps the
night in view (standings, tops, who deals, the winner), the answer to a tap, Undo and Redo at the
thumb; its seats go in the order of declarations; it stays within 390 px with 40-character names;
and it never tells the dealer to type a command."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cdp import Browser, chromium_path
from dealer_page import button, dealer_page
from helpers import Pan, start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)


def pan_cli(db, *words: str) -> None:
    """Another dealer at the keyboard (its own process, as at the table)."""
    subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), *words], check=True, capture_output=True, cwd=ROOT)


CARDS = "document.querySelectorAll('#picker .pick').length"
SEATS = "[...document.querySelectorAll('#seats .seat .who')].map(e => e.textContent)"


def in_view(b, selector: str) -> bool:
    return b.evaluate(f"(() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();"
                      " return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; })()")


def test_the_dealer_page_follows_the_current_session(tmp_path):
    db = tmp_path / "pan.db"
    with dealer_page(db) as (pan, b, d):
        d.act(button(act="deal"))
        assert b.evaluate(CARDS) == 40 and b.evaluate(f"{button(act='stay', player='Ana')} !== undefined")
        pan_cli(db, "session", "new", "saturday", "--game", "contract", "--players", "Ana,Ben,Cruz", "--dealer", "Ana")
        b.wait_for("document.getElementById('where').textContent.startsWith('saturday')")
        b.wait_for(f"{CARDS} === 52")  # the contract game's pack, and its actions
        assert b.evaluate(SEATS) == ["Ana", "Ben", "Cruz"]
        assert b.evaluate(f"{button(act='stay', player='Ana')} === undefined")
        assert b.evaluate(f"{button(act='lay')} !== undefined") and "deal 1" in b.text("#status")
        b.tap(button(who="Ben"))
        said = d.act(button(act="out"))
        assert "Ben goes out of deal 1" in said  # recorded into the new session
        assert pan.json("contract status")["out"] == "Ben"
        pan_cli(db, "session", "use", "friday")
        b.wait_for("document.getElementById('where').textContent.startsWith('friday')")
        b.wait_for(f"{CARDS} === 40")
        assert b.evaluate(f"{button(act='stay', player='Dee')} !== undefined")


def test_a_dealer_page_of_a_named_session_says_the_table_moved_on(tmp_path):
    db = tmp_path / "pan.db"
    Pan(db)("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    proc, _ = start_server(db, "--no-qr", "--dealer", "--session", "friday")
    try:
        proc.stdout.readline()
        with Browser(390, 844) as b:
            b.goto(proc.stdout.readline().strip())
            b.wait_for("document.querySelectorAll('#seats .seat').length === 4")
            assert b.evaluate("document.getElementById('moved').hidden")
            pan_cli(db, "session", "new", "saturday", "--game", "polish", "--players", "Ana,Ben,Cruz")
            b.wait_for("!document.getElementById('moved').hidden")
            assert "The table has moved on to saturday; this page still records friday." in b.text("#moved")
            assert b.text("#where").startswith("friday") and b.evaluate(CARDS) == 40
            b.tap("document.getElementById('moved-link')")  # a new page: nothing on it until it loads
            b.wait_for("((document.getElementById('where') || {}).textContent || '').startsWith('saturday')")
            b.wait_for(f"{button(act='lost', player='Ben')} !== undefined")
            assert b.evaluate("document.getElementById('moved').hidden")
    finally:
        rc, out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err, err


LONG = ["Maximilian-Bartholomew-Featherstonehaugh", "Bartholomew-Maximilian-Featherstonehaugh", "Cruz", "Dee"]


def test_the_night_is_in_view_and_undo_redo_at_the_thumb(tmp_path):
    db = tmp_path / "pan.db"
    first, second = LONG[:2]
    with dealer_page(db, f"session new friday --players {','.join(LONG)} --dealer Cruz") as (pan, b, d):
        assert len(first) == 40
        assert "Next hand: Cruz deals, Dee is eldest." in b.text("#deals")
        assert d.act(button(act="deal")).startswith("Hand 1: Cruz deals, Dee is eldest")
        b.wait_for("document.getElementById('deals').textContent === 'Cruz deals, Dee is eldest.'")
        assert b.evaluate(SEATS) == ["Dee", first, second, "Cruz"]  # declarations go from the eldest
        assert "Tops:" in b.text("#tops")
        b.evaluate("window.scrollTo(0, 0)")
        said = d.act(button(act="drop", player="Dee"))
        assert "Dee drops" in said
        # the answer, Undo and Redo in view wherever the page is scrolled, Undo in the thumb's half
        for y in (0, 10_000):
            b.evaluate(f"window.scrollTo(0, {y})")
            assert in_view(b, "#said") and in_view(b, "[data-act=undo]") and in_view(b, "#redo")
            assert b.evaluate("document.querySelector('[data-act=undo]').getBoundingClientRect().top > innerHeight / 2")
        b.wait_for("document.getElementById('standings').innerText.includes('-2 chips')")
        assert b.evaluate("document.documentElement.scrollWidth") <= 390

        assert b.evaluate("document.getElementById('redo').disabled")
        assert d.act(button(act="undo")).startswith("Undid #2: Dee drops")
        b.wait_for("!document.getElementById('redo').disabled")
        assert d.act("document.getElementById('redo')").startswith("Redid: Dee drops")
        b.wait_for("document.getElementById('redo').disabled")

        d.act(button(act="drop", player=first))
        said = d.act(button(act="drop", player="Cruz"))
        assert "pays" in said  # the payments of the hand's end, in the answer
        b.wait_for("!document.getElementById('winner').hidden")
        assert second in b.text("#winner")
        row = b.evaluate(f"[...document.querySelectorAll('#seats .seat')].find(s => s.innerText.includes('{second}'))"
                         ".querySelector('.status').textContent")
        assert row == "won the hand"
        assert b.text("#deals").startswith("Next hand:")
        assert b.evaluate("document.documentElement.scrollWidth") <= 390  # 40-character names wrap
        assert b.evaluate("document.getElementById('standings').scrollWidth") <= 390

        b.tap("document.getElementById('players-link')")  # the dealer's address opens the players' pages
        b.wait_for("location.pathname === '/' && document.readyState === 'complete' && "
                   "((document.getElementById('live-status') || {}).textContent || '') === '● live'")
        assert "Hand 1" in b.text("#live") and b.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_phone_speaks_of_taps_never_of_commands(tmp_path):
    db = tmp_path / "pan.db"
    with dealer_page(db, "session new night --game contract --players Ana,Ben,Cruz,Dee --dealer Dee") as (pan, b, d):
        b.tap(button(who="Ana"))
        d.act(button(act="out"))
        b.wait_for("!document.getElementById('still').hidden")
        # the phone names its button, never the command
        assert "Still to record (Cards left): the cards left of Ben, Cruz, Dee." in b.text("#still")
        b.tap(button(who="Ben"))
        refused = d.act(button(act="out"))
        assert "already gone out" in refused
        words = b.evaluate("document.body.innerText + [...document.querySelectorAll('[title]')].map(e => e.title).join(' ')"
                           " + [...document.querySelectorAll('option, label')].map(e => e.textContent).join(' ')")
        assert "pan " not in words and "`" not in words, words
        assert b.evaluate(f"{button(act='lay')}.title").endswith("all at once.")
