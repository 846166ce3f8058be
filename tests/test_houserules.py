"""House rules: presets, rules files, and the checks on every knob (spec §9)."""

import dataclasses
import tomllib

import pytest

from pancli.app import rulesfile
from pancli.core.errors import InputError
from pancli.games.panguingue import rules as hr


def test_defaults_are_hoyle():
    rules = hr.preset("hoyle")
    assert rules == hr.DEFAULTS == hr.HouseRules()
    assert rules.shoe_size() == 320
    assert (rules.ante, rules.drop_cost, rules.going_out_base) == (0, 2, 1)
    assert (rules.spade_multiplier, rules.valle_suited_addition) == (2, "reduced")


@pytest.mark.parametrize("name, changes", [
    ("cardroom-ca", {"spade_sets_removed": 1, "ante": 1, "drop_cost": 0, "tops_chop_allowed": True,
                     "going_out_base": 2, "first_dealer": "house"}),
    ("online-pan", {"spade_sets_removed": 1, "drawn_card_first": True, "forcing_mode": "automatic",
                    "going_out_base": 2}),
    ("japanese-wp", {"ante": 1, "drop_cost": 2, "valle_suited_addition": "full", "next_deal": "rotate"}),
])
def test_presets_follow_section_9(name, changes):
    rules = hr.preset(name)
    for key, value in changes.items():
        assert getattr(rules, key) == value
    # drop_cost 2 is the default, so japanese-wp differs in three knobs only
    assert hr.diff_from(rules) == {k: v for k, v in changes.items() if getattr(hr.DEFAULTS, k) != v}


def test_presets_have_notes():
    assert set(hr.PRESET_NOTES) == set(hr.PRESETS) == {"hoyle", "cardroom-ca", "online-pan", "japanese-wp"}


@pytest.mark.parametrize("name, size", [("hoyle", 320), ("cardroom-ca", 310), ("online-pan", 310), ("japanese-wp", 320)])
def test_preset_shoe_sizes(name, size):
    assert hr.preset(name).shoe_size() == size


def test_every_knob_has_metadata():
    assert len(hr.KNOBS) == 47
    for name, k in hr.KNOBS.items():
        assert k.kind in {hr.ENUM, hr.INT, hr.BOOL, hr.CARDS, hr.MONEY}, name
        assert k.help, name
        if k.kind == hr.ENUM:
            assert getattr(hr.DEFAULTS, name) in k.allowed
        if k.kind == hr.INT:
            lo, hi = k.allowed
            assert lo <= getattr(hr.DEFAULTS, name) <= hi


def test_unknown_preset_suggests():
    with pytest.raises(InputError, match="did you mean 'cardroom-ca'"):
        hr.preset("cardroom")


@pytest.mark.parametrize("data, words", [
    ({"ant": 1}, "unknown rule 'ant' (did you mean 'ante'?)"),
    ({"spade_multipler": 2}, "did you mean 'spade_multiplier'"),
    ({"ante": "1"}, "is not a whole number"),
    ({"ante": True}, "is not a whole number"),
    ({"ante": 3}, "is out of range"),
    ({"packs": 4}, "packs takes 5 to 11"),
    ({"tops_chop_allowed": "yes"}, "is not true or false"),
    ({"mixed_set_additions": "any"}, "takes one of any_suit, new_suit_only"),
    ({"unit_value": -1}, "is not an amount of money"),
    ({"extra_spade_cards_removed": ["3H"]}, "not a spade"),
    ({"extra_spade_cards_removed": "3S"}, "is not a list of cards"),
    ({"extra_pay_cards_added": ["8S"]}, "not in the Pan pack"),
    ({"preset": "hoyel"}, "did you mean 'hoyle'"),
    ({"preset": 3}, "is not a name"),
    ({"layoff_on_others": True}, "is not allowed"),
    ({"max_meld_size": 10}, "out of range"),
    ({"packs": 5, "spade_sets_removed": 1, "extra_spade_cards_removed": ["3S"] * 5}, "more copies of a spade"),
])
def test_from_dict_rejects_with_one_line(data, words):
    with pytest.raises(InputError) as e:
        hr.from_dict(data)
    assert words in str(e.value)
    assert "\n" not in str(e.value)


def test_from_dict_preset_plus_overrides():
    rules = hr.from_dict({"preset": "cardroom-ca", "ante": 2, "unit_value": 0.25})
    assert rules.ante == 2 and rules.spade_sets_removed == 1 and rules.unit_value == 0.25


def test_replace_checks_values():
    assert hr.DEFAULTS.replace(packs=6).shoe_size() == 240
    with pytest.raises(InputError):
        hr.DEFAULTS.replace(packs=12)


@pytest.mark.parametrize("name", list(hr.PRESETS))
def test_dumps_round_trips(tmp_path, name):
    rules = hr.preset(name)
    text = rulesfile.dumps(rules, name)
    data = tomllib.loads(text)
    assert set(data) == set(hr.KNOBS)          # complete: every knob written out
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    assert rulesfile.load(path) == rules
    assert f"'{name}' preset" in text


def test_dumps_round_trips_lists_and_money(tmp_path):
    rules = hr.from_dict({"spade_sets_removed": 1, "extra_spade_cards_removed": ["3S", "5S", "7S"],
                          "extra_pay_cards_added": ["5S"], "unit_value": 0.5})
    path = tmp_path / "r.toml"
    path.write_text(rulesfile.dumps(rules), encoding="utf-8")
    loaded = rulesfile.load(path)
    assert loaded == rules and loaded.shoe_size() == 310 - 3 + 1


def test_load_errors(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        rulesfile.load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("ante = = 1\n", encoding="utf-8")
    with pytest.raises(InputError, match="not valid TOML"):
        rulesfile.load(bad)
    typo = tmp_path / "typo.toml"
    typo.write_text('preset = "hoyle"\nante = 1\ndrop_cots = 2\n', encoding="utf-8")
    with pytest.raises(InputError) as e:
        rulesfile.load(typo)
    assert str(typo) in str(e.value) and "did you mean 'drop_cost'" in str(e.value)


def test_resolve():
    assert rulesfile.resolve() == hr.DEFAULTS
    assert rulesfile.resolve("online-pan") == hr.preset("online-pan")
    with pytest.raises(InputError, match="not both"):
        rulesfile.resolve("hoyle", "x.toml")


def test_rules_are_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        hr.DEFAULTS.ante = 1  # type: ignore[misc]


@pytest.mark.parametrize("text, words", [
    ("x = " + "[" * 50_000 + "]" * 50_000 + "\n", "nests its tables or lists too deeply"),
    ("x = " + "{a = " * 10_000 + "1" + "}" * 10_000 + "\n", "nests its tables or lists too deeply"),
    ("# " + "x" * (300 * 1024) + "\n", "is over 256 KB"),
])
def test_a_hostile_rules_file_gets_one_line(pan, tmp_path, text, words):
    """Rules files come from anywhere (a shared folder, a message): bounded like archives are."""
    path = tmp_path / "house.toml"
    path.write_text(text)
    result = pan(f"rules check {path}", code=2)
    assert words in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
