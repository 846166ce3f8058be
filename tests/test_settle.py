"""`pan settle`, `pan buyin`, `pan cashout`: the fewest payments that square everyone."""

import json

from hypothesis import given, settings, strategies as st

from pancli.core.settle import minimal_transfers, negative_stacks, settle, signed

from helpers import pan_in_process as pan  # noqa: E402


@st.composite
def zero_sum(draw):
    names = draw(st.lists(st.text("ABCDEFGHIJ", min_size=1, max_size=3), min_size=1, max_size=15, unique=True))
    values = draw(st.lists(st.integers(-500, 500), min_size=len(names) - 1, max_size=len(names) - 1))
    return dict(zip(names, values + [-sum(values)]))


@settings(max_examples=300, deadline=None)
@given(zero_sum())
def test_transfers_settle_the_nets_in_at_most_n_minus_1(nets):
    transfers = minimal_transfers(nets)
    received = {n: 0 for n in nets}
    for t in transfers:
        assert t.chips > 0 and t.payer != t.payee
        assert nets[t.payer] < 0 < nets[t.payee]
        received[t.payee] += t.chips
        received[t.payer] -= t.chips
    assert received == nets
    assert len(transfers) <= max(0, len(nets) - 1)
    assert len(transfers) <= max(0, sum(1 for v in nets.values() if v) - 1)


@settings(max_examples=200, deadline=None)
@given(zero_sum(), st.dictionaries(st.text("ABCDEFGHIJ", min_size=1, max_size=3),
                                   st.fixed_dictionaries({"buyin": st.integers(0, 300), "cashout": st.integers(0, 300)}),
                                   max_size=6))
def test_settlement_with_bank_sums_to_zero(nets, bank):
    s = settle(nets, bank, 0.25)
    assert s.total == 0
    left = {p.name: p.balance for p in s.parties}
    for t in s.transfers:
        left[t.payer] += t.chips
        left[t.payee] -= t.chips
    assert not any(left.values())
    assert len(s.transfers) <= len(s.parties) - 1


def test_unbalanced_nets_are_refused():
    import pytest

    with pytest.raises(ValueError):
        minimal_transfers({"A": 3, "B": -2})


def test_negative_stack_flag():
    moves = [(1, None, "A", 10), (2, 1, "A", -4), (3, 1, "B", -2), (4, 2, "A", -7), (5, 2, "A", -5)]
    assert negative_stacks(moves) == [{"player": "B", "seq": 3, "hand": 1, "stack": -2},
                                      {"player": "A", "seq": 4, "hand": 2, "stack": -1}]


EXAMPLE_1 = ["session new ex1 --players Ana,Ben,Cruz,Dee,Eve,Fay --chip-value 0.25", "deal", "drop fay",
             "meld ana 5S 5S 5S", "add ana 5S", "meld ana KH KD KS KC", "out ana 4H 4D 4C"]


def test_settle_lines_explain_each_payment(tmp_path):
    db = tmp_path / "p.db"
    for line in EXAMPLE_1:
        pan(db, line)
    text = pan(db, "settle").output
    assert "Ben pays Ana $3.25 (13 chips) — Ben is -13 chips, Ana is +54 chips" in text
    assert "sum to 0" in text
    data = json.loads(pan(db, "settle --json").output)
    assert data["sum"] == 0 and len(data["transfers"]) == 5
    assert sum(t["chips"] for t in data["transfers"] if t["payee"] == "Ana") == 54
    # another chip value, from the command line
    assert "Ben pays Ana $13.00" in pan(db, "settle ex1 --chip-value 1").output


def test_bank_buyins_and_cashouts_and_negative_stacks(tmp_path):
    db = tmp_path / "p.db"
    pan(db, "session new night --players Ana,Ben,Cruz --chip-value 0.5")
    pan(db, "buyin ana 20")
    pan(db, "buyin ben 20")
    pan(db, "buyin cruz 5")
    pan(db, "deal")
    pan(db, "drop ben")          # Ben 18, the tops 2
    pan(db, "meld ana 5S 5S 5S")  # Cruz pays Ana 4: Cruz 1
    pan(db, "meld ana 3S 3S 3S")  # Cruz pays 4 more: Cruz -3
    pan(db, "cashout ben 18")
    data = json.loads(pan(db, "settle --json").output)
    parties = {p["name"]: p for p in data["parties"]}
    assert parties["Ana"]["balance"] == 28 and parties["Ben"]["balance"] == 0 and parties["Cruz"]["balance"] == -3
    assert parties["(bank)"]["balance"] == -27 and parties["(tops)"]["balance"] == 2
    assert data["sum"] == 0
    assert [f["player"] for f in data["flags"]] == ["Cruz"]
    text = pan(db, "settle").output
    assert "still on the tops" in text and "the bank" in text.lower()


M = signed(-1)[0]  # the minus sign the faces print


def _bank_night(db):
    """Ana, Ben and Cruz buy chips; Cruz plays below zero; Ben cashes out."""
    for line in ["session new night --players Ana,Ben,Cruz --chip-value 0.5", "buyin ana 20", "buyin ben 20",
                 "buyin cruz 5", "deal", "drop ben", "meld ana 5S 5S 5S", "meld ana 3S 3S 3S", "cashout ben 18"]:
        pan(db, line)


def _flat(text: str) -> str:
    """The words as one line: sentences wrapped to the terminal read the same."""
    return " ".join(text.split())


