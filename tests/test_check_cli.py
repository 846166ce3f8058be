"""`pan check` and `pan rules` through the command line."""

import json
import tomllib

import pytest
from typer.testing import CliRunner

from pancli.app import rulesfile
from pancli.cli import app
from pancli.games.panguingue import rules as hr

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def one_json(result):
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, result.stdout
    return json.loads(lines[0])


# -- pan check CARD... ------------------------------------------------------------------------


def test_legal_meld_text():
    r = run("check", "5S", "5S", "5S")
    assert r.exit_code == 0
    assert "5♠ 5♠ 5♠" in r.stdout
    assert "legal set" in r.stdout and "one-suit valle set in spades" in r.stdout
    assert "worth 4" in r.stdout


def test_legal_meld_json_schema():
    r = run("check", "5S", "5S", "5S", "--json")
    assert r.exit_code == 0
    assert one_json(r) == {"cards": ["5S", "5S", "5S"], "valid": True, "kind": "set",
                           "condition": "valle_suited", "worth": 4,
                           "reason": "5♠ 5♠ 5♠: one-suit valle set in spades, 4 from each payer"}


@pytest.mark.parametrize("args, kind, condition, worth", [
    (["3C", "2C", "AC"], "rope", "rope_low", 1),
    (["JS", "QS", "KS"], "rope", "rope_high", 2),
    (["5s5h5d"], "set", "valle_mixed", 1),
    (["4S,4H,4C"], "set", "none", 0),
    (["K♥", "K♦", "K♠"], "set", "none", 0),
    (["as", "as", "as"], "set", "nonvalle_suited", 2),
])
def test_notation_and_kinds(args, kind, condition, worth):
    data = one_json(run("check", *args, "--json"))
    assert (data["valid"], data["kind"], data["condition"], data["worth"]) == (True, kind, condition, worth)


def test_illegal_meld_exits_1_with_reason():
    r = run("check", "5S", "5S", "5H")
    assert r.exit_code == 1
    assert "not legal" in r.stdout and "one suit or three different suits" in " ".join(r.stdout.split())
    data = one_json(run("check", "5S", "5S", "5H", "--json"))
    assert data["valid"] is False and data["kind"] is None and data["condition"] is None
    assert data["worth"] == 0 and "not a set" in data["reason"]


@pytest.mark.parametrize("args, words", [
    (["8S", "9S", "10S"], "no 8, 9 or 10"),
    (["6C", "7C", "8C"], "no 8, 9 or 10"),
    (["5S", "joker", "5S"], "no jokers"),
    (["5X"], "not a card"),
])
def test_bad_notation_exits_2_with_one_line(args, words):
    r = run("check", *args)
    assert r.exit_code == 2
    assert r.stdout == ""
    assert words in r.stderr
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("Error: ")
    assert "Traceback" not in r.output


def test_no_cards_is_bad_input():
    r = run("check")
    assert r.exit_code == 2 and "no cards" in r.stderr


def test_presets_and_rules_files(tmp_path):
    assert one_json(run("check", "5S", "5S", "5S", "5S", "--json"))["worth"] == 6
    assert one_json(run("check", "5S", "5S", "5S", "5S", "--json", "--preset", "japanese-wp"))["worth"] == 8
    eight = ["3S"] * 8
    assert run("check", *eight).exit_code == 0
    r = run("check", *eight, "--preset", "cardroom-ca", "--json")
    assert r.exit_code == 1 and "holds only 7" in one_json(r)["reason"]
    path = tmp_path / "house.toml"
    path.write_text('preset = "hoyle"\nmixed_set_additions = "new_suit_only"\n', encoding="utf-8")
    assert run("check", "5S", "5H", "5D", "5S", "--rules", str(path)).exit_code == 1
    assert run("check", "5S", "5H", "5D", "5S").exit_code == 0


