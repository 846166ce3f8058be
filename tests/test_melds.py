"""Spec §10.1 vectors 1-54, going-out layouts L1-L5 and additions A1-A12 of §10.2."""

import pytest

from pancli.core.errors import InputError, RuleError
from pancli.games.panguingue import conditions, solver
from pancli.games.panguingue.cards import parse_cards
from pancli.games.panguingue.melds import check_meld, meld_order, rope_pieces
from pancli.games.panguingue.rules import from_dict, preset
from pancli.games.panguingue.rulings import judge, judge_addition

HOYLE = preset("hoyle")
NEW_SUIT_ONLY = HOYLE.replace(mixed_set_additions="new_suit_only")
FULL_ADDITION = HOYLE.replace(valle_suited_addition="full")
FLAT_ROPE = HOYLE.replace(rope_condition_scope="any_run_A_or_K_end_flat")
ONE_SPADE_SET_OUT = HOYLE.replace(spade_sets_removed=1)

ROPE, SET = "rope", "set"

# (number, cards, kind or None when invalid, value under Hoyle)
VECTORS = [
    (1, "5S 5S 5S", SET, 4),
    (2, "5H 5H 5H", SET, 2),
    (3, "3D 3D 3D", SET, 2),
    (4, "7S 7S 7S", SET, 4),
    (5, "5S 5H 5D", SET, 1),
    (6, "3C 3S 3H", SET, 1),
    (7, "5S 5S 5H", None, 0),
    (8, "7C 7S 7S", None, 0),
    (9, "3C 3C 3C", SET, 2),
    (10, "4S 4S 4S", SET, 2),
    (11, "4D 4D 4D", SET, 1),
    (12, "4S 4H 4C", SET, 0),
    (13, "QC QC QC", SET, 1),
    (14, "JS JS JS", SET, 2),
    (15, "2H 2H 2H", SET, 1),
    (16, "6C 6D 6H", SET, 0),
    (17, "KH KD KS", SET, 0),
    (18, "KH KH KC", SET, 0),
    (19, "AD AD AC", SET, 0),
    (20, "AS AS AS", SET, 2),
    (21, "KC KC KC", SET, 1),
    (22, "AH AC AS AD AH", SET, 0),
    (23, "3C 2C AC", ROPE, 1),
    (24, "AS 2S 3S", ROPE, 2),
    (25, "JS QS KS", ROPE, 2),
    (26, "JH QH KH", ROPE, 1),
    (27, "JS 7S 6S", ROPE, 0),
    (28, "QD JD 7D", ROPE, 0),
    (29, "6H 7H JH QH", ROPE, 0),
    (30, "KH AH 2H", None, 0),
    (31, "QC KC AC", None, 0),
    (32, "3H 4C 5D", None, 0),
    (33, "5H 5H 6H", None, 0),
    (34, "5D 6D 6D 7D", None, 0),
    (37, "7H JH", None, 0),
    (38, "AS 2S 3S 4S 5S 6S 7S JS QS KS", ROPE, 16),
    (39, "AS 2S 3S 4S 5S 6S 7S JS QS KS AS", None, 0),
    (40, "4S 4H 4D 4C", SET, 0),
    (41, "5S 5H 5D 5C", SET, 2),
    (42, "5S 5H 5D 5S", SET, 2),
    (43, "5S 5S 5H 5H", None, 0),
    (44, "6S 6S 6S 6H", None, 0),
    (45, "2C 2C 2D 2H", SET, 0),
    (46, "5S 5S 5S 5S", SET, 6),
    (47, "7H 7H 7H 7H", SET, 3),
    (48, "4S 4S 4S 4S 4S", SET, 6),
    (49, "AH 2H 3H 4H", ROPE, 2),
    (50, "3S 3S 3S 3S 3S 3S 3S 3S", SET, 14),
    (51, "QH QS QD QC QH QS QD QC QH QS QD", SET, 0),
    (52, "KS KS KS KH KD", SET, 0),
    (53, "JC JC JC", SET, 1),
    (54, "7D 7C 7S 7H 7D", SET, 3),
]

