"""`pan serve` in a real browser: headless Chromium opens the table, the CLI records, the page changes.

Needs Debian's `chromium` (`.ci/run` installs it when it is missing). Skipped only outside CI when
there is no Chromium; in CI a missing browser is a failure.
"""

import os
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
    assert browser.evaluate("!!document.querySelector('svg.chart polyline')")


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
