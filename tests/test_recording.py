"""Recording a table through the CLI: the command grammar, refusals that change nothing, undo."""


import pytest

from helpers import db_dump


@pytest.fixture
def table(pan):
    pan("session new fri --players Ana,Ben,Cruz,Dee --dealer Dee")
    pan("deal")
    return pan


def test_deal_names_dealer_eldest_and_order(table):
    hand = table.json("board")["hand"]
    assert (hand["dealer"], hand["eldest"]) == ("Dee", "Ana")
    assert [p["name"] for p in hand["players"]] == ["Ana", "Ben", "Cruz", "Dee"]


@pytest.mark.parametrize("line, code, words", [
    ("meld zed 5S 5S 5S", 2, "no player 'zed'"),
    ("meld ana 9S 9S 9S", 2, "no 8, 9 or 10"),
    ("meld ana 5S 5S 5H", 1, "all one suit or three different suits"),
    ("meld ana 5S 5S", 1, "at least 3 cards"),
    ("add ana 5S", 1, "no melds to add to"),
    ("out ana", 1, "going out needs 11"),
    ("split ana 7 --into '5S 5S 5S' '5S 5S 5S'", 2, "no meld 7"),
    ("session use nothing", 2, "no session named"),
    ("deal", 1, "still being played"),
    ("seat add Eve", 1, "between hands"),
])
def test_refusals_say_why_and_change_nothing(table, line, code, words):
    before = db_dump(table.db)
    result = table(line, code=code)
    assert words in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert db_dump(table.db) == before


def test_drop_after_first_meld_is_refused(table):
    table("meld ana 5S 5S 5S")
    before = db_dump(table.db)
    assert "play has begun" in table("drop ben", code=1).output
    assert db_dump(table.db) == before


def test_dropped_player_cannot_meld(table):
    table("drop cruz")
    assert "dropped" in table("meld cruz 4H 4H 4H", code=1).output


def test_prefix_names_and_ambiguity(pan):
    pan("session new s --players Ana,Andy,Ben")
    pan("deal")
    assert "could be Ana, Andy" in pan("drop an", code=2).output
    pan("drop be")
    status = {p["name"]: p["status"] for p in pan.json("board")["hand"]["players"]}
    assert status == {"Andy": "in", "Ben": "dropped", "Ana": "in"}


def test_the_shoe_limits_copies_on_the_table(pan):
    pan("session new s --players Ana,Ben,Cruz --preset cardroom-ca")  # one spade set removed: 7 of each spade
    pan("deal")
    pan("meld ana 3S 3S 3S 3S")
    pan("meld ben 3S 3S 3S")
    assert "shoe" in pan("meld cruz 3S 3S 3S", code=1).output


def test_add_needs_to_when_several_melds_fit(table):
    table("meld ana 5S 5H 5D")
    table("meld ana 5C 5H 5D")
    assert "--to" in table("add ana 5S", code=2).output
    table("add ana 5S --to 2")
    assert table.nets()["Ana"] == 3 * 3


def test_cannot_add_to_another_players_meld(table):
    table("meld ana 5S 5S 5S")
    assert "Ana's, not Ben's" in table("add ben 5S --to 1", code=1).output


def test_undo_voids_last_event_and_is_repeatable(table):
    table("meld ana 5S 5S 5S")
    table("add ana 5S")
    assert table.nets()["Ana"] == 18
    out = table("undo").output
    assert "Undid" in out and "voided" in out
    assert table.nets()["Ana"] == 12
    table("undo")
    table("undo")  # the deal
    assert table.json("board")["hand"] is None
    events = table.json("history")["events"]
    assert [e["voided"] for e in events if e["kind"] != "undo"] == [True, True, True]
    assert sum(e["kind"] == "undo" for e in events) == 3


def test_history_lists_payments_with_reasons(table):
    table("meld ben 5S 5S 5S")
    text = table("history").output
    assert "Ana, Cruz, Dee pay Ben 4 each: 5♠ 5♠ 5♠, one-suit valle set in spades" in text


def test_seats_change_between_hands_and_rotation_follows_the_winner(table):
    table("meld ben 5S 5S 5S")
    table("meld ben 6H 6H 6H")
    table("meld ben 2C 3C 4C")
    table("out ben 5C 6C")  # addition to the rope makes 11
    table("seat add Eve --after Cruz")
    table("deal")
    hand = table.json("board")["hand"]
    assert (hand["dealer"], hand["eldest"]) == ("Ana", "Ben")
    assert [p["name"] for p in hand["players"]] == ["Ben", "Cruz", "Eve", "Dee", "Ana"]


def test_read_only_commands_never_create_the_database(tmp_path, pan):
    missing = tmp_path / "none.db"
    result = pan.runner.invoke(__import__("pancli.cli", fromlist=["app"]).app,
                               ["--db", str(missing), "standings"])
    assert result.exit_code == 2 and not missing.exists()


def test_session_list_show_use_close(pan):
    pan("session new one --players A,B")
    pan("session new two --players C,D,E --chip-value 0.25")
    names = [s["name"] for s in pan.json("session list")]
    assert names == ["one", "two"]
    pan("session use one")
    assert pan.json("session show")["name"] == "one"
    pan("session close")
    assert "closed" in pan("deal", code=1).output