# The "♠ / other" column: the same one-suit pattern in spades and in another suit.
SPADE_OTHER = [
    (1, "5 5 5", 4, 2), (2, "5 5 5", 4, 2), (3, "3 3 3", 4, 2), (4, "7 7 7", 4, 2), (9, "3 3 3", 4, 2),
    (10, "4 4 4", 2, 1), (11, "4 4 4", 2, 1), (13, "Q Q Q", 2, 1), (14, "J J J", 2, 1),
    (15, "2 2 2", 2, 1), (20, "A A A", 2, 1), (21, "K K K", 2, 1), (53, "J J J", 2, 1),
    (23, "A 2 3", 2, 1), (24, "A 2 3", 2, 1), (25, "J Q K", 2, 1), (26, "J Q K", 2, 1),
    (38, "A 2 3 4 5 6 7 J Q K", 16, 8), (46, "5 5 5 5", 6, 3), (47, "7 7 7 7", 6, 3),
    (48, "4 4 4 4 4", 6, 3), (49, "A 2 3 4", 4, 2),
]


def cards(text):
    return parse_cards(text)


@pytest.mark.parametrize("num, text, kind, value", VECTORS, ids=[f"#{v[0]}" for v in VECTORS])
def test_vector_default_profile(num, text, kind, value):
    ruling = judge(cards(text), HOYLE)
    assert ruling.valid is (kind is not None), ruling.reason
    assert ruling.kind == kind
    assert ruling.worth == value
    assert ruling.reason and "\n" not in ruling.reason
    if kind is None:
        assert ruling.condition is None
    else:
        assert ruling.condition in conditions.TAGS
        assert (ruling.condition != conditions.NONE) is (value > 0)


@pytest.mark.parametrize("num, text, kind, value", VECTORS, ids=[f"#{v[0]}" for v in VECTORS])
def test_vector_order_of_writing_is_irrelevant(num, text, kind, value):
    forward, backward = judge(cards(text), HOYLE), judge(tuple(reversed(cards(text))), HOYLE)
    assert (forward.valid, forward.kind, forward.condition, forward.worth) == \
        (backward.valid, backward.kind, backward.condition, backward.worth)


@pytest.mark.parametrize("num, ranks, spade, other", SPADE_OTHER, ids=[f"#{v[0]}" for v in SPADE_OTHER])
@pytest.mark.parametrize("suit", "HDC")
def test_vector_spades_versus_other_suits(num, ranks, spade, other, suit):
    assert judge(cards(" ".join(r + "S" for r in ranks.split())), HOYLE).worth == spade
    assert judge(cards(" ".join(r + suit for r in ranks.split())), HOYLE).worth == other


@pytest.mark.parametrize("text, tag", [
    ("5S 5S 5S", conditions.VALLE_SUITED), ("5S 5H 5D", conditions.VALLE_MIXED),
    ("4S 4S 4S", conditions.NONVALLE_SUITED), ("AS AS AS", conditions.NONVALLE_SUITED),
    ("AC 2C 3C", conditions.ROPE_LOW), ("JS QS KS", conditions.ROPE_HIGH),
    ("4S 4H 4C", conditions.NONE), ("JS 7S 6S", conditions.NONE), ("KH KD KS", conditions.NONE),
])
def test_condition_tags(text, tag):
    assert judge(cards(text), HOYLE).condition == tag


def test_vector_5_one_spade_changes_nothing():
    assert judge(cards("5S 5H 5D"), HOYLE).worth == judge(cards("5C 5H 5D"), HOYLE).worth == 1


@pytest.mark.parametrize("text", ["8S 9S 10S", "6C 7C 8C"])
def test_vectors_35_36_are_input_errors(text):
    with pytest.raises(InputError):
        cards(text)


def test_vector_39_no_eleven_card_rope_exists():
    for suit in "SHDC":
        ten = [r + suit for r in "A234567JQK"]
        assert judge(ten, HOYLE).valid
        for extra in ten:
            ruling = judge(ten + [extra], HOYLE)
            assert not ruling.valid and "repeat" in ruling.reason


# -- variants named by the table -------------------------------------------------------------


@pytest.mark.parametrize("text, valid", [
    ("5S 5H 5D 5S", False),   # #42
    ("2C 2C 2D 2H", False),   # #45
    ("7D 7C 7S 7H 7D", False),  # #54
    ("5S 5H 5D 5C", True),    # #41
    ("4S 4H 4D 4C", True),    # #40
    ("5S 5H 5D", True),
    ("5S 5S 5S 5S", True),    # one-suit sets are not mixed
    ("AH AC AS AD AH", True),  # A/K mix freely
])
def test_vectors_under_new_suit_only(text, valid):
    assert judge(cards(text), NEW_SUIT_ONLY).valid is valid


