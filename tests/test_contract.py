"""Mendelev's contract game: spec other-pan-games.md A.6 (C1-C21, B1-B4) and A.7."""

import dataclasses
import json

import pytest
from hypothesis import given, settings, strategies as st

from pancli.core.errors import InputError, RuleError
from pancli.games.contract import engine as c

MENDELEV = c.ContractRules()
WESTERN = c.ContractRules.preset("contract")
REMIK = c.ContractRules(duplicates_in_sets=False)
SEATS = ["А", "Б", "В", "Г"]


def melds(text):
    return c.parse_melds(text)


# ---------------------------------------------------------------- cards

@pytest.mark.parametrize("text, rank, suit", [
    ("7S", 7, "S"), ("7s", 7, "S"), ("10h", 10, "H"), ("TH", 10, "H"), ("t♦", 10, "D"),
    ("Q♣", 12, "C"), ("a♠", 14, "S"), ("2♡", 2, "H"),
])
def test_parse_card(text, rank, suit):
    assert c.parse_card(text) == c.Card(rank, suit)


def test_parse_cards_accepts_spaces_and_commas():
    assert c.parse_cards("7S, 7h,7♦  10C") == [c.Card(7, "S"), c.Card(7, "H"), c.Card(7, "D"), c.Card(10, "C")]


def test_format_uses_suit_symbols_and_ascii_codes():
    cards = c.parse_cards("KS QH 5C TD")
    assert c.format_cards(cards) == "K♠ Q♥ 5♣ 10♦"
    assert c.format_cards(cards, ascii=True) == "KS QH 5C TD"


@pytest.mark.parametrize("bad", ["1S", "11H", "7X", "ZZ", "J", "♠"])
def test_bad_card_names_the_card_and_the_pack(bad):
    with pytest.raises(InputError) as err:
        c.parse_card(bad)
    assert repr(bad) in str(err.value)
    assert "2-10, J, Q, K, A" in str(err.value)


def test_melds_split_on_plus_slash_or_bar():
    assert melds("7S 7H 7D + QC QD QS / 2H 3H 4H | 5C 5D 5S") == [
        c.parse_cards("7S 7H 7D"), c.parse_cards("QC QD QS"), c.parse_cards("2H 3H 4H"), c.parse_cards("5C 5D 5S")]


cards_strategy = st.builds(c.Card, st.integers(2, 14), st.sampled_from("SHDC"))


@given(st.lists(cards_strategy, max_size=12), st.booleans())
def test_parse_format_round_trip(cards, ascii):
    assert c.parse_cards(c.format_cards(cards, ascii=ascii)) == cards


# ---------------------------------------------------------------- house rules

def test_presets():
    assert c.ContractRules.preset("mendelev") == c.ContractRules()
    assert WESTERN.min_sequence == 4 and WESTERN.buy_turn == "unchanged" and WESTERN.scoring == "penalty"


def test_from_dict_preset_with_override_and_round_trip():
    rules = c.ContractRules.from_dict({"preset": "contract", "ace_value": 11})
    assert rules.min_sequence == 4 and rules.ace_value == 11
    assert c.ContractRules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize("d, words", [
    ({"min_sequnce": 4}, ["'min_sequnce'", "did you mean 'min_sequence'"]),
    ({"preset": "mendeleev"}, ["'mendeleev'", "did you mean 'mendelev'"]),
    ({"ace_value": 12}, ["ace_value", "15, 11, 1"]),
    ({"min_sequence": 2}, ["min_sequence", "3 to 13"]),
    ({"min_sequence": "4"}, ["min_sequence", "whole number"]),
    ({"max_set": 9}, ["max_set", "3 to 8"]),
    ({"duplicates_in_sets": 1}, ["duplicates_in_sets", "true or false"]),
    ({"buy_turn": "r1"}, ["buy_turn = 'r1'", "buy_turn takes one of from_buyer, unchanged"]),
    ({"min_sequence": 5, "max_sequence": 4}, ["min_sequence", "max_sequence"]),
])
def test_from_dict_refuses_bad_keys_and_values(d, words):
    with pytest.raises(InputError) as err:
        c.ContractRules.from_dict(d)
    for word in words:
        assert word in str(err.value)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- contracts (A.6)

