"""A season of each game shows that game's own counts: Panguingue's net chips, hands and hands
won as released pancli showed them; the contract game's points and Polish Pan's letters, ranked
as each game ranks its standings, with no chips column."""

from __future__ import annotations

import pytest

from helpers import Pan

PANGUINGUE = ["session new friday --players Ana,Ben,Cruz,Dee", "deal", "drop cruz", "meld ben 5S 5S 5S",
              "add ben 5S", "meld ana JH QH KH", "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C",
              "session new saturday --players Ana,Ben,Eve", "deal", "drop ben", "meld eve 7H 7H 7H",
              "meld ana 5S 5S 5S", "add ana 5S", "meld ana 2C 3C 4C 5C", "out ana 6D 6H 6C", "deal"]

# What pancli printed for that season before a game declared what its season shows.
PANGUINGUE_TEXT = 'Season · 2 sessions · 1 device\n┏━━━━━━━━┳━━━━━┳━━━━━━━━┳━━━━━━━┳━━━━━┓\n┃ player ┃ net ┃ nights ┃ hands ┃ won ┃\n┡━━━━━━━━╇━━━━━╇━━━━━━━━╇━━━━━━━╇━━━━━┩\n│ Ben    │ +25 │      2 │     3 │   1 │\n│ Ana    │  +2 │      2 │     3 │   1 │\n│ Cruz   │  -2 │      1 │     1 │   0 │\n│ Eve    │ -11 │      1 │     2 │   0 │\n│ Dee    │ -14 │      1 │     1 │   0 │\n└────────┴─────┴────────┴───────┴─────┘\n'
PANGUINGUE_JSON = '{"season": "all", "game": "panguingue", "sessions": 2, "devices": 1, "players": [{"name": "Ben", "net": 25, "nights": 2, "hands": 3, "won": 1}, {"name": "Ana", "net": 2, "nights": 2, "hands": 3, "won": 1}, {"name": "Cruz", "net": -2, "nights": 1, "hands": 1, "won": 0}, {"name": "Eve", "net": -11, "nights": 1, "hands": 2, "won": 0}, {"name": "Dee", "net": -14, "nights": 1, "hands": 1, "won": 0}]}\n'


def record(pan: Pan, lines: list[str]) -> Pan:
    for line in lines:
        pan(line)
    return pan


def test_a_season_of_panguingue_is_unchanged_text_and_json(pan):
    record(pan, PANGUINGUE)
    assert pan("standings --season all").stdout == PANGUINGUE_TEXT
    assert pan("standings --season all --json").stdout == PANGUINGUE_JSON
    assert pan("standings --season all --game panguingue --json").stdout == PANGUINGUE_JSON


def headings(text: str) -> list[str]:
    """The column headings of a table whose headings fit on one line."""
    return [cell.strip() for cell in text.splitlines()[2].strip("┃").split("┃")]


def per_session(pan: Pan, names: list[str], stat: str) -> dict[str, int]:
    summed: dict[str, int] = {}
    for name in names:
        for r in pan.json(f"standings --session {name}")["players"]:
            summed[r["name"]] = summed.get(r["name"], 0) + r[stat]
    return summed


def test_a_season_of_the_contract_game_shows_points_highest_first(pan):
    record(pan, ["session new tue --game contract --players Ana,Ben", "contract deal --out ana --left Ben=12",
                 "session new wed --game contract --players Ben,Cruz", "contract deal --out cruz --left Ben=30"])
    season = pan.json("standings --season all --game contract")
    assert season["columns"] == ["points", "deals_played", "deals_won"]
    assert season["sessions"] == 2
    rows = season["players"]
    assert [(r["place"], r["name"], r["points"], r["nights"]) for r in rows] == [
        (1, "Ana", 20, 1), (1, "Cruz", 20, 1), (3, "Ben", -42, 2)]
    assert all("net" not in r for r in rows)  # the contract game moves no chips
    assert {r["name"]: r["points"] for r in rows} == per_session(pan, ["tue", "wed"], "points")
    assert {r["name"]: r["deals_played"] for r in rows} == {"Ana": 1, "Cruz": 1, "Ben": 2}
    assert sum(r["deals_won"] for r in rows) == 2
    text = pan("standings --season all --game contract").stdout
    assert text.splitlines()[0] == "Season · contract · 2 sessions · 1 device"
    assert headings(text) == ["place", "player", "points", "nights", "deals played", "deals won"]
    assert "│     3 │ Ben    │    -42 │      2 │" in text
    # a year with none of its sessions: an empty table, still in points
    empty = pan.json("standings --season 1999 --game contract")
    assert empty["players"] == [] and empty["columns"] == ["points", "deals_played", "deals_won"]
    assert "points" in pan("standings --season 1999 --game contract").stdout


def test_a_contract_season_under_penalty_scoring_ranks_the_lowest_first(pan):
    record(pan, ["session new w --game contract --players Ana,Ben,Cruz --preset contract",
                 "contract deal --out ben --left Ana=30 --left Cruz=5",
                 "session new x --game contract --players Ana,Cruz --preset contract",
                 "contract deal --out ana --left Cruz=10"])
    rows = pan.json("standings --season all --game contract")["players"]
    assert [(r["place"], r["name"], r["points"]) for r in rows] == [(1, "Ben", 0), (2, "Cruz", 15), (3, "Ana", 30)]
    assert "│     2 │ Cruz   │    +15 │      2 │" in pan("standings --season all --game contract").stdout


def test_a_season_of_polish_pan_shows_letters_fewest_first(pan):
    record(pan, ["session new fri --game polish --players Ola,Piotr,Zosia", "polish lost piotr", "polish nolose",
                 "polish lost ola", "polish lost piotr", "polish lost piotr",  # Piotr completes P-A-N
                 "session new sat --game polish --players Ola,Zosia", "polish lost zosia"])
    season = pan.json("standings --season all --game polish")
    assert season["columns"] == ["letters", "deals_played", "deals_lost", "games_lost"]
    rows = season["players"]
    assert [(r["place"], r["name"], r["letters"], r["nights"]) for r in rows] == [
        (1, "Ola", 1, 2), (1, "Zosia", 1, 2), (3, "Piotr", 3, 1)]
    assert {r["name"]: r["games_lost"] for r in rows} == {"Ola": 0, "Zosia": 0, "Piotr": 1}
    assert {r["name"]: r["deals_lost"] for r in rows} == {"Ola": 1, "Zosia": 1, "Piotr": 3}
    assert all("net" not in r and "word" not in r for r in rows)
    assert {r["name"]: r["letters"] for r in rows} == per_session(pan, ["fri", "sat"], "letters")
    assert headings(pan("standings --season all --game polish").stdout) == [
        "place", "player", "letters", "nights", "deals played", "deals lost", "games lost"]


@pytest.mark.parametrize(("lang", "words"), [("pl", ("miejsce", "litery", "wieczory")),
                                             ("ru", ("место", "буквы", "вечера"))])
def test_a_season_of_polish_pan_heads_its_columns_in_the_language_in_force(pan, lang, words):
    record(pan, ["session new fri --game polish --players Ola,Piotr", "polish lost piotr"])
    text = pan(f"--lang {lang} standings --season all --game polish").stdout
    assert all(w in text for w in words), text
    assert pan(f"--lang {lang} standings --season all --game polish --json").stdout == \
        pan("standings --season all --game polish --json").stdout  # --json stays English