@pytest.mark.parametrize("text, value", [
    ("5S 5S 5S 5S", 8),  # #46 full-addition variant
    ("7H 7H 7H 7H", 4),  # #47
    ("5S 5S 5S", 4), ("5H 5H 5H", 2),
    ("4S 4S 4S 4S 4S", 6),  # non-valle additions are full anyway
])
def test_vectors_under_full_addition(text, value):
    assert judge(cards(text), FULL_ADDITION).worth == value


def test_japanese_wp_preset_is_the_full_addition_variant():
    assert judge(cards("5S 5S 5S 5S"), preset("japanese-wp")).worth == 8


@pytest.mark.parametrize("text, value", [
    ("AH 2H 3H 4H", 1),  # #49 flat-rope variant [POC, PRO]
    ("AS 2S 3S 4S", 2),
    ("AS 2S 3S 4S 5S 6S 7S JS QS KS", 2),
    ("5H 6H 7H JH QH KH", 1),  # a run ending at the king
    ("JS 7S 6S", 0),
])
def test_vectors_under_flat_ropes(text, value):
    assert judge(cards(text), FLAT_ROPE).worth == value


def test_vector_50_inventory():
    eight = cards("3S " * 8)
    assert judge(eight, HOYLE).worth == 14
    for rules in (ONE_SPADE_SET_OUT, preset("cardroom-ca"), preset("online-pan")):
        ruling = judge(eight, rules)
        assert not ruling.valid
        assert "holds only 7" in ruling.reason
    assert judge(cards("3S " * 7), ONE_SPADE_SET_OUT).worth == 12
    assert not judge(cards("5S " * 9), HOYLE).valid


@pytest.mark.parametrize("num, text, kind, value", VECTORS, ids=[f"#{v[0]}" for v in VECTORS])
@pytest.mark.parametrize("name", ["cardroom-ca", "online-pan"])
def test_vectors_under_other_presets_change_only_the_inventory(num, text, kind, value, name):
    ruling = judge(cards(text), preset(name))
    if num == 50:
        assert not ruling.valid
    else:
        assert (ruling.kind, ruling.worth) == (kind, value)


def test_no_spade_premium_profile():
    flat = HOYLE.replace(spade_multiplier=1)
    assert judge(cards("5S 5S 5S"), flat).worth == 2
    assert judge(cards("KS KS KS"), flat).worth == 1
    assert judge(cards("AS 2S 3S"), flat).worth == 1


def test_britannica_profile_has_no_mixed_valle_condition():
    rules = HOYLE.replace(valle_mixed_value=0)
    ruling = judge(cards("5S 5H 5D"), rules)
    assert ruling.valid and ruling.condition == conditions.NONE and ruling.worth == 0


def test_reasons_name_the_problem():
    assert "one suit or three different suits" in judge(cards("5S 5S 5H"), HOYLE).reason
    assert "ace is low only" in judge(cards("QC KC AC"), HOYLE).reason
    assert "one suit" in judge(cards("3H 4C 5D"), HOYLE).reason
    assert "at least 3" in judge(cards("7H JH"), HOYLE).reason
    assert "repeat" in judge(cards("5D 6D 6D 7D"), HOYLE).reason
    assert "at most 11" in check_meld(cards("KS " * 12)).reason


def test_meld_helpers():
    assert meld_order(cards("JS 7S 6S")) == ["6S", "7S", "JS"]
    assert meld_order(cards("5C 5S 5H")) == ["5S", "5H", "5C"]
    assert rope_pieces(cards("JC 7C 6C 4C 3C 2C")) == [["2C", "3C", "4C"], ["6C", "7C", "JC"]]


# -- going-out layouts ------------------------------------------------------------------------


def test_layout_L1():
    melds = [cards("KS KS KS"), cards("5H 5H 5H 5H"), cards("AC 2C 3C 4C")]
    grouped = solver.check_layout(melds, HOYLE)
    found = solver.check_out([c for m in melds for c in m], HOYLE)
    for layout in (grouped, found):
        assert sorted(len(m.cards) for m in layout.melds) == [3, 4, 4]
        assert sorted(m.worth for m in layout.melds) == [2, 2, 3]
        assert layout.worth == 7


def test_layout_L2_four_melds_of_three():
    melds = [cards("KS KS KS"), cards("5H 5H 5H"), cards("AC 2C 3C"), cards("QD QD QD")]
    with pytest.raises(RuleError, match="12 cards melded is not out"):
        solver.check_layout(melds, HOYLE)
    with pytest.raises(RuleError, match="12 cards melded is not out"):
        solver.check_out([c for m in melds for c in m], HOYLE)


