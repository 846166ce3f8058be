"""Every event kind of every game says itself in words through the game contract
(``Game.event_words``), never as its stored fields: a kind declared in a game's payloads (or the
bank's) without words fails here."""

from __future__ import annotations

import json
import re

import pytest

from pancli.core.payloads import BANK_PAYLOADS, LIST, TABLE, TEXT, TEXTS, WHOLE, YES_NO
from pancli.core.words import unworded
from pancli.games import GAMES

# A value of each field type, as a recorded payload would hold it.
SAMPLE = {TEXT: "Ana", WHOLE: 3, YES_NO: False, TEXTS: ["AS", "2S", "3S"], LIST: [["AS", "2S", "3S"], ["4S", "5S", "6S"]],
          TABLE: {"Ben": ["KS", "QH"]}}
INTERNALS = re.compile(r"\w=|\b(after_discard|lay_off|clock_flag|seat_add|seat_remove|buyin|cashout|undid)\b")


def sample(kind: str, fields: dict) -> dict:
    return {"kind": kind, **{name: SAMPLE[f.type] for name, f in fields.items()}}


KINDS = [(g.name, kind, fields) for g in GAMES.values() for kind, fields in (BANK_PAYLOADS | g.payloads).kinds.items()]


@pytest.mark.parametrize("game, kind, fields", KINDS, ids=[f"{g}-{k}" for g, k, _ in KINDS])
def test_every_kind_of_every_game_has_words(game, kind, fields):
    g = GAMES[game]
    event = sample(kind, fields)
    undone = {"kind": "buyin", "player": "Ana", "chips": 20} if kind == "undo" else None
    words = g.event_words(event, undone)
    assert words and words != unworded(event), f"{game} has no words for {kind!r}"
    assert not INTERNALS.search(words), words
    assert "[" not in words and "{" not in words, words
    nulls = {k: None for k, f in fields.items() if f.nullable}
    assert not INTERNALS.search(g.event_words({**event, **nulls})), "a null field shows as internals"


@pytest.mark.parametrize("game, event, undone, words", [
    ("panguingue", {"kind": "deal", "dealer": "Chuy", "seats": ["Ana", "Chuy"], "hand": 6}, None, "Chuy deals hand 6"),
    ("panguingue", {"kind": "undo", "undid": "buyin", "seq": 57}, {"kind": "buyin", "player": "Ana", "chips": 20},
     "Undid #57: Ana buys 20 chips"),
    ("panguingue", {"kind": "undo", "undid": "buyin", "seq": 57}, None, "Undid #57"),
    ("panguingue", {"kind": "buyin", "player": "Ana", "chips": 1}, None, "Ana buys 1 chip"),
    ("panguingue", {"kind": "foul", "player": "Tito", "after_discard": False, "meld": 3}, None, "Tito's meld 3 is fouled"),
    ("panguingue", {"kind": "split", "player": "Tito", "meld": 1, "into": ["AS 2S 3S", "4S 5S 6S"]}, None,
     "Tito splits meld 1 into A♠ 2♠ 3♠ and 4♠ 5♠ 6♠"),
    ("panguingue", {"kind": "add", "player": "Ben", "cards": ["5S"], "to": 1}, None, "Ben adds 5♠ to meld 1"),
    ("contract", {"kind": "lay_off", "player": "Rosa", "meld": 3, "cards": ["KD"]}, None, "Rosa lays off K♦ on meld 3"),
    ("contract", {"kind": "hand", "player": "Nena", "points": 30}, None, "Nena holds 30 points"),
    ("contract", {"kind": "deal", "out": "Ben", "hands": {"Ana": ["AH", "AD"], "Cruz": 12}}, None,
     "Ben goes out; Ana holds A♥ A♦, Cruz holds 12 points"),
    ("polish", {"kind": "deal", "loser": "Piotr"}, None, "Piotr loses the deal"),
    ("polish", {"kind": "clock_flag", "player": "Piotr"}, None, "Piotr's time runs out"),
])
def test_events_read_as_the_table_says_them(game, event, undone, words):
    assert GAMES[game].event_words(event, undone) == words


def test_history_undo_and_json_text_show_words(pan):
    pan("session new w --players Ana,Ben,Chuy --dealer Chuy")
    pan("buyin ana 20")
    pan("deal")
    pan("meld ben 5S 5S 5S")
    assert pan("undo").stdout.startswith("Undid #3: Ben melds 5♠ 5♠ 5♠\n")
    history = pan("history").stdout
    assert "Chuy deals hand 1" in history and "Ana buys 20 chips" in history
    assert "Undid #3: Ben melds 5♠ 5♠ 5♠" in history
    assert "=" not in history
    texts = [e["text"] for e in pan.json("history")["events"]]
    assert texts == ["Ana buys 20 chips", "Chuy deals hand 1", "Ben melds 5♠ 5♠ 5♠", "Undid #3: Ben melds 5♠ 5♠ 5♠"]


# -- small words -------------------------------------------------------------------------------

def test_one_plural_helper_and_one_minus_sign():
    from pancli.core import settle
    from pancli.core.money import cents_text
    from pancli.core.words import plural, signed

    assert [plural(n, "chip") for n in (0, 1, 2)] == ["0 chips", "1 chip", "2 chips"]
    assert signed(-3) == settle.signed(-3) == "-3" and cents_text(-325) == "-$3.25"


def test_one_chip_is_a_chip_and_every_face_writes_the_same_minus(pan):
    pan("session new s --players Ana,Ben --dealer Ben --chip-value 0.25")
    pan("deal")
    pan("meld ana AC 2C 3C")
    out = pan("settle").stdout
    assert "(1 chip)" in out and "Ben is -1 chip, Ana is +1 chip" in out and "chips)" not in out
    assert "\u2212" not in out + pan("standings").stdout + pan("report").stdout
    assert "\u2212" not in json.dumps(pan.json("settle"), ensure_ascii=False)


def test_a_way_out_and_a_first_spread_read_as_sentences(pan):
    out = pan("check --out KS KS KS 5H 5H 5H 5H AC 2C 3C 4C").stdout
    assert out.startswith("legal way out: 11 cards in 3 melds") and "out: out:" not in out
    pan("session new s --players Ana,Ben,Cruz --dealer Cruz")
    pan("deal")
    spread = pan('spread ana "AS 2S 3S 4S | 5S 5S 5S | KH KH KC KD"').stdout
    assert "rearranging" not in spread and "meld 1 is A♠ 2♠ 3♠ 4♠" in spread


def test_a_void_hand_shows_no_plus_zero_for_a_drop(tmp_path):
    from pancli.cli.shell.table_shell import TableShell

    sh = TableShell(db=str(tmp_path / "pan.db"))
    for line in ("session new v --players Ana,Tito,Cruz,Dee --dealer Dee", "deal", "drop tito", "m ana 5s5s5s"):
        assert sh.execute(line).ok
    r = sh.execute("void")
    board = "\n".join(r.board)
    assert "Hand 1 is void." in board and "Tito dropped" in board
    assert "+0" not in board.split("night:")[0]
