"""Each game in its own terms on every face: the contract game in points and deals, Polish Pan in
letters and lost deals; no chip columns, chip charts or chip settle-up where a game moves no
chips (``Game.in_chips``), unless chips were bought at the bank; `pan player` game by game."""

from __future__ import annotations

import re
import warnings
from html import unescape

import pytest

from pancli.web.app import create_app

from helpers import Pan

with warnings.catch_warnings():  # starlette suggests httpx2 for its test client; httpx serves as well
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

CONTRACT = ["session new tuesday --game contract --players Ana,Ben,Cruz,Dee --dealer Dee",
            'contract deal --out ana --left "Ben=9C 9D" --left Cruz=25 --left "Dee=2C 3C"',
            'contract deal --out ben --left "Ana=AH AD" --left Cruz=12 --left "Dee=2C 3C"']
POLISH = ["session new friday --game polish --players Ola,Piotr,Zosia,Ana", "polish lost piotr", "polish nolose",
          "polish lost ola", "polish lost ana"]
PANGUINGUE = ["session new sat --players Ana,Ben,Cruz --chip-value 0.25", "deal", "drop cruz", "meld ben 5S 5S 5S"]
CHIP_WORDS = re.compile(r"\b(chips?|net|money|best hand)\b", re.IGNORECASE)


def speaks_of_chips(text: str) -> bool:
    """Whether a text names chips, net, money or a best hand, but for saying there are none."""
    return bool(CHIP_WORDS.search(text.replace("is not played for chips", "")))


def night(tmp_path, *scripts: list[str]) -> Pan:
    tmp_path.mkdir(exist_ok=True)
    pan = Pan(tmp_path / "pan.db")
    for script in scripts:
        for line in script:
            pan(line)
    return pan


