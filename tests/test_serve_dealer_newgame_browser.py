"""`pan serve --dealer` in a real browser: a night of two games from one dealer phone. Headless
Chromium at 390x844 taps a Panguingue hand, then starts a contract game from the phone's "New
game" form and taps its first deal, while a players' page follows the table to the new game."""

import os

import pytest

from cdp import Browser, chromium_path
from dealer_page import Dealer, button, choose, dealer_page, recorded, small_targets
from helpers import Pan, sql_value, start_server, stop_server

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

LONG = "Maximilian-Bartholomew-Featherstonehaugh"  # 40 characters: the longest name a player has
HAND = ["deal", "drop cruz", f"drop {LONG}", "meld ben 5S 5S 5S", "add ben 5S --to 1", "meld ben 2C 3C 4C 5C",
        "out ben 6D 6H 6C"]
CONTRACT_DEAL = ["contract lay ana 7S 7H 7D / QC QD QS", "contract out ana --discard QH",
                 "contract left ben KC KD 4S", "contract left dee --points 12"]
WHERE = "((document.querySelector('.where b') || {}).textContent || '')"


def test_a_night_of_two_games_from_one_dealer_phone(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan(f"session new friday --players Ana,Ben,Cruz,{LONG} --dealer Ana")
    proc, players_url = start_server(db, "--no-qr", "--dealer")
    try:
        proc.stdout.readline()
        dealer_url = proc.stdout.readline().strip()
        assert "dealer=" in dealer_url and "dealer=" not in players_url
        with Browser(390, 844) as b, Browser(390, 844) as players:
            players.goto(players_url)
            players.wait_for(f"{WHERE} === 'friday'")
            b.goto(dealer_url)
            b.wait_for("document.querySelectorAll('#seats .seat').length === 4")
            d = Dealer(b)

            # A Panguingue hand, tapped; "New game" is not offered while it is in play.
            recorded(b, d, button(act="deal"))
            b.wait_for("document.getElementById('newgame-box').hidden")
            b.wait_for(f"!{button(act='drop', player='Cruz')}.disabled")
            recorded(b, d, button(act="drop", player="Cruz"))
            recorded(b, d, button(act="drop", player=LONG))
            choose(b, "Ben", "5S 5S 5S")
            recorded(b, d, button(act="meld"))
            d.pick("Ben", "5S", onto=1)
            recorded(b, d, button(act="add"))
            choose(b, "Ben", "2C 3C 4C 5C")
            recorded(b, d, button(act="meld"))
            choose(b, "Ben", "6D 6H 6C")
            assert "Ben goes out" in recorded(b, d, button(act="out"))

            # The hand is over: the next game, from the phone.
            b.wait_for("!document.getElementById('newgame-box').hidden")
            b.tap("document.getElementById('ng-open')")
            b.wait_for("!document.getElementById('ng').hidden")
            assert b.evaluate("[...document.querySelectorAll('#ng-seats .name')].map(e => e.textContent)") == \
                ["Ana", "Ben", "Cruz", LONG]
            assert b.evaluate("document.getElementById('ng-chips-label').hidden") is False
            assert b.evaluate("document.documentElement.scrollWidth") <= 390
            assert small_targets(b) == []
            b.evaluate("document.getElementById('ng-game').value = 'contract';"
                       "document.getElementById('ng-game').dispatchEvent(new Event('change'))")
            name = b.evaluate("document.getElementById('ng-name').value")
            assert name.endswith("-contract") and len(name) == len("2026-12-02-contract")
            assert b.evaluate("document.getElementById('ng-chips-label').hidden") is True  # no chips in contract
            presets = b.evaluate("[...document.getElementById('ng-preset').options].map(o => o.value)")
            assert presets  # the contract game's own presets
            # Seats edited by tapping: Cruz and the long name go home, Dee sits down, Ana moves to the end.
            b.tap("document.querySelector('#ng-seats button[data-ng=remove][data-seat=\"3\"]')")
            b.tap("document.querySelector('#ng-seats button[data-ng=remove][data-seat=\"2\"]')")
            b.evaluate("document.getElementById('ng-add-name').value = 'Dee'")
            b.tap("document.getElementById('ng-add')")
            b.tap("document.querySelector('#ng-seats button[data-ng=down][data-seat=\"0\"]')")
            b.tap("document.querySelector('#ng-seats button[data-ng=down][data-seat=\"1\"]')")
            assert b.evaluate("[...document.querySelectorAll('#ng-seats .name')].map(e => e.textContent)") == \
                ["Ben", "Dee", "Ana"]
            b.evaluate("document.getElementById('ng-dealer').value = 'Dee'")
            said = d.act("document.getElementById('ng-start')")
            assert said == f"Session {name} (Contract rummy (five deals)): Ben, Dee, Ana. Dee deals first. " \
                           "It is now the current session.", said
            assert not b.evaluate("document.getElementById('said').classList.contains('bad')")

            # The phone and the players' page are at the new game; a deal is tapped there.
            b.wait_for(f"document.getElementById('where').textContent.startsWith({name!r})")
            b.wait_for("document.querySelectorAll('#picker .pick').length === 52")
            players.wait_for(f"{WHERE} === {name!r}")
            choose(b, "Ana", "7S 7H 7D / QC QD QS")
            assert "Ana" in recorded(b, d, button(act="lay"))
            choose(b, "Ana", "QH")
            recorded(b, d, button(act="out"))
            choose(b, "Ben", "KC KD 4S")
            recorded(b, d, button(act="left"))
            choose(b, "Dee")
            b.evaluate("document.getElementById('number').value = '12'")
            recorded(b, d, button(act="left"))
            players.wait_for("document.body.innerText.includes('Ben')")
    finally:
        rc, out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err, err

    cli = Pan(tmp_path / "cli.db")
    cli(f"session new friday --players Ana,Ben,Cruz,{LONG} --dealer Ana")
    for line in HAND:
        cli(line)
    cli(f"session new {name} --game contract --players Ben,Dee,Ana --dealer Dee")
    for line in CONTRACT_DEAL:
        cli(line)
    assert pan.json("standings") == cli.json("standings")
    assert pan.json("standings --session friday") == cli.json("standings --session friday")
    assert [e["payload"] for e in pan.json("history")["events"]] == \
        [e["payload"] for e in cli.json("history")["events"]]
    assert pan("db check").exit_code == 0


def test_a_polish_night_in_zloty_started_from_the_phone_keeps_pln_and_polish(tmp_path):
    """A phone that asks for no language pancli speaks (German) is spoken to in the house language;
    the next game started from it plays for złoty too, still speaks Polish, and takes the money
    per chip as a Polish page writes it."""
    db = tmp_path / "pan.db"
    Pan(db)("session new piatek --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25 --currency PLN "
            "--house-language pl")
    proc, _ = start_server(db, "--no-qr", "--dealer")
    try:
        proc.stdout.readline()
        dealer_url = proc.stdout.readline().strip()
        with Browser(390, 844) as b:
            agent = b.call("Browser.getVersion")["userAgent"]
            b.call("Network.setUserAgentOverride", userAgent=agent, acceptLanguage="de-DE,de")
            b.goto(dealer_url)
            b.wait_for("document.querySelectorAll('#seats .seat').length === 4")
            assert b.evaluate("document.documentElement.lang") == "pl"
            d = Dealer(b)
            b.wait_for("!document.getElementById('newgame-box').hidden")
            b.tap("document.getElementById('ng-open')")
            b.wait_for("!document.getElementById('ng').hidden")
            # The night's money and words, offered as the form's own choices.
            assert b.evaluate("document.getElementById('ng-currency').value") == "PLN"
            assert b.evaluate("document.getElementById('ng-language').value") == "pl"
            assert b.evaluate("document.getElementById('ng-chips').value") == "0,25"
            assert b.evaluate("document.getElementById('ng-currency').selectedOptions[0].textContent") == \
                "PLN · złoty polski"
            assert b.evaluate("document.documentElement.scrollWidth") <= 390
            assert small_targets(b) == []
            b.evaluate("document.getElementById('ng-chips').value = '0,50'")
            b.evaluate("document.getElementById('ng-name').value = 'drugi'")
            said = d.act("document.getElementById('ng-start')")
            assert said.startswith("Sesja drugi (Panguingue): Ana, Ben, Cruz, Dee."), said
            assert not b.evaluate("document.getElementById('said').classList.contains('bad')")
            b.wait_for("document.getElementById('where').textContent.startsWith('drugi')")
            # The next game speaks Polish to the phone that asks for no language of pancli's.
            b.goto(dealer_url)
            b.wait_for("document.querySelectorAll('#seats .seat').length === 4")
            assert b.evaluate("document.documentElement.lang") == "pl"
            assert b.evaluate("document.getElementById('where').textContent").startswith("drugi")
    finally:
        rc, out, err = stop_server(proc)
    assert rc == 0 and "Traceback" not in err, err
    row = [sql_value(db, f"SELECT {c} FROM sessions WHERE name = 'drugi'") for c in ("currency", "language", "chip_value")]
    assert row == ["PLN", "pl", 0.5]


def test_start_is_refused_when_the_keyboard_started_a_game_while_the_form_was_open(tmp_path):
    db = tmp_path / "pan.db"
    with dealer_page(db) as (pan, b, d):  # the server stopped cleanly is asserted as it closes
        b.tap("document.getElementById('ng-open')")
        b.wait_for("!document.getElementById('ng').hidden")
        b.evaluate("document.getElementById('ng-name').value = 'from-the-phone'")
        pan("session new keyboard --players Ana,Ben")  # meanwhile, at the keyboard
        b.wait_for("document.getElementById('where').textContent.startsWith('keyboard')")  # the page follows
        said = d.act("document.getElementById('ng-start')")
        assert said == "the table moved on since the page showed it (now: keyboard): " \
                       "look at the table, then start the new game again", said
        assert b.evaluate("document.getElementById('said').classList.contains('bad')")
        b.wait_for("document.getElementById('ng').hidden && !document.getElementById('ng-open').hidden")
    assert sql_value(db, "SELECT COUNT(*) FROM sessions WHERE name = 'from-the-phone'") == 0
