"""Spec §10.4 worked examples 1–7 (and 1a–1d), recorded through the CLI into a real database."""

import pytest

EXAMPLE_1 = [
    "deal", "drop f", "meld a 5S 5S 5S", "add a 5S", "meld a KH KD KS KC", "out a 4H 4D 4C",
]


def record(pan, players, lines, rules=""):
    pan(f"session new ex --players {players} --dealer {players.split(',')[-1]} {rules}")
    for line in lines:
        pan(line)


@pytest.mark.parametrize("rules, expected", [
    ("", {"A": 54, "B": -13, "C": -13, "D": -13, "E": -13, "F": -2}),
    ("--rules {dir}/1a.toml", {"A": 59, "B": -14, "C": -14, "D": -14, "E": -14, "F": -3}),
    ("--rules {dir}/1b.toml", {"A": 57, "B": -14, "C": -14, "D": -14, "E": -14, "F": -1}),
    ("--rules {dir}/1c.toml", {"A": 58, "B": -14, "C": -14, "D": -14, "E": -14, "F": -2}),
    ("--rules {dir}/1d.toml", {"A": 30, "B": -7, "C": -7, "D": -7, "E": -7, "F": -2}),
], ids=["1", "1a", "1b", "1c", "1d"])
def test_example_1_and_variants(pan, tmp_path, rules, expected):
    (tmp_path / "1a.toml").write_text("ante = 1\ndrop_cost = 2\n")
    (tmp_path / "1b.toml").write_text("ante = 1\ndrop_cost = 0\n")
    (tmp_path / "1c.toml").write_text("going_out_base = 2\n")
    (tmp_path / "1d.toml").write_text("spade_multiplier = 1\n")
    record(pan, "A,B,C,D,E,F", EXAMPLE_1, rules.format(dir=tmp_path))
    assert pan.nets() == expected
    assert sum(pan.nets().values()) == 0


@pytest.mark.parametrize("rules, expected", [
    ("", {"A": 15, "B": 0, "C": -5, "D": -5, "E": -5}),
    ("--preset japanese-wp", None),
])
def test_example_2(pan, tmp_path, rules, expected):
    lines = ["deal", "meld a 7H 7H 7H", "add a 7H", "add a 7H",
             "meld b 2C 3C 4C", "meld b 5D 6D 7D JD", "out b 6S 6H 6C 6D"]
    if expected is None:  # full-addition variant, without the ante and rotation of the preset
        (tmp_path / "full.toml").write_text('valle_suited_addition = "full"\n')
        rules, expected = f"--rules {tmp_path}/full.toml", {"A": 23, "B": -2, "C": -7, "D": -7, "E": -7}
    record(pan, "A,B,C,D,E", lines, rules)
    assert pan.nets() == expected


def test_example_3_split_creates_condition(pan):
    record(pan, "A,B,C,D", ["deal", "meld a 3D 4D 5D", "add a 2D", "add a 6D", "add a AD",
                            'split a 1 --into "AD 2D 3D" "4D 5D 6D"',
                            "meld a QC QC QC", "add a QC", "out a QC"])
    assert pan.nets() == {"A": 27, "B": -9, "C": -9, "D": -9}


def test_example_3_in_spades(pan):
    record(pan, "A,B,C,D", ["deal", "meld a 3S 4S 5S", "add a 2S", "add a 6S", "add a AS",
                            'split a 1 --into "AS 2S 3S" "4S 5S 6S"',
                            "meld a QC QC QC", "add a QC", "out a QC"])
    assert pan.nets() == {"A": 33, "B": -11, "C": -11, "D": -11}


@pytest.mark.parametrize("strict, expected", [
    (False, {"A": 3, "B": 9, "C": -5, "D": -5, "E": -2}),
    (True, {"A": -3, "B": 11, "C": -3, "D": -3, "E": -2}),
])
def test_example_4_borrow_remainder(pan, tmp_path, strict, expected):
    rules = ""
    if strict:
        (tmp_path / "strict.toml").write_text("remainder_conditions_pay = false\n")
        rules = f"--rules {tmp_path}/strict.toml"
    record(pan, "A,B,C,D,E", ["deal", "drop e", "meld a KS KS KH", "add a KS",
                              "borrow a --from 1 KH --with KD KC",
                              "meld b JH QH KH", "meld b 2C 3C 4C 5C", "out b 6S 6H 6D 6C"], rules)
    assert pan.nets() == expected


def test_example_5_pat_hand(pan):
    record(pan, "A,B,C,D,E,F,G,H", ["deal", "drop f g h",
                                    'spread a "AS 2S 3S 4S | 5S 5S 5S | KH KH KC KD"'])
    assert pan.nets() == {"A": 74, "B": -17, "C": -17, "D": -17, "E": -17, "F": -2, "G": -2, "H": -2}
    assert pan.json("board")["hand"]["winner"] == "A"


def test_example_6_foul_after_discard(pan):
    record(pan, "A,B,C,D,E", ["deal", "meld b 3C 3H 3D", "foul b --after-discard",
                              "meld a JS QS KS", "meld a 2H 3H 4H 5H", "out a 6D 6H 6C 6S"])
    assert pan.nets() == {"A": 20, "B": -5, "C": -5, "D": -5, "E": -5}
    players = {p["name"]: p for p in pan.json("board")["hand"]["players"]}
    assert players["B"]["status"] == "dead" and players["B"]["melds"] == []


def test_example_7_everyone_but_the_dealer_drops(pan):
    record(pan, "A,B,C,D,E,F", ["deal", "drop a b c d e"])
    assert pan.nets() == {"A": -2, "B": -2, "C": -2, "D": -2, "E": -2, "F": 10}
    pan("deal")
    hand = pan.json("board")["hand"]
    assert (hand["dealer"], hand["eldest"]) == ("E", "F")


def test_example_7_model_w(pan):
    record(pan, "A,B,C,D,E,F", ["deal", "drop a b c d e"], "--preset cardroom-ca")
    assert pan.nets() == {"A": -1, "B": -1, "C": -1, "D": -1, "E": -1, "F": 5}