def text_of(html: str) -> str:
    html = re.sub(r"(?s)<(script|style|head)\b.*?</\1>", "", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


# -- pan report ---------------------------------------------------------------------------------

def test_the_contract_report_shows_points_and_deals_and_charts_the_points(tmp_path):
    pan = night(tmp_path, CONTRACT)
    out = pan("report").stdout
    lines = out.splitlines()
    assert lines[0].endswith("· 2 deals")
    assert lines[1].split() == ["place", "player", "points", "deals", "played", "deals", "won"]
    assert lines[3].split() == ["1", "Ben", "+2", "2", "1"] and lines[6].split() == ["4", "Cruz", "-37", "2", "0"]
    # the running points deal by deal (Ana +20 then -30; Cruz -25 then -12), not a flat chart of chips
    assert "Points, deal by deal (from -37 to +20):" in out
    assert re.search(r"^Ana +\S\S  -10$", out, re.MULTILINE)
    assert "Running total" not in out and "from 0 to 0" not in out and not speaks_of_chips(out)
    assert "Deal 3 of 5 is next: 2 sequences." in out
    data = pan.json("report")
    assert data["deals"] == 2 and data["columns"] == ["points", "deals_played", "deals_won"]
    assert {r["name"]: (r["place"], r["running"]) for r in data["players"]} == {
        "Ben": (1, [-18, 2]), "Ana": (2, [20, -10]), "Dee": (2, [-5, -10]), "Cruz": (4, [-25, -37])}


def test_the_polish_report_shows_letters_and_lost_deals_without_a_chart(tmp_path):
    pan = night(tmp_path, POLISH)
    out = pan("report").stdout
    lines = out.splitlines()
    assert lines[0].endswith("· 4 deals")
    assert lines[1].split() == ["place", "player", "word", "deals", "played", "deals", "lost"]
    # placed as `pan standings` places them: a tie in seating order
    assert [line.split() for line in lines[3:]] == [["1", "Zosia", "-", "4", "0"], ["2", "Ola", "P", "4", "1"],
                                                    ["2", "Piotr", "P", "4", "1"], ["2", "Ana", "P", "4", "1"]]
    assert not speaks_of_chips(out) and "▄" not in out
    assert pan.json("report")["players"][3]["running"] == ["", "", "", "P"]  # Ana's letters, deal by deal
    pan("polish lost ana")
    pan("polish lost ana")
    assert pan("report").stdout.rstrip().endswith("Ana completed PAN and loses the game.")


def test_a_panguingue_report_keeps_its_chips(tmp_path):
    pan = night(tmp_path, PANGUINGUE)
    out = pan("report").stdout
    assert out.splitlines()[1].split() == ["player", "net", "money", "hands", "won", "drop", "conds", "best"]
    assert "Running total, hand by hand" in out and "columns" not in pan.json("report")


# -- pan settle ---------------------------------------------------------------------------------

@pytest.mark.parametrize("script, said", [
    (CONTRACT, "Standings: Ben +2 points, Ana -10 points, Dee -10 points, Cruz -37 points."),
    (POLISH, "Standings: Zosia no letters, Ola P, Piotr P, Ana P.")])
def test_settle_up_of_a_game_without_chips_says_so_once_and_gives_the_result(tmp_path, script, said):
    pan = night(tmp_path, script)
    lines = pan("settle").stdout.splitlines()
    title = "Contract rummy (five deals)" if script is CONTRACT else "Polish Pan"
    assert lines[:3] == [f"Settle-up · {script[0].split()[2]}", f"{title} is not played for chips: nothing to settle.",
                         said]
    assert not any(speaks_of_chips(line) or "owes" in line for line in lines)


def test_settle_up_of_a_game_without_chips_is_a_settle_up_once_chips_are_bought(tmp_path):
    pan = night(tmp_path, CONTRACT)
    pan("buyin ana 20")
    out = pan("settle").stdout
    assert "Bank mode" in out and "nothing to settle" not in out and "The bank pays Ana" in out


def test_a_panguingue_settle_up_is_unchanged_even_at_zero(tmp_path):
    pan = night(tmp_path, [PANGUINGUE[0]])
    assert pan("settle").stdout.splitlines()[1:3] == [
        "Nobody bought chips at the bank, so each player settles their net from play.", "  Ana                 0 chips  $0.00"]


# -- pan player ---------------------------------------------------------------------------------

def test_a_career_over_three_games_is_a_table_per_game_in_its_own_columns(tmp_path):
    pan = night(tmp_path, CONTRACT, POLISH, PANGUINGUE)
    out = pan("player ana").stdout
    assert out.startswith("Ana: 3 sessions.\n\nPanguingue: 1 session, 1 hand, won 0 (0%), dropped 0 (0%), net -4 (-1.00).\n")
    sections = out.split("\n\n")
    assert sections[2].startswith("Contract rummy (five deals): 1 session.\n")
    assert sections[3].startswith("Polish Pan: 1 session.\n")
    headers = [[c.strip() for c in line.strip("┃").split("┃")] for line in out.splitlines() if line.startswith("┃ date")]
    assert headers == [["date", "session", "net", "hands", "won", "dropped", "conditions", "running"],
                       ["date", "session", "points", "deals played", "deals won"],
                       ["date", "session", "letters", "deals played", "deals lost", "games lost"]]
    assert not speaks_of_chips(sections[2] + sections[3])
    assert re.search(r"│ tuesday │ +-10 │ +2 │ +1 │", sections[2])  # points with their sign
    games = pan.json("player ana")["games"]
    assert [(g["game"], g["in_chips"], g["sessions"]) for g in games] == [
        ("panguingue", True, 1), ("contract", False, 1), ("polish", False, 1)]
    assert games[0]["net"] == -4 and "net" not in games[1] and "net" not in games[1]["nights"][0]


def test_a_career_of_panguingue_alone_reads_as_before(tmp_path):
    pan = night(tmp_path, PANGUINGUE)
    out = pan("player ben").stdout
    assert out.startswith("Ben: 1 session, 1 hand, won 0 (0%), dropped 0 (0%), net +4 (+1.00).\n")
    assert "Panguingue" not in out
    fresh = night(tmp_path / "fresh", [PANGUINGUE[0]])  # seated, nothing recorded yet
    assert fresh("player ana").stdout == "Ana: 0 sessions, 0 hands, won 0 (-), dropped 0 (-), net 0.\n"


# -- the pages: settle-up, the printed sheet, the TV ------------------------------------------------

def pages(db, session: str, *paths: str, lang: str = "en") -> dict[str, str]:
    with TestClient(create_app(db, "t"), base_url="http://testserver") as client:
        client.cookies.set("pan_lang", lang)
        return {p: text_of(client.get(p, params={"token": "t", "session": session}).text) for p in paths}


def test_polish_pans_settle_page_and_tv_speak_no_chips(tmp_path):
    pan = night(tmp_path, POLISH)
    got = pages(pan.db, "friday", "/settle", "/tv")
    settle, tv = got["/settle"], got["/tv"]
    assert "Polish Pan is not played for chips: nothing to settle." in settle
    assert "Standings: Zosia no letters, Ola P, Piotr P, Ana P." in settle
    assert not speaks_of_chips(settle) and "Nobody owes" not in settle and "Balances" not in settle
    assert "Deal by deal" in settle  # the letters, deal by deal
    assert "change hands" not in tv and not speaks_of_chips(tv) and "Ana loses the deal" in tv


def test_a_panguingue_settle_page_and_tv_keep_their_chips(tmp_path):
    pan = night(tmp_path, [PANGUINGUE[0]])
    got = pages(pan.db, "sat", "/settle", "/tv", "/player/Ana")
    assert "Nobody owes anything." in got["/settle"] and "Balances" in got["/settle"]
    assert "Career in chips net 0" in got["/player/Ana"]  # a player new to Panguingue: as before
    pan("deal")
    assert "No chips change hands." in pages(pan.db, "sat", "/tv")["/tv"]


@pytest.mark.parametrize("script", [CONTRACT, POLISH])
def test_the_printed_sheet_of_a_game_without_chips_has_no_settle_up(tmp_path, script):
    pan = night(tmp_path, script)
    pan(f"report --html {tmp_path / 'sheet.html'}")
    page = text_of((tmp_path / "sheet.html").read_text(encoding="utf-8"))
    assert "Deal by deal" in page and "Settle-up" not in page and not speaks_of_chips(page)


def test_the_printed_sheet_of_panguingue_keeps_its_settle_up(tmp_path):
    pan = night(tmp_path, PANGUINGUE)
    pan(f"report --html {tmp_path / 'sheet.html'}")
    assert "Settle-up" in text_of((tmp_path / "sheet.html").read_text(encoding="utf-8"))


# -- in Polish and Russian ----------------------------------------------------------------------

WORDS = {
    "pl": {"settle": "Remik kontraktowy (pięć rozdań): gra nie na żetony, nie ma czego rozliczać.",
           "standings": "Wyniki: Ben +2 punkty, Ana -10 punktów, Dee -10 punktów, Cruz -37 punktów.",
           "title": "· 2 rozdania", "chart": "Punkty, rozdanie po rozdaniu (od -37 do +20):",
           "player": "Ana: 3 sesje.", "polish": "Polski Pan: gra nie na żetony, nie ma czego rozliczać."},
    "ru": {"settle": "Рамс с нормативами (пять розыгрышей): игра не на фишки, рассчитываться не за что.",
           "standings": "Результаты: Ben +2 очка, Ana -10 очков, Dee -10 очков, Cruz -37 очков.",
           "title": "· 2 сдачи", "chart": "Очки по розыгрышам (от -37 до +20):",
           "player": "Ana: 3 сессии.", "polish": "Польский Пан: игра не на фишки, рассчитываться не за что."},
}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_new_lines_read_in_polish_and_russian(tmp_path, lang):
    words = WORDS[lang]
    pan = night(tmp_path, POLISH, PANGUINGUE, CONTRACT)
    settle = " ".join(pan(f"--lang {lang} settle").stdout.split())
    assert words["settle"] in settle and words["standings"] in settle
    report = pan(f"--lang {lang} report").stdout
    assert report.splitlines()[0].endswith(words["title"]) and words["chart"] in report
    assert pan(f"--lang {lang} player ana").stdout.startswith(words["player"] + "\n")
    page = pages(pan.db, "friday", "/settle", lang=lang)["/settle"]
    assert words["polish"] in page


def test_the_players_page_shows_each_other_game_in_its_own_columns(tmp_path):
    pan = night(tmp_path, CONTRACT, POLISH, PANGUINGUE)
    got = pages(pan.db, "sat", "/player/Ana", "/player/Ola")
    ana = got["/player/Ana"]
    others = ana[ana.index("Other games"):]
    assert "Contract rummy (five deals) date session points deals played deals won" in others
    assert re.search(r"tuesday -10 2 1 Polish Pan date session letters deals played deals lost games lost "
                     r"\S+ friday 1 4 1 0", others)
    assert not speaks_of_chips(others.replace("not in chips", ""))
    ola = got["/player/Ola"]  # Polish Pan alone: no career in chips at 0
    career = ola[ola.index("Career"):]
    assert "in chips" not in career.replace("not in chips", "") and " net " not in career
    assert "Polish Pan date session letters" in career


# -- a game played in deals lists deals, not hands (``Game.round_word``) ----------------------------

def test_the_history_of_a_game_played_in_deals_names_deals(tmp_path):
    pan = night(tmp_path, CONTRACT)
    lines = pan("history").stdout.splitlines()
    assert lines[0].startswith("#1    deal 1   Ana goes out") and lines[1].startswith("#2    deal 2   Ben goes out")
    assert pan("--lang pl history").stdout.startswith("#1    rozdanie 1   Ana")
    got = pages(pan.db, "tuesday", "/", "/history")
    assert "#2 deal 2 Ben goes out" in got["/"] and "The whole night, deal by deal →" in got["/"]
    assert "Deal 2" in got["/history"] and "Deal 1" in got["/history"] and "Hand" not in got["/history"]
    assert " hand " not in got["/"].lower()


def test_a_panguingue_history_still_names_hands(tmp_path):
    pan = night(tmp_path, PANGUINGUE)
    assert pan("history").stdout.startswith("#1    hand 1   ")
    got = pages(pan.db, "sat", "/", "/history")
    assert "hand by hand →" in got["/"] and "Hand 1" in got["/history"]


def test_the_list_of_sessions_names_each_games_leader_in_its_own_terms(tmp_path):
    pan = night(tmp_path, CONTRACT, POLISH, PANGUINGUE)
    rows = {r["name"]: r for r in pan.json("sessions")}
    assert rows["tuesday"]["leader"] == {"name": "Ben", "place": 1, "columns": ["points", "deals_played", "deals_won"],
                                         "points": 2, "deals_played": 2, "deals_won": 1}
    assert rows["friday"]["leader"]["name"] == "Zosia" and rows["friday"]["leader"]["word"] == ""
    assert "leader" not in rows["sat"] and rows["sat"]["biggest_winner"] == {"name": "Ben", "net": 4}
    out = pan("sessions").stdout
    assert re.search(r"│ tuesday .*│ Ben \+2 points +│", out) and re.search(r"│ sat .*│ Ben \+4 +│", out)
    assert re.search(r"│ friday .*│ Zosia no +│", out)
