"""`pan rescore`: the recorded play paid again under other house rules (spec §10.4 variants 1a-1d)."""

import json

import pytest

from pancli.app.replay import nets, replay
from pancli.core.rows import LoggedEvent
from pancli.games import game
from pancli.games.panguingue.rules import from_dict

from helpers import pan_in_process as pan  # noqa: E402

EXAMPLE_1 = ["session new ex1 --players A,B,C,D,E,F", "deal", "drop f", "meld a 5S 5S 5S", "add a 5S",
             "meld a KH KD KS KC", "out a 4H 4D 4C"]




@pytest.fixture
def ex1(tmp_path):
    db = tmp_path / "p.db"
    for line in EXAMPLE_1:
        pan(db, line)
    return db


def rescored(db, *args):
    data = json.loads(pan(db, ["rescore", *args, "--json"]).output)
    return {r["name"]: r["rescored"] for r in data["players"]}, data


@pytest.mark.parametrize("variant, rules, expected", [
    ("1a", "ante = 1\ndrop_cost = 2\n", {"A": 59, "B": -14, "C": -14, "D": -14, "E": -14, "F": -3}),
    ("1b", "ante = 1\ndrop_cost = 0\n", {"A": 57, "B": -14, "C": -14, "D": -14, "E": -14, "F": -1}),
    ("1c", "going_out_base = 2\n", {"A": 58, "B": -14, "C": -14, "D": -14, "E": -14, "F": -2}),
    ("1d", "spade_multiplier = 1\n", {"A": 30, "B": -7, "C": -7, "D": -7, "E": -7, "F": -2}),
])
def test_example_1_variants(ex1, tmp_path, variant, rules, expected):
    path = tmp_path / f"{variant}.toml"
    path.write_text(rules, encoding="utf-8")
    got, data = rescored(ex1, "--rules", str(path))
    assert got == expected
    assert {r["name"]: r["recorded"] for r in data["players"]} == {
        "A": 54, "B": -13, "C": -13, "D": -13, "E": -13, "F": -2}
    assert data["sum"] == {"recorded": 0, "rescored": 0} and data["illegal"] == []
    # the stored session is untouched
    st = json.loads(pan(ex1, "standings --json").output)
    assert {r["name"]: r["net"] for r in st["players"]}["A"] == 54


def test_set_knobs_on_the_sessions_rules(ex1):
    got, data = rescored(ex1, "--set", "ante=1", "--set", "drop_cost=0")
    assert got["A"] == 57 and got["F"] == -1
    assert data["rules_changed"] == {"ante": [0, 1], "drop_cost": [2, 0]}


def test_preset_and_single_hand(ex1):
    pan(ex1, "deal")
    pan(ex1, "drop b c d e f")  # hand 2: everyone but the dealer drops
    got, data = rescored(ex1, "--preset", "cardroom-ca", "--hand", "1")
    # cardroom-ca: ante 1 = top, no drop fee, going out pays 2 (1b with base 2)
    assert got == {"A": 61, "B": -15, "C": -15, "D": -15, "E": -15, "F": -1}
    assert data["hand"] == 1
    text = pan(ex1, "rescore --preset cardroom-ca").output
    assert "going_out_base 1 → 2" in text and "unchanged" in text


def test_illegal_events_are_reported_not_dropped(tmp_path):
    db = tmp_path / "p.db"
    for line in ["session new ex3 --players A,B,C,D", "deal", "meld a 3D 4D 5D", "add a 2D", "add a 6D",
                 "add a AD", 'split a 1 "AD 2D 3D" "4D 5D 6D"', "meld a QC QC QC", "add a QC", "add a QC"]:
        pan(db, line)
    got, data = rescored(db, "--set", "split_allowed=false")
    assert [(e["seq"], e["kind"]) for e in data["illegal"]][0] == (6, "split")
    assert all(e["why"] for e in data["illegal"])
    # the replay went on after the refused split: the queens still paid
    assert got["A"] > 0 and sum(got.values()) + sum(p["rescored"] for p in data["pools"].values()) == 0
    text = pan(db, "rescore --set split_allowed=false").output
    assert "#6" in text and "not allowed under these rules" in text


def test_rescore_needs_rules_and_a_real_hand(ex1):
    assert pan(ex1, "rescore", ok=False).exit_code == 2
    bad = pan(ex1, "rescore --preset hoyle --hand 9", ok=False)
    assert bad.exit_code == 2 and "no hand 9" in bad.output
    assert "unknown preset" in pan(ex1, "rescore --preset nope", ok=False).output
    assert "unknown rule" in pan(ex1, "rescore --set antee=1", ok=False).output


def test_replay_undo_restores_the_state():
    g = game("panguingue")
    rules = from_dict({})
    events = [LoggedEvent(1, "deal", {"kind": "deal", "dealer": None}),
              LoggedEvent(2, "drop", {"kind": "drop", "player": "B"}),
              LoggedEvent(3, "undo", {"kind": "undo"}, undo_of=2),
              LoggedEvent(4, "deal", {"kind": "deal", "dealer": None}),    # refused: hand 1 still in play
              LoggedEvent(5, "undo", {"kind": "undo"}, undo_of=1),
              LoggedEvent(6, "deal", {"kind": "deal", "dealer": "B"}),
              LoggedEvent(7, "drop", {"kind": "drop", "player": "A"}),
              LoggedEvent(8, "drop", {"kind": "drop", "player": "C"})]
    out = replay(g, rules, ["A", "B", "C"], None, events)
    assert [r.seq for r in out if r.error] == [4]
    assert out[1].voided and out[0].voided and not out[5].voided
    assert out[5].payload["hand"] == 1  # the undone deal's number is dealt again
    assert nets(out) == {"A": -2, "B": 4, "C": -2, "(tops)": 0}
    with pytest.raises(Exception, match="#4"):
        replay(g, rules, ["A", "B", "C"], None, events, strict=True)
