"""Turn rulings: spec §10.3 vectors T1-T10, §10.4 Example 8, the turn knobs, and `pan turn`."""

import json

import pytest
from typer.testing import CliRunner

from pancli.cli import app
from pancli.core.errors import InputError
from pancli.games.panguingue.rules import DEFAULTS, from_dict, preset
from pancli.games.panguingue.turns import TurnRuling, drawn_card, going_out, may_discard, may_take, meld_now, must_take

H = DEFAULTS


def rules(**knobs):
    return from_dict(knobs)


def M(text):
    """Melds written as at the table: '5S 5S 5S | AH 2H 3H'."""
    return [part.split() for part in text.split("|") if part.strip()]


# C in Example 8: flat, with 6H 7H JH among their ten melded cards.
FLAT_C = M("6H 7H JH | 5S 5S 5S | KH KD KC KS")


# -- T1, T2: the stock card is melded or discarded, never kept ---------------------------------


@pytest.mark.parametrize("knobs, must", [
    ({}, "discard it"),
    ({"drawn_card_first": True}, "discard it"),
    ({"protect_flat_player": False}, "discard it"),
])
def test_t1_unusable_stock_card_is_discarded(knobs, must):
    r = drawn_card("4C", ["5S", "5S"], M("AH 2H 3H"), rules(**knobs))
    assert (r.allowed, r.must) == (False, must)
    assert "may not be kept" in r.reason


@pytest.mark.parametrize("card, hand, melds, must", [
    ("4C", ["5S", "5S"], "AH 2H 3H", "discard it"),                  # cannot use it
    ("4H", ["5S", "5S"], "AH 2H 3H", "meld it or discard it"),       # fits their rope
    ("5S", ["5S", "5S", "2C"], "", "meld it or discard it"),         # makes a set with two hand cards
])
def test_t2_stock_card_may_not_be_kept(card, hand, melds, must):
    r = drawn_card(card, hand, M(melds), H)
    assert (r.allowed, r.must) == (False, must)


def test_t2_drawn_card_first_variant():
    r = drawn_card("4H", ["5S", "5S"], M("AH 2H 3H"), preset("online-pan"))
    assert (r.allowed, r.must) == (False, "meld it before any hand card, or discard it")
    r = drawn_card("4C", ["5S", "5S"], M("AH 2H 3H"), preset("online-pan"))
    assert r.must == "discard it" and "meld nothing this turn" in r.reason


# -- T3, T4, T10: which discard may be taken -----------------------------------------------------


@pytest.mark.parametrize("knobs, allowed", [
    ({}, False),
    ({"discard_take_rule": "any_top_meld_now"}, True),
    ({"discard_take_rule": "forbidden"}, False),
])
def test_t3_hand_discard_not_takeable(knobs, allowed):
    r = may_take("5S", "hand", ["5S", "5S"], [], rules(**knobs))
    assert r.allowed is allowed
    if not allowed:
        assert r.must == "draw from the stock"


@pytest.mark.parametrize("knobs, forced", [
    ({}, False),                                            # a hand discard never forces by default
    ({"forcing_scope": "any_top_discard"}, True),           # [GW]
    ({"discard_take_rule": "any_top_meld_now"}, True),      # takeable, so it forces
])
def test_t3_hand_discard_is_not_a_forcing_card(knobs, forced):
    r = must_take("5S", "hand", M("5S 5S 5S"), rules(**knobs), demanded=True)
    assert r.allowed is forced


@pytest.mark.parametrize("knobs, allowed", [
    ({}, True),
    ({"discard_take_rule": "any_top_meld_now"}, True),
    ({"discard_take_rule": "forbidden"}, False),
])
def test_t4_rejected_stock_card_melding_with_two_hand_cards(knobs, allowed):
    r = may_take("5S", "stock", ["5S", "5S", "KD"], [], rules(**knobs))
    assert r.allowed is allowed
    assert r.must == ("meld it this turn" if allowed else "draw from the stock")


