"""Properties of notation, meld judging and the solver, checked with hypothesis."""

from collections import Counter

from hypothesis import assume, given, settings, strategies as st

from pancli.games.panguingue import conditions
from pancli.games.panguingue.cards import ORDINAL, RANKS, SUITS, all_cards, format_cards, parse_cards
from pancli.games.panguingue.rules import PRESETS, preset
from pancli.games.panguingue.rulings import judge, judge_addition
from pancli.games.panguingue.solver import solve

ALL = all_cards()
RULES = {name: preset(name) for name in PRESETS}
VARIANTS = {
    **RULES,
    "new_suit_only": preset("hoyle").replace(mixed_set_additions="new_suit_only"),
    "flat_rope": preset("hoyle").replace(rope_condition_scope="any_run_A_or_K_end_flat"),
    "no_additions_pay": preset("hoyle").replace(additions_pay=False),
}

card_lists = st.lists(st.sampled_from(ALL), max_size=15)


@st.composite
def ropes(draw):
    suit = draw(st.sampled_from(SUITS))
    start = draw(st.integers(0, 7))
    length = draw(st.integers(3, 10 - start))
    return [RANKS[start + k] + suit for k in range(length)]


@st.composite
def sets(draw):
    rank = draw(st.sampled_from(RANKS))
    n = draw(st.integers(3, 11))
    style = draw(st.sampled_from(["one_suit", "mixed", "any"]))
    if style == "one_suit":
        suit = draw(st.sampled_from(SUITS))
        return [rank + suit] * min(n, 7)
    if style == "mixed":
        first = draw(st.permutations(SUITS))[:3]
        rest = draw(st.lists(st.sampled_from(SUITS), min_size=n - 3, max_size=n - 3))
        return [rank + s for s in list(first) + rest]
    return [rank + s for s in draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=n))]


melds = st.one_of(ropes(), sets())
rule_names = st.sampled_from(sorted(VARIANTS))


# -- notation ---------------------------------------------------------------------------------


@given(card_lists)
def test_format_parse_round_trip(cards):
    cards = tuple(cards)
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(" ".join(cards)) == cards
    assert parse_cards(",".join(c.lower() for c in cards)) == cards
    assert parse_cards("".join(cards)) == cards


# -- judging ----------------------------------------------------------------------------------


def _summary(ruling):
    return (ruling.valid, ruling.kind, ruling.condition, ruling.worth)


@given(st.one_of(melds, card_lists), st.randoms(use_true_random=False), rule_names)
def test_order_of_writing_does_not_matter(cards, rnd, name):
    rules = VARIANTS[name]
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert _summary(judge(cards, rules)) == _summary(judge(shuffled, rules))


def _core_and_rest(cards, tag):
    """Three cards that carry the meld's tag, and the rest in an order that can be added."""
    ranks = {c[0] for c in cards}
    if len(ranks) > 1:  # a rope: grow away from the core
        up = sorted(cards, key=lambda c: ORDINAL[c[0]])
        if tag == conditions.ROPE_HIGH:
            up.reverse()
        return up[:3], up[3:]
    by_suit = Counter(c[1] for c in cards)
    if len(by_suit) == 1:
        return cards[:3], cards[3:]
    if len(by_suit) >= 3:
        core = [cards[0][0] + s for s in list(by_suit)[:3]]
    else:  # A/K in two suits: two of one suit and one of the other
        (s1, n1), (s2, _) = by_suit.most_common(2)
        core = [cards[0][0] + s1] * 2 + [cards[0][0] + s2]
    rest = list((Counter(cards) - Counter(core)).elements())
    return core, rest


@settings(max_examples=300)
@given(melds, st.randoms(use_true_random=False), rule_names)
def test_laying_at_once_pays_like_three_plus_additions(cards, rnd, name):
    rules = VARIANTS[name]
    whole = judge(cards, rules)
    assume(whole.valid)
    core, rest = _core_and_rest(list(cards), whole.condition)
    if len({c[0] for c in cards}) == 1:
        rnd.shuffle(rest)
    first = judge(core, rules)
    assert first.valid and first.condition == whole.condition, (core, first.reason)
    total, meld, tag = first.worth, list(core), first.condition
    for c in rest:
        step = judge_addition(meld, tag, [c], rules)
        assert step.legal, step.reason
        assert step.tag == tag
        total += step.pays
        meld.append(c)
    assert total == whole.worth


# -- the solver -------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ALL), max_size=11), rule_names)
def test_solver_returns_only_legal_melds_of_exactly_the_cards(cards, name):
    rules = VARIANTS[name]
    got = solve(cards, rules)
    if got is None:
        return
    assert Counter(got.cards) == Counter(cards)
    for m in got.melds:
        ruling = judge(m.cards, rules)
        assert ruling.valid, ruling.reason
        assert (m.tag, m.worth) == (ruling.condition, ruling.worth)


@settings(max_examples=300, deadline=None)
@given(st.lists(melds, min_size=1, max_size=4), rule_names, st.randoms(use_true_random=False))
def test_solver_finds_an_arrangement_whenever_one_exists(built, name, rnd):
    rules = VARIANTS[name]
    rulings = [judge(m, rules) for m in built]
    assume(all(r.valid for r in rulings))
    bag = [c for m in built for c in m]
    assume(len(bag) <= 24)
    shoe = rules.shoe()
    assume(all(n <= shoe[c] for c, n in Counter(bag).items()))
    rnd.shuffle(bag)
    got = solve(bag, rules)
    assert got is not None, built
    assert Counter(got.cards) == Counter(bag)
    assert got.worth >= sum(r.worth for r in rulings)
    if got.worth == sum(r.worth for r in rulings):
        assert len(got.melds) <= len(built)
