"""The score sheet as CSV (`pan report --csv`): hands x players, totals and money, that Excel and
LibreOffice open as it is: UTF-8 with a byte order mark (without one on --no-bom), plain numbers
(money as a number in every language: 4050E-2), quoted names,
nothing a spreadsheet would run as a formula. Each game's sheet shows what the game declares
(``Game.sheet_shows``): chips per hand, the contract game's points per deal, Polish Pan's letters. The payments CSV of `pan export` is unchanged."""

import csv
import io

from hypothesis import given, settings, strategies as st

from pancli.app.reports import build_sheet, sheet_csv
from pancli.games.contract.engine import describe_contract

from helpers import CYCLE, Pan


def test_the_csv_sheet_is_hands_by_players_with_totals(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new night --players Zoë,Ben,Cruz,Dee,Eve,Fay --dealer Fay --chip-value 0.25")
    for _ in range(3):
        for line in CYCLE:
            pan(line.replace(" a ", " zoë "))
    plain, bom, default = tmp_path / "plain.csv", tmp_path / "excel.csv", tmp_path / "default.csv"
    pan(f"report --csv {plain} --no-bom")
    pan(f"report --csv {bom} --bom")
    pan(f"report --csv {default}")
    raw = plain.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf") and bom.read_bytes() == b"\xef\xbb\xbf" + raw
    assert default.read_bytes() == bom.read_bytes()  # the byte order mark by default
    rows = list(csv.reader(io.StringIO(bom.read_text(encoding="utf-8-sig"), newline="")))
    assert rows[0] == ["hand", "Zoë", "Ben", "Cruz", "Dee", "Eve", "Fay"]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "total", "money"]
    assert rows[1] == ["1", "54", "-13", "-13", "-13", "-13", "-2"]  # ASCII minus: a number to a spreadsheet
    assert rows[4] == ["total", "162", "-39", "-39", "-39", "-39", "-6"]
    assert rows[5][1] == "4050E-2" and rows[5][2] == "-975E-2"  # 40.50 and -9.75, read as numbers everywhere
    assert float(rows[5][1]) == 40.5 and float(rows[5][2]) == -9.75
    assert b"\r\n" in raw and raw.count(b"\r\n") == 6
    export = pan("export --format csv").stdout
    assert export.startswith("seq,hand,kind,payer,payee,chips,reason,created_at\n")  # as it was


def test_a_name_a_spreadsheet_would_run_is_kept_as_text():
    from pancli.core.rows import Session

    session = Session(id=1, name="s", game="panguingue", created_at="2026-01-01T00:00:00+00:00",
                      players=("=HYPERLINK(1)", "@A", 'Ann "Q", Jr'), dealer=None, rules={}, chip_value=None,
                      closed_at=None, origin=None, device=None, uid=None)
    text = sheet_csv(build_sheet(session, {(1, "=HYPERLINK(1)"): 5, (1, "@A"): -5}, 1))
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["hand", "'=HYPERLINK(1)", "'@A", 'Ann "Q", Jr']
    assert rows[1] == ["1", "5", "-5", "0"] and rows[2] == ["total", "5", "-5", "0"]


HOSTILE = ("-2+3", "=HYPERLINK(1)", "@SUM(A1)", "+1+2")


def test_export_csv_keeps_a_name_a_spreadsheet_would_run_as_text_as_the_sheet_does(tmp_path):
    """`pan export --format csv` goes through the one guard of every CSV (core.text): the payers
    and the standings' names that start like a formula get the apostrophe; chips and money,
    negative ones too, stay numbers."""
    from pancli.core.text import spreadsheet_text

    pan = Pan(tmp_path / "pan.db")
    pan(f"session new night --players Ana,{','.join(HOSTILE)} --dealer Ana --chip-value 0.25")
    pan("deal")
    pan("meld ana 5S 5S 5S")
    payments, standings = pan("export --format csv").stdout.split("\n\n")
    paid = list(csv.DictReader(io.StringIO(payments)))
    assert [r["payer"] for r in paid] == [f"'{n}" for n in HOSTILE] and {r["chips"] for r in paid} == {"4"}
    rows = list(csv.DictReader(io.StringIO(standings)))
    assert [r["player"] for r in rows] == ["Ana", *(f"'{n}" for n in HOSTILE)]
    assert [r["net"] for r in rows] == ["16", "-4", "-4", "-4", "-4"]
    assert [r["money"] for r in rows] == ["4.00", "-1.00", "-1.00", "-1.00", "-1.00"]  # the bytes export always wrote
    sheet = tmp_path / "sheet.csv"
    pan(f"report --csv {sheet}")
    header = next(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"), newline="")))
    assert header[1:] == [spreadsheet_text(n) for n in ("Ana", *HOSTILE)] == ["Ana", *(f"'{n}" for n in HOSTILE)]


def test_bom_without_csv_is_refused_in_one_line(tmp_path):
    db = tmp_path / "pan.db"
    pan = Pan(db)
    pan("session new night --players Ana,Ben,Cruz")
    for option in ("--bom", "--no-bom"):
        r = pan(f"report {option}", ok=False)
        assert r.exit_code != 0 and "--bom is for the CSV sheet" in r.output and "Traceback" not in r.output


# -- every game's own sheet: what ``Game.sheet_shows`` declares ------------------------------------

def rows_of(path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))