CONTRACT_VECTORS = [
    ("C1", MENDELEV, 1, "7S 7H 7D + QC QD QS", True, "set of 7s"),
    ("C2", MENDELEV, 1, "7S 7H 7D + 7C 7S 7H", False, "different ranks"),
    ("C3", MENDELEV, 1, "7S 7H 7D 7C 7S 7H", False, "incomplete"),
    ("C4", MENDELEV, 1, "7S 7H 7D + QC QD QS + 3C 3D 3H", False, "not 3 combinations"),
    ("C5", MENDELEV, 1, "7S 7H 7D + 4H 5H 6H 7H", False, "a sequence is not part"),
    ("C6", MENDELEV, 2, "KS KH KC + 5D 6D 7D 8D", True, "set of kings"),
    ("C7 mendelev", MENDELEV, 2, "KS KH KC + 5D 6D 7D", True, "3-card sequence"),
    ("C7 contract", WESTERN, 2, "KS KH KC + 5D 6D 7D", False, "at least 4 cards"),
    ("C8", MENDELEV, 3, "9C TC JC QC + 3H 4H 5H 6H", True, "sequence in ♣"),
    ("C9", MENDELEV, 3, "2C 3C 4C 5C + 9C TC JC QC", False, "different suits"),
    ("C10", MENDELEV, 3, "AD 2D 3D 4D + JH QH KH AH", True, "2 sequences"),
    ("C11", MENDELEV, 3, "QS KS AS 2S + 5H 6H 7H 8H", False, "wraps round the ace"),
    ("C12", MENDELEV, 4, "2S 2H 2D + 8C 8D 8H + JS JC JH", True, "set of jacks"),
    ("C13", MENDELEV, 4, "2S 2H 2D + 8C 8D 8H", False, "incomplete"),
    ("C14", MENDELEV, 5, "5S 5H 5C + TD TC TS + 6H 7H 8H 9H", True, "2 sets and 1 sequence"),
    ("C19 mendelev", MENDELEV, 1, "QH QH QS + 4C 4D 4S", True, "set of queens"),
    ("C19 remik", REMIK, 1, "QH QH QS + 4C 4D 4S", False, "identical cards"),
]


@pytest.mark.parametrize("vector, rules, deal, laid, legal, phrase", CONTRACT_VECTORS,
                         ids=[v[0] for v in CONTRACT_VECTORS])
def test_contract_vectors(vector, rules, deal, laid, legal, phrase):
    verdict = c.validate_contract(rules, deal, melds(laid))
    assert verdict.legal is legal
    assert phrase in verdict.reason
    assert "\n" not in verdict.reason


def test_contract_for_an_unknown_deal_is_unreadable():
    with pytest.raises(InputError):
        c.validate_contract(MENDELEV, 6, melds("7S 7H 7D + QC QD QS"))


@pytest.mark.parametrize("laid, phrase", [
    ("7S 8H 9S", "neither a set"),
    ("7S 7H", "at least 3 cards"),
    ("4H 5H 7H", "not consecutive"),
    ("4H 5H 5H 6H", "repeats a card"),
    ("QS QS QS", "more than 2 times"),
    ("KH AH 2H 3H", "wraps"),
])
def test_illegal_melds(laid, phrase):
    kind, reason = c.classify_meld(c.parse_cards(laid), MENDELEV)
    assert kind is None and phrase in reason


def test_sequence_ace_low_or_high_up_to_thirteen():
    assert c.classify_meld(c.parse_cards("AH 2H 3H"), MENDELEV)[0] == "sequence"
    assert c.classify_meld(c.parse_cards("QH KH AH"), MENDELEV)[0] == "sequence"
    full = c.parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    assert c.classify_meld(full, MENDELEV)[0] == "sequence"


# ---------------------------------------------------------------- lay-offs and going out (A.6)

