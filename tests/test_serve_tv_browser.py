"""The TV board (/tv) in real headless Chromium at 1280x720 and 1920x1080: it fits the screen,
shows the standings, the hand with each player's melds and the last event with what it paid,
takes in a new event by itself, and shows its panels in turn when they do not both fit."""

import os
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

LIVE = "document.getElementById('live-status').textContent === '● live'"


def pan_cli(db, line: str) -> None:
    subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), *line.split()], check=True,
                   capture_output=True, cwd=ROOT)


def tv(width: int, height: int) -> Browser:
    b = Browser(width, height)
    b.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
    return b


@pytest.fixture
def served(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25")
    pan("deal")
    pan("drop cruz")
    pan("meld ben 5S 5S 5S")
    proc, url = start_server(db, "--no-qr")
    try:
        yield db, url.replace("/?", "/tv?")
    finally:
        rc, out, err = stop_server(proc)
        assert rc == 0 and "Traceback" not in err, err


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_the_tv_board_shows_the_table_and_follows_it(served, size):
    db, url = served
    width, height = size
    with tv(width, height) as b:
        b.goto(url)
        b.wait_for(LIVE)
        assert b.evaluate("document.documentElement.scrollWidth") <= width
        assert b.evaluate("document.documentElement.scrollHeight") <= height  # one screen, never scrolled
        text = b.text("#live")
        assert "Hand 1" in text and "Standings" in text
        assert "one-suit valle set in spades" in text  # Ben's meld, on the hand panel
        assert "Ben melds 5♠ 5♠ 5♠" in b.text(".last .what")
        assert "pay Ben 4 each" in b.text(".last")  # what it paid
        assert b.evaluate("parseFloat(getComputedStyle(document.querySelector('.last .what')).fontSize)") >= 0.02 * height
        assert b.evaluate("getComputedStyle(document.body).backgroundColor") in ("rgb(7, 19, 13)",)

        pan_cli(db, "meld ana JH QH KH")
        b.wait_for("document.querySelector('.last .what').innerText.includes('Ana melds J♥ Q♥ K♥')", 60)
        assert "pay Ana 1 each" in b.text(".last")
        assert b.evaluate("document.documentElement.scrollHeight") <= height


def test_panels_take_turns_when_they_do_not_fit(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    players = ["Ana", "Ben", "Cruz", "Dee", "Eve", "Fay", "Gus"]
    pan(f"session new friday --players {','.join(players)} --dealer Gus")
    pan("deal")
    for name, cards in zip(players, ["AH 2H 3H", "4D 5D 6D", "KC KC KC", "5S 5S 5S", "JS QS KS", "7C 7C 7C",
                                     "QH QD QS"], strict=True):
        pan(f"meld {name} {cards}")
    proc, url = start_server(db, "--no-qr")
    try:
        with tv(1280, 720) as b:
            b.goto(url.replace("/?", "/tv?"))
            b.wait_for(LIVE)
            assert b.evaluate("document.querySelector('.panels').classList.contains('rotating')")
            first = b.evaluate("[...document.querySelectorAll('.panel')].filter(p => !p.hidden).map(p => p.dataset.panel)")
            assert len(first) == 1
            fits = "(b => b.scrollHeight <= b.clientHeight + 1)(document.querySelector('.panels'))"
            assert b.evaluate(fits)  # the panel shown is all on the screen
            b.wait_for(f"[...document.querySelectorAll('.panel')].filter(p => !p.hidden)[0].dataset.panel !== {first[0]!r}", 60)
            assert b.evaluate("document.documentElement.scrollHeight") <= 720 and b.evaluate(fits)
            assert "Gus melds Q♠ Q♥ Q♦" in b.text(".last")  # the last event stays in view throughout
    finally:
        stop_server(proc)