def test_standings_json_shape_and_money(pan):
    pan("session new s --players Ana,Ben --chip-value 0.5")
    pan("deal")
    pan("meld ana 5S 5S 5S")
    data = pan.json("standings")
    assert data["session"] == "s"
    ana = data["players"][0]
    assert (ana["name"], ana["net"], ana["money"]) == ("Ana", 4, "2.00")


def test_spread_rearranges_and_pays_only_what_is_new(table):
    table("meld ana 3D 4D 5D")
    table("add ana 2D")
    table("add ana 6D")
    # the rope split in two, and AD from the hand makes a new A-2-3 (1 from each payer)
    table('spread ana "AD 2D 3D | 4D 5D 6D"')
    assert table.nets()["Ana"] == 3
    melds = table.json("board")["hand"]["players"][0]["melds"]
    assert sorted(m["cards"] for m in melds) == [["4D", "5D", "6D"], ["AD", "2D", "3D"]]


def test_spread_cannot_take_cards_back_or_merge_melds(table):
    table("meld ana 5S 5S 5S")
    table("meld ana 6H 6H 6H")
    before = db_dump(table.db)
    assert "lacks" in table('spread ana "5S 5S 5S"', code=1).output
    assert "is not a" in table('spread ana "5S 5S 5S 6H 6H 6H"', code=1).output
    assert db_dump(table.db) == before


def test_foul_before_the_discard_returns_that_melds_chips(table):
    table("meld ben 5S 5S 5S")
    table("meld ben 3H 3D 3C")
    table("foul ben --meld 2")
    assert table.nets()["Ben"] == 12
    assert [m["number"] for m in table.json("board")["hand"]["players"][1]["melds"]] == [1]


def test_a_fouled_melds_condition_is_not_counted_as_laid(pan):
    pan("session new foul --players Ana,Tito,Cruz --dealer Cruz")
    pan("deal")
    pan("meld tito 5S 5S 5S")
    pan("meld tito AH 2H 3H")
    pan("meld tito KC KC KC")
    pan("foul tito --meld 2")
    tito = next(p for p in pan.json("standings")["players"] if p["name"] == "Tito")
    assert tito["conditions"] == 2
    career = pan.json("player tito")
    assert career["nights"][0]["conditions"] == 2
    assert sum(career["conditions_laid"].values()) == 2
    assert "rope A-2-3 in hearts" not in career["conditions_laid"]
    pan("db check")
    pan("undo")  # the foul taken back: the condition counts again
    assert next(p for p in pan.json("standings")["players"] if p["name"] == "Tito")["conditions"] == 3


def test_a_dead_hand_returns_its_chips_and_keeps_paying(table):
    table("meld ben 5S 5S 5S")
    table("dead ben")
    assert table.nets()["Ben"] == 0
    table("meld ana JS QS KS")
    assert table.nets()["Ben"] == -2
    assert "dead" in table("meld ben 4H 4H 4H", code=1).output


def test_void_returns_the_tops_and_the_same_dealer_deals_again(table):
    table("drop cruz")
    table("void")
    assert table.nets()["Cruz"] == 0
    table("deal")
    assert table.json("board")["hand"]["dealer"] == "Dee"


def test_spread_cannot_merge_two_melds(table):
    table("meld ana 5S 5S 5S")
    table("meld ana 5H 5D 5C")
    assert "joins cards of two melds" in table('spread ana "5S 5S 5S 5H 5D 5C"', code=1).output


@pytest.mark.parametrize("knob", ["split_allowed = false", "split_requires_prior_additions = true", ""])
def test_a_borrow_without_hand_cards_is_a_split_and_is_refused(pan, tmp_path, knob):
    """Spec §5.6: a borrow joins cards from the hand; taking a meld apart with none is a split, so
    it cannot slip past the split knobs under the other name (at any table, it says to use split)."""
    (tmp_path / "house.toml").write_text(knob + "\n")
    pan(f"session new night --players Ana,Ben,Cruz --dealer Cruz --rules {tmp_path}/house.toml")
    pan("deal")
    pan("meld ana AD 2D 3D 4D 5D 6D")
    before = pan.nets()
    result = pan("borrow ana --from 1 AD 2D 3D", ok=False)
    assert result.exit_code != 0
    assert "cards from Ana's hand" in result.output and "pan split" in result.output
    assert pan.nets() == before
    assert [e["kind"] for e in pan.json("history")["events"]][-1] == "meld"


def test_a_contract_session_is_not_closed_while_a_deal_is_in_play(pan):
    pan("session new c --game contract --players Ana,Ben,Cruz --dealer Ana")
    pan("contract lay ana 7S 7H 7D / QC QD QS")
    out = pan("session close", code=2).output
    assert "deal 1 is still in play" in out and "pan undo" in out and "pan void" not in out
    pan("contract out ana --discard QH")
    pan("contract left ben KC KD 4S")
    pan("contract left cruz --points 12")
    pan("session close")
