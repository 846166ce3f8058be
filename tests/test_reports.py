"""`pan report`, `pan player`, `pan sessions`, and every new command's help."""

import json

import pytest

from pancli.app.reports import sample, sparkline

from helpers import pan_in_process as pan  # noqa: E402


@pytest.fixture
def night(tmp_path):
    """Two sessions: example 1 played twice by Ana's table, the second time with a second hand."""
    db = tmp_path / "p.db"
    for name, extra in (("fri", []), ("sat", ["deal", "drop ana ben cruz dee eve"])):
        for line in [f"session new {name} --players Ana,Ben,Cruz,Dee,Eve,Fay --chip-value 0.25", "deal", "drop fay",
                     "meld ana 5S 5S 5S", "add ana 5S", "meld ana KH KD KS KC", "out ana 4H 4D 4C"] + extra:
            pan(db, line)
    return db


def test_report_json(night):
    data = json.loads(pan(night, "report fri --json").output)
    rows = {r["name"]: r for r in data["players"]}
    ana = rows["Ana"]
    assert (ana["net"], ana["money"], ana["hands"], ana["won"], ana["dropped"]) == (54, "13.50", 1, 1, 0)
    assert ana["conditions"] == 1 and ana["condition_chips"] == 24
    assert ana["largest_hand"] == {"hand": 1, "chips": 54}
    assert rows["Fay"]["dropped"] == 1 and rows["Fay"]["net"] == -2
    assert data["largest_hand"] == {"player": "Ana", "hand": 1, "chips": 54}
    assert data["sum"] == 0 and data["hands"] == 1
    sat = json.loads(pan(night, "report sat --json").output)
    fay = {r["name"]: r for r in sat["players"]}["Fay"]
    assert fay["running"] == [-2, 8] and fay["largest_hand"] == {"hand": 2, "chips": 10}


def test_report_text_chart_and_svg(night, tmp_path):
    svg, html = tmp_path / "r.svg", tmp_path / "r.html"
    text = pan(night, ["report", "sat", "--svg", str(svg), "--html", str(html)]).output
    assert "Running total" in text and "Ana" in text and "+54" in text
    assert any(ch in text for ch in "▁▂▃▄▅▆▇█")
    assert svg.read_text(encoding="utf-8").startswith("<svg") and "Hand by hand" in html.read_text(encoding="utf-8")


def test_report_of_current_session_and_unknown(night):
    assert "sat" in pan(night, "report").output
    bad = pan(night, "report nosuch", ok=False)
    assert bad.exit_code == 2 and "no session named" in bad.output


def test_player_career(night):
    data = json.loads(pan(night, "player ana --json").output)
    assert data["player"] == "Ana" and data["sessions"] == 2 and data["hands"] == 3 and data["won"] == 2
    assert data["net"] == 54 + 54 - 2 and data["money"] == "26.50"
    assert data["win_rate"] == pytest.approx(2 / 3) or data["win_rate"] == round(2 / 3, 4)
    assert data["drop_rate"] == round(1 / 3, 4)
    assert data["best_night"]["session"] == "fri"
    assert data["favourite_condition"] == {"condition": "one-suit valle set in spades", "times": 2}
    assert [n["running"] for n in data["nights"]] == [54, 106]
    text = pan(night, "player an").output
    assert "Best night: fri" in text and "Favourite condition" in text
    assert pan(night, "player zed", ok=False).exit_code == 2


def test_a_name_beyond_a_to_z_is_one_player_in_any_case_in_the_career_and_the_record(tmp_path):
    """"Łukasz" at one table and "ŁUKASZ" at another: one name in the career's nights and chips,
    as in the record against his opponents (SQLite folds the case of A to Z only)."""
    db = tmp_path / "l.db"
    for name, lukasz in (("fri", "Łukasz"), ("sat", "ŁUKASZ"), ("sun", "łukasz")):
        for line in [f"session new {name} --players {lukasz},Ben,Cruz", "deal", f"meld {lukasz} 5S 5S 5S",
                     f"add {lukasz} 5S", f"meld {lukasz} KH KD KS KC", f"out {lukasz} 4H 4D 4C"]:
            pan(db, line)
    career = json.loads(pan(db, "player łukasz --json").output)
    assert career["sessions"] == 3 and [n["session"] for n in career["nights"]] == ["fri", "sat", "sun"]
    against = {r["name"]: r for r in career["opponents"]}
    assert against["Ben"]["nights"] == 3
    assert career["net"] == sum(n["net"] for n in career["nights"]) == sum(r["net"] for r in against.values())


def test_sessions_list(night):
    rows = json.loads(pan(night, "sessions --json").output)
    assert [(r["name"], r["hands"], r["biggest_winner"]["name"], r["current"]) for r in rows] == [
        ("fri", 1, "Ana", False), ("sat", 2, "Ana", True)]
    text = pan(night, "sessions").output
    assert "fri" in text and "Ana +54" in text


def test_sparkline_and_sample():
    assert sparkline([0, 7], 0, 7) == "▁█"
    assert len(sparkline(list(range(50)))) == 50
    assert sample(list(range(100)), 10) == [9, 19, 29, 39, 49, 59, 69, 79, 89, 99]
    assert sample([1, 2], 10) == [1, 2]


def test_missing_database_is_one_line(tmp_path):
    for cmd in (["report"], ["sessions"], ["settle"], ["db", "status"], ["player", "x"]):
        result = pan(tmp_path / "none.db", cmd, ok=False)
        assert result.exit_code == 2 and "Traceback" not in result.output and "no database" in result.output
