"""`pan report --text`: the night in a few lines to paste into a group chat, for each of the three
games in English, Polish and Russian: its name, game and date, the winner, each player's result in
the game's own terms (money and chips in Panguingue, points in the contract game, letters in
Polish Pan), the game's own result, and who pays whom where chips change hands; every line within
80 cells, a name only where no language declines it (after a colon, beside an arrow)."""

from __future__ import annotations

import re
import sys

import pytest
from typer.testing import CliRunner

from pancli.cli import app
from pancli.core.text import cells

from helpers import Pan, Table

DATE = {"en": r"\d{4}-\d{2}-\d{2}", "pl": r"\d{1,2}\.\d{1,2}\.\d{4}", "ru": r"\d{2}\.\d{2}\.\d{4}"}


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The Panguingue night `pan demo` records (seven players, nine hands, a chip worth $0.25)."""
    if sys.platform in ("darwin", "win32"):
        pytest.skip("the XDG data folder")
    home = tmp_path_factory.mktemp("home")
    mp = pytest.MonkeyPatch()
    mp.setenv("HOME", str(home))
    for var in ("PANCLI_DB", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        mp.delenv(var, raising=False)
    try:
        assert CliRunner().invoke(app, ["demo"]).exit_code == 0
    finally:
        mp.undo()
    return Table(home / ".local" / "share" / "pancli" / "demo.db")


def contract(tmp_path) -> Table:
    """The contract game's five deals played to the end: Ana wins with +33."""
    pan = Table(tmp_path / "contract.db")
    pan("session new rummy --game contract --players Ana,Ben,Cruz")
    for out, left in [("ben", "Ana=5 Cruz=10"), ("cruz", "Ana=0 Ben=8"), ("ana", "Ben=3 Cruz=4"),
                      ("ana", "Ben=30 Cruz=1"), ("ben", "Ana=2 Cruz=7")]:
        pan(f"contract deal --out {out} " + " ".join(f"--left {x}" for x in left.split()))
    return pan


def polish(tmp_path) -> Table:
    """Polish Pan to the end: Ana completes PAN, Ben holds P, Cruz nothing."""
    pan = Table(tmp_path / "polish.db")
    pan("session new polski --game polish --players Ana,Ben,Cruz")
    for line in ("polish lost ana", "polish nolose", "polish lost ben", "polish lost ana", "polish lost ana"):
        pan(line)
    return pan


def summary(pan: Table, lang: str) -> list[str]:
    text = pan("report --text", lang)
    lines = text.rstrip("\n").split("\n")
    assert all(cells(line) <= 80 for line in lines)
    return lines


PANGUINGUE = {
    "en": ("tonight · Panguingue · ", ["Winner: Ana", "Ana: +$20.25 (+81 chips)", "Dee: +$8.50 (+34 chips)",
           "Cruz: +$3.75 (+15 chips)", "Gus: -$1.50 (-6 chips)", "Eli: -$8.25 (-33 chips)",
           "Ben: -$10.75 (-43 chips)", "Fay: -$12.00 (-48 chips)", "Who pays whom:", "  Fay → Ana: $12.00",
           "  Ben → Dee: $8.50", "  Eli → Ana: $8.25", "  Ben → Cruz: $2.25", "  Gus → Cruz: $1.50"]),
    "pl": ("tonight · Panguingue · ", ["Wygrywa: Ana", "Ana: +20,25 (+81 żetonów)", "Dee: +8,50 (+34 żetony)",
           "Cruz: +3,75 (+15 żetonów)", "Gus: -1,50 (-6 żetonów)", "Eli: -8,25 (-33 żetony)",
           "Ben: -10,75 (-43 żetony)", "Fay: -12,00 (-48 żetonów)", "Kto komu płaci:", "  Fay → Ana: 12,00",
           "  Ben → Dee: 8,50", "  Eli → Ana: 8,25", "  Ben → Cruz: 2,25", "  Gus → Cruz: 1,50"]),
    "ru": ("tonight · Пангинь · ", ["Выигрывает: Ana", "Ana: +20,25 (+81 фишка)", "Dee: +8,50 (+34 фишки)",
           "Cruz: +3,75 (+15 фишек)", "Gus: -1,50 (-6 фишек)", "Eli: -8,25 (-33 фишки)",
           "Ben: -10,75 (-43 фишки)", "Fay: -12,00 (-48 фишек)", "Кто кому платит:", "  Fay → Ana: 12,00",
           "  Ben → Dee: 8,50", "  Eli → Ana: 8,25", "  Ben → Cruz: 2,25", "  Gus → Cruz: 1,50"]),
}


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_the_demo_night_in_a_few_lines_money_and_who_pays_whom(demo, lang):
    head, rest = PANGUINGUE[lang]
    lines = summary(demo, lang)
    assert lines[0].startswith(head) and re.fullmatch(DATE[lang], lines[0][len(head):])
    assert lines[1:] == rest
    settle = demo("settle", lang)
    assert "Fay" in settle and ("$12.00" if lang == "en" else "12,00") in settle  # the same figures


