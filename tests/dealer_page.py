"""The dealer's page in the browser, for the tests of `pan serve --dealer`: a table of four with
its dealer page open on a phone's screen, the page's buttons, a tap and its answer, the picker,
and a `pan serve --dealer` started again on the same port after it stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from cdp import Browser
from helpers import HANG, Pan, free_port, start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent


def button(**data) -> str:
    """The page's button with these data- attributes, as a JS expression."""
    test = " && ".join(f"b.dataset.{k} === {json.dumps(str(v))}" for k, v in data.items())
    return f"[...document.querySelectorAll('button')].find(b => {test})"


class Dealer:
    def __init__(self, browser):
        self.b = browser

    def answered(self) -> int:
        return int(self.b.evaluate("Number(document.body.dataset.answered || 0)"))

    def act(self, element_js: str) -> str:
        before = self.answered()
        self.b.tap(element_js)
        self.b.wait_for(f"Number(document.body.dataset.answered || 0) > {before}")
        return self.b.text("#said")

    def pick(self, who: str, cards: str, onto: int | None = None) -> str:
        self.b.tap(button(who=who))
        self.b.tap("document.getElementById('clear')")
        self.b.tap(button(who=who))
        if onto is not None:
            self.b.tap(button(onto=onto))
        for card in cards.split():
            self.b.tap(button(card=card))
        self.b.wait_for(f"document.getElementById('verdict').dataset.cards === {json.dumps(cards)}")
        return self.b.text("#verdict")


def small_targets(browser) -> list:
    return browser.evaluate(
        "[...document.querySelectorAll('button, input, select')].filter(e => e.offsetParent !== null)"
        ".map(e => [e.textContent.trim() || e.name, e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
        ".filter(x => x[1] < 44 || x[2] < 44)")


@contextmanager
def served_dealer_page(db: Path, seats: str = "> 0"):
    """`pan serve --dealer` on the database and its dealer page open on a phone's screen, once the
    page shows its seats (``seats``: how many, as a JS comparison): the browser. The server must
    stop cleanly."""
    proc, _ = start_server(db, "--no-qr", "--dealer")
    try:
        proc.stdout.readline()
        dealer_url = proc.stdout.readline().strip()
        with Browser(390, 844) as b:
            b.goto(dealer_url)
            b.wait_for(f"document.querySelectorAll('#seats .seat').length {seats}")
            yield b
    finally:
        rc, out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err, err


@contextmanager
def dealer_page(db: Path, session: str = "session new friday --players Ana,Ben,Cruz,Dee --dealer Dee"):
    """A table of four with Dee to deal, `pan serve --dealer` on it and its dealer page open on a
    phone's screen: (the database's Pan, the browser, the Dealer)."""
    pan = Pan(db)
    pan(session)
    with served_dealer_page(db, "=== 4") as b:
        yield pan, b, Dealer(b)


def choose(b, who: str, cards: str = "") -> None:
    """Who, then the cards off the picker ("/" between melds), with nothing chosen before."""
    b.tap(button(who=who))
    b.tap("document.getElementById('clear')")
    for card in cards.split():
        b.tap("document.getElementById('separate')" if card == "/" else button(card=card))
    want = len(cards.split())
    b.wait_for(f"document.querySelectorAll('#chosen button').length === {want}")


def recorded(b, d, element_js: str) -> str:
    """A tap's answer, which must not be a refusal."""
    said = d.act(element_js)
    assert not b.evaluate("document.getElementById('said').classList.contains('bad')"), said
    return said


# `pan serve` keeps the players' token and the dealer's key beside the database, and the page's
# check values with the dealer's key: the same command line gives the same addresses after a restart.
class Server:
    """`pan serve --dealer` on one port, the same command line each time it is started."""

    def __init__(self, db: Path):
        self.db, self.port, self.proc = db, free_port(), None

    def start(self) -> str:
        """Starts it; the dealer's address."""
        env = dict(os.environ, PANCLI_DB=str(self.db), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "pancli", "serve", "--host", "127.0.0.1",
                                      "--port", str(self.port), "--no-qr", "--dealer"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
        assert self.proc.stdout.readline().startswith(f"http://127.0.0.1:{self.port}/")
        self.proc.stdout.readline()  # "The dealer's address…"
        return self.proc.stdout.readline().strip()

    def kill(self, sig=signal.SIGKILL) -> None:
        """Stops it, as a crash (SIGKILL) or Ctrl-C (SIGINT), and waits until it is gone."""
        self.proc.send_signal(sig)
        self.proc.wait(timeout=HANG)
        self.proc.stdout.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.kill(signal.SIGINT)


def waiting(b, n: int) -> None:
    b.wait_for(f"document.body.dataset.waiting === '{n}'")


def opened(b, url: str) -> Dealer:
    b.goto(url)
    b.wait_for("document.querySelectorAll('#seats .seat').length === 4")
    return Dealer(b)


def tap_meld(b, d: Dealer, who: str, cards: str) -> str:
    choose(b, who, cards)
    return d.act(button(act="meld"))
