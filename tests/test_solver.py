"""The arrangement solver: best worth, fewest melds on a tie, going-out layouts (spec §4.9, §6.10)."""

import random
from collections import Counter
from functools import cache
from itertools import product

import pytest

from pancli.core.errors import RuleError
from pancli.games.panguingue import conditions
from pancli.games.panguingue.cards import ORDINAL, SUITS, over_shoe, parse_cards
from pancli.games.panguingue.melds import check_meld
from pancli.games.panguingue.rules import preset
from pancli.games.panguingue.rulings import judge
from pancli.games.panguingue.solver import Arrangement, PlacedMeld, arrange, check_layout, check_out, solve, why_not

HOYLE = preset("hoyle")
RULE_VARIANTS = {
    "hoyle": HOYLE,
    "new_suit_only": HOYLE.replace(mixed_set_additions="new_suit_only"),
    "full_addition": HOYLE.replace(valle_suited_addition="full"),
    "flat_rope": HOYLE.replace(rope_condition_scope="any_run_A_or_K_end_flat"),
    "no_additions_pay": HOYLE.replace(additions_pay=False),
    "no_spade_premium": HOYLE.replace(spade_multiplier=1, valle_mixed_value=0),
    "cardroom-ca": preset("cardroom-ca"),
}


def cards(text):
    return parse_cards(text)


def _key(c):
    return (ORDINAL[c[0]], SUITS.index(c[1]))


def reference(bag, rules):
    """Brute force: every sub-multiset holding the lowest card, as (worth, melds) or None."""
    if over_shoe(bag, rules.shoe()):
        return None

    @cache
    def best(rest):
        if not rest:
            return (0, 0)
        low, others = rest[0], Counter(rest[1:])
        kinds = sorted(others)
        found = None
        for picks in product(*(range(others[k] + 1) for k in kinds)):
            meld = [low] + [k for k, n in zip(kinds, picks) for _ in range(n)]
            if not 3 <= len(meld) <= rules.max_meld_size:
                continue
            if not check_meld(meld, rules.mixed_set_additions, rules.max_meld_size).valid:
                continue
            left = others - Counter(dict(zip(kinds, picks)))
            tail = best(tuple(sorted(left.elements(), key=_key)))
            if tail is None:
                continue
            w = conditions.worth(conditions.tag_of(meld, rules), meld, rules) + tail[0]
            cand = (w, tail[1] + 1)
            if found is None or (cand[0], -cand[1]) > (found[0], -found[1]):
                found = cand
        return found

    return best(tuple(sorted(bag, key=_key)))


def assert_sound(bag, arrangement, rules):
    """Only legal melds, exactly the given cards, worths as new melds."""
    assert Counter(arrangement.cards) == Counter(bag)
    for m in arrangement.melds:
        ruling = judge(m.cards, rules)
        assert ruling.valid, ruling.reason
        assert (m.kind, m.tag, m.worth) == (ruling.kind, ruling.condition, ruling.worth)
    assert arrangement.worth == sum(m.worth for m in arrangement.melds)


def random_meld(rng):
    suit = rng.choice(SUITS)
    if rng.random() < 0.4:
        start = rng.randrange(0, 8)
        length = rng.randint(3, min(6, 10 - start))
        return ["A234567JQK"[start + k] + suit for k in range(length)]
    rank = rng.choice("A2345JK")
    n = rng.randint(3, 5)
    if rng.random() < 0.5:
        return [rank + suit] * n
    return [rank + s for s in SUITS[:3]] + [rank + rng.choice(SUITS) for _ in range(n - 3)]


def random_bags(seed, count):
    rng = random.Random(seed)
    bags = []
    for i in range(count):
        if i % 3 == 0:  # a crowded little universe: few ranks, two or three suits
            ranks = "A2345"[: rng.randint(3, 5)]
            suits = SUITS[: rng.randint(2, 3)]
            bags.append([rng.choice(ranks) + rng.choice(suits) for _ in range(rng.randint(3, 10))])
        else:          # built from melds, so an arrangement exists
            bag = []
            while len(bag) < rng.randint(3, 9):
                bag += random_meld(rng)
            bags.append(bag)
    return bags


