"""The knob schema every game's house rules are declared with, and rules files of all three games."""

import dataclasses
import functools
import json
import tomllib

import pytest
from typer.testing import CliRunner

from pancli.app import rulesfile
from pancli.cli import app
from pancli.cli.commands.disputes.rules import ANY_PRESET_HELP
from pancli.core.errors import InputError
from pancli.core.knobs import BOOL, CARDS, ENUM, INT, MONEY, WORD, KnobRules, Schema, knob
from pancli.games import GAMES
from pancli.games.contract.rules import ContractRules
from pancli.games.panguingue.rules import HouseRules
from pancli.games.polish.rules import PolishRules

runner = CliRunner()
SCHEMAS = {name: g.schema for name, g in GAMES.items()}


def run(*args):
    return runner.invoke(app, list(args))


# -- a toy game declared with the schema -----------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Toy(KnobRules):
    size: int = knob(3, INT, (1, 9), "how big")
    colour: str = knob("red", ENUM, ("red", "green", "blue"), "what colour")
    points: int = knob(10, ENUM, (10, 20), "points a win counts")
    fast: bool = knob(False, BOOL, None, "play fast")
    never: bool = knob(False, BOOL, (False,), "never allowed on")
    stake: float = knob(1.0, MONEY, (0, None), "money per point")
    name: str = knob("PAN", WORD, (1, 5), "a word")
    cards: tuple = knob((), CARDS, "any", "some cards", convert=lambda c: c.upper())


def _no_big_red(rules):
    if rules.colour == "red" and rules.size > 5:
        raise InputError("a red toy is at most 5 big", "make it smaller or green")


TOY = Schema(Toy, game="toy", title="Toy", presets={"plain": {}, "big": {"size": 9, "colour": "blue"}},
             notes={"plain": "the defaults", "big": "a big blue one"}, default_preset="plain", check=_no_big_red)


@pytest.mark.parametrize("data, words", [
    ({"sise": 4}, ["unknown rule 'sise' (did you mean 'size'?)", "pan rules show --game toy"]),
    ({"preset": "bgi"}, ["unknown preset 'bgi' (did you mean 'big'?)", "presets: plain, big"]),
    ({"preset": 2}, ["preset = 2 is not a name", "presets: plain, big"]),
    ({"size": "4"}, ["size = '4' is not a whole number", "size takes 1 to 9"]),
    ({"size": True}, ["size = True is not a whole number"]),
    ({"size": 0}, ["size = 0 is out of range", "size takes 1 to 9"]),
    ({"size": 10}, ["size = 10 is out of range", "size takes 1 to 9"]),
    ({"colour": "gren"}, ["colour = 'gren' is not allowed (did you mean 'green'?)",
                          "colour takes one of red, green, blue"]),
    ({"colour": 1}, ["colour = 1 is not allowed", "colour takes one of red, green, blue"]),
    ({"points": 15}, ["points = 15 is not allowed", "points takes one of 10, 20"]),
    ({"points": "10"}, ["points = '10' is not allowed"]),
    ({"points": True}, ["points = True is not allowed"]),
    ({"fast": "yes"}, ["fast = 'yes' is not true or false", "fast = true or fast = false"]),
    ({"fast": 1}, ["fast = 1 is not true or false"]),
    ({"never": True}, ["never = True is not allowed", "never must be false"]),
    ({"stake": -1}, ["stake = -1 is not an amount of money"]),
    ({"stake": float("nan")}, ["is not an amount of money"]),
    ({"stake": float("inf")}, ["is not an amount of money"]),
    ({"name": "P4N"}, ["name = 'P4N' is not a word of 1 to 5 letters"]),
    ({"name": "PANPANPAN"}, ["is not a word of 1 to 5 letters"]),
    ({"cards": "5S"}, ["cards = '5S' is not a list of cards"]),
    ({"cards": [5]}, ["is not a list of cards"]),
    ({"size": 6}, ["a red toy is at most 5 big"]),
])
def test_refusals_name_key_value_and_what_is_allowed(data, words):
    with pytest.raises(InputError) as e:
        TOY.from_dict(data, where="toy.toml: ")
    text = str(e.value)
    assert text.startswith("toy.toml: ")
    for word in words:
        assert word in text
    assert "\n" not in text and e.value.exit_code == 2


