"""The dealer's card picker in headless Chromium at 390x844: two new melds tapped with "/ next
meld" between them are judged live, meld by meld, and Go out records them (a meld, then out with
the last); the contract game's lay-down is judged live before Lay down is tapped."""

import json
import os

import pytest

from cdp import Browser, chromium_path
from helpers import Pan, start_server, stop_server

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)


def button(**data) -> str:
    test = " && ".join(f"b.dataset.{k} === {json.dumps(str(v))}" for k, v in data.items())
    return f"[...document.querySelectorAll('button')].find(b => {test})"


def dealer_page(db, seats: int = 4):
    proc, _ = start_server(db, "--no-qr", "--dealer")
    printed = [proc.stdout.readline().strip() for _ in range(2)]
    url = next(line[line.index("http"):] for line in printed if "dealer=" in line)
    b = Browser(390, 844)
    b.goto(url)
    b.wait_for(f"document.querySelectorAll('#seats .seat').length === {seats}")
    return proc, b


def tap_cards(b, who: str, melds: list[str], one_meld_judged: bool = True) -> str:
    """Who, then each meld's cards with "/ next meld" between them, each tap after the verdict of the
    one before came (as a person taps: the verdict above the cards may take another line); the
    live verdict of them all (``one_meld_judged``: the game judges a single meld too)."""
    b.tap(button(who=who))
    chosen: list[str] = []
    for i, meld in enumerate(melds):
        if i:
            b.tap("document.getElementById('separate')")
            chosen.append("/")
        for card in meld.split():
            b.tap(button(card=card))
            chosen.append(card)
            if one_meld_judged or "/" in chosen:
                b.wait_for(f"document.getElementById('verdict').dataset.cards === {json.dumps(' '.join(chosen))}")
    return b.text("#verdict")


def answered(b, act: str) -> str:
    before = int(b.evaluate("Number(document.body.dataset.answered || 0)"))
    b.tap(button(act=act))
    b.wait_for(f"Number(document.body.dataset.answered || 0) > {before}")
    return b.text("#said")


def test_going_out_with_two_new_melds_from_the_picker(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new friday --players Ana,Ben,Cruz,Dee --dealer Dee")
    pan("deal")
    pan("meld ana JH QH KH")
    proc, b = dealer_page(db)
    try:
        said = tap_cards(b, "Ana", ["2C 3C 4C 5C", "6D 6H 6C 6S"])
        assert said.splitlines() == ["new meld 1: legal rope, no condition; worth 0 from each payer",
                                     "new meld 2: legal set, no condition; worth 0 from each payer"]
        said = answered(b, "out")
        assert "Ana goes out" in said, said
        assert b.evaluate("document.querySelectorAll('#chosen button').length") == 0  # the picker cleared
    finally:
        b.close()
        stop_server(proc)
    kinds = [e["kind"] for e in pan.json("history")["events"]]
    assert kinds[-2:] == ["meld", "out"]


def test_the_contract_lay_down_is_judged_before_it_is_tapped(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new night --game contract --players Ana,Ben,Cruz,Dee --dealer Dee")
    proc, b = dealer_page(db)
    try:
        said = tap_cards(b, "Ana", ["7S 7H 7D", "QC QD"], one_meld_judged=False)
        assert said.startswith("not legal:") and "combination 2" in said, said
        assert "bad" in b.evaluate("document.getElementById('verdict').className")
        b.tap(button(card="QS"))
        b.wait_for("document.getElementById('verdict').dataset.cards === '7S 7H 7D / QC QD QS'")
        said = b.text("#verdict")
        assert said.startswith("legal:") and "lays down the deal-1 contract" in said, said
        assert "lays down" in answered(b, "lay")
    finally:
        b.close()
        stop_server(proc)