@pytest.mark.parametrize("name", list(RULE_VARIANTS))
def test_matches_brute_force(name):
    rules = RULE_VARIANTS[name]
    checked = 0
    for bag in random_bags(hash(name) % 1000, 120):
        if len(bag) > 11:
            continue
        want = reference(bag, rules)
        got = solve(bag, rules)
        if want is None:
            assert got is None, (bag, got)
            continue
        assert got is not None, bag
        assert_sound(bag, got, rules)
        assert (got.worth, len(got.melds)) == want, bag
        checked += 1
    assert checked > 40


@pytest.mark.parametrize("text, worth, melds", [
    ("KS KS KS 5H 5H 5H 5H AC 2C 3C 4C", 7, 3),           # L1
    ("AS 2S 3S 4S 5S 6S 7S JS QH QH QH", 13, 2),          # L4
    ("5S 5S 5S 5S", 6, 1),                                # one meld of four beats nothing else
    ("5S 5H 5D 5C 5S 5H", 4, 1),                          # one mixed six (n-2) beats two threes (1+1)
    ("KH KH KH KH KH KH", 4, 1),                          # six one-suit kings: 1x(6-2), one meld
    ("AS AS 2S 2S 3S 3S", 4, 2),                          # two A-2-3 in spades
    ("AS 2S 3S 3S 3S", None, None),                       # 3S 3S cannot go anywhere
    ("5S 5S 5H", None, None),
    ("", 0, 0),
])
def test_known_bags(text, worth, melds):
    got = solve(cards(text), HOYLE)
    if worth is None:
        assert got is None
        return
    assert (got.worth, len(got.melds)) == (worth, melds)
    assert_sound(cards(text), got, HOYLE)


def test_ties_prefer_fewer_melds():
    # 4S 4H 4D 4C 4S 4H: one mixed set of six or two of three, both worth 0
    got = solve(cards("4S 4H 4D 4C 4S 4H"), HOYLE)
    assert len(got.melds) == 1 and got.worth == 0
    # ropes: A-6 as one rope (worth 1x(6-2)=4 in hearts) beats A-3 + 4-6 (1 + 0)
    got = solve(cards("AH 2H 3H 4H 5H 6H"), HOYLE)
    assert [len(m.cards) for m in got.melds] == [6] and got.worth == 4


def test_splitting_pays_when_additions_do_not():
    # without additions paying, A-2-3 and J-Q-K apart are worth more than one long rope
    rules = HOYLE.replace(additions_pay=False)
    got = solve(cards("AH 2H 3H 4H 5H 6H 7H JH QH KH"), rules)
    assert got.worth == 2 and len(got.melds) >= 2


def test_melds_in_display_order_with_tags():
    got = solve(cards("KS KS KS 4C 3C 2C AC 5H 5H 5H 5H"), HOYLE)
    assert [m.cards for m in got.melds] == [
        ("AC", "2C", "3C", "4C"), ("5H", "5H", "5H", "5H"), ("KS", "KS", "KS")]
    assert [m.tag for m in got.melds] == ["rope_low", "valle_suited", "nonvalle_suited"]
    assert all(isinstance(m, PlacedMeld) for m in got.melds)
    data = got.to_json()
    assert data["worth"] == 7 and data["melds"][0] == {
        "cards": ["AC", "2C", "3C", "4C"], "valid": True, "kind": "rope", "condition": "rope_low", "worth": 2}


def test_new_suit_only_limits_mixed_sets():
    bag = cards("5S 5H 5D 5S")
    assert solve(bag, HOYLE).worth == 2
    assert solve(bag, RULE_VARIANTS["new_suit_only"]) is None
    got = solve(cards("5S 5H 5D 5C 5S 5H 5D"), RULE_VARIANTS["new_suit_only"])
    assert sorted(len(m.cards) for m in got.melds) == [3, 4]