def test_the_contract_sheet_has_points_per_deal_the_contract_running_totals_and_the_winner(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new rummy --game contract --players Ana,Ben,Cruz")
    deals = [("ben", "Ana=5 Cruz=10"), ("cruz", "Ana=0 Ben=8"), ("ana", "Ben=3 Cruz=4"),
             ("ana", "Ben=30 Cruz=1"), ("ben", "Ana=2 Cruz=7")]
    for i, (out, left) in enumerate(deals, 1):
        pan(f"contract deal --out {out} " + " ".join(f"--left {x}" for x in left.split()))
        sheet = tmp_path / f"after-{i}.csv"
        pan(f"report --csv {sheet}")
        rows = rows_of(sheet)
        assert len(rows) == 1 + i + 1 + 1  # header, a row a deal, total, the result
    assert rows[0] == ["deal", "contract", "Ana", "Ben", "Cruz", "Ana (total)", "Ben (total)", "Cruz (total)"]
    board = pan.json("contract status")
    sign = -1 if board["scoring"] == "signed" else 1  # signed: what was left counts against
    assert [r[1] for r in rows[1:6]] == [describe_contract(d) for d in range(1, 6)]
    assert rows[1][2] == str(sign * 5) and rows[1][4] == str(sign * 10)  # Ana and Cruz were left holding
    assert rows[2][3] == str(sign * 8) and rows[2][2] == "0"
    running = [[int(c) for c in r[5:8]] for r in rows[1:6]]
    points = [[int(c) for c in r[2:5]] for r in rows[1:6]]
    assert running == [[sum(p[k] for p in points[:d]) for k in range(3)] for d in range(1, 6)]
    totals = [int(c) for c in rows[6][2:5]]
    assert rows[6][:2] == ["total", ""] and totals == running[-1]
    assert totals == [board["totals"][p] for p in ("Ana", "Ben", "Cruz")]
    (winner,) = board["winners"]
    assert rows[7][0] == "result" and rows[7][1].startswith(f"{winner} wins the game with ")


def test_the_polish_sheet_has_each_deals_letter_the_letters_held_and_who_lost(tmp_path):
    pan = Pan(tmp_path / "pan.db")
    pan("session new polski --game polish --players Ana,Ben,Cruz")
    for line in ["polish lost ana", "polish nolose", "polish lost ben", "polish lost ana", "polish lost ana"]:
        pan(line)
    sheet = tmp_path / "polski.csv"
    pan(f"report --csv {sheet}")
    assert rows_of(sheet) == [
        ["deal", "loser", "Ana", "Ben", "Cruz", "Ana (letters)", "Ben (letters)", "Cruz (letters)"],
        ["1", "Ana", "P", "", "", "P", "", ""],
        ["2", "nobody", "", "", "", "P", "", ""],
        ["3", "Ben", "", "P", "", "P", "P", ""],
        ["4", "Ana", "A", "", "", "PA", "P", ""],
        ["5", "Ana", "N", "", "", "PAN", "P", ""],
        ["total", "", "PAN", "P", ""],
        ["result", "Ana completed PAN and loses the game."]]
    html = tmp_path / "polski.html"
    pan(f"report --html {html}")
    page = html.read_text(encoding="utf-8")
    assert "Deal by deal" in page and "Ana completed PAN and loses the game." in page


def test_a_fourth_game_gets_the_sheet_it_declares(tmp_path):
    """The toy game declares nothing: its sheet is its chips per deal. A game that declares its
    own sheet (``sheet_shows`` and ``sheet``) gets that, with no pancli module knowing its name."""
    from pancli.games import GAMES, register
    from pancli.games.actions import BANK_ACTIONS, Action

    from toy_game import DEAL, HighCard

    class Scored(HighCard):
        name, title, sheet_shows = "highpoints", "High card in points", "points"
        # its deal is its own group's command, `pan highpoints deal`
        actions = (Action("deal", ("highpoints", "deal"), DEAL.help, DEAL.label, DEAL.params, DEAL.build, DEAL.kinds),
                   *BANK_ACTIONS)

        def sheet(self, state):
            return {"unit": "points", "round": "deal", "signed": False, "note_label": None,
                    "caption": "deals played", "players": list(state.players),
                    "rows": [{"number": d, "note": None, "scores": [d] * len(state.players), "running": None}
                             for d in range(1, state.deals + 1)],
                    "totals": [state.deals] * len(state.players), "result": None}

    for g in (HighCard(), Scored()):
        register(g)
    try:
        pan = Pan(tmp_path / "pan.db")
        pan("session new hc --game highcard --preset five --players Ana,Ben,Cruz")
        pan("highcard deal ana=KS ben=2H cruz=7D")
        pan("highcard deal ana=3S ben=AH cruz=7D")
        pan(f"report --csv {tmp_path / 'hc.csv'}")
        assert rows_of(tmp_path / "hc.csv") == [["hand", "Ana", "Ben", "Cruz"], ["1", "10", "-5", "-5"],
                                                 ["2", "-5", "10", "-5"], ["total", "5", "5", "-10"]]
        pan("session new hp --game highpoints --players Ana,Ben")
        pan("highpoints deal ana=KS ben=2H")
        pan("highpoints deal ana=3S ben=AH")
        pan(f"report --csv {tmp_path / 'hp.csv'} --html {tmp_path / 'hp.html'}")
        assert rows_of(tmp_path / "hp.csv") == [["deal", "Ana", "Ben"], ["1", "1", "1"], ["2", "2", "2"],
                                                 ["total", "2", "2"]]
        assert "deals played" in (tmp_path / "hp.html").read_text(encoding="utf-8")
    finally:
        GAMES.pop("highcard")
        GAMES.pop("highpoints")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.sampled_from(["Ana", "Ben", "Cruz"]),
                          st.tuples(st.just("flag"), st.sampled_from(["Ana", "Ben", "Cruz"]))), max_size=12),
       st.sampled_from(["PAN", "DUPA", "X"]), st.sampled_from(["deal", "game"]))