def test_bank_mode_says_so_and_shows_each_players_sum(tmp_path):
    db = tmp_path / "p.db"
    _bank_night(db)
    text = pan(db, "settle").output
    flat = _flat(text)
    assert ("Bank mode: chips were bought at the bank, so each player is paid for the chips they hold or pays "
            "for any they are short, and the bank pays back what it took in.") in flat
    rows = [x.split() for x in text.splitlines()]
    assert ["player", "bought", "net", "cashed", "out", "holds", "settles"] in rows
    assert ["Ana", "20", "+8", "0", "28", "receives", "$14.00"] in rows
    assert ["Ben", "20", f"{M}2", "18", "0", "is", "square"] in rows
    assert ["Cruz", "5", f"{M}8", "0", f"{M}3", "pays", "$1.50"] in rows
    assert "A player holds what they bought, plus their net from play, less what they cashed out." in flat
    assert "The bank sold 45 chips and paid out 18 at cash-outs, so it pays back $13.50 (27 chips)." in flat
    assert "The bank pays Ana $13.50 (27 chips) — the bank owes 27 chips back, Ana holds 28 chips" in flat
    assert "Cruz pays Ana $0.50 (1 chip) — Cruz is 3 chips short, Ana holds 28 chips" in flat
    assert "(bought 20, play" not in flat and "(1 chips)" not in flat  # the sum is in the table, once


def test_a_stack_below_zero_is_one_sentence_that_says_what_to_do(tmp_path):
    db = tmp_path / "p.db"
    _bank_night(db)
    flat = _flat(pan(db, "settle").output)
    assert (f"Cruz played on credit (their stack was {M}3 chips at #7, in hand 1) and ends 3 chips short, so Cruz "
            "pays $1.50 for them above; if Cruz bought chips that were not recorded, record them with "
            "`pan buyin Cruz CHIPS`.") in flat
    assert "Flag:" not in flat and " he " not in f" {flat} "
    # recorded as the hint says: the stack ends above zero, the sentence says nothing more is owed
    pan(db, "buyin cruz 5")
    flat = _flat(pan(db, "settle").output)
    assert f"Cruz played on credit (their stack was {M}3 chips at #7, in hand 1) and ends with 2 chips, so nothing " \
           "more is owed for it;" in flat
    assert ["Cruz", "10", f"{M}8", "0", "2", "receives", "$1.00"] in [x.split() for x in pan(db, "settle").output.splitlines()]


def test_the_json_keeps_its_numbers_and_adds_the_sentences(tmp_path):
    db = tmp_path / "p.db"
    _bank_night(db)
    data = json.loads(pan(db, "settle --json").output)
    assert data["mode"] == "bank" and data["mode_line"].startswith("Bank mode: ")
    assert data["bank_line"] == "The bank sold 45 chips and paid out 18 at cash-outs, so it pays back $13.50 (27 chips)."
    for p in data["parties"]:
        assert {"name", "balance", "money", "net", "bought", "cashed_out", "settles"} <= set(p)
        if not p["name"].startswith("("):
            assert p["holds"] == p["bought"] + p["net"] - p["cashed_out"] == p["balance"]
    ana = next(p for p in data["parties"] if p["name"] == "Ana")
    assert ana["line"] == "Ana bought 20 chips, won 8 in play and holds 28: Ana receives $14.00."
    assert ana["settles"] == "receives $14.00"
    [flag] = data["flags"]
    assert {k: flag[k] for k in ("player", "seq", "hand", "stack")} == {"player": "Cruz", "seq": 7, "hand": 1, "stack": -3}
    assert flag["line"].startswith("Cruz played on credit")


def test_without_buy_ins_the_settle_up_says_it_settles_the_nets(tmp_path):
    db = tmp_path / "p.db"
    for line in EXAMPLE_1:
        pan(db, line)
    text = pan(db, "settle").output
    assert text.splitlines()[1] == "Nobody bought chips at the bank, so each player settles their net from play."
    assert "Bank mode" not in text
    data = json.loads(pan(db, "settle --json").output)
    assert data["mode"] == "net" and data["bank_line"] is None and "holds" not in data["parties"][0]


def test_settle_help_explains_both_modes(tmp_path):
    flat = _flat(pan(tmp_path / "p.db", "settle --help").output)
    assert "Without buy-ins each player pays or is paid their net from play" in flat
    assert "bank mode" in flat and "Ana holds 28" in flat


def test_buyin_refuses_bad_chips(tmp_path):
    db = tmp_path / "p.db"
    pan(db, "session new n --players Ana,Ben")
    bad = pan(db, "buyin ana 0", ok=False)
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    assert pan(db, "buyin zed 5", ok=False).exit_code == 2


def test_house_collection_is_shown(tmp_path):
    db = tmp_path / "p.db"
    rules = tmp_path / "r.toml"
    rules.write_text("house_collection = 1\n", encoding="utf-8")
    pan(db, ["session", "new", "n", "--players", "Ana,Ben,Cruz", "--rules", str(rules)])
    pan(db, "deal")
    pan(db, "drop ben cruz")
    text = pan(db, "settle").output
    assert "The house collected 3 chips" in text
    data = json.loads(pan(db, "settle --json").output)
    assert {p["name"]: p["balance"] for p in data["parties"]}["(house)"] == 3 and data["sum"] == 0


def test_bank_mode_without_cash_outs_leaves_them_out(tmp_path):
    db = tmp_path / "p.db"
    for line in ["session new n --players Ana,Ben", "buyin ana 10", "deal", "meld ana 5S 5S 5S"]:
        pan(db, line)
    text = pan(db, "settle").output
    rows = [x.split() for x in text.splitlines()]
    assert ["player", "bought", "net", "holds", "settles"] in rows
    assert ["Ben", "0", f"{M}4", f"{M}4", "pays", "$4.00"] in rows
    flat = _flat(text)
    assert "A player holds what they bought plus their net from play." in flat and "cashed" not in flat
    assert "The bank sold 10 chips, so it pays back $10.00 (10 chips)." in flat
