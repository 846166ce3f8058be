"""The contract game, Polish Pan and the chess clock through the CLI: recording, undo, standings, disputes."""

import json
import sys
import time
from contextlib import contextmanager

import pytest

from pancli.cli.commands.other_games import clock as cli_clock
from pancli.games.contract import engine as core_contract
from pancli.games.polish import engine as core_polish
from pancli.games.polish.clock import new_clock, remaining

from helpers import HANG, db_dump

PLAYERS = ["Ana", "Ben", "Cruz", "Dee"]




def points(pan) -> dict:
    return {p["name"]: p["points"] for p in pan.json("standings")["players"]}


def effective_events(pan) -> list[dict]:
    return [e["payload"] for e in pan.json("history")["events"] if not e["voided"] and e["kind"] != "undo"]


# ================================================================ contract rummy: recording

@pytest.fixture
def contract(pan):
    pan("session new night --game contract --players Ana,Ben,Cruz,Dee --dealer Dee")
    return pan


def test_session_uses_the_mendelev_rules_by_default(contract):
    show = contract.json("session show")
    assert show["game"] == "contract" and show["rules_changed"] == {}
    status = contract.json("contract status")
    assert (status["deal"], status["contract"], status["dealer"]) == (1, "2 sets", "Dee")


def test_a_whole_five_deal_game(contract):
    pan = contract
    # deal 1, recorded as it happens
    pan('contract lay ana "7S 7H 7D + QC QD QS"')
    pan('contract lay ben "KS KH KC + 4D 4C 4S"')
    pan("contract layoff ana 3 KD")
    r = pan("contract out ana --discard 2H")
    assert "Still to record: the cards left of Ben, Cruz, Dee" in r.stdout
    pan("contract left ben 9C 9D")
    pan("contract left cruz AS 5H 5D")
    r = pan("contract left dee --points 0")
    assert "Totals after deal 1: Ana +20, Ben -18, Cruz -25, Dee +0" in r.stdout
    # deals 2-4 at once, with and without contracts, cards or points
    pan('contract deal --out ben --contract "Ben=KS KH KC + 5D 6D 7D" --left "Ana=AH AD" --left Cruz=12 '
        '--left "Dee=2C 3C" --discard 9S')
    pan('contract deal --out cruz --left Ana=10 --left "Ben=TC" --left Dee=40')
    pan('contract deal --out dee --left Ana=0 --left Ben=4 --left Cruz=4')
    # deal 5: no final discard
    r = pan("contract out ana --discard 3S", code=1)
    assert "in deal 5 the last card must go into a combination" in r.output
    pan('contract lay ana "5S 5H 5C + TD TC TS + 6H 7H 8H 9H"')
    pan("contract out ana")
    pan("contract left ben QH")
    pan("contract left cruz 2S 2D")
    r = pan("contract left dee KS KD")
    assert "Game over: Ana wins with +" in r.stdout

    core = core_contract.replay(core_contract.ContractRules(), PLAYERS, effective_events(pan))
    assert core.over and core_contract.winners(core) == ["Ana"]
    assert points(pan) == dict(zip(PLAYERS, core.totals))
    standings = pan.json("standings")
    assert [p["name"] for p in standings["players"]][0] == "Ana"
    assert standings["players"][0]["place"] == 1
    assert standings["columns"] == ["points", "deals_played", "deals_won"]
    assert {p["name"]: p["deals_played"] for p in standings["players"]} == dict.fromkeys(PLAYERS, 5)
    assert sum(p["deals_won"] for p in standings["players"]) == 5
    # its own counts, in the order it declares them, and none of Panguingue's
    assert [list(p)[:5] for p in standings["players"]] == [["name", "net", "points", "deals_played", "deals_won"]] * 4
    assert not {"hands", "won", "dropped", "conditions"} & {k for p in standings["players"] for k in p}
    career = pan.json("player ana")
    assert career["nights"][0]["points"] == standings["players"][0]["points"]
    assert career["nights"][0]["deals_won"] == standings["players"][0]["deals_won"] and "dropped" not in career["nights"][0]
    assert not {"hands", "won", "dropped", "win_rate"} & set(career)
    report = pan.json("report")
    assert {r["name"]: r["points"] for r in report["players"]} == {p["name"]: p["points"] for p in standings["players"]}
    assert "conditions" not in report["players"][0] and "condition_chips" not in report["players"][0]
    # in its own terms: placed by points, no net, money or best hand in chips
    assert pan("report").stdout.splitlines()[1].split() == ["place", "player", "points", "deals", "played", "deals",
                                                            "won"]
    status = pan.json("contract status")
    assert status["over"] and status["winners"] == ["Ana"]
    assert status["totals"] == dict(zip(PLAYERS, core.totals))
    assert "Game over: Ana wins" in pan("contract status").stdout
    table = pan("standings").stdout
    assert "points" in table and "Ana" in table
    # the game is over: nothing more is recorded
    r = pan("contract deal --out ben --left Ana=1 --left Cruz=1 --left Dee=1", code=1)
    assert "game is over" in r.output
    hands = {e["hand"] for e in pan.json("history")["events"]}
    assert hands == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("before, words", [
    (['contract lay ana "7S 7H 7D + QC QD QS"'], "already has lay-downs on the table (Ana)"),
    (['contract lay ana "7S 7H 7D + QC QD QS"', "contract out ana --discard 2H"], "Ana has already gone out"),
])
def test_a_whole_deal_is_refused_once_the_deal_is_on_the_table(contract, before, words):
    for line in before:
        contract(line)
    events = effective_events(contract)
    r = contract("contract deal --out ben --left Ana=10 --left Cruz=5 --left Dee=0", code=1)
    assert words in r.output and len(r.output.strip().splitlines()) <= 2 and "Traceback" not in r.output
    assert effective_events(contract) == events  # nothing recorded, the lay-downs still there
    assert contract.json("contract status")["deal"] == 1


