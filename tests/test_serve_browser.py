"""`pan serve` in a real browser: headless Chromium opens the table, the CLI records, the page changes.

Needs Debian's `chromium` (`.ci/run` installs it when it is missing). Skipped only outside CI when
there is no Chromium; in CI a missing browser is a failure.
"""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cdp import Browser, chromium_path
from helpers import Pan, start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)


def pan_cli(db, line: str) -> float:
    """Records from the command line, as the person at the keyboard does; returns when it finished."""
    subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), *line.split()], check=True,
                   capture_output=True, cwd=ROOT)
    return time.monotonic()


@pytest.fixture
def served(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25")
    pan("deal")
    pan("drop cruz")
    proc, url = start_server(db, "--no-qr")
    try:
        yield db, url
    finally:
        rc, out, err = stop_server(proc)
        assert rc == 0 and "Traceback" not in err, err


@pytest.fixture
def browser():
    with Browser(390, 844) as b:
        yield b


def test_the_page_follows_the_table_by_itself(served, browser):
    db, url = served
    browser.goto(url)
    assert "Hand 1" in browser.text("#live") and "Cruz" in browser.text("#live")
    browser.wait_for("!document.getElementById('live-status').hidden")  # the live stream is open
    assert browser.evaluate("document.documentElement.scrollWidth") <= 390  # fits a phone: no sideways scroll

    done = pan_cli(db, "meld ben 5S 5S 5S")
    seen = browser.wait_for("document.getElementById('live').innerText.includes('one-suit valle set in spades')")
    print(f"the meld showed {seen - done:.2f} s after it was recorded")
    assert "+8" in browser.text("#live")  # Ben's chips this hand: 4 from each of Ana and Dee

    done = pan_cli(db, "undo")
    seen = browser.wait_for("!document.querySelector('#live .hand').innerText.includes('valle set in spades')"
                            " && document.getElementById('live').innerText.includes('undone')")
    print(f"the undo showed {seen - done:.2f} s after it was recorded")
    assert browser.evaluate("location.href") == url  # updated in place, never reloaded


def test_the_player_page_and_history_update_too(served, browser):
    db, url = served
    browser.goto(url.replace("/?", "/history?"))
    browser.wait_for("!document.getElementById('live-status').hidden")
    done = pan_cli(db, "meld ana JH QH KH")
    seen = browser.wait_for("document.getElementById('live').innerText.includes('Ana melds J♥ Q♥ K♥')")
    print(f"the history showed the meld {seen - done:.2f} s after it was recorded")
    browser.goto(url.replace("/?", "/player/Ana?"))
    assert "Career" in browser.text("#live")
    assert browser.evaluate("!!document.querySelector('svg.chart circle.dot')")


def test_the_page_works_with_javascript_off(served, browser):
    db, url = served
    browser.call("Emulation.setScriptExecutionDisabled", value=True)
    browser.goto(url)
    text = browser.text("#live")
    assert "Hand 1" in text and "Standings" in text and "Last events" in text
    assert browser.evaluate("document.getElementById('live-status').hidden")  # no live badge without scripts
    pan_cli(db, "meld dee AS 2S 3S")
    browser.goto(url)  # a reload shows it
    assert "rope A-2-3 in spades" in browser.text("#live")


# -- every page in words ----------------------------------------------------------------------

KEY_VALUE = re.compile(r"\b\w+=\S")  # an event's internals (kind=meld player=ana), never a sentence


@pytest.fixture
def whole_evening(tmp_path):
    """Every kind of page: a Panguingue night at the bank with a hand over and a stack below zero,
    a contract game after a deal, a Polish game, a session brought in from another device; served
    with the dealer's page too."""
    from helpers import pan_in_process as pan

    ana, db, shared = tmp_path / "ana.db", tmp_path / "pan.db", tmp_path / "shared"
    for line in ["session new away --players Ana,Ben,Cruz --dealer Cruz", "deal", "meld ana 5S 5S 5S",
                 f"sync {shared} --create --device-name ana-laptop"]:
        pan(ana, line)
    for line in ["session new rummy --game contract --players Ana,Ben,Cruz,Dee --dealer Dee",
                 'contract lay ana "7S 7H 7D + QC QD QS"', "contract out ana --discard 2H",
                 "contract left ben 9C 9D", "contract left cruz AS 5H 5D", "contract left dee --points 12",
                 "session new polski --game polish --players Ola,Piotr,Zosia", "polish lost piotr",
                 "polish lost piotr",
                 "session new friday --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.5",
                 "buyin ana 20", "buyin ben 20", "buyin cruz 5", "deal", "drop cruz", "meld ben 5S 5S 5S",
                 "add ben 5S", "meld ana JH QH KH", "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C", "deal",
                 "drop dee", "meld ana 3S 3S 3S", "undo", "meld cruz KC KC KC",
                 f"sync {shared} --device-name ben-laptop"]:
        pan(db, line)
    proc, url = start_server(db, "--no-qr", "--dealer")
    try:
        proc.stdout.readline()
        yield url, proc.stdout.readline().strip()
    finally:
        rc, out, err = stop_server(proc)
        assert rc == 0 and "Traceback" not in err, err


def test_no_page_shows_an_event_as_key_value_pairs(whole_evening, browser):
    url, dealer = whole_evening
    base, token = url.split("/?token=")
    pages = ["/", "/history", "/settle", "/player/Ana", "/player/Ola", "/sessions", "/?session=rummy",
             "/history?session=rummy", "/?session=polski", "/history?session=polski", "/settle?session=rummy",
             "/?session=away@ana-laptop", "/player/Ben?session=rummy"]
    seen = {}
    for path in pages:
        browser.goto(f"{base}{path}{'&' if '?' in path else '?'}token={token}")
        seen[path] = browser.text("body")
    browser.goto(dealer)
    browser.wait_for("document.querySelectorAll('#seats .seat').length > 0")
    seen["the dealer's page"] = browser.text("body")
    for path, text in seen.items():
        assert "Something went wrong" not in text and "Not found" not in text, (path, text)
        assert not KEY_VALUE.search(text), (path, KEY_VALUE.findall(text), text)
    assert "Next hand:" not in seen["/"] and "Recorded on ana-laptop" in seen["/sessions"]
