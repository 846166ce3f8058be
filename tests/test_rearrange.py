"""Spec §10.2 splits S1–S6 and borrows B1–B9, through the hand state machine (default profile)."""

import pytest

from pancli.core.errors import RuleError
from pancli.games.panguingue import engine as pg
from pancli.games.panguingue.rules import DEFAULTS, HouseRules, from_dict

PLAYERS = ["A", "B", "C"]


def build(meld: str, added: str = "", rules: HouseRules = DEFAULTS):
    """A hand where A laid `meld` and then added `added` one card at a time."""
    state = pg.apply(pg.new_state(rules, PLAYERS, "C"), {"kind": "deal"}).state
    state = pg.apply(state, {"kind": "meld", "player": "A", "cards": meld.split()}).state
    for card in added.split():
        state = pg.apply(state, {"kind": "add", "player": "A", "cards": [card], "to": 1}).state
    return state


def pays_each(step) -> int:
    """What each payer paid A in this step (every payer pays the same)."""
    chips = [p.chips for p in step.payments if p.payee == "A"]
    by_payer = {p.payer: 0 for p in step.payments}
    for p in step.payments:
        by_payer[p.payer] += p.chips
    assert sorted(by_payer) == ["B", "C"] or not chips
    return by_payer.get("B", 0)


def layout(step) -> list[list[str]]:
    return sorted(sorted(m.cards) for m in step.state.hand.melds.values())


@pytest.mark.parametrize("vector, meld, added, into, pays", [
    ("S1", "3D 4D 5D", "2D 6D AD", ["AD 2D 3D", "4D 5D 6D"], 1),
    ("S2", "JD 7D 6D 5D", "QD 4D", ["QD JD 7D", "6D 5D 4D"], 0),
    ("S3", "KH KH KH", "KH KH KH", ["KH KH KH", "KH KH KH"], 1),
    ("S4", "5S 5H 5D", "5C 5S 5H", ["5S 5H 5D", "5C 5S 5H"], 1),
    ("S5", "AH 2H 3H", "4H 5H 6H 7H JH QH KH", ["AH 2H 3H 4H", "5H 6H 7H JH QH KH"], 4),
])
def test_legal_splits(vector, meld, added, into, pays):
    state = build(meld, added)
    step = pg.apply(state, {"kind": "split", "player": "A", "meld": 1, "into": into})
    assert pays_each(step) == pays
    assert layout(step) == sorted(sorted(p.split()) for p in into)


def test_s6_every_part_must_be_a_meld():
    state = build("7C 6C 5C", "4C 3C")
    with pytest.raises(RuleError, match="at least 3 cards"):
        pg.apply(state, {"kind": "split", "player": "A", "meld": 1, "into": ["7C 6C 5C", "4C 3C"]})


def test_split_requires_prior_additions_knob():
    rules = from_dict({"split_requires_prior_additions": True})
    state = build("AS 2S 3S 4S 5S 6S", rules=rules)
    with pytest.raises(RuleError, match="no cards added"):
        pg.apply(state, {"kind": "split", "player": "A", "meld": 1, "into": ["AS 2S 3S", "4S 5S 6S"]})


def borrow(state, taken: str, with_cards: str):
    return pg.apply(state, {"kind": "borrow", "player": "A", "from": 1, "cards": taken.split(),
                            "with": with_cards.split()})


@pytest.mark.parametrize("vector, meld, added, taken, with_cards, pays, after", [
    ("B1", "7C 6C 5C", "4C", "7C", "7H 7D", 1, [["4C", "5C", "6C"], ["7C", "7D", "7H"]]),
    ("B1", "7C 6C 5C", "4C", "4C", "4H 4D", 0, [["4C", "4D", "4H"], ["5C", "6C", "7C"]]),
    ("B3", "JH 7H 6H", "5H 4H", "5H 4H", "3H", 0, [["3H", "4H", "5H"], ["6H", "7H", "JH"]]),
    ("B4", "JH 7H 6H", "5H 4H", "JH", "JC JS", 0, [["4H", "5H", "6H", "7H"], ["JC", "JH", "JS"]]),
    ("B6", "5S 5H 5D", "5S", "5S", "5S 5S", 4, [["5D", "5H", "5S"], ["5S", "5S", "5S"]]),
    ("B7", "KS KS KH", "KS", "KH", "KD KC", 2, [["KC", "KD", "KH"], ["KS", "KS", "KS"]]),
    ("B8", "AH 2H 3H", "4H", "AH", "AC AD", 0, [["2H", "3H", "4H"], ["AC", "AD", "AH"]]),
    ("B9", "JC 7C 6C", "5C 4C 3C 2C", "5C", "5C 5C", 2, [["2C", "3C", "4C"], ["5C", "5C", "5C"], ["6C", "7C", "JC"]]),
])
def test_legal_borrows(vector, meld, added, taken, with_cards, pays, after):
    step = borrow(build(meld, added), taken, with_cards)
    assert pays_each(step) == pays
    assert layout(step) == after


def test_b8_remainder_loses_the_tag_without_refund():
    step = borrow(build("AH 2H 3H", "4H"), "AH", "AC AD")
    tags = {tuple(sorted(m.cards)): m.tag for m in step.state.hand.melds.values()}
    assert tags[("2H", "3H", "4H")] == "none"
    assert not [p for p in step.payments if p.payer == "A"]


@pytest.mark.parametrize("vector, meld, added, taken, with_cards, why", [
    ("B2", "7C 6C 5C", "4C", "6C", "6H 6D", "not a meld"),
    ("B2", "7C 6C 5C", "4C", "5C", "5H 5D", "not a meld"),
    ("B5", "5S 5H 5D", "5S", "5H", "5C 5D", "not a meld"),
])
def test_illegal_borrows(vector, meld, added, taken, with_cards, why):
    with pytest.raises(RuleError, match=why):
        borrow(build(meld, added), taken, with_cards)


def test_b7_strict_remainder_rule_pays_nothing():
    rules = from_dict({"remainder_conditions_pay": False})
    step = borrow(build("KS KS KH", "KS", rules), "KH", "KD KC")
    assert pays_each(step) == 0


@pytest.mark.parametrize("knob, taken, with_cards, why", [
    ({"borrow_allowed": False}, "7C", "7H 7D", "not allowed"),
    ({"borrow_multiple_cards": False}, "5H 4H", "3H", "one card"),
])
def test_borrow_knobs(knob, taken, with_cards, why):
    meld, added = ("7C 6C 5C", "4C") if taken == "7C" else ("JH 7H 6H", "5H 4H")
    with pytest.raises(RuleError, match=why):
        borrow(build(meld, added, from_dict(knob)), taken, with_cards)


def test_b9_middle_borrow_follows_its_knob():
    rules = from_dict({"borrow_from_middle_if_pieces_valid": False})
    with pytest.raises(RuleError, match="middle"):
        borrow(build("JC 7C 6C", "5C 4C 3C 2C", rules), "5C", "5C 5C")