def test_values_are_normalised():
    rules = TOY.from_dict({"stake": 2, "name": "dupa", "cards": ["5s", "6h"], "points": 20})
    assert rules.stake == 2.0 and isinstance(rules.stake, float)
    assert rules.name == "DUPA" and rules.cards == ("5S", "6H") and rules.points == 20


def test_presets_then_overrides():
    assert TOY.from_dict({}) == Toy() == TOY.defaults
    big = TOY.from_dict({"preset": "big", "size": 8})
    assert (big.size, big.colour) == (8, "blue")
    assert TOY.diff(big) == {"size": 8, "colour": "blue"}
    assert TOY.nearest_preset(big) == ("big", {"size": 8})
    assert TOY.from_dict({"preset": "big", "colour": "red", "size": 5}).size == 5
    with pytest.raises(InputError, match="at most 5 big"):  # the cross-knob check sees the merged rules
        TOY.from_dict({"preset": "big", "colour": "red"})


def test_a_bad_preset_is_refused_when_declared():
    @dataclasses.dataclass(frozen=True)
    class Bad(KnobRules):
        size: int = knob(3, INT, (1, 9), "how big")

    with pytest.raises(InputError, match="size = 12 is out of range"):
        Schema(Bad, game="bad", title="Bad", presets={"x": {}, "huge": {"size": 12}},
               notes={"x": "", "huge": ""}, default_preset="x")
    with pytest.raises(ValueError, match="note"):
        Schema(Bad, game="bad", title="Bad", presets={"x": {}}, notes={}, default_preset="x")


def test_to_dict_writes_lists_and_reads_back():
    rules = TOY.from_dict({"cards": ["5S"]})
    data = TOY.to_dict(rules)
    assert data["cards"] == ["5S"] and isinstance(data["cards"], list)
    assert TOY.from_dict(json.loads(json.dumps(data))) == rules
    assert rules.replace(size=4).size == 4
    with pytest.raises(InputError, match="out of range"):
        rules.replace(size=40)


# -- the three games -----------------------------------------------------------------------


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_game_declares_its_knobs_with_the_schema(name):
    schema = SCHEMAS[name]
    assert schema.game == name and schema.default_preset in schema.presets
    for knob_name, k in schema.knobs.items():
        assert k.help and k.kind in (ENUM, INT, BOOL, CARDS, MONEY, WORD), knob_name
        assert k.check(k.default) == getattr(schema.rules_class(), knob_name)
    for preset in schema.presets:
        assert preset in ANY_PRESET_HELP and schema.notes[preset]


@pytest.mark.parametrize("cls", [HouseRules, ContractRules, PolishRules])
def test_rules_are_immutable_and_hashable(cls):
    schema = cls.SCHEMA
    rules = {name: schema.preset(name) for name in schema.presets}
    assert len({hash(r) for r in rules.values()}) == len(set(rules.values()))
    again = schema.from_dict(schema.to_dict(rules[schema.default_preset]))
    assert again == rules[schema.default_preset] and hash(again) == hash(rules[schema.default_preset])
    first = next(iter(schema.knobs))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(again, first, getattr(again, first))
    for value in dataclasses.astuple(again):
        assert not isinstance(value, (list, dict, set))

    calls = []

    @functools.lru_cache
    def cached(r):
        calls.append(r)
        return len(calls)

    assert cached(again) == cached(schema.from_dict(schema.to_dict(again))) == 1


def test_list_knobs_are_tuples_and_stored_as_lists():
    rules = HouseRules.from_dict({"spade_sets_removed": 1, "extra_spade_cards_removed": ["3s", "5S"]})
    assert rules.extra_spade_cards_removed == ("3S", "5S")
    assert rules.to_dict()["extra_spade_cards_removed"] == ["3S", "5S"]
    assert hash(rules) != hash(HouseRules())


