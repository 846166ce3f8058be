"""Input as people type it: full-width cards from a Japanese keyboard, names without their accents."""

import pytest

from pancli.app.recorder import resolve_player
from pancli.core.errors import InputError
from pancli.games.contract import engine as contract
from pancli.games.panguingue.cards import parse_cards
from pancli.games.polish import engine as polish

SEATED = ["Łukasz", "Zoë", "Ana", "Anna", "Ana Maria"]


def test_full_width_cards_and_an_ideographic_space_read_as_typed_in_ascii(pan):
    wide, plain = pan("check ５Ｓ　５Ｓ　５Ｓ").output, pan("check 5S 5S 5S").output
    assert wide == plain and "legal" in plain


@pytest.mark.parametrize("wide, plain", [("ＫＨ　ｑｄ", "KH QD"), ("５♠５♠", "5S 5S"), ("Ａ♦", "AD")])
def test_each_pack_reads_full_width_codes(wide, plain):
    assert parse_cards(wide) == parse_cards(plain)
    if "5" not in plain:
        assert polish.parse_cards(wide) == polish.parse_cards(plain)
        assert contract.parse_cards(wide) == contract.parse_cards(plain)


@pytest.mark.parametrize("typed, player", [
    ("lukasz", "Łukasz"), ("LUKASZ", "Łukasz"), ("luk", "Łukasz"), ("zoe", "Zoë"), ("ＡＮＡ", "Ana"),
    ("ana", "Ana"), ("ana m", "Ana Maria"),
])
def test_a_name_typed_without_its_accents_finds_the_one_player_it_can_mean(typed, player):
    assert resolve_player(SEATED, typed) == player


def test_two_players_that_fit_are_named_never_guessed():
    with pytest.raises(InputError) as e:
        resolve_player(["Łukasz", "Lukas"], "luka")
    assert "Łukasz" in e.value.message and "Lukas" in e.value.message
    with pytest.raises(InputError) as e:
        resolve_player(["Zoë", "Zoé"], "zoe")
    assert "Zoë" in e.value.message and "Zoé" in e.value.message
    assert resolve_player(["Zoë", "Zoe"], "zoe") == "Zoe"  # typed exactly as one is seated


def test_a_meld_for_lukasz_typed_at_the_table_is_recorded_for_Łukasz(pan):
    pan("session new s --players Łukasz,Dima,Yuki --dealer Yuki")
    pan("deal")
    out = pan("meld lukasz 4S 4H 4D").output
    assert "Łukasz" in out and "did you mean" not in out
    assert pan.json("board")["hand"]["players"][0]["melds"][0]["cards"] == ["4S", "4H", "4D"]