def test_c16_lay_off_then_discard_goes_out():
    lay_off = c.validate_lay_off(MENDELEV, c.parse_cards("5D 6D 7D 8D"), c.parse_cards("9D"))
    assert lay_off.legal and "making it 5 cards" in lay_off.reason
    assert c.check_going_out(MENDELEV, 2, contract_down=True, final_discard=True).legal


def test_c15_no_final_discard_in_deal_5():
    verdict = c.check_going_out(MENDELEV, 5, contract_down=True, final_discard=True)
    assert not verdict.legal and "must go into a combination" in verdict.reason
    assert c.check_going_out(MENDELEV, 5, contract_down=True, final_discard=False).legal


@pytest.mark.parametrize("vector, meld, cards, phrase", [
    ("C17", "QS QS QH QH QD QD QC QC", "QS", "at most 8 cards"),
    ("C18", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "AH", "at most 13 cards"),
])
def test_lay_off_limits(vector, meld, cards, phrase):
    verdict = c.validate_lay_off(MENDELEV, c.parse_cards(meld), c.parse_cards(cards))
    assert not verdict.legal and phrase in verdict.reason


@pytest.mark.parametrize("meld, cards, legal", [
    ("7S 7H 7D", "7C", True),
    ("7S 7H 7D", "8C", False),
    ("5D 6D 7D", "4D 8D", True),
    ("5D 6D 7D", "9D", False),
    ("QH KH AH", "2H", False),
    ("5D 6D 7D", "8H", False),
])
def test_lay_off_must_fit(meld, cards, legal):
    assert c.validate_lay_off(MENDELEV, c.parse_cards(meld), c.parse_cards(cards)).legal is legal


def test_lay_off_before_own_contract_is_a_switch():
    meld, card = c.parse_cards("7S 7H 7D"), c.parse_cards("7C")
    assert not c.validate_lay_off(MENDELEV, meld, card, contract_down=False).legal
    assert c.validate_lay_off(c.ContractRules(lay_off_before_contract=True), meld, card, contract_down=False).legal


# ---------------------------------------------------------------- buying (A.2 rules 10-15, C21, B1-B4)

def test_permission_comes_from_everyone_between_discarder_and_asker():
    assert c.permission_needed(SEATS, "А", "Г") == ("Б", "В")
    assert c.permission_needed(SEATS, "А", "В") == ("Б",)
    assert c.permission_needed(SEATS, "А", "Б") == ()
    assert c.permission_needed(SEATS, "В", "Б") == ("Г", "А")


@pytest.mark.parametrize("rules, next_player", [(MENDELEV, "Г"), (WESTERN, "Б")], ids=["R1", "R2"])
def test_c21_refuser_further_round_must_buy(rules, next_player):
    ruling = c.rule_buy(rules, SEATS, discarder="А", asker="Г", refused_by="В")
    assert ruling.legal and ruling.permission_from == ("Б", "В")
    assert (ruling.taker, ruling.pack_cards, ruling.deck_cards, ruling.discards) == ("В", 1, 1, False)
    assert ruling.cards_gained == 2
    assert ruling.next_player == next_player
    assert "Г's request lapses" in ruling.reason


@pytest.mark.parametrize("rules", [MENDELEV, WESTERN], ids=["R1", "R2"])
def test_b1_next_in_turn_takes_three(rules):
    ruling = c.rule_buy(rules, SEATS, discarder="А", asker="Б", cards=3)
    assert (ruling.taker, ruling.pack_cards, ruling.deck_cards, ruling.discards) == ("Б", 3, 2, False)
    assert ruling.cards_gained == 5 and ruling.next_player == "В" and ruling.permission_from == ()


@pytest.mark.parametrize("rules, next_player, skipped", [(MENDELEV, "Г", ("Б",)), (WESTERN, "Б", ())],
                         ids=["R1", "R2"])
def test_b2_permitted_buy(rules, next_player, skipped):
    ruling = c.rule_buy(rules, SEATS, discarder="А", asker="В")
    assert ruling.permission_from == ("Б",)
    assert (ruling.taker, ruling.pack_cards, ruling.deck_cards, ruling.discards) == ("В", 1, 1, False)
    assert ruling.next_player == next_player and ruling.skipped == skipped