CONTRACT = {
    "en": ["Winner: Ana", "Ana wins the game with +33.", "Ana: +33 points", "Ben: -1 point", "Cruz: -2 points"],
    "pl": ["Wygrywa: Ana", "Ana: +33 punkty", "Ben: -1 punkt", "Cruz: -2 punkty"],
    "ru": ["Выигрывает: Ana", "Ana: +33 очка", "Ben: -1 очко", "Cruz: -2 очка"],
}
POLISH = {
    "en": ["Winner: Cruz", "Ana completed PAN and loses the game.", "Cruz: no letters", "Ben: P (1 letter)",
           "Ana: PAN (3 letters)"],
    "pl": ["Wygrywa: Cruz", "Cruz: bez liter", "Ben: P (1 litera)", "Ana: PAN (3 litery)"],
    "ru": ["Выигрывает: Cruz", "Cruz: без букв", "Ben: P (1 буква)", "Ana: PAN (3 буквы)"],
}
ENGLISH = re.compile(r"\b(Winner|Leading|chips?|points?|letters?|Who pays|pays)\b")


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_the_contract_game_in_points_and_polish_pan_in_letters(tmp_path, lang):
    for pan, game, expected in ((contract(tmp_path), "contract", CONTRACT), (polish(tmp_path), "polish", POLISH)):
        lines = summary(pan, lang)
        assert lines[0].startswith(("rummy · ", "polski · "))
        for line in expected[lang]:
            assert line in lines, (game, lang, lines)
        assert len(lines) == 1 + 1 + 1 + 3  # title, winner, the game's result, three players: no settle-up
        if lang != "en":
            assert not [line for line in lines if ENGLISH.search(line)], lines


def test_a_game_still_played_says_who_leads_and_long_names_wrap_within_80(tmp_path):
    pan = Table(tmp_path / "pan.db")
    pan("session new rummy --game contract --players Ana,Ben,Cruz")
    pan("contract deal --out ben --left Ana=5 --left Cruz=10")
    assert summary(pan, "en")[1] == "Leading: Ben"
    assert summary(pan, "pl")[1] == "Prowadzi: Ben"
    long = [f"{c}lexandrina-Maximiliana-Worthington-Smyt"[:39] + c for c in "ABC"]
    night = Pan(tmp_path / "long.db")
    night(f"session new long --players {','.join(long)} --chip-value 0.25 --currency PLN")
    for line in ("deal", f"meld {long[0]} 5S 5S 5S", f"add {long[0]} 5S", f"meld {long[0]} KH KD KS KC",
                 f"out {long[0]} 4H 4D 4C"):
        night(line)
    lines = summary(Table(tmp_path / "long.db"), "pl")  # every line within 80 cells, checked there
    assert f"  {long[1]} → {long[0]}:" in "\n".join(lines).replace("\n    ", " ")


def test_text_and_json_together_are_refused_in_one_line(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new night --players Ana,Ben,Cruz")
    r = pan("report --text --json", ok=False)
    assert r.exit_code != 0 and "--text and --json" in r.output and "Traceback" not in r.output


def test_text_with_files_prints_only_the_summary(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new night --players Ana,Ben,Cruz --chip-value 0.5")
    book, sheet = tmp_path / "night.xlsx", tmp_path / "night.csv"
    r = pan(f"report --text --xlsx {book} --csv {sheet}")
    assert book.read_bytes()[:2] == b"PK" and sheet.exists()
    assert "Saved" not in r.stdout and r.stdout.startswith("night · Panguingue · ")
