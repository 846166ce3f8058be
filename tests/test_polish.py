"""Polish Pan: spec other-pan-games.md B.6 (P1-P24), the dealing checks and the beton check."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from pancli.core.errors import InputError, RuleError
from pancli.games.polish import engine as p

STANDARD = p.PolishRules()
SPADES = p.PolishRules.preset("piki-cofane")
ABCD = ["A", "B", "C", "D"]


def cards(text):
    return p.parse_cards(text)


# ---------------------------------------------------------------- cards

@pytest.mark.parametrize("text, rank, suit", [
    ("9H", 9, "H"), ("9h", 9, "H"), ("10s", 10, "S"), ("TS", 10, "S"), ("j♦", 11, "D"), ("A♣", 14, "C"),
])
def test_parse_card(text, rank, suit):
    assert p.parse_card(text) == p.Card(rank, suit)


@pytest.mark.parametrize("bad", ["8S", "2H", "10X", "KK", ""])
def test_cards_outside_the_24_card_pack_are_refused(bad):
    with pytest.raises(InputError) as err:
        p.parse_card(bad)
    assert repr(bad) in str(err.value) and "9, 10, J, Q, K, A" in str(err.value)


def test_format():
    assert p.format_cards(cards("9h, T♠ ac")) == "9♥ 10♠ A♣"
    assert p.format_cards(cards("9h, T♠ ac"), ascii=True) == "9H TS AC"


@given(st.lists(st.sampled_from(p.PACK), max_size=24), st.booleans())
def test_parse_format_round_trip(some, ascii):
    assert p.parse_cards(p.format_cards(some, ascii=ascii)) == some


# ---------------------------------------------------------------- house rules

def test_presets_and_from_dict():
    assert p.PolishRules.preset("standard") == STANDARD
    assert SPADES.spades_back
    rules = p.PolishRules.from_dict({"preset": "beton", "pickup": "three_or_all", "word": "dupa"})
    assert (rules.beton, rules.pickup, rules.word) == (3, "three_or_all", "DUPA")
    assert p.PolishRules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize("d, words", [
    ({"spades_bak": True}, ["'spades_bak'", "did you mean 'spades_back'"]),
    ({"preset": "piki"}, ["'piki'", "presets:"]),
    ({"pickup": "four"}, ["pickup = 'four'", "pickup takes one of three, any, three_or_all"]),
    ({"beton": 1}, ["beton", "0, 2, 3"]),
    ({"spades_back": "yes"}, ["spades_back", "true or false"]),
    ({"clock_minutes": -1}, ["clock_minutes", "0 to 180"]),
    ({"word": "P4N"}, ["word", "letters"]),
])
def test_from_dict_refuses_bad_keys_and_values(d, words):
    with pytest.raises(InputError) as err:
        p.PolishRules.from_dict(d)
    for word in words:
        assert word in str(err.value)


# ---------------------------------------------------------------- dealing and beton

@pytest.mark.parametrize("players, sizes", [
    (2, [12, 12]), (3, [8, 8, 8]), (4, [6, 6, 6, 6]), (5, [5, 5, 5, 5, 4]), (6, [4] * 6),
])
def test_deal_sizes(players, sizes):
    assert p.deal_sizes(players) == sizes
    assert sum(sizes) == 24


@pytest.mark.parametrize("players", [1, 7, 0])
def test_deal_sizes_refuse_other_tables(players):
    with pytest.raises(RuleError):
        p.deal_sizes(players)


def test_beton_player_with_empty_hand_is_not_out():
    verdict = p.check_out(hand=0, beton=3)
    assert not verdict.legal and "take them into hand and play on" in verdict.reason
    assert p.check_out(hand=0, beton=0).legal
    assert not p.check_out(hand=2, beton=0).legal


# ---------------------------------------------------------------- plays and takes (B.6)

PLAY_VECTORS = [
    ("P1", STANDARD, "", "9H", True, "opens with the 9♥"),
    ("P2", STANDARD, "", "9S", False, "opens with the 9♥"),
    ("P3 default", STANDARD, "", "9H 9D 9C 9S", True, "9♥ at the bottom"),
    ("P3 strict", p.PolishRules(open_with_four_nines=False), "", "9H 9D 9C 9S", False, "9♥ alone"),
    ("P4", STANDARD, "", "9D 9H 9C 9S", False, "9♥ must lie at the bottom"),
    ("P5", STANDARD, "9H", "9C", True, "equal"),
    ("P6", STANDARD, "9H", "9S 9D 9C", True, "completing the four"),
    ("P7 default", STANDARD, "9H TC", "JH JD JC", False, "only go onto a J"),
    ("P7 loose", p.PolishRules(three_card_play="equal_or_higher"), "9H TC", "JH JD JC", True, "equal or higher"),
    ("P8", STANDARD, "9H TC JS", "JH JD JC", True, "completing the four"),
    ("P9", STANDARD, "9H QD", "KS KH KD KC", True, "four of a higher rank"),
    ("P10", STANDARD, "9H QD", "TS", False, "lower than the Q♦"),
    ("P11", STANDARD, "9H QD", "KS KH", False, "two cards at once"),
    ("P16", STANDARD, "9H TD TC AH", "AD", True, "equal"),
    ("nines only", p.PolishRules(three_card_play="nines_only"), "9H TC JS", "JH JD JC", False, "only the other"),
    ("nines only 9s", p.PolishRules(three_card_play="nines_only"), "9H", "9S 9D 9C", True, "completing"),
    ("five cards", STANDARD, "9H", "TS TH TD TC JS", False, "at most four"),
    ("mixed three", STANDARD, "9H TC", "TS TH JD", False, "mixes ranks"),
    ("four not higher", STANDARD, "9H AS", "KS KH KD KC", False, "must be higher"),
]


@pytest.mark.parametrize("vector, rules, pile, play, legal, phrase", PLAY_VECTORS, ids=[v[0] for v in PLAY_VECTORS])
def test_play_vectors(vector, rules, pile, play, legal, phrase):
    verdict = p.check_play(rules, cards(pile), cards(play))
    assert verdict.legal is legal
    assert phrase in verdict.reason


def test_play_must_come_from_the_hand():
    verdict = p.check_play(STANDARD, cards("9H"), cards("KS"), hand=cards("QS AH"))
    assert not verdict.legal and "not in the player's hand" in verdict.reason


@pytest.mark.parametrize("pile, play", [("9S", "TS"), ("9H 9H", "TS"), ("9H TS", "TS")])
def test_impossible_piles_are_unreadable(pile, play):
    with pytest.raises(InputError):
        p.check_play(STANDARD, cards(pile), cards(play))


def test_p12_take_three():
    verdict = p.check_take(STANDARD, cards("9H TS JD QC KH"))
    assert verdict.legal
    assert verdict.taken == tuple(cards("KH QC JD"))
    assert verdict.pile == tuple(cards("9H TS"))


def test_p13_take_clean():
    verdict = p.check_take(STANDARD, cards("9H AS"))
    assert verdict.legal and verdict.taken == tuple(cards("AS")) and verdict.pile == tuple(cards("9H"))
    assert "taking clean" in verdict.reason


def test_p14_the_nine_of_hearts_is_never_taken():
    verdict = p.check_take(STANDARD, cards("9H"))
    assert not verdict.legal and "never taken" in verdict.reason


def test_p15_taking_is_allowed_when_a_play_exists():
    pile = cards("9H JC")
    assert p.check_play(STANDARD, pile, cards("QS")).legal
    verdict = p.check_take(STANDARD, pile)
    assert verdict.legal and verdict.taken == tuple(cards("JC"))


def test_p17_three_or_all():
    rules = p.PolishRules(pickup="three_or_all")
    pile = cards("9H TS JS QS KS AS")
    verdict = p.check_take(rules, pile, 4)
    assert not verdict.legal and "take 3 (A♠ K♠ Q♠) or all 5" in verdict.reason
    assert p.check_take(rules, pile, 3).taken == tuple(cards("AS KS QS"))
    assert p.check_take(rules, pile, 5).pile == tuple(cards("9H"))
    assert p.take_choices(rules, pile) == [3, 5]


@pytest.mark.parametrize("pickup, choices", [("three", [3]), ("any", [1, 2, 3, 4, 5]), ("three_or_all", [3, 5])])
def test_take_choices_per_house_rule(pickup, choices):
    assert p.take_choices(p.PolishRules(pickup=pickup), cards("9H TS JS QS KS AS")) == choices


def test_standard_take_refuses_other_counts():
    verdict = p.check_take(STANDARD, cards("9H TS JS QS KS AS"), 2)
    assert not verdict.legal and "take 3" in verdict.reason


# ---------------------------------------------------------------- turn order (P18-P22)

TURN_VECTORS = [
    ("P18", SPADES, ABCD, "A", "9H QS", "D"),
    ("P19", SPADES, ABCD, "D", "9H QS KH", "A"),
    ("P20", SPADES, ABCD, "B", "9H TS", "A"),
    ("P21 seed", SPADES, ["A", "B"], "A", "9H TS", "A"),
    ("P21 opponent", p.PolishRules(spades_back=True, spades_back_two_players="opponent"),
     ["A", "B"], "A", "9H TS", "B"),
    ("P22 KS on top", SPADES, ABCD, "A", "9H QH KH KD KC KS", "D"),
    ("P22 KS lower", SPADES, ABCD, "A", "9H QH KS KH KD KC", "B"),
    ("no variant", STANDARD, ABCD, "A", "9H QS", "B"),
]


@pytest.mark.parametrize("vector, rules, seating, mover, pile, expected", TURN_VECTORS,
                         ids=[v[0] for v in TURN_VECTORS])
def test_turn_vectors(vector, rules, seating, mover, pile, expected):
    assert p.next_player(rules, seating, mover, cards(pile)) == expected


def test_turn_skips_players_who_are_out():
    assert p.next_player(STANDARD, ABCD, "A", cards("9H TH"), out={"B"}) == "C"
    assert p.next_player(SPADES, ABCD, "B", cards("9H TS"), out={"A"}) == "D"
    assert p.next_player(STANDARD, ABCD, "A", cards("9H TH"), out={"A", "B", "C"}) is None


def test_spade_with_two_left_in_a_bigger_game_gives_the_mover_another_turn():
    assert p.next_player(SPADES, ABCD, "A", cards("9H TS"), out={"B", "C"}) == "A"
    # a mover who has just gone out cannot move again
    assert p.next_player(SPADES, ABCD, "A", cards("9H TS"), out={"A", "B"}) == "D"


# ---------------------------------------------------------------- hidden cards (P23)

def test_p23_hidden_card_penalty():
    pile = cards("9H JS QD KC")
    caught = p.rule_challenge(pile, player="A", challenger="B", hidden=True)
    assert caught.taker == "A" and caught.taken == tuple(cards("KC QD JS"))
    wrong = p.rule_challenge(pile, player="A", challenger="B", hidden=False)
    assert wrong.taker == "B" and len(wrong.taken) == 3
    late = p.rule_challenge(pile, player="A", challenger="C", hidden=True, played_over=True)
    assert late.taker is None and "stands" in late.reason


# ---------------------------------------------------------------- letters (P24) and the state machine

def test_p24_letters():
    state = p.new_state(STANDARD, ["X", "Y", "Z"])
    steps = []
    for loser in ["X", "Y", "X", "X"]:
        steps.append(p.apply(state, {"kind": "deal", "loser": loser}))
        state = steps[-1].state
    assert state.over and state.loser == "X"
    assert [state.letters_of(n) for n in "XYZ"] == ["PAN", "P", ""]
    assert steps[-1].lines == ["Deal 4: X is left holding cards: takes N (X has P-A-N)",
                               "X has completed PAN and loses the game"]
    tallies = {(t.player, t.stat): t.amount for t in steps[-1].tallies}
    assert tallies[("X", "letters")] == 1 and tallies[("X", "games_lost")] == 1
    assert tallies[("X", "deals_lost")] == 1 and tallies[("Z", "deals_played")] == 1
    assert steps[-1].payments == []
    assert [r["player"] for r in p.standings(state)] == ["Z", "Y", "X"]
    assert p.summary(state) == "Game over after 4 deals: X completed PAN and loses (Z -, Y P, X PAN)"
    with pytest.raises(RuleError, match="game is over"):
        p.apply(state, {"kind": "deal", "loser": "Y"})


def test_deal_without_a_loser_gives_no_letter():
    state = p.new_state(STANDARD, ["X", "Y"])
    step = p.apply(state, {"kind": "deal", "loser": None})
    assert step.state.letters == (0, 0) and step.state.deals == (None,)
    assert step.lines == ["Deal 1: no loser, no letter"]
    assert {t.stat for t in step.tallies} == {"deals_played"}


def test_clock_flag_loses_the_deal():
    state = p.new_state(STANDARD, ["X", "Y", "Z"])
    step = p.apply(state, {"kind": "clock_flag", "player": "Y"})
    assert step.state.letters_of("Y") == "P" and "time ran out" in step.lines[0]
    assert not step.state.over


def test_clock_flag_can_lose_the_game():
    rules = p.PolishRules(timeout_loses="game")
    state = p.replay(rules, ["X", "Y"], [{"kind": "deal", "loser": "Y"}])
    step = p.apply(state, {"kind": "clock_flag", "player": "Y"})
    assert step.state.over and step.state.letters_of("Y") == "PAN"
    assert {(t.stat, t.amount) for t in step.tallies if t.player == "Y"} >= {("letters", 2), ("games_lost", 1)}


def test_custom_word():
    rules = p.PolishRules(word="DUPA")
    state = p.replay(rules, ["X", "Y"], [{"kind": "deal", "loser": "X"}] * 3)
    assert not state.over and state.letters_of("X") == "DUP"
    assert p.apply(state, {"kind": "deal", "loser": "X"}).state.loser == "X"


@pytest.mark.parametrize("event, error, phrase", [
    ({"kind": "deal"}, InputError, "needs 'loser'"),
    ({"kind": "deal", "loser": "x"}, InputError, "did you mean 'X'"),
    ({"kind": "clockflag", "player": "X"}, InputError, "did you mean 'clock_flag'"),
    ({"kind": "clock_flag"}, InputError, "needs 'player'"),
    ({"loser": "X"}, InputError, "'kind'"),
])
def test_bad_events(event, error, phrase):
    state = p.new_state(STANDARD, ["X", "Y"])
    with pytest.raises(error) as err:
        p.apply(state, event)
    assert phrase in str(err.value)


@pytest.mark.parametrize("players, error", [(["X"], RuleError), (list("ABCDEFG"), RuleError), (["X", "X"], InputError)])
def test_new_state_checks_the_table(players, error):
    with pytest.raises(error):
        p.new_state(STANDARD, players)


def test_state_is_json_friendly():
    state = p.replay(STANDARD, ["X", "Y", "Z"], [{"kind": "deal", "loser": "X"}, {"kind": "deal", "loser": None}])
    assert p.GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert p.summary(state) == "After 2 deals: Y -, Z -, X P"


# ---------------------------------------------------------------- properties

PLAYERS = ["X", "Y", "Z"]
events = st.one_of(
    st.builds(lambda who: {"kind": "deal", "loser": who}, st.sampled_from(PLAYERS + [None])),
    st.builds(lambda who: {"kind": "clock_flag", "player": who}, st.sampled_from(PLAYERS)),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(events, max_size=10))
def test_apply_never_mutates_and_replay_is_deterministic(log):
    state, applied = p.new_state(STANDARD, PLAYERS), []
    for event in log:
        if state.over:
            break
        state = p.apply(state, event).state
        applied.append(event)
        assert len(state.deals) == len(applied)  # every accepted event is one deal
    assert p.replay(STANDARD, PLAYERS, applied) == state
    assert sum(state.letters) == sum(1 for e in applied if e.get("loser") or e.get("player"))
    assert max(state.letters, default=0) <= 3


@settings(max_examples=60, deadline=None)
@given(st.lists(events, max_size=6))
def test_input_state_is_unchanged_after_apply(log):
    state = p.new_state(STANDARD, PLAYERS)
    for event in log:
        if state.over:
            return
        snapshot = json.dumps(state.to_dict())
        p.apply(state, event)
        assert json.dumps(state.to_dict()) == snapshot
        state = p.apply(state, event).state