# What 0.1 stored in the sessions table (and in archives), key for key.
STORED_01 = {
    "panguingue": {
        "packs": 8, "spade_sets_removed": 1, "extra_spade_cards_removed": ["3S", "5S"],
        "extra_pay_cards_added": ["7S"], "rank_set": "no_8_9_10", "suit_style": "french", "max_players": 15,
        "direction": "counterclockwise", "next_deal": "winner_is_eldest", "first_dealer": "house",
        "deal_pattern": "5+5", "ante": 1, "drop_cost": 0, "house_collection": 0, "tops_chop_allowed": True,
        "last_player_wins_if_all_drop": True, "discard_take_rule": "rejected_stock_card_meld_now",
        "upcard_takeable": True, "drawn_card_first": False, "forcing_mode": "on_demand_any_player",
        "forcing_scope": "takeable_discard_only", "protect_flat_player": True, "layoff_on_others": False,
        "mixed_set_additions": "any_suit", "split_allowed": True, "split_requires_prior_additions": False,
        "borrow_allowed": True, "borrow_multiple_cards": True, "borrow_from_middle_if_pieces_valid": True,
        "max_meld_size": 11, "spade_multiplier": 2, "valle_mixed_value": 1, "valle_suited_value": 2,
        "nonvalle_suited_value": 1, "rope_condition_value": 1, "valle_suited_addition": "reduced",
        "additions_pay": True, "rope_condition_scope": "A23_KQJ_with_additions",
        "condition_recognition": "on_creation", "remainder_conditions_pay": True,
        "condition_payers": "active_opponents", "claim_deadline": "none", "going_out_base": 2,
        "going_out_recollect": "current_worth", "stock_exhausted": "reshuffle_discards",
        "irregularity_window": "until_settled", "unit_value": 0.25,
    },
    "contract": {"min_sequence": 4, "max_set": 8, "max_sequence": 13, "duplicates_in_sets": True,
                 "lay_off_before_contract": False, "buy_turn": "unchanged", "ace_value": 11,
                 "going_out_bonus": 20, "scoring": "penalty", "last_deal_no_discard": True},
    "polish": {"three_card_play": "same_rank", "open_with_four_nines": True, "pickup": "three_or_all",
               "spades_back": True, "spades_back_two_players": "again", "beton": 3, "word": "DUPA",
               "clock_minutes": 5, "timeout_loses": "game"},
}


@pytest.mark.parametrize("name", STORED_01)
def test_stored_rules_of_0_1_load_unchanged(name):
    g = GAMES[name]
    stored = json.loads(json.dumps(STORED_01[name]))
    rules = g.rules_from_dict(stored)
    assert g.rules_to_dict(rules) == stored
    assert json.dumps(g.rules_to_dict(rules)) == json.dumps(STORED_01[name])


# -- rules files and `pan rules` for every game --------------------------------------------


@pytest.mark.parametrize("name", SCHEMAS)
def test_init_check_show_round_trip(tmp_path, name):
    schema = SCHEMAS[name]
    for preset in schema.presets:
        path = tmp_path / f"{name}-{preset}.toml"
        r = run("rules", "init", str(path), "--game", name, "--preset", preset)
        assert r.exit_code == 0, r.output
        assert set(tomllib.loads(path.read_text(encoding="utf-8"))) == set(schema.knobs)
        assert rulesfile.load(path, name) == schema.preset(preset)
        check = run("rules", "check", str(path), "--game", name)
        assert check.exit_code == 0 and f"same as preset {preset}" in check.stdout
        shown = json.loads(run("rules", "show", "--game", name, "--rules", str(path), "--json").stdout)
        assert shown["game"] == name
        assert schema.from_dict(shown["rules"]) == schema.preset(preset)