@pytest.mark.parametrize("args, words", [
    (["--preset", "cardroom"], "did you mean 'cardroom-ca'"),
    (["--rules", "/nonexistent/house.toml"], "does not exist"),
    (["--preset", "hoyle", "--rules", "x.toml"], "not both"),
])
def test_bad_rules_choice_exits_2(args, words):
    r = run("check", "5S", "5S", "5S", *args)
    assert r.exit_code == 2 and words in r.stderr and r.stderr.count("\n") == 1


def test_bad_rules_file_exits_2(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("ant = 1\n", encoding="utf-8")
    r = run("check", "5S", "5S", "5S", "--rules", str(path))
    assert r.exit_code == 2 and "did you mean 'ante'" in r.stderr


# -- --add ----------------------------------------------------------------------------------


@pytest.mark.parametrize("meld, added, legal, pays", [
    ("5S 5H 5D", "5S", True, 1),     # A1
    ("5S 5S 5S", "5H", False, 0),    # A2
    ("5S 5S 5S", "5S", True, 2),     # A3
    ("5H 5H 5H", "5H", True, 1),     # A4
    ("KH KH KH", "KD", True, 0),     # A6
    ("AH 2H 3H", "4H", True, 1),     # A8
    ("2H 3H 4H", "AH", True, 0),     # A9
    ("JS QS KS", "7S", True, 2),     # A11
    ("5S 5S 5S", "5S 5S", True, 4),  # several cards after --add
])
def test_addition(meld, added, legal, pays):
    r = run("check", *meld.split(), "--add", *added.split(), "--json")
    assert r.exit_code == (0 if legal else 1)
    data = one_json(r)
    assert data["valid"] is legal and data["pays"] == pays == data["worth"]
    assert data["added"] == added.split()
    assert data["cards"] == meld.split() + added.split()
    assert data["base"]["valid"] is True


def test_addition_full_value_variant():
    data = one_json(run("check", "5S", "5S", "5S", "--add", "5S", "--json", "--preset", "japanese-wp"))
    assert data["pays"] == 4


def test_addition_text_and_options_after_add():
    r = run("check", "5S", "5S", "5S", "--add", "5S", "--preset", "hoyle")
    assert r.exit_code == 0
    assert "legal addition" in r.stdout and "pays 2" in r.stdout


def test_addition_to_an_illegal_meld():
    r = run("check", "5S", "5S", "5H", "--add", "5S", "--json")
    assert r.exit_code == 1
    data = one_json(r)
    assert data["valid"] is False and "the meld itself is not legal" in data["reason"]


def test_add_without_cards_is_bad_input():
    r = run("check", "5S", "5S", "5S", "--add")
    assert r.exit_code == 2 and "--add needs cards" in r.stderr


# -- --arrange and --out --------------------------------------------------------------------


L1 = "KS KS KS 5H 5H 5H 5H AC 2C 3C 4C".split()


def test_arrange_text():
    r = run("check", "--arrange", *L1)
    assert r.exit_code == 0
    assert "worth 7" in r.stdout
    assert "A♣ 2♣ 3♣ 4♣" in r.stdout and "K♠ K♠ K♠" in r.stdout


def test_arrange_json():
    data = one_json(run("check", "--arrange", *L1, "--json"))
    assert data["valid"] is True and data["worth"] == 7 and data["out"] is True
    assert [m["cards"] for m in data["melds"]] == [["AC", "2C", "3C", "4C"], ["5H"] * 4, ["KS"] * 3]
    assert [m["worth"] for m in data["melds"]] == [2, 3, 2]
    assert sorted(data["cards"]) == sorted(L1)


def test_arrange_without_arrangement_exits_1():
    r = run("check", "--arrange", "AS", "2S", "3S", "3S", "3S", "JC", "--json")
    assert r.exit_code == 1
    data = one_json(r)
    assert data["valid"] is False and "J♣ fits no meld" in data["reason"]


def test_out_needs_eleven_cards():
    r = run("check", "--out", *L1[:-1])
    assert r.exit_code == 1
    assert "10 cards melded is not out: going out needs 11" in r.stdout
    data = one_json(run("check", "--out", *L1[:-1], "--json"))
    assert data["reason"] == "10 cards melded is not out: going out needs 11"


def test_out_legal_and_grouped():
    assert run("check", "--out", *L1).exit_code == 0
    r = run("check", "--out", "KS", "KS", "KS", "/", "5H", "5H", "5H", "5H", "/", "AC", "2C", "3C", "4C", "--json")
    assert r.exit_code == 0
    data = one_json(r)
    assert data["worth"] == 7 and len(data["melds"]) == 3


def test_out_four_melds_is_not_out():  # L2
    r = run("check", "--out", "KS", "KS", "KS", "/", "5H", "5H", "5H", "/", "AC", "2C", "3C", "/", "QD", "QD", "QD")
    assert r.exit_code == 1 and "12 cards melded is not out" in r.stdout


def test_out_single_eleven_card_rope():  # L5
    rope = "AH 2H 3H 4H 5H 6H 7H JH QH KH AH".split()
    assert run("check", "--out", *rope).exit_code == 1
    r = run("check", "--out", "--json", "/", *rope)
    assert r.exit_code == 1 and "repeat" in one_json(r)["reason"]


def test_slash_in_a_single_meld_is_bad_input():
    assert run("check", "5S", "5S", "/", "5S").exit_code == 2


# -- --batch --------------------------------------------------------------------------------


def test_batch_one_json_per_line_and_continues_after_bad_lines():
    lines = "5S 5S 5S\n5S 5S 5H\n\n8S 9S 10S\n# a comment\n5s5h5d + 5S\nAC 2C 3C\n"
    r = run("check", "--batch", input=lines)
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(out) == 5
    assert out[0]["valid"] is True and out[0]["worth"] == 4
    assert out[1]["valid"] is False and "not a set" in out[1]["reason"]
    assert out[2]["valid"] is False and "no 8, 9 or 10" in out[2]["reason"] and out[2]["input"] == "8S 9S 10S"
    assert out[3]["valid"] is True and out[3]["pays"] == 1
    assert out[4]["condition"] == "rope_low"
    assert r.exit_code == 2  # the worst line: bad input
    assert "Traceback" not in r.output


def test_batch_exit_status():
    assert run("check", "--batch", input="5S 5S 5S\nAC 2C 3C\n").exit_code == 0
    assert run("check", "--batch", input="5S 5S 5S\n5S 5S 5H\n").exit_code == 1


def test_batch_arrange():
    r = run("check", "--batch", "--out", input=" ".join(L1) + "\n" + " ".join(L1[:-1]) + "\n")
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert out[0]["valid"] and out[0]["worth"] == 7
    assert not out[1]["valid"] and "going out needs 11" in out[1]["reason"]


def test_batch_refuses_cards_on_the_command_line():
    assert run("check", "--batch", "5S", input="").exit_code == 2


# -- help -------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["check"], ["rules"], ["rules", "show"], ["rules", "init"], ["rules", "check"]])
def test_help_has_an_example(args):
    r = run(*args, "--help")
    assert r.exit_code == 0
    assert "Example: pan" in r.stdout


# -- pan rules --------------------------------------------------------------------------------


def test_rules_show_marks_differences():
    r = run("rules", "show", "--preset", "cardroom-ca", "--all")
    assert r.exit_code == 0
    assert "spade_sets_removed" in r.stdout and "going_out_base" in r.stdout
    assert "differs from hoyle: spade_sets_removed" in r.stdout
    for name in hr.KNOBS:
        assert name in r.stdout


def test_rules_show_json():
    data = one_json(run("rules", "show", "--preset", "japanese-wp", "--json"))
    assert data["rules"]["valle_suited_addition"] == "full"
    assert set(data["differs_from_hoyle"]) == {"ante", "valle_suited_addition", "next_deal"}
    assert len(data["knobs"]) == len(hr.KNOBS)
    knob = {k["name"]: k for k in data["knobs"]}["mixed_set_additions"]
    assert knob["allowed"] == "any_suit | new_suit_only" and knob["help"] and knob["value"] == "any_suit"


def test_rules_show_from_file(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('preset = "online-pan"\npacks = 6\n', encoding="utf-8")
    data = one_json(run("rules", "show", "--rules", str(path), "--json"))
    assert data["rules"]["packs"] == 6 and data["rules"]["forcing_mode"] == "automatic"


def test_rules_show_markdown_covers_every_knob_and_preset():
    r = run("rules", "show", "--markdown")
    assert r.exit_code == 0
    for name in hr.KNOBS:
        assert f"`{name}`" in r.stdout
    for name in hr.PRESETS:
        assert f"`{name}`" in r.stdout


def test_rules_init_round_trips(tmp_path):
    for name in hr.PRESETS:
        path = tmp_path / f"{name}.toml"
        r = run("rules", "init", str(path), "--preset", name)
        assert r.exit_code == 0 and path.exists()
        assert rulesfile.load(path) == hr.preset(name)
        assert set(tomllib.loads(path.read_text(encoding="utf-8"))) == set(hr.KNOBS)
        check = run("rules", "check", str(path))
        assert check.exit_code == 0
        assert check.stdout.startswith("OK ") and f"same as preset {name}" in check.stdout


def test_rules_init_refuses_to_overwrite(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("# mine\n", encoding="utf-8")
    r = run("rules", "init", str(path))
    assert r.exit_code == 2 and "already exists" in r.stderr and "--force" in r.stderr
    assert path.read_text(encoding="utf-8") == "# mine\n"
    assert run("rules", "init", str(path), "--force").exit_code == 0
    assert rulesfile.load(path) == hr.DEFAULTS


def test_rules_init_unknown_preset(tmp_path):
    r = run("rules", "init", str(tmp_path / "x.toml"), "--preset", "hoyel")
    assert r.exit_code == 2 and "did you mean 'hoyle'" in r.stderr


@pytest.mark.parametrize("text, words", [
    ("ant = 1\n", "unknown rule 'ant' (did you mean 'ante'?)"),
    ("ante = \"one\"\n", "is not a whole number"),
    ("ante = 5\n", "is out of range"),
    ("tops_chop_allowed = 1\n", "is not true or false"),
    ("ante = = 1\n", "not valid TOML"),
])
def test_rules_check_reports_the_error(tmp_path, text, words):
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    r = run("rules", "check", str(path))
    assert r.exit_code == 2 and words in r.stderr and r.stderr.count("\n") == 1


def test_rules_check_summary_names_changes(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('preset = "cardroom-ca"\nante = 2\n', encoding="utf-8")
    r = run("rules", "check", str(path))
    assert r.exit_code == 0
    assert "preset cardroom-ca with ante = 2" in r.stdout and r.stdout.count("\n") == 1


# -- generated files --------------------------------------------------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def test_docs_rules_md_is_up_to_date():
    r = run("rules", "show", "--markdown")
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == r.stdout


@pytest.mark.parametrize("name", list(hr.PRESETS))
def test_example_rules_files_match_their_presets(name):
    path = ROOT / "examples" / f"rules-{name}.toml"
    assert rulesfile.load(path) == hr.preset(name)


def test_hearts_and_diamonds_are_red_on_a_colour_terminal():
    r = runner.invoke(app, ["check", "5H", "5D", "5S"], env={"FORCE_COLOR": "1", "NO_COLOR": None})
    assert r.exit_code == 0
    assert "\x1b[31m5♥" in r.stdout and "\x1b[31m5♦" in r.stdout
    plain = run("check", "5H", "5D", "5S")
    assert "\x1b" not in plain.stdout and "[red]" not in plain.stdout and "5♥ 5♦" in plain.stdout
