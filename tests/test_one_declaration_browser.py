"""The verb added by declaration alone (tests/test_one_declaration.py) in a real browser: headless
Chromium at 390x844 opens the toy game's dealer page, finds `concede` as a button on each seat,
and taps it; the event recorded is the one `pan highcard concede` records."""

from __future__ import annotations

import os
import socket
import threading
import time

import pytest

from pancli.games import GAMES, register

from cdp import Browser, chromium_path
from dealer_page import Dealer, button
from helpers import HANG
from toy_game import HighCardWithConcede, nets

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

DEALER = "toy-dealer"


@pytest.fixture
def served(pan):
    """The toy game's session served in this process (the game is registered only here), on a
    free port of 127.0.0.1: its address."""
    import uvicorn

    from pancli.web.app import create_app

    g = register(HighCardWithConcede())
    pan("session new hc --game highcard --preset five --players Ana,Ben,Cruz")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(pan.db, "toy-token", dealer_token=DEALER), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + HANG  # a hang guard, not a bound
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.started, "the server did not start"
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(HANG)
        sock.close()
        GAMES.pop(g.name)


def test_the_dealer_taps_the_verb_added_by_declaration(served, pan):
    with Browser(390, 844) as b:
        b.goto(f"{served}/dealer?dealer={DEALER}")
        b.wait_for("document.querySelectorAll('#seats .seat').length === 3")
        concede = button(act="concede", player="Ben")
        b.wait_for(f"!!{concede} && !{concede}.disabled")
        assert "Concede" in b.evaluate(f"{concede}.textContent")
        said = Dealer(b).act(concede)
        assert "Ben concedes" in said
    assert nets(pan) == {"Ana": 5, "Ben": -10, "Cruz": 5}
    assert [e["payload"] for e in pan.json("history")["events"]] == [{"kind": "concede", "player": "Ben"}]