def test_b3_next_in_turn_taking_one_card_is_an_ordinary_draw():
    ruling = c.rule_buy(MENDELEV, SEATS, discarder="А", asker="Б")
    assert ruling.legal and ruling.permission_from == ()
    assert (ruling.pack_cards, ruling.deck_cards, ruling.discards) == (1, 0, True)
    assert "needs nobody's permission" in ruling.reason


def test_b4_discarder_cannot_buy_his_own_discard():
    ruling = c.rule_buy(MENDELEV, SEATS, discarder="А", asker="А")
    assert not ruling.legal and "may not buy it back" in ruling.reason


def test_buying_deeper_costs_a_deck_card_per_pack_card():
    ruling = c.rule_buy(MENDELEV, SEATS, discarder="А", asker="Г", cards=3)
    assert (ruling.pack_cards, ruling.deck_cards, ruling.cards_gained) == (3, 3, 6)


def test_refuser_next_in_turn_takes_the_card_alone():
    ruling = c.rule_buy(MENDELEV, SEATS, discarder="А", asker="Г", refused_by="Б")
    assert (ruling.taker, ruling.pack_cards, ruling.deck_cards, ruling.discards) == ("Б", 1, 0, False)
    assert ruling.next_player == "В"


@pytest.mark.parametrize("kwargs", [
    {"asker": "Д"}, {"asker": "Г", "refused_by": "А"},
    {"asker": "Б", "refused_by": "В"}, {"asker": "Г", "cards": 0},
])
def test_buy_input_errors(kwargs):
    with pytest.raises(InputError):
        c.rule_buy(MENDELEV, SEATS, discarder="А", **kwargs)


# ---------------------------------------------------------------- scoring (A.7) and the state machine

PLAYERS = ["A", "B", "C", "D"]


def play_deal_3(rules):
    """A.7: deal 3 recorded as it happens, with running totals A -5, B +12, C -30, D +20 before it."""
    state = dataclasses.replace(c.new_state(rules, PLAYERS), deal=3, totals=(-5, 12, -30, 20))
    events = [
        {"kind": "contract", "player": "B", "melds": "9C TC JC QC + 3H 4H 5H 6H"},
        {"kind": "contract", "player": "C", "melds": [["2S", "3S", "4S"], ["JD", "QD", "KD"]]},
        {"kind": "contract", "player": "A", "melds": "5D 6D 7D + 8H 9H 10H"},
        {"kind": "lay_off", "player": "A", "meld": 1, "cards": ["KC"]},
        {"kind": "out", "player": "A", "discard": "QS"},
        {"kind": "hand", "player": "B", "cards": "KC KD 4S"},
        {"kind": "hand", "player": "C", "cards": "AS 9H 9D"},
        {"kind": "hand", "player": "D", "cards": "2C 3C 4C 5C QH QD 7S 7H 6D AH"},
    ]
    steps = []
    for event in events:
        steps.append(c.apply(state, event))
        state = steps[-1].state
    return state, steps


def test_a7_worked_score_ace_15():
    state, steps = play_deal_3(MENDELEV)
    assert state.history[-1] == (20, -24, -33, -69)
    assert state.totals == (15, -12, -63, -49)
    assert state.deal == 4 and not state.over
    assert c.standings(state)[0]["player"] == "A"
    last = steps[-1]
    assert "Deal 3: A +20 for going out" in last.lines
    assert "Deal 3: B -24 for cards left: K♣ K♦ 4♠" in last.lines
    assert last.payments == []
    points = {t.player: t.amount for t in last.tallies if t.stat == "points"}
    assert points == {"A": 20, "B": -24, "C": -33, "D": -69}
    assert [t.player for t in last.tallies if t.stat == "deals_won"] == ["A"]
    assert sum(t.amount for t in last.tallies if t.stat == "deals_played") == 4


def test_a7_worked_score_ace_11():
    state, _ = play_deal_3(c.ContractRules(ace_value=11))
    assert state.history[-1] == (20, -24, -29, -65)