@pytest.mark.parametrize("card, hand, melds, allowed", [
    ("5S", ["5S", "KD"], "", False),               # one hand card is not enough
    ("5S", ["5H", "5D"], "", True),                # mixed valle set
    ("5S", ["5H", "5H"], "", False),               # two suits of a valle rank is no set
    ("4H", [], "AH 2H 3H", True),                  # added to their own rope
    ("JH", ["7H"], "4H 5H 6H", True),              # 7H from the hand bridges to JH
    ("4H", ["QC"], "5S 5S 5S", False),
    ("QH", [], "6H 7H JH", True),                  # a flat player's winning card
])
def test_t4_taken_card_must_meld_at_once(card, hand, melds, allowed):
    r = may_take(card, "stock", hand, M(melds), H)
    assert r.allowed is allowed, r.reason
    assert (meld_now(card, hand, M(melds), H) is not None) is allowed


@pytest.mark.parametrize("knobs, allowed", [
    ({}, True),
    ({"upcard_takeable": False}, False),
    ({"discard_take_rule": "forbidden"}, False),
    ({"discard_take_rule": "any_top_meld_now"}, True),
])
def test_t10_eldest_may_take_the_upcard(knobs, allowed):
    r = may_take("QH", "upcard", ["QH", "QH"], [], rules(**knobs), first_turn=True)
    assert r.allowed is allowed


def test_t10_upcard_he_cannot_meld():
    assert not may_take("QH", "upcard", ["2C", "4D"], [], H, first_turn=True).allowed


def test_first_turn_top_card_is_the_upcard():
    with pytest.raises(InputError):
        may_take("QH", "hand", ["QH", "QH"], [], H, first_turn=True)
    with pytest.raises(InputError):
        may_take("QH", "pile", ["QH", "QH"], [], H)


# -- T5: forcing --------------------------------------------------------------------------------


@pytest.mark.parametrize("knobs, demanded, forced", [
    ({}, True, True),
    ({}, False, False),
    ({"forcing_mode": "automatic"}, False, True),
    ({"forcing_mode": "off"}, True, False),
    ({"discard_take_rule": "forbidden"}, True, False),
    ({"discard_take_rule": "forbidden", "forcing_scope": "any_top_discard"}, True, True),
])
def test_t5_forcing(knobs, demanded, forced):
    r = must_take("5S", "stock", M("5S 5S 5S | AH 2H 3H"), rules(**knobs), demanded=demanded)
    assert r.allowed is forced
    assert r.must == ("take it, meld it, then discard from their hand" if forced else None)


def test_t5_only_a_card_that_adds_to_his_melds_forces():
    # 5S makes a new meld with hand cards, but forcing is about their existing melds
    assert not must_take("5S", "stock", M("AH 2H 3H"), H, demanded=True).allowed


def test_t5_forced_eleventh_card_goes_out():
    r = must_take("QH", "stock", FLAT_C, H, demanded=True)
    assert r.allowed and "go out" in r.must and "11th" in r.reason


# -- T6, T7, T9: going out and flat ---------------------------------------------------------------


def test_t6_flat_player_draws_unusable_card():
    r = drawn_card("2C", [], FLAT_C, H)
    assert (r.allowed, r.must) == (False, "discard it")
    assert "not out" in r.reason
    assert not going_out(10, "discard").allowed


def test_t7_eleventh_card_goes_out_without_discard():
    melds = M("5S 5S 5S 5S | KH KD KC KS")           # 8 melded
    r = drawn_card("QH", ["JH", "KH"], melds, H)     # QH melds with both hand cards
    assert (r.allowed, r.must) == (False, "meld it: they go out and do not discard")
    assert "11th" in r.reason
    out = going_out(11, "meld")
    assert out.allowed and out.must == "stop: they do not discard"


