"""`pan settle`, `pan buyin`, `pan cashout`: the fewest payments that square everyone."""

import json

from hypothesis import given, settings, strategies as st

from pancli.core.settle import minimal_transfers, negative_stacks, settle

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
    assert "still on the tops" in text and "Flag: Cruz's stack went below zero" in text
    assert "the bank" in text.lower()


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