def test_whole_deal_at_once_matches_recording_it_live():
    live, _ = play_deal_3(MENDELEV)
    start = dataclasses.replace(c.new_state(MENDELEV, PLAYERS), deal=3, totals=(-5, 12, -30, 20))
    step = c.apply(start, {"kind": "deal", "out": "A", "hands": {
        "B": "KC KD 4S", "C": ["AS", "9H", "9D"], "D": "2C 3C 4C 5C QH QD 7S 7H 6D AH"}})
    assert step.state.totals == live.totals and step.state.history == live.history


def test_hands_may_be_given_as_points():
    state = c.new_state(MENDELEV, PLAYERS)
    step = c.apply(state, {"kind": "deal", "out": "B", "hands": {"A": 30, "C": 5, "D": 0}})
    assert step.state.totals == (-30, 20, -5, 0)


def full_game_events(goers=("A", "B", "C", "D", "A")):
    return [{"kind": "deal", "out": goer, "hands": {p: 10 * (i + 1) for i, p in enumerate(PLAYERS) if p != goer}}
            for goer in goers]


def test_game_ends_after_deal_5_and_names_the_winner():
    state = c.new_state(MENDELEV, PLAYERS)
    for event in full_game_events()[:-1]:
        state = c.apply(state, event).state
    last = c.apply(state, full_game_events()[-1])
    assert last.state.over and last.state.deal == 5
    assert c.winners(last.state) == ["A"]
    assert last.lines[-1].startswith("Game over: A wins with +")
    assert c.summary(last.state) == last.lines[-1]
    with pytest.raises(RuleError, match="game is over"):
        c.apply(last.state, {"kind": "out", "player": "A"})


def test_equal_totals_share_first_place():
    state = c.replay(MENDELEV, ["A", "B"], [{"kind": "deal", "out": p, "hands": {q: 7 for q in "AB" if q != p}}
                                             for p in "ABABA"][:4] + [{"kind": "deal", "out": "A", "hands": {"B": 0}}])
    state = dataclasses.replace(state, totals=(10, 10))
    assert c.winners(state) == ["A", "B"]
    assert "share first place" in c.summary(state)
    assert [r["place"] for r in c.standings(state)] == [1, 1]


def test_penalty_scoring_lowest_total_wins():
    state = c.replay(WESTERN, PLAYERS, full_game_events())
    assert state.totals == (10 + 10 + 10 + 0 + 0, 20 + 0 + 20 + 20 + 20, 30 + 30 + 0 + 30 + 30, 40 + 40 + 40 + 0 + 40)
    assert c.winners(state) == ["A"]
    assert c.standings(state)[0]["player"] == "A"


def test_c20_no_second_contract_in_a_deal():
    state = c.replay(MENDELEV, PLAYERS, full_game_events()[:1])
    state = c.apply(state, {"kind": "contract", "player": "A", "melds": "KS KH KC + 5D 6D 7D 8D"}).state
    with pytest.raises(RuleError, match="already down"):
        c.apply(state, {"kind": "contract", "player": "A", "melds": "JS JH JD"})


def test_c15_and_c16_through_events():
    deal5 = dataclasses.replace(c.new_state(MENDELEV, PLAYERS), deal=5)
    deal5 = c.apply(deal5, {"kind": "contract", "player": "A", "melds": "5S 5H 5C + TD TC TS + 6H 7H 8H 9H"}).state
    with pytest.raises(RuleError, match="must go into a combination"):
        c.apply(deal5, {"kind": "out", "player": "A", "discard": "2C"})
    deal2 = c.replay(MENDELEV, PLAYERS, full_game_events()[:1])
    deal2 = c.apply(deal2, {"kind": "contract", "player": "A", "melds": "KS KH KC + 5D 6D 7D 8D"}).state
    deal2 = c.apply(deal2, {"kind": "lay_off", "player": "A", "meld": 2, "cards": "9D"}).state
    assert deal2.table[1].cards == ("5D", "6D", "7D", "8D", "9D")
    assert c.apply(deal2, {"kind": "out", "player": "A", "discard": "QH"}).state.out == "A"