def test_t7_taken_card_goes_out():
    r = may_take("QH", "stock", ["JH", "KH"], M("5S 5S 5S 5S | KH KD KC KS"), H)
    assert r.allowed and r.must == "meld it this turn: they go out and do not discard"


@pytest.mark.parametrize("melded, move, out", [
    (11, "meld", True),
    (10, "discard", False),   # T9: emptying the hand is not going out
    (10, "meld", False),
    (11, "discard", False),
    (7, "discard", False),
    (3, "meld", False),
])
def test_t9_going_out(melded, move, out):
    assert going_out(melded, move).allowed is out


def test_t9_discarding_last_card_leaves_him_flat():
    r = going_out(10, "discard")
    assert "flat" in r.reason and r.must == "draw each turn until they can meld the card they draw"


@pytest.mark.parametrize("melded, move", [(12, "meld"), (-1, "discard"), (5, "draw")])
def test_going_out_bad_input(melded, move):
    with pytest.raises(InputError):
        going_out(melded, move)


# -- T8 and Example 8: protecting the flat player -----------------------------------------------


def test_t8_example8_keep_the_card_that_feeds_the_flat_player():
    r = drawn_card("QH", ["2C", "4D"], M("AS AS AS"), H, next_flat=FLAT_C)
    assert (r.allowed, r.must) == (True, "keep it and discard another card")
    assert "6♥ 7♥ J♥" in r.reason and "2♣ 4♦" in r.reason
    d = may_discard("QH", FLAT_C, H, hand=["QH", "2C", "4D"])
    assert (d.allowed, d.must) == (False, "discard another card")
    assert may_discard("2C", FLAT_C, H).allowed


def test_example8_without_protection_the_flat_player_wins():
    off = rules(protect_flat_player=False)
    assert drawn_card("QH", ["2C", "4D"], M("AS AS AS"), off, next_flat=FLAT_C).must == "discard it"
    assert may_discard("QH", FLAT_C, off).allowed
    c = may_take("QH", "stock", [], FLAT_C, off)   # C takes the rejected stock card and goes out
    assert c.allowed and "go out" in c.must


def test_t8_he_may_also_meld_it():
    r = drawn_card("QH", ["QH", "QH", "2C"], [], H, next_flat=FLAT_C)
    assert (r.allowed, r.must) == (True, "meld it, or keep it and discard another card")


def test_t8_every_discard_fits_so_any_is_allowed():
    # §4.8 / §11 row 16
    r = drawn_card("QH", ["5S", "KC"], [], H, next_flat=FLAT_C)
    assert (r.allowed, r.must) == (True, "discard any card")
    d = may_discard("QH", FLAT_C, H, hand=["QH", "5S", "KC"])
    assert d.allowed and "any discard is allowed" in d.reason


def test_t8_empty_hand_cannot_keep_it():
    r = drawn_card("QH", [], M("2C 3C 4C | 2D 3D 4D | 5C 5H 5D 5S"), H, next_flat=FLAT_C)
    assert (r.allowed, r.must) == (False, "discard it")


def test_t8_card_that_does_not_fit_flat_player():
    r = drawn_card("2C", ["3D"], [], H, next_flat=FLAT_C)
    assert (r.allowed, r.must) == (False, "discard it")


def test_discard_with_no_flat_player():
    assert may_discard("QH", None, H).allowed
    assert may_discard("QH", [], H).allowed


def test_illegal_meld_is_bad_input():
    with pytest.raises(InputError):
        may_take("5S", "stock", [], M("5S 5S 5H"), H)


def test_ruling_is_frozen_and_json():
    r = TurnRuling(True, "why", None)
    with pytest.raises(AttributeError):
        r.allowed = False
    assert r.to_json() == {"allowed": True, "reason": "why", "must": None}


# -- pan turn ------------------------------------------------------------------------------------

runner = CliRunner()


def run(*args):
    return runner.invoke(app, ["turn", *args])


