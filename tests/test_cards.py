"""Card notation, ordering and the shoe (spec §1)."""

import pytest

from pancli.core.errors import InputError
from pancli.games.panguingue.cards import (
    all_cards,
    card_candidates,
    display_order,
    format_card,
    format_cards,
    markup_card,
    markup_cards,
    over_shoe,
    parse_card,
    parse_cards,
    shoe_counts,
)


@pytest.mark.parametrize("text, expected", [
    ("5S 5S 5S", ("5S", "5S", "5S")),
    ("5s 5s 5s", ("5S", "5S", "5S")),
    ("5s5s5s", ("5S", "5S", "5S")),
    ("5S,5H,5D", ("5S", "5H", "5D")),
    ("5S, 5H ,5D", ("5S", "5H", "5D")),
    ("5♠ 5♥ 5♦ 5♣", ("5S", "5H", "5D", "5C")),
    ("j♥ q♥ k♥", ("JH", "QH", "KH")),
    ("ac2c3c", ("AC", "2C", "3C")),
    ("  JS   7S\t6S  ", ("JS", "7S", "6S")),
    ("", ()),
])
def test_parse_cards(text, expected):
    assert parse_cards(text) == expected


def test_parse_cards_takes_a_list_of_tokens():
    assert parse_cards(["5s5h", "5D", "5C,5S"]) == ("5S", "5H", "5D", "5C", "5S")


@pytest.mark.parametrize("token, words", [
    ("8S", "no 8, 9 or 10"),
    ("9h", "no 8, 9 or 10"),
    ("10S", "no 8, 9 or 10"),
    ("TS", "no 8, 9 or 10"),
    ("joker", "no jokers"),
    ("JK", "no jokers"),
    ("5X", "not a card"),
    ("55", "not a card"),
    ("5", "not a card"),
    ("ZS", "no rank Z"),
    ("5S5", "not a card"),
])
def test_bad_notation_is_an_input_error(token, words):
    with pytest.raises(InputError) as e:
        parse_cards(f"5S {token}")
    assert words in str(e.value)
    assert e.value.exit_code == 2
    assert "\n" not in str(e.value)


def test_vector_35_and_36_name_the_missing_rank():
    # §10.1 #35 and #36: 8, 9 and 10 are not in the deck; the legal version of #36 is 6C 7C JC
    for text in ("8S 9S 10S", "6C 7C 8C"):
        with pytest.raises(InputError):
            parse_cards(text)
    assert parse_cards("6C 7C JC") == ("6C", "7C", "JC")


def test_no_jqk_pack_reads_8_9_10_as_court_cards():
    assert parse_cards("8S 9S 10S", rank_set="no_JQK") == ("JS", "QS", "KS")
    with pytest.raises(InputError):
        parse_cards("JS", rank_set="no_JQK")


def test_parse_card_one_only():
    assert parse_card("qd") == "QD"
    with pytest.raises(InputError):
        parse_card("QDQD")


def test_format_and_markup():
    assert format_card("5S") == "5♠"
    assert format_cards(["JH", "7D", "AC"]) == "J♥ 7♦ A♣"
    assert markup_card("5H") == "[red]5♥[/red]"
    assert markup_card("5D") == "[red]5♦[/red]"
    assert markup_card("5S") == "5♠"
    assert markup_cards(["5C", "5H"]) == "5♣ [red]5♥[/red]"


def test_formatted_cards_parse_back():
    cards = tuple(all_cards())
    assert parse_cards(format_cards(cards)) == cards


def test_display_order_is_rank_then_suit():
    assert display_order(["KS", "AC", "7H", "JH", "AS"]) == ["AS", "AC", "7H", "JH", "KS"]


def test_pack_has_forty_cards_without_8_9_10():
    cards = all_cards()
    assert len(cards) == len(set(cards)) == 40
    assert not any(c[0] in "89T" for c in cards)


@pytest.mark.parametrize("kwargs, total, spade, other", [
    ({}, 320, 8, 8),                                                               # §1.5 default
    ({"spade_sets_removed": 1}, 310, 7, 8),
    ({"spade_sets_removed": 1, "removed": ["3S", "5S", "7S"]}, 307, 7, 8),
    ({"spade_sets_removed": 1, "removed": ["2S", "3S", "5S", "7S", "QS"]}, 305, 7, 8),
    ({"packs": 5}, 200, 5, 5),
    ({"packs": 11}, 440, 11, 11),
])
def test_shoe_inventory(kwargs, total, spade, other):
    shoe = shoe_counts(**kwargs)
    assert sum(shoe.values()) == total
    assert shoe["KS"] == spade
    assert shoe["KH"] == other


def test_extra_pay_cards_are_added():
    shoe = shoe_counts(added=["3S", "5S", "7S"])
    assert shoe["5S"] == 9 and sum(shoe.values()) == 323


def test_over_shoe_names_the_card():
    assert over_shoe(["5S"] * 8, shoe_counts()) is None
    assert over_shoe(["5S"] * 9, shoe_counts()) == "5S"
    assert over_shoe(["3S"] * 8, shoe_counts(spade_sets_removed=1)) == "3S"   # §10.1 #50


def test_card_candidates():
    assert card_candidates("k") == ["kS", "kH", "kD", "kC"]
    assert card_candidates("7h") == ["7h7h", "7hJH"]   # 7 and J are neighbours
    assert card_candidates("KS") == ["KSKS"]
    assert card_candidates("zz") == []