@pytest.mark.parametrize("events, error, phrase", [
    ([{"kind": "contract", "player": "A", "melds": "7S 7H 7D + 7C 7S 7H"}], RuleError, "different ranks"),
    ([{"kind": "contract", "player": "A", "melds": "7S 7H 7D + QC QD QS"},
      {"kind": "out", "player": "B"}], RuleError, "before laying down the contract"),
    ([{"kind": "contract", "player": "A", "melds": "7S 7H 7D + QC QD QS"},
      {"kind": "lay_off", "player": "B", "meld": 1, "cards": "7C"}], RuleError, "after your own contract"),
    ([{"kind": "contract", "player": "A", "melds": "7S 7H 7D + QC QD QS"},
      {"kind": "lay_off", "player": "A", "meld": 3, "cards": "7C"}], InputError, "no meld 3"),
    ([{"kind": "hand", "player": "B", "cards": "7C"}], RuleError, "nobody has gone out"),
    ([{"kind": "out", "player": "A"}, {"kind": "hand", "player": "A", "cards": "7C"}], RuleError, "went out"),
    ([{"kind": "out", "player": "A"}, {"kind": "hand", "player": "B", "cards": "7C"},
      {"kind": "hand", "player": "B", "cards": "7C"}], RuleError, "already recorded"),
    ([{"kind": "out", "player": "A"}, {"kind": "out", "player": "B"}], RuleError, "already gone out"),
    ([{"kind": "out", "player": "A"}, {"kind": "hand", "player": "B", "cards": "7C 7C 7C"}], RuleError, "only 2"),
    ([{"kind": "out", "player": "b"}], InputError, "did you mean 'B'"),
    ([{"kind": "out", "player": "Zed"}], InputError, "players: A, B, C, D"),
    ([{"kind": "outt", "player": "A"}], InputError, "did you mean 'out'"),
    ([{"kind": "contract", "player": "A"}], InputError, "needs 'melds'"),
    ([{"kind": "hand_", "player": "A"}], InputError, "unknown"),
    ([{"kind": "deal", "out": "A", "hands": {"B": 3}}], InputError, "missing the hand of C and D"),
    ([{"kind": "out", "player": "A"}, {"kind": "hand", "player": "B", "points": -3}], InputError, "0 or more"),
])
def test_illegal_events_are_refused(events, error, phrase):
    state = c.new_state(MENDELEV, PLAYERS)
    for event in events[:-1]:
        state = c.apply(state, event).state
    before = state.to_dict()
    with pytest.raises(error) as err:
        c.apply(state, events[-1])
    assert phrase in str(err.value)
    assert state.to_dict() == before


@pytest.mark.parametrize("players, error", [(["A"], RuleError), (list("ABCDEFG"), RuleError),
                                             (["A", "A"], InputError), (["A", ""], InputError)])
def test_new_state_checks_the_table(players, error):
    with pytest.raises(error):
        c.new_state(MENDELEV, players)


def test_state_is_json_friendly():
    state, _ = play_deal_3(MENDELEV)
    state = c.apply(state, {"kind": "contract", "player": "A", "melds": "2S 2H 2D + 8C 8D 8H + JS JC JH"}).state
    text = json.dumps(state.to_dict())
    assert c.GameState.from_dict(json.loads(text)) == state


# ---------------------------------------------------------------- properties

hand_values = st.integers(0, 120)


@st.composite
def whole_deals(draw):
    out = draw(st.sampled_from(PLAYERS))
    return {"kind": "deal", "out": out, "hands": {p: draw(hand_values) for p in PLAYERS if p != out}}


@settings(max_examples=50, deadline=None)
@given(st.lists(whole_deals(), min_size=1, max_size=5), st.sampled_from([MENDELEV, WESTERN]))
def test_apply_never_mutates_and_replay_is_deterministic(events, rules):
    state = c.new_state(rules, PLAYERS)
    for event in events:
        before = json.dumps(state.to_dict())
        step = c.apply(state, event)
        assert json.dumps(state.to_dict()) == before
        state = step.state
    assert c.replay(rules, PLAYERS, events) == state
    assert sum(sum(h) for h in state.history) == sum(state.totals)
    assert state.over is (len(events) == 5)