def test_undo_of_a_contract_event_restores_the_totals(contract):
    pan = contract
    pan("contract deal --out ben --left Ana=10 --left Cruz=5 --left Dee=0")
    after_one = points(pan)
    assert after_one == {"Ana": -10, "Ben": 20, "Cruz": -5, "Dee": 0}
    pan('contract lay cruz "KS KH KC + 5D 6D 7D"')
    pan("contract out cruz --discard QS")
    pan("contract left ana 9C")
    pan("contract left ben 2C")
    pan("contract left dee AS")
    assert points(pan) == {"Ana": -19, "Ben": 18, "Cruz": 15, "Dee": -15}
    r = pan("undo")
    assert "Undid #6: Dee holds A♠" in r.stdout
    assert points(pan) == after_one
    status = pan.json("contract status")
    assert (status["deal"], status["out"], status["left"]) == (2, "Cruz", {"Ana": 9, "Ben": 2})
    pan("contract left dee 4S")
    assert points(pan) == {"Ana": -19, "Ben": 18, "Cruz": 15, "Dee": -4}
    # undo back through the whole of deal 2 and then the one-shot deal 1
    for _ in range(5):
        pan("undo")
    assert points(pan) == after_one
    pan("undo")
    assert points(pan) == dict.fromkeys(PLAYERS, 0)
    assert pan.json("contract status")["deal"] == 1
    history = pan.json("history")["events"]
    assert sum(e["voided"] for e in history) == 7


def test_a7_worked_score_deal_3(contract):
    pan = contract
    # deals 1-2 leave the spec's running totals: A -5, B +12, C -30, D +20
    pan("contract deal --out ben --left Ana=5 --left Cruz=10 --left Dee=0")
    pan("contract deal --out dee --left Ana=0 --left Ben=8 --left Cruz=20")
    assert points(pan) == {"Ana": -5, "Ben": 12, "Cruz": -30, "Dee": 20}
    pan('contract lay ben "9C TC JC QC + 3H 4H 5H 6H"')
    pan('contract lay cruz "2S 3S 4S + JD QD KD"')
    pan('contract lay ana "5D 6D 7D + 8H 9H 10H"')
    assert [m["cards"] for m in pan.json("contract status")["table"]][0] == ["9C", "TC", "JC", "QC"]
    pan("contract layoff ana 1 KC")
    pan("contract out ana --discard QS")
    pan("contract left ben KC KD 4S")
    pan("contract left cruz AS 9H 9D")
    r = pan("contract left dee 2C 3C 4C 5C QH QD 7S 7H 6D AH")
    for line in ("Deal 3: Ana +20 for going out", "Deal 3: Ben -24", "Deal 3: Cruz -33", "Deal 3: Dee -69",
                 "Totals after deal 3: Ana +15, Ben -12, Cruz -63, Dee -49"):
        assert line in r.stdout
    assert points(pan) == {"Ana": 15, "Ben": -12, "Cruz": -63, "Dee": -49}
    status = pan.json("contract status")
    assert status["history"][2] == {"Ana": 20, "Ben": -24, "Cruz": -33, "Dee": -69}
    assert status["standings"][0]["player"] == "Ana" and status["deal"] == 4
    assert [e["kind"] for e in pan.json("history --hand 3")["events"]] == [
        "contract", "contract", "contract", "lay_off", "out", "hand", "hand", "hand"]