def test_the_polish_sheet_adds_up_to_the_letters_held(plays, word, timeout_loses):
    """However the deals went (flags that lose a deal or the game included), each player's letters
    taken deal by deal spell what the sheet says they hold after each deal, and the last row is
    what the game says they hold."""
    from pancli.games import GAMES

    polish = GAMES["polish"]
    state = polish.new_state(polish.rules_from_dict({"word": word, "timeout_loses": timeout_loses}),
                             ["Ana", "Ben", "Cruz"], None)
    for play in plays:
        if state.over:
            break
        event = {"kind": "clock_flag", "player": play[1]} if isinstance(play, tuple) else {"kind": "deal", "loser": play}
        state = polish.apply(state, event).state
    sheet = polish.sheet(state)
    assert len(sheet["rows"]) == len(state.deals)
    for seat, player in enumerate(state.players):
        taken = ""
        for row in sheet["rows"]:
            taken += row["scores"][seat]
            assert row["running"][seat] == taken and word.startswith(taken)
        assert taken == state.letters_of(player) == sheet["totals"][seat]
    assert (sheet["result"] is not None) == state.over


def test_money_in_the_csv_is_a_number_without_a_decimal_sign_and_names_its_currency():
    from decimal import Decimal

    from pancli.core.rows import Session
    from pancli.core.text import spreadsheet_number as money_cell

    assert [money_cell(Decimal(x)) for x in ("25.00", "-25.00", "-12.50", "0.05", "-0.125", "1234.5", "0")] == [
        "25", "-25", "-1250E-2", "5E-2", "-125E-3", "12345E-1", "0"]
    assert all(float(money_cell(Decimal(x))) == float(x) for x in ("-12.50", "0.05", "1234.5"))
    session = Session(id=1, name="s", game="panguingue", created_at="2026-01-01T00:00:00+00:00",
                      players=("Ana", "Ben"), dealer=None, rules={}, chip_value=0.25, closed_at=None, origin=None,
                      device=None, uid=None, currency="PLN")
    rows = list(csv.reader(io.StringIO(sheet_csv(build_sheet(session, {(1, "Ana"): 5, (1, "Ben"): -5}, 1)))))
    assert rows[-1] == ["money (PLN)", "125E-2", "-125E-2"]
