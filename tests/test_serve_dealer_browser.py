"""`pan serve --dealer` in a real browser: headless Chromium at 390x844 records a whole Panguingue
hand by tapping the dealer's page, while a `pan` command records too; the standings equal the same
hand recorded through the CLI. A contract deal and a Polish Pan deal are tapped on the page the
same way, made from those games' declared actions and packs."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cdp import Browser, chromium_path
from dealer_page import Dealer, button, choose, dealer_page, recorded, small_targets
from helpers import Pan, stop_server

ROOT = Path(__file__).resolve().parent.parent

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

HAND = ["deal", "stay ana", "stay ben", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S --to 1", "meld ana JH QH KH",
        "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C"]


def test_a_whole_hand_tapped_on_the_dealer_page(tmp_path):
    db = tmp_path / "pan.db"
    with dealer_page(db) as (pan, b, d):
        assert b.evaluate("document.documentElement.scrollWidth") <= 390
        assert small_targets(b) == []

        assert d.act(button(act="deal")).startswith("Hand 1: Dee deals, Ana is eldest")
        b.wait_for(f"!{button(act='stay', player='Ana')}.disabled")
        d.act(button(act="stay", player="Ana"))
        d.act(button(act="stay", player="Ben"))
        assert "Cruz drops" in d.act(button(act="drop", player="Cruz"))

        assert d.pick("Ben", "5S 5S 5S").startswith("legal set, one-suit valle set in spades")
        assert "4 from each payer" in d.act(button(act="meld"))
        d.pick("Ben", "5S", onto=1)
        assert "legal addition" in b.text("#verdict")
        d.act(button(act="add"))
        d.pick("Ana", "JH QH KH")
        d.act(button(act="meld"))

        assert d.pick("Ana", "2D 5H 7C").startswith("not legal")  # the picker says so before the tap
        refused = d.act(button(act="meld"))
        assert b.evaluate("document.getElementById('said').classList.contains('bad')") and refused

        # Another dealer at the keyboard meanwhile: its event lands, and the page's undo takes it back.
        subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), "meld", "dee", "AS", "2S", "3S"],
                       check=True, capture_output=True, cwd=ROOT)
        b.wait_for("document.getElementById('undo-preview').textContent.includes('Dee melds A♠ 2♠ 3♠')")
        assert d.act(button(act="undo")).startswith("Undid #8: Dee melds A♠ 2♠ 3♠")

        d.pick("Ben", "2C 3C 4C 5C")
        d.act(button(act="meld"))
        d.pick("Ben", "6D 6H 6C")
        said = d.act(button(act="out"))
        assert "Ben goes out" in said, said
        assert small_targets(b) == []

    cli = Pan(tmp_path / "cli.db")
    cli("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    for line in HAND:
        cli(line)
    assert pan.json("standings") == cli.json("standings")
    assert pan("db check").exit_code == 0


def test_a_dropped_answer_is_retried_and_a_double_tap_recorded_once(tmp_path):
    with dealer_page(tmp_path / "pan.db") as (pan, b, d):
        d.act(button(act="deal"))
        b.wait_for(f"!{button(act='drop', player='Cruz')}.disabled")

        # The server records the drop, then the Wi-Fi drops its answer.
        b.watch("Fetch.requestPaused")
        b.call("Fetch.enable", patterns=[{"urlPattern": "*/dealer/api/action", "requestStage": "Response"}])
        b.tap(button(act="drop", player="Cruz"))
        paused = b.wait_event("Fetch.requestPaused")
        assert paused["responseStatusCode"] == 200
        b.call("Fetch.failRequest", requestId=paused["requestId"], errorReason="ConnectionReset")
        b.call("Fetch.disable")
        b.wait_for("!document.getElementById('net').hidden")
        assert "connection dropped" in b.text("#net")
        assert pan.json("history")["events"][-1]["kind"] == "drop"  # it was recorded before the drop

        # The tap waits in the outbox and goes again by itself, with its key: answered, recorded once.
        b.wait_for("document.getElementById('net').hidden && document.body.dataset.waiting === '0'")
        assert b.text("#said").startswith("Cruz drops")

        # A double tap on a meld: two taps, one meld.
        d.pick("Ben", "5S 5S 5S")
        before = d.answered()
        b.tap(button(act="meld"))
        b.tap(button(act="meld"))
        b.wait_for(f"Number(document.body.dataset.answered || 0) >= {before + 1}"
                   " && !document.body.classList.contains('busy')")
        # A stay tapped again just after its answer came: the same tap, answered again.
        first = d.act(button(act="stay", player="Ana"))
        assert d.act(button(act="stay", player="Ana")) == first
    kinds = [e["kind"] for e in pan.json("history")["events"]]
    assert kinds == ["deal", "drop", "meld", "stay"]
    assert pan("db check").exit_code == 0


CONTRACT = "session new night --game contract --players Ana,Ben,Cruz,Dee"
CONTRACT_DEAL = ["contract lay ana 7S 7H 7D / QC QD QS", "contract out ana --discard QH",
                 "contract left ben KC KD 4S", "contract left cruz --points 12", "contract left dee 10S"]


def test_a_contract_deal_tapped_on_the_dealer_page(tmp_path):
    db = tmp_path / "pan.db"
    with dealer_page(db, CONTRACT) as (pan, b, d):
        assert b.evaluate("document.querySelectorAll('#picker .pick').length") == 52  # its own pack, 8-10 too
        assert "deal 1" in b.text("#status") and "sets" in b.text("#status").lower()  # the deal and its contract
        assert b.evaluate("document.documentElement.scrollWidth") <= 390
        assert small_targets(b) == []

        choose(b, "Ana", "7S 7H 7D / QC QD QS")
        assert "Ana" in recorded(b, d, button(act="lay"))
        choose(b, "Ana", "QH")
        assert "Ana" in recorded(b, d, button(act="out"))
        assert pan.json("history")["events"][-1]["payload"]["discard"] == "QH"  # the chosen discard, kept
        b.wait_for("document.getElementById('still').textContent.includes('Ben')")

        choose(b, "Ben", "KC KD 4S")
        recorded(b, d, button(act="left"))
        choose(b, "Cruz")
        b.evaluate("document.getElementById('number').value = '12'")  # counted at the table
        recorded(b, d, button(act="left"))
        choose(b, "Dee", "TS")
        recorded(b, d, button(act="left"))

    cli = Pan(tmp_path / "cli.db")
    cli(CONTRACT)
    for line in CONTRACT_DEAL:
        cli(line)
    assert pan.json("standings") == cli.json("standings")
    assert [e["payload"] for e in pan.json("history")["events"]] == [e["payload"] for e in cli.json("history")["events"]]
    assert pan("db check").exit_code == 0


def test_a_polish_pan_deal_tapped_on_the_dealer_page(tmp_path):
    db = tmp_path / "pan.db"
    with dealer_page(db, "session new p --game polish --players Ana,Ben,Cruz,Dee") as (pan, b, d):
        assert b.evaluate("document.querySelectorAll('#picker .pick').length") == 24
        assert small_targets(b) == []
        assert "Ben" in recorded(b, d, button(act="lost", player="Ben"))
        recorded(b, d, button(act="nolose"))
        recorded(b, d, button(act="lost", player="Ben"))
    cli = Pan(tmp_path / "cli.db")
    cli("session new p --game polish --players Ana,Ben,Cruz,Dee")
    for line in ("polish lost ben", "polish nolose", "polish lost ben"):
        cli(line)
    assert pan.json("standings") == cli.json("standings")
    assert pan("db check").exit_code == 0


def test_a_fourth_game_gets_a_working_dealer_page_from_its_declaration(tmp_path):
    """The toy game of tests/test_toy_game.py, served by a `pan serve --dealer` that registers it:
    its page lays out its own pack and a form for its own action, and a deal typed there records."""
    from pancli.games import GAMES, register

    from toy_game import HighCard

    db = tmp_path / "pan.db"
    register(HighCard())
    try:
        pan = Pan(db)
        pan("session new hc --game highcard --preset five --players Ana,Ben,Cruz")
        serve = ("import sys; sys.path.insert(0, 'tests'); from test_toy_game import HighCard; "
                 "from pancli.games import register; register(HighCard()); "
                 "sys.argv = ['pan', 'serve', '--host', '127.0.0.1', '--port', '0', '--no-qr', '--dealer']; "
                 "from pancli.cli import main; main()")
        env = dict(os.environ, PANCLI_DB=str(db), PYTHONUNBUFFERED="1")
        proc = subprocess.Popen([sys.executable, "-c", serve], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env, cwd=ROOT)
        try:
            assert proc.stdout.readline().startswith("http://127.0.0.1:")
            proc.stdout.readline()
            dealer_url = proc.stdout.readline().strip()
            with Browser(390, 844) as b:
                b.goto(dealer_url)
                b.wait_for("document.querySelectorAll('#more-fields input[data-each]').length === 3")
                assert b.evaluate("document.querySelectorAll('#picker .pick').length") == 52
                assert b.evaluate("document.documentElement.scrollWidth") <= 390
                assert small_targets(b) == []
                for name, card in (("Ana", "KS"), ("Ben", "2H"), ("Cruz", "7D")):
                    b.evaluate(f"document.querySelector('#more-fields input[data-each={name}]').value = '{card}'")
                said = Dealer(b).act("document.querySelector('#more button[type=submit]')")
                assert said.startswith("Deal 1: Ana wins with KS."), said
        finally:
            rc, _, err = stop_server(proc)
        assert rc == 0 and "Traceback" not in err, err
        data = pan.json("standings")
        assert {p["name"]: p["net"] for p in data["players"]} == {"Ana": 10, "Ben": -5, "Cruz": -5}
    finally:
        GAMES.pop("highcard")