def one_json(result):
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, result.stdout
    return json.loads(lines[0])


@pytest.mark.parametrize("args, code, must", [
    (["take", "5S", "--from", "stock", "--hand", "5S", "5S"], 0, "meld it this turn"),
    (["take", "5S", "--from", "hand", "--hand", "5S", "5S"], 1, "draw from the stock"),
    (["take", "QH", "--first-turn", "--melds", "6H 7H JH"], 0, "meld it this turn"),
    (["take", "QH", "--from", "upcard", "--melds", "6H 7H JH", "--rules", "NOUPCARD"], 1, "draw from the stock"),
    (["drawn", "4C", "--hand", "5S", "5S", "--melds", "AH 2H 3H"], 1, "discard it"),
    (["drawn", "QH", "--hand", "2C", "4D", "--next-flat", "6H 7H JH | 5S 5S 5S | KH KD KC KS"], 0,
     "keep it and discard another card"),
    (["discard", "QH", "--next-flat", "6H 7H JH | 5S 5S 5S | KH KD KC KS"], 1, "discard another card"),
    (["discard", "2C", "--next-flat", "6H 7H JH | 5S 5S 5S | KH KD KC KS"], 0, None),
    (["force", "5S", "--from", "stock", "--melds", "5S 5S 5S", "--demanded"], 0,
     "take it, meld it, then discard from their hand"),
    (["force", "5S", "--from", "stock", "--melds", "5S 5S 5S"], 1, None),
    (["force", "5S", "--from", "stock", "--melds", "5S 5S 5S", "--preset", "online-pan"], 0,
     "take it, meld it, then discard from their hand"),
])
def test_cli_json_and_exit_codes(args, code, must, tmp_path):
    rules_file = tmp_path / "house.toml"
    rules_file.write_text('preset = "hoyle"\nupcard_takeable = false\n', encoding="utf-8")
    args = [str(rules_file) if a == "NOUPCARD" else a for a in args]
    r = run(*args, "--json")
    assert r.exit_code == code, r.output
    data = one_json(r)
    assert list(data) == ["allowed", "reason", "must"]
    assert data["allowed"] is (code == 0)
    assert data["must"] == must


def test_cli_text():
    r = run("take", "5S", "--from", "stock", "--hand", "5S", "5S")
    assert r.exit_code == 0
    assert r.stdout.splitlines() == [  # wrapped between words at 80 columns, the next line indented
        "5♠ (rejected stock card): may take",
        "  may take the previous player's rejected stock card 5♠: it makes 5♠ 5♠ 5♠ with",
        "    two of their hand cards",
        "  must: meld it this turn",
    ]


def test_cli_compact_cards_and_empty_hand():
    r = run("drawn", "qh", "--hand", "--next-flat", "6h7hjh / 5s5s5s / khkdkcks", "--melds", "2C 3C 4C", "--json")
    assert r.exit_code == 1, r.output
    assert one_json(r)["must"] == "discard it"


@pytest.mark.parametrize("args, message", [
    (["take", "5X", "--from", "stock"], "'5X' is not a card"),
    (["take", "5S"], "say where the top discard came from"),
    (["take", "5S", "--from", "pile"], "--from 'pile'"),
    (["take", "5S", "--from", "hand", "--first-turn"], "upcard"),
    (["force", "5S", "--from", "stock", "--melds", "5S 5S 5H"], "must be legal"),
    (["drawn", "5S", "--hand", "5S 5S | 4H"], "a hand is not melds"),
    (["discard", "5S", "--preset", "nope"], "unknown preset"),
    (["take", "8S", "--from", "stock"], "not in the Pan pack"),
])
def test_cli_bad_input_exits_2(args, message):
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["take", "drawn", "discard", "force"])
def test_cli_help_has_example(command):
    r = run(command, "--help")
    assert r.exit_code == 0
    assert f"Example: pan turn {command}" in r.stdout