def test_the_shoe_limits_the_bag():
    assert solve(cards("3S " * 8), HOYLE).worth == 14
    assert solve(cards("3S " * 8), preset("cardroom-ca")) is None
    message, hint = why_not(cards("3S " * 8), preset("cardroom-ca"))
    assert "holds only 7" in hint


@pytest.mark.parametrize("text", ["KS KH KD KC " * 3, "5S 5H 5D 5C " * 3, "QS QH QD " * 4])
def test_no_meld_holds_more_than_eleven(text):
    bag = cards(text)
    got = solve(bag, HOYLE)
    assert all(len(m.cards) <= 11 for m in got.melds)
    assert (got.worth, len(got.melds)) == reference(bag, HOYLE)
    assert_sound(bag, got, HOYLE)


@pytest.mark.parametrize("text", [
    "5S 5S 5S 5S 5S 5H 5H 5H 5H 5H 5D 5D 5D 5D 5D 5C 5C 5C 5C 5C",
    "AS 2S 3S 4S 5S 6S 7S JS QS KS AS 2S 3S 4S 5S 6S 7S JS QS KS",
    "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 5C",
    "AS AS AS 2S 2S 2S 3S 3S 3S 4S 4S 4S 5S 5S 5S 6S 6S 6S 7S 7S",
])
def test_twenty_card_worst_cases_are_sound(text):
    bag = cards(text)
    got = solve(bag, HOYLE)
    assert got is not None
    assert_sound(bag, got, HOYLE)


def test_arrange_explains_failure():
    with pytest.raises(RuleError) as e:
        arrange(cards("AS 2S 3S 3S 3S JC"), HOYLE)
    assert "J♣ fits no meld" in str(e.value) and e.value.exit_code == 1
    with pytest.raises(RuleError, match="no way to split"):
        arrange(cards("AS 2S 3S 3S 3S"), HOYLE)
    with pytest.raises(RuleError, match="at least 3"):
        arrange(cards("AS 2S"), HOYLE)


def test_check_out_counts_cards_first():
    with pytest.raises(RuleError, match="^10 cards melded is not out: going out needs 11$"):
        check_out(cards("KS KS KS 5H 5H 5H AC 2C 3C 4C"), HOYLE)
    with pytest.raises(RuleError, match="1 card melded is not out"):
        check_out(cards("KS"), HOYLE)
    layout = check_out(cards("KS KS KS 5H 5H 5H 5H AC 2C 3C 4C"), HOYLE)
    assert isinstance(layout, Arrangement) and 1 <= len(layout) <= 3


def test_check_layout_judges_the_players_grouping():
    melds = [cards("5S 5S 5S"), cards("5S 5H 5D 5C"), cards("AC 2C 3C 4C")]
    layout = check_layout(melds, HOYLE)
    assert layout.worth == 4 + 2 + 2
    with pytest.raises(RuleError, match="not a set"):
        check_layout([cards("5S 5S 5H"), cards("KS KS KS KS"), cards("AC 2C 3C 4C")], HOYLE)
    with pytest.raises(RuleError, match="4 melds is not out"):
        check_layout([cards("KS KS KS"), cards("KH KH KH"), cards("KD KD KD"), cards("KC KC")], HOYLE)
    with pytest.raises(RuleError, match="holds only 8"):
        check_layout([cards("5S " * 5), cards("5S " * 4), cards("AC 2C")], HOYLE, going_out=False)
    # not going out: any number of cards
    assert check_layout([cards("KS KS KS")], HOYLE, going_out=False).worth == 2


def test_solver_respects_rules_objects_that_compare_equal():
    a, b = preset("hoyle"), preset("hoyle")
    assert solve(cards("5S 5S 5S"), a).worth == solve(cards("5S 5S 5S"), b).worth == 4
    assert solve(cards("5S 5S 5S 5S"), RULE_VARIANTS["full_addition"]).worth == 8