def test_layout_L3_ten_melded_is_flat_not_out():
    ten = cards("KS KS KS 5H 5H 5H AC 2C 3C 4C")
    assert solver.solve(ten, HOYLE) is not None   # a legal layout, but only ten cards
    with pytest.raises(RuleError) as e:
        solver.check_out(ten, HOYLE)
    assert str(e.value) == "10 cards melded is not out: going out needs 11"
    assert e.value.exit_code == 1


def test_layout_L4():
    layout = solver.check_out(cards("AS 2S 3S 4S 5S 6S 7S JS QH QH QH"), HOYLE)
    assert sorted(len(m.cards) for m in layout.melds) == [3, 8]
    assert layout.worth == 12 + 1


def test_layout_L5_single_eleven_card_rope():
    rope = cards("AH 2H 3H 4H 5H 6H 7H JH QH KH AH")
    with pytest.raises(RuleError, match="repeat"):
        solver.check_layout([rope], HOYLE)
    with pytest.raises(RuleError):
        solver.check_out(rope, HOYLE)


def test_eleven_card_set_is_a_way_out():  # #51
    queens = cards("QH QS QD QC QH QS QD QC QH QS QD")
    layout = solver.check_layout([queens], HOYLE)
    assert len(layout.melds) == 1 and layout.worth == 0
    # the solver finds better: the three spades as a one-suit condition and the rest mixed
    best = solver.check_out(queens, HOYLE)
    assert best.worth == 2 and len(best.melds) == 2


# -- additions (§10.2) --------------------------------------------------------------------------

# (number, meld, added, legal, pays under Hoyle)
ADDITIONS = [
    ("A1", "5S 5H 5D", "5S", True, 1),
    ("A2", "5S 5S 5S", "5H", False, 0),
    ("A3", "5S 5S 5S", "5S", True, 2),
    ("A4", "5H 5H 5H", "5H", True, 1),
    ("A5", "4S 4S 4S", "4S", True, 2),
    ("A6", "KH KH KH", "KD", True, 0),
    ("A7", "KH KD KS", "KH", True, 0),
    ("A8", "AH 2H 3H", "4H", True, 1),
    ("A9", "2H 3H 4H", "AH", True, 0),
    ("A10", "JS 7S 6S", "QS", True, 0),
    ("A11", "JS QS KS", "7S", True, 2),
]


def add(meld, added, rules=HOYLE):
    meld, added = cards(meld), cards(added)
    return judge_addition(meld, conditions.tag_of(meld, rules), added, rules)


@pytest.mark.parametrize("num, meld, added, legal, pays", ADDITIONS, ids=[a[0] for a in ADDITIONS])
def test_addition_default_profile(num, meld, added, legal, pays):
    ruling = add(meld, added)
    assert ruling.legal is legal, ruling.reason
    assert ruling.pays == pays
    assert ruling.reason and "\n" not in ruling.reason


@pytest.mark.parametrize("num, meld, added, pays", [
    ("A3", "5S 5S 5S", "5S", 4),
    ("A4", "5H 5H 5H", "5H", 2),
    ("A5", "4S 4S 4S", "4S", 2),
    ("A1", "5S 5H 5D", "5S", 1),
])
def test_addition_full_addition_variant(num, meld, added, pays):
    assert add(meld, added, FULL_ADDITION).pays == pays


def test_addition_A1_under_new_suit_only():
    assert not add("5S 5H 5D", "5S", NEW_SUIT_ONLY).legal
    assert add("5S 5H 5D", "5C", NEW_SUIT_ONLY).legal


def test_addition_A6_clears_the_tag():
    ruling = add("KH KH KH", "KD")
    assert ruling.tag == conditions.NONE and "no longer" in ruling.reason


def test_addition_A9_untagged_meld_stays_untagged():
    assert add("2H 3H 4H", "AH").tag == conditions.NONE


def test_addition_to_flat_rope_pays_nothing():
    assert add("AH 2H 3H", "4H", FLAT_ROPE).pays == 0


def test_addition_A12_never_to_another_players_meld():
    # the engine has no way to add to another player's meld: the knob admits only false
    with pytest.raises(InputError, match="layoff_on_others"):
        from_dict({"layoff_on_others": True})


def test_addition_beyond_the_shoe():
    ruling = add("5S 5S 5S 5S 5S 5S 5S", "5S 5S")
    assert not ruling.legal and "holds only 8" in ruling.reason