@pytest.mark.parametrize("name, text, summary", [
    ("contract", 'preset = "contract"\nace_value = 11\n', "preset contract with ace_value = 11"),
    ("polish", 'word = "dupa"\nbeton = 3\n', "preset beton with word = DUPA"),
])
def test_check_summarises_other_games(tmp_path, name, text, summary):
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    r = run("rules", "check", str(path), "--game", name)
    assert r.exit_code == 0 and summary in r.stdout and r.stdout.count("\n") == 1


@pytest.mark.parametrize("name, text, words", [
    ("contract", "min_sequnce = 4\n", ["house.toml: unknown rule 'min_sequnce' (did you mean 'min_sequence'?)"]),
    ("contract", "ace_value = 12\n", ["house.toml: ace_value = 12 is not allowed", "15, 11, 1"]),
    ("contract", "max_set = 9\n", ["max_set = 9 is out of range", "max_set takes 3 to 8"]),
    ("contract", 'preset = "mendeleev"\n', ["unknown preset 'mendeleev' (did you mean 'mendelev'?)"]),
    ("polish", 'pickup = "thre"\n', ["pickup = 'thre' is not allowed (did you mean 'three'?)",
                                     "three, any, three_or_all"]),
    ("polish", "clock_minutes = 200\n", ["clock_minutes = 200 is out of range", "0 to 180"]),
    ("polish", "spades_back = 1\n", ["spades_back = 1 is not true or false"]),
    ("panguingue", "min_sequence = 4\n", ["unknown rule 'min_sequence'", "give --game contract"]),
    ("panguingue", 'preset = "beton"\n', ["unknown preset 'beton'", "give --game polish"]),
])
def test_check_refuses_with_file_key_and_allowed_values(tmp_path, name, text, words):
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    r = run("rules", "check", str(path), "--game", name)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert str(path) in r.stderr
    for word in words:
        assert word in r.stderr


def test_game_option_on_every_rules_command(tmp_path):
    shown = run("rules", "show", "--game", "polish", "--preset", "piki-cofane")
    assert shown.exit_code == 0 and "Polish Pan house rules: preset piki-cofane" in shown.stdout
    assert "spades_back = true  (standard: false)" in shown.stdout
    data = json.loads(run("rules", "show", "-g", "contract", "--preset", "contract", "--json").stdout)
    assert set(data["differs_from_mendelev"]) == {"min_sequence", "buy_turn", "scoring"}
    assert len(data["knobs"]) == len(SCHEMAS["contract"].knobs)
    path = tmp_path / "p.toml"
    r = run("rules", "init", str(path), "--game", "polish")
    assert r.exit_code == 0 and "(preset standard)" in r.stdout and "--game polish" in r.stdout
    assert run("rules", "check", str(path), "--game", "polish").exit_code == 0
    assert run("rules", "check", str(path)).exit_code == 2  # a Polish file is not Panguingue rules
    for args in (["show"], ["init", str(tmp_path / "x.toml")], ["check", str(path)]):
        r = run("rules", *args, "--game", "contrat")
        assert r.exit_code == 2 and "did you mean 'contract'" in r.stderr
    r = run("rules", "show", "--game", "contract", "--preset", "hoyle")
    assert r.exit_code == 2 and "presets: mendelev, contract" in r.stderr


def test_markdown_covers_every_game_or_one():
    everything = run("rules", "show", "--markdown").stdout
    for schema in SCHEMAS.values():
        assert f"## {schema.title}" in everything
        for knob_name in schema.knobs:
            assert f"`{knob_name}`" in everything
    one = run("rules", "show", "--markdown", "--game", "polish").stdout
    assert "## Polish Pan" in one and "## Panguingue" not in one


def test_rules_files_are_used_by_every_game_command(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("min_sequence = 4\n", encoding="utf-8")
    assert rulesfile.resolve(None, path, "contract").min_sequence == 4
    assert rulesfile.resolve("beton", None, "polish").beton == 3
    assert rulesfile.resolve(None, None, "contract") == ContractRules()
    with pytest.raises(InputError, match="not both"):
        rulesfile.resolve("beton", path, "polish")