def test_a7_with_aces_at_11_from_a_rules_file(pan, tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "mendelev"\nace_value = 11\n')
    pan(f"session new n11 --game contract --players Ana,Ben,Cruz,Dee --rules {rules}")
    assert pan.json("session show")["rules_changed"] == {"ace_value": 11}
    pan("contract deal --out ana --left 'Ben=KC KD 4S' --left 'Cruz=AS 9H 9D' "
        "--left 'Dee=2C 3C 4C 5C QH QD 7S 7H 6D AH'")
    assert points(pan) == {"Ana": 20, "Ben": -24, "Cruz": -29, "Dee": -65}


def test_contract_preset_scores_penalties_and_lowest_wins(pan):
    pan("session new w --game contract --players Ana,Ben --preset contract")
    for goer, other in [("ana", "Ben"), ("ben", "Ana"), ("ana", "Ben"), ("ana", "Ben")]:
        pan(f"contract deal --out {goer} --left {other}=10")
    r = pan("contract deal --out ben --left Ana=50")
    assert "Game over: Ben wins with +30" in r.stdout
    rows = pan.json("standings")["players"]
    assert [(p["name"], p["points"], p["place"]) for p in rows] == [("Ben", 30, 1), ("Ana", 60, 2)]


@pytest.mark.parametrize("line, code, words", [
    ('contract lay ana "7S 7H 7D + 7C 7S 7H"', 1, "different ranks"),
    ('contract lay ana "7S 7H 7D"', 1, "incomplete"),
    ('contract lay ana "7S 7H 7X + QC QD QS"', 2, "no card '7X'"),
    ('contract lay zed "7S 7H 7D + QC QD QS"', 2, "no player 'zed'"),
    ("contract layoff ana 1 7C", 2, "no meld 1"),
    ("contract out ana --discard 2H", 0, None),
    ("contract left ana 2C", 1, "nobody has gone out"),
    ("contract left ben", 2, "no cards given"),
    ("contract left ben 2C --points 3", 2, "not both"),
    ("contract deal --out ana --left Ben=2C", 2, "missing the hand of Cruz and Dee"),
    ("contract deal --out ana --left Ben", 2, "has no '='"),
    ("contract deal --out ana --left Ben=1 --left ben=2 --left Cruz=0 --left Dee=0", 2, "given twice"),
    ("polish lost ana", 2, "not Polish Pan"),
    ("clock", 2, "not Polish Pan"),
])
def test_contract_refusals_say_why_and_change_nothing(contract, line, code, words):
    before = db_dump(contract.db)
    r = contract(line, code=code)
    if words is None:  # the out is fine on its own: the core takes the dealer's word before contracts
        return
    assert words in r.output
    assert "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert db_dump(contract.db) == before


def test_lay_off_waits_for_the_own_contract(contract):
    contract('contract lay ana "7S 7H 7D + QC QD QS"')
    r = contract("contract layoff ben 1 7C", code=1)
    assert "only after your own contract is down" in r.output


# ================================================================ contract rummy: disputes

@pytest.mark.parametrize("args, code, legal", [
    ('--deal 1 "7S 7H 7D + QC QD QS"', 0, True),                 # C1
    ('--deal 1 "7S 7H 7D + 7C 7S 7H"', 1, False),                # C2
    ('--deal 1 "7S 7H 7D 7C 7S 7H"', 1, False),                  # C3
    ('--deal 2 "KS KH KC + 5D 6D 7D"', 0, True),                 # C7 mendelev
    ('--deal 2 "KS KH KC + 5D 6D 7D" --preset contract', 1, False),  # C7 contract
    ('--deal 3 "AD 2D 3D 4D / JH QH KH AH"', 0, True),           # C10
    ('--deal 3 "QS KS AS 2S | 5H 6H 7H 8H"', 1, False),          # C11
    ('--deal 5 "5S 5H 5C + TD TC TS + 6H 7H 8H 9H"', 0, True),   # C14
])
def test_contract_check_exit_codes_and_json(pan, args, code, legal):
    r = pan(f"contract check {args}", code=code)
    assert r.stdout.startswith("Legal: " if legal else "Not legal: ")
    data = json.loads(pan(f"contract check {args} --json", code=code).stdout)
    assert data["legal"] is legal and data["reason"]
    assert all(set(m) == {"cards", "kind", "description"} for m in data["melds"])


def test_contract_check_json_names_each_meld(pan):
    data = json.loads(pan('contract check -d 3 "9C TC JC QC + 2C 3C 4C 5C" --json', code=1).stdout)
    assert data["contract"] == "2 sequences"
    assert "different suits" in data["reason"]
    assert [m["kind"] for m in data["melds"]] == ["sequence", "sequence"]
    assert data["melds"][0]["cards"] == ["9C", "TC", "JC", "QC"]


@pytest.mark.parametrize("args, words", [
    ('--deal 9 "7S 7H 7D + QC QD QS"', "no deal 9"),
    ('--deal 1 "7S 7H 7Q + QC QD QS"', "no card '7Q'"),
    ('--deal 1 "+"', "no melds given"),
    ('--deal 1 "7S 7H 7D + QC QD QS" --preset liverpool', "unknown preset"),
    ('--deal 1 "7S 7H 7D + QC QD QS" --preset contract --rules x.toml', "not both"),
    ('--deal 1 "7S 7H 7D + QC QD QS" --rules /nonexistent.toml', "does not exist"),
])
def test_contract_check_bad_input_exits_2(pan, args, words):
    r = pan(f"contract check {args}", code=2)
    assert words in r.output and "Traceback" not in r.output


def test_contract_check_needs_no_database(pan):
    import os

    pan('contract check --deal 1 "7S 7H 7D + QC QD QS"')
    assert not os.path.exists(pan.db)


SEATS = "--seats А,Б,В,Г"


@pytest.mark.parametrize("preset, next_player, skipped", [("mendelev", "Г", ["Б"]), ("contract", "Б", [])],
                         ids=["R1", "R2"])
def test_buy_c21_refuser_further_round_must_buy(pan, preset, next_player, skipped):
    data = json.loads(pan(f"contract buy --discarder А --asker Г --refused-by В {SEATS} --preset {preset} --json").stdout)
    assert data["permission_from"] == ["Б", "В"]
    assert (data["taker"], data["pack_cards"], data["deck_cards"], data["cards_gained"]) == ("В", 1, 1, 2)
    assert data["discards"] is False
    assert (data["next_player"], data["skipped"]) == (next_player, skipped)


def test_buy_rulings_in_text(pan):
    r = pan(f"contract buy --discarder а --asker в {SEATS}")
    assert "Permission from: Б" in r.stdout
    assert "В takes 1 pack + 1 deck (+2 cards), discards nothing" in r.stdout
    assert "Next to play: Г  (passed over: Б)" in r.stdout
    r = pan(f"contract buy --discarder А --asker Б --cards 3 {SEATS}")  # B1
    assert "Б takes 3 pack + 2 deck (+5 cards)" in r.stdout and "Next to play: В" in r.stdout
    r = pan(f"contract buy --discarder А --asker Б {SEATS}")  # B3
    assert "ordinary draw" in r.stdout and "then discards" in r.stdout


def test_buy_own_discard_is_refused_with_exit_1(pan):  # B4
    r = pan(f"contract buy --discarder А --asker А {SEATS}", code=1)
    assert r.stdout.startswith("Not allowed: ")
    data = json.loads(pan(f"contract buy --discarder А --asker А {SEATS} --json", code=1).stdout)
    assert data["legal"] is False and data["taker"] is None


@pytest.mark.parametrize("args, words", [
    ("--discarder A --asker Zed --seats A,B,C", "no player 'Zed'"),
    ("--discarder A --asker C --refused-by C --seats A,B,C", "was not asked"),
    ("--discarder A --asker B --refused-by C --seats A,B,C", "cannot refuse"),
    ("--discarder A --asker C --seats A", "fewer than two"),
    ("--discarder A --asker C --seats A,B,a", "listed twice"),
    ("--discarder A --asker C --seats A,B,C --cards 0", "cannot buy 0"),
    ("--discarder A --asker C --seats A,B,C --preset nope", "unknown preset"),
])
def test_buy_bad_input_exits_2(pan, args, words):
    r = pan(f"contract buy {args}", code=2)
    assert words in r.output and "Traceback" not in r.output


# ================================================================ Polish Pan

class FakeTime:
    """A clock and a key source for the clock loop: keys arrive at given milliseconds."""

    def __init__(self, keys=()):
        self.t = 0
        self.keys = list(keys)  # (at_ms, key)

    def now(self) -> int:
        return self.t

    def read(self, timeout: float):
        wait = int(timeout * 1000)
        if self.keys and self.keys[0][0] <= self.t + wait:
            at, key = self.keys.pop(0)
            self.t = max(self.t, at)
            return key
        if not self.keys and wait == 0:
            raise AssertionError("the loop spins without waiting")
        self.t += wait
        return None


@pytest.fixture
def fake_terminal(monkeypatch):
    def install(fake: FakeTime):
        @contextmanager
        def keys():
            yield fake.read

        monkeypatch.setattr(cli_clock, "_now_ms", fake.now)
        monkeypatch.setattr(cli_clock, "_open_keys", keys)
        return fake
    return install


@pytest.fixture
def polish(pan):
    pan("session new pan --game polish --players X,Y,Z")
    return pan


def letters(pan) -> dict:
    return pan.json("polish status")["letters"]


def test_a_polish_game_to_p_a_n_with_undo_and_a_clock_flag(polish, fake_terminal):
    pan = polish
    assert "X is left holding cards: takes P (X has P)" in pan("polish lost x").stdout
    pan("polish lost y")
    assert "no loser, no letter" in pan("polish nolose").stdout
    pan("polish lost z")
    assert letters(pan) == {"X": "P", "Y": "P", "Z": "P"}
    r = pan("undo")
    assert "Undid #4: Z loses the deal" in r.stdout
    assert letters(pan) == {"X": "P", "Y": "P", "Z": ""}
    pan("polish lost x")
    assert letters(pan) == {"X": "PA", "Y": "P", "Z": ""}
    status = pan.json("polish status")
    assert status["deals"] == 4 and status["losers"] == ["X", "Y", None, "X"] and status["next_dealer"] == "Y"

    # deal 5 on the clock: Z opens and passes after 20 s, then X thinks until the flag falls
    fake = fake_terminal(FakeTime([(20_000, " ")]))
    r = pan("clock --minutes 1 --first z")
    assert "X's time has run out." in r.stdout
    assert "X's time ran out and loses the deal: takes N (X has P-A-N)" in r.stdout
    assert "X has completed PAN and loses the game" in r.stdout
    assert fake.t == 20_000 + 60_000

    status = pan.json("polish status")
    assert status["over"] and status["loser"] == "X" and status["letters"]["X"] == "PAN"
    rows = pan.json("standings")["players"]
    assert [r["name"] for r in rows] == ["Z", "Y", "X"]
    assert [r["word"] for r in rows] == ["", "P", "PAN"]
    assert rows[-1]["games_lost"] == 1 and rows[-1]["deals_lost"] == 3
    assert {r["name"]: r["deals_played"] for r in rows} == {"X": 5, "Y": 5, "Z": 5}
    assert pan.json("standings")["columns"] == ["word", "deals_played", "deals_lost"]
    assert [list(r)[:6] for r in rows] == [["name", "net", "letters", "deals_played", "deals_lost", "games_lost"]] * 3
    assert not {"hands", "won", "dropped", "conditions"} & {k for r in rows for k in r}
    night = pan.json("player x")["nights"][0]
    assert (night["letters"], night["deals_lost"], night["games_lost"]) == (3, 3, 1) and "hands" not in night
    events = pan.json("history")["events"]
    assert events[-1]["kind"] == "clock_flag" and events[-1]["payload"] == {"kind": "clock_flag", "player": "X"}
    assert events[-1]["hand"] == 5
    core = core_polish.replay(core_polish.PolishRules(), ["X", "Y", "Z"], effective_events(pan))
    assert core.loser == "X" and core.deals == ("X", "Y", None, "X", "X")

    r = pan("polish lost y", code=1)
    assert "the game is over: X completed PAN" in r.output
    assert "the game is over" in pan("clock", code=1).output
    # undoing the flag reopens the game
    pan("undo")
    assert pan.json("polish status")["over"] is False
    pan("polish lost y")
    assert letters(pan) == {"X": "PA", "Y": "PA", "Z": ""}


def test_clock_quit_records_nothing(polish, fake_terminal):
    fake_terminal(FakeTime([(3_000, " "), (5_000, "q")]))
    before = db_dump(polish.db)
    assert "nothing recorded" in polish("clock --minutes 2").stdout
    assert db_dump(polish.db) == before


def test_clock_minutes_come_from_the_house_rules(pan, fake_terminal):
    pan("session new timed --game polish --players X,Y --preset timed")
    fake = fake_terminal(FakeTime())
    r = pan("clock --increment 2")
    assert "X's time has run out." in r.stdout and fake.t == 5 * 60_000
    assert letters(pan) == {"X": "P", "Y": ""}


def test_clock_decided_deal_points_at_the_loser(polish, fake_terminal):
    fake_terminal(FakeTime([(1_000, "o"), (2_000, "o")]))
    r = polish("clock --minutes 1")
    assert "Deal decided: Z is left holding cards" in r.stdout
    assert "pan polish lost Z" in r.stdout
    assert polish.json("polish status")["deals"] == 0


def test_clock_timeout_loses_the_game_under_that_house_rule(pan, tmp_path, fake_terminal):
    rules = tmp_path / "pan.toml"
    rules.write_text('timeout_loses = "game"\nword = "DUPA"\n')
    pan(f"session new strict --game polish --players X,Y,Z --rules {rules}")
    fake_terminal(FakeTime([(1_000, " ")]))
    r = pan("clock --minutes 0.5")
    assert "Y's time ran out and loses the game" in r.stdout
    assert letters(pan)["Y"] == "DUPA" and pan.json("polish status")["over"]


def test_clock_needs_a_terminal_and_a_polish_session(pan):
    pan("session new p --game polish --players X,Y")
    r = pan("clock", code=2)
    assert "needs a terminal" in r.output and "Traceback" not in r.output
    pan("session new k --game contract --players X,Y")
    assert "not Polish Pan" in pan("clock", code=2).output


# ---------------------------------------------------------------- the clock loop itself

def test_run_clock_charges_only_the_mover_and_pauses():
    fake = FakeTime([(10_000, " "), (15_000, "p"), (100_000, "p"), (103_000, "b"), (104_000, "q")])
    seen = []
    how, clock = cli_clock.run_clock(new_clock(["A", "B", "C"], 60_000), fake.now, fake.read,
                                     lambda c, t, out: seen.append((c.turn, c.running)))
    assert how == "quit"
    # A: 10 s, then 1 s after B passed back; B: 5 s before the pause and 3 s after; C never moved
    assert remaining(clock, fake.t) == {"A": 49_000, "B": 52_000, "C": 60_000}
    assert clock.turn == "A"
    assert ("B", False) in seen  # paused while B was on move


def test_run_clock_flag_beats_a_late_key():
    fake = FakeTime([(61_000, " ")])
    how, clock = cli_clock.run_clock(new_clock(["A", "B"], 60_000), fake.now, fake.read)
    assert how == "flag" and clock.flagged == "A" and clock.flagged_at_ms == 60_000


def test_run_clock_skips_players_who_are_out():
    fake = FakeTime([(1_000, "o"), (2_000, " "), (3_000, " "), (4_000, "q")])
    out = set()
    how, clock = cli_clock.run_clock(new_clock(["A", "B", "C"], 60_000), fake.now, fake.read, out=out)
    assert out == {"A"} and how == "quit"
    assert clock.turn == "B"  # A out; B -> C -> B


# ---------------------------------------------------------------- play checker and deal sizes

@pytest.mark.parametrize("args, code, reason", [
    ('--pile "" --play 9H', 0, "opens with the 9♥"),                         # P1
    ('--pile "" --play 9S', 1, "opens with the 9♥"),                         # P2
    ('--pile "" --play "9H 9D 9C 9S"', 0, "all four 9s"),                    # P3
    ('--pile "" --play "9D 9H 9C 9S"', 1, "must lie at the bottom"),         # P4
    ("--pile 9H --play 9C", 0, "equal"),                                     # P5
    ('--pile 9H --play "9S 9D 9C"', 0, "completing the four"),               # P6
    ('--pile "9H TC" --play "JH JD JC"', 1, "to complete the four"),         # P7
    ('--pile "9H TC JS" --play "JH JD JC"', 0, "completing the four"),       # P8
    ('--pile "9H QD" --play "KS KH KD KC"', 0, "four of a higher rank"),     # P9
    ('--pile "9H QD" --play TS', 1, "lower than"),                           # P10
    ('--pile "9H QD" --play "KS KH"', 1, "two cards at once"),               # P11
    ('--pile "9H TS JD QC KH" --take', 0, "take 3"),                         # P12
    ('--pile "9H AS" --take', 0, "taking clean"),                            # P13
    ("--pile 9H --take", 1, "never taken"),                                  # P14
    ('--pile "9H JC" --take --hand QS', 0, "take 1"),                        # P15
    ('--pile "9H TD TC AH" --play AD', 0, "equal"),                          # P16
    ('--pile "9H QD" --play KS --hand "KH KD"', 1, "not in the player's hand"),
])
def test_polish_check_vectors(pan, args, code, reason):
    r = pan(f"polish check {args}", code=code)
    assert reason in r.stdout


def test_polish_take_json(pan):
    data = json.loads(pan('polish check --pile "9H TS JD QC KH" --take --json').stdout)
    assert data["action"] == "take" and data["legal"] is True
    assert data["taken"] == ["KH", "QC", "JD"] and data["pile_after"] == ["9H", "TS"] and data["choices"] == [3]
    data = json.loads(pan('polish check --pile "9H TS JD QC KH" --take 2 --json', code=1).stdout)
    assert data["legal"] is False and "cannot take 2" in data["reason"] and data["pile_after"] == data["pile"]


def test_polish_take_three_or_all_from_a_rules_file(pan, tmp_path):  # P17
    rules = tmp_path / "p.toml"
    rules.write_text('pickup = "three_or_all"\n')
    pile = '--pile "9H TS JS QS KS AS"'
    r = pan(f"polish check {pile} --take 4 --rules {rules}", code=1)
    assert "take 3 (A♠ K♠ Q♠) or all 5" in r.stdout
    data = json.loads(pan(f"polish check {pile} --take=5 --rules {rules} --json").stdout)
    assert data["legal"] and data["pile_after"] == ["9H"] and data["choices"] == [3, 5]


@pytest.mark.parametrize("args, nxt", [
    ('--pile 9H --play QS --seats A,B,C,D --mover A', "B"),                        # no piki cofane
    ('--pile 9H --play QS --seats A,B,C,D --mover A --preset piki-cofane', "D"),   # P18
    ('--pile "9H QS" --play KH --seats A,B,C,D --mover D --preset piki-cofane', "A"),  # P19
    ('--pile "9H TS JD QC KH" --take --seats A,B,C,D --mover B --preset piki-cofane', "A"),  # P20
    ('--pile 9H --play TS --seats A,B --mover A --preset piki-cofane', "A"),       # P21
    ('--pile 9H --play "KH KD KC KS" --seats A,B,C,D --mover A --preset piki-cofane', "D"),  # P22
    ('--pile 9H --play "KS KH KD KC" --seats A,B,C,D --mover A --preset piki-cofane', "B"),  # P22
    ('--pile 9H --play KH --seats A,B,C,D --mover A --out B', "C"),
])
def test_polish_check_next_mover(pan, args, nxt):
    data = json.loads(pan(f"polish check {args} --json").stdout)
    assert data["next"] == nxt
    assert f"Next to move: {nxt}" in pan(f"polish check {args}").stdout


@pytest.mark.parametrize("args, words", [
    ('--pile "9H TS"', "--play CARDS or --take"),
    ('--pile "9H TS" --play JS --take', "--play CARDS or --take"),
    ('--pile "9H 8S" --take', "no card '8S'"),
    ('--pile "TS 9H" --take', "starts with the 9♥"),
    ('--pile "9H TS TS" --take', "appears twice"),
    ('--pile 9H --play TS --mover A', "--mover needs --seats"),
    ('--pile 9H --play TS --seats A,B', "--seats needs --mover"),
    ('--pile 9H --play TS --seats A,B --mover Q', "no player 'Q'"),
    ('--pile 9H --play TS --preset fast', "unknown preset"),
])
def test_polish_check_bad_input_exits_2(pan, args, words):
    r = pan(f"polish check {args}", code=2)
    assert words in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


@pytest.mark.parametrize("players, sizes", [(2, [12, 12]), (3, [8, 8, 8]), (4, [6] * 4), (5, [5, 5, 5, 5, 4]),
                                            (6, [4] * 6)])
def test_deal_sizes(pan, players, sizes):
    assert json.loads(pan(f"polish deal-sizes {players} --json").stdout) == {"players": players, "sizes": sizes}
    assert pan(f"polish deal-sizes {players}").stdout.strip() == f"{players} players: " + ", ".join(map(str, sizes))


def test_deal_sizes_refuses_a_table_of_seven(pan):
    r = pan("polish deal-sizes 7", code=1)
    assert "2 to 6 players" in r.output


def test_polish_session_refuses_a_table_of_seven(pan):
    r = pan("session new big --game polish --players A,B,C,D,E,F,G", code=1)
    assert "2 to 6 players" in r.output


def test_panguingue_standings_are_unchanged(pan):
    pan("session new fri --players Ana,Ben,Cruz")
    data = pan.json("standings")
    assert "columns" not in data
    assert set(data["players"][0]) == {"name", "net", "hands", "won", "dropped", "conditions"}


# ---------------------------------------------------------------- help

@pytest.mark.parametrize("args", [
    ["contract"], ["contract", "lay"], ["contract", "layoff"], ["contract", "out"], ["contract", "left"],
    ["contract", "deal"], ["contract", "status"], ["contract", "check"], ["contract", "buy"],
    ["polish", "lost"], ["polish", "nolose"], ["polish", "status"], ["polish", "check"], ["polish", "deal-sizes"],
    ["clock"],
])
def test_every_command_has_help_with_an_example(pan, args):
    r = pan(" ".join(args) + " --help")
    assert "Example: pan " + " ".join(args) in r.stdout


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_clock_in_a_real_terminal(tmp_path):
    """The real key reader and the live display: X passes with the space bar, Y's flag falls."""
    import os
    import pty
    import select
    import subprocess

    db = str(tmp_path / "pty.db")
    base = [sys.executable, "-m", "pancli", "--db", db]
    subprocess.run(base + ["session", "new", "p", "--game", "polish", "--players", "X,Y"], check=True,
                   capture_output=True)
    master, slave = pty.openpty()
    proc = subprocess.Popen(base + ["clock", "--minutes", "0.05"], stdin=slave, stdout=slave, stderr=slave,
                            env={**os.environ, "TERM": "xterm", "COLUMNS": "100"})
    os.close(slave)
    output, start, sent = b"", time.monotonic(), False
    while time.monotonic() - start < HANG:  # only a hang guard: the loop ends when the clock exits
        if not sent and b"Pan clock" in output:  # the display is up: the keys are read, X's time runs
            os.write(master, b" ")  # at once: X has 3 s, and must not flag first
            sent = True
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        elif proc.poll() is not None:
            break
    os.close(master)
    assert proc.wait(timeout=HANG) == 0
    text = output.decode(errors="replace")
    assert "Pan clock" in text and "Y's time has run out." in text
    assert "takes P (Y has P)" in text
    history = subprocess.run(base + ["history", "--json"], check=True, capture_output=True, text=True).stdout
    assert json.loads(history)["events"][-1]["payload"] == {"kind": "clock_flag", "player": "Y"}


# ---------------------------------------------------------------- export and import

def _has_export(pan) -> bool:
    return pan("export --help", ok=False).exit_code == 0


@pytest.mark.parametrize("game", ["contract", "polish"])
def test_export_and_import_round_trip(pan, tmp_path, game):
    if not _has_export(pan):
        pytest.skip("no `pan export` in this build")
    pan(f"session new g --game {game} --players Ana,Ben,Cruz")
    if game == "contract":
        pan('contract lay ana "7S 7H 7D + QC QD QS"')
        pan("contract out ana --discard 2H")
        pan("contract left ben 9C 9D")
        pan("undo")
        pan("contract left ben 9C")
        pan("contract left cruz AS")
        pan("contract deal --out ben --left Ana=10 --left Cruz=0")
    else:
        pan("polish lost ana")
        pan("polish nolose")
        pan("undo")
        pan("polish nolose")
        pan("polish lost ana")
    before = pan.json("standings")["players"]
    archive = tmp_path / "g.toml"
    pan(f"export g -o {archive}")
    pan(f"import {archive} --as copy")
    after = pan.json("standings")
    assert after["session"] == "copy" and after["players"] == before
    assert [e["kind"] for e in pan.json("history")["events"]][-3:] == (
        ["hand", "hand", "deal"] if game == "contract" else ["undo", "deal", "deal"])
