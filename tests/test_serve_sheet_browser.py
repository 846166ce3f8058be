"""The night's score sheet on paper: `pan report --html` and the settle-up page printed to PDF by
headless Chromium are one page, A4 or Letter, for a 20-hand night of 7 players with the longest
names, and so are the contract game's and Polish Pan's sheets; and no page is wider than a 390 px
phone with 40-character names, in every game."""

import base64
import os
import re

import pytest

from cdp import Browser, chromium_path
from helpers import Pan, start_server, stop_server

if chromium_path() is None:
    if os.environ.get("CI"):
        raise RuntimeError("the browser test needs chromium in CI: apt-get install chromium")
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

# 40 characters each, the longest a name may be; they differ in their first letter
LONG = [f"{c}lexandrina-Maximiliana-Worthington-Smyt"[:39] + c for c in "ABCDEFG"]
PAPER = {"A4": (8.27, 11.69), "Letter": (8.5, 11.0)}  # inches


def night_of(db, hands: int = 20):
    """Worked example 1 hand after hand (the first player goes out, the sixth drops), 7 players."""
    pan = Pan(db)
    pan(f"session new night --players {','.join(LONG)} --dealer {LONG[6]} --chip-value 0.25")
    a, f = LONG[0], LONG[5]
    for _ in range(hands):
        for line in ["deal", f"drop {f}", f"meld {a} 5S 5S 5S", f"add {a} 5S", f"meld {a} KH KD KS KC",
                     f"out {a} 4H 4D 4C"]:
            pan(line)
    return pan


def pages_of(b: Browser, paper: str) -> int:
    width, height = PAPER[paper]
    pdf = base64.b64decode(b.call("Page.printToPDF", paperWidth=width, paperHeight=height, printBackground=True)["data"])
    assert pdf.startswith(b"%PDF")
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    db = tmp_path_factory.mktemp("sheet") / "pan.db"
    night_of(db)
    return db


def test_the_report_sheet_prints_on_one_page(night, tmp_path):
    sheet = tmp_path / "night.html"
    Pan(night)(f"report --html {sheet}")
    with Browser(390, 844) as b:
        b.goto(sheet.as_uri())
        assert b.evaluate("document.querySelectorAll('table.sheet tbody tr').length") == 20
        assert b.evaluate("document.querySelectorAll('table.sheet thead th.who').length") == 7
        text = b.text("main")
        assert "Settle-up" in text and "total" in text and "+1340" in text  # 20 hands of +67
        for paper in PAPER:
            assert pages_of(b, paper) == 1, paper


def test_the_settle_up_page_prints_on_one_page_with_the_grid(night):
    proc, url = start_server(night, "--no-qr")
    try:
        with Browser(390, 844) as b:
            b.goto(url.replace("/?", "/settle?"))
            assert b.evaluate("document.querySelectorAll('table.sheet tbody tr').length") == 20
            assert b.evaluate("document.documentElement.scrollWidth") <= 390
            for paper in PAPER:
                assert pages_of(b, paper) == 1, paper
    finally:
        stop_server(proc)


def contract_night(db) -> None:
    """The contract game's five deals with 6 players (its most) of the longest names."""
    pan = Pan(db)
    six = LONG[:6]
    pan(f"session new rummy --game contract --players {','.join(six)}")
    for deal in range(5):
        out = six[deal]
        pan(f"contract deal --out {out} " + " ".join(f"--left {p}={5 + 7 * i}" for i, p in enumerate(six) if p != out))


def polish_night(db) -> None:
    """Polish Pan's longest game with 6 players: each takes P and A, then the first takes N."""
    pan = Pan(db)
    six = LONG[:6]
    pan(f"session new polski --game polish --players {','.join(six)}")
    pan("polish nolose")
    for _ in range(2):
        for p in six:
            pan(f"polish lost {p}")
    pan(f"polish lost {six[0]}")


@pytest.mark.parametrize(("night_of_game", "deals", "said"), [
    (contract_night, 5, "wins the game with"), (polish_night, 14, "completed PAN and loses the game")])
def test_the_sheet_of_every_game_prints_on_one_page(tmp_path, night_of_game, deals, said):
    db = tmp_path / "pan.db"
    night_of_game(db)
    sheet = tmp_path / "night.html"
    Pan(db)(f"report --html {sheet}")
    proc, url = start_server(db, "--no-qr")
    try:
        with Browser(390, 844) as b:
            for where in (sheet.as_uri(), url.replace("/?", "/settle?")):
                b.goto(where)
                assert b.evaluate("document.querySelectorAll('table.sheet tbody tr').length") == deals
                assert b.evaluate("document.querySelectorAll('table.sheet thead th.who').length") == 6
                assert b.evaluate("document.querySelectorAll('table.sheet small.so-far').length") == deals * 6
                assert said in b.text("main") and "Deal by deal" in b.text("main")
                if where != sheet.as_uri():
                    assert b.evaluate("document.documentElement.scrollWidth") <= 390
                for paper in PAPER:
                    assert pages_of(b, paper) == 1, (where, paper)
    finally:
        stop_server(proc)


PAGES = ["/", "/history", "/settle", "/sessions", "/player/{name}", "/tv"]


def test_no_page_is_wider_than_a_phone_with_40_character_names(tmp_path):
    db = tmp_path / "long.db"
    pan = night_of(db, hands=2)
    pan("deal")
    pan(f"meld {LONG[1]} 7C 7C 7C")
    three = ",".join(LONG[:4])
    pan(f"session new rummy --game contract --players {three}")
    pan(f"contract lay {LONG[0]} 7S 7H 7D / QC QD QS")
    pan(f"session new polski --game polish --players {three}")
    pan(f"polish lost {LONG[1]}")
    pan("session use night")
    proc, url = start_server(db, "--no-qr")
    try:
        with Browser(390, 844) as b:
            for session in ("night", "rummy", "polski"):
                for page in PAGES:
                    path = page.format(name=LONG[1])
                    b.goto(url.replace("/?", f"{path}?") + f"&session={session}")
                    b.wait_for("document.getElementById('live-status').textContent === '● live'")
                    wide = b.evaluate("document.documentElement.scrollWidth")
                    assert wide <= 390, (session, path, wide)
    finally:
        stop_server(proc)
