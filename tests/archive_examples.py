"""Archives to test the archive's readers and checks with: the worked examples of spec §10.4,
recorded as a dealer would type them; the events of one of those nights as its archive holds
them; the odd values every check of an archive's field must think about; and a cashier's night of
buy-ins, each undone and recorded again."""

import tomllib

from pancli.app import archive
from pancli.games import game

from helpers import pan_in_process as pan

# The worked examples of spec §10.4, recorded as a dealer would type them, some with a slip undone.
EXAMPLES = {
    "ex1": (["session new ex1 --players A,B,C,D,E,F", "deal", "drop f", "meld a 5S 5S 5S", "add a 5S",
             "meld a KH KD KS KC", "out a 4H 4D 4C"],
            {"A": 54, "B": -13, "C": -13, "D": -13, "E": -13, "F": -2}),
    "ex2": (["session new ex2 --players A,B,C,D,E", "deal", "meld a 7H 7H 7H", "meld c 5H 5H 5H", "undo",
             "add a 7H", "add a 7H", "meld b KH KD KC", "meld b 4H 4D 4C 4S", "out b 6H 6D 6C 6S"],
            {"A": 15, "B": 0, "C": -5, "D": -5, "E": -5}),
    "ex3": (["session new ex3 --players A,B,C,D", "deal", "meld a 3D 4D 5D", "add a 2D", "add a 6D", "add a AD",
             'split a 1 "AD 2D 3D" "4D 5D 6D"', "meld a QC QC QC", "add a QC", "add a QC"],
            {"A": 27, "B": -9, "C": -9, "D": -9}),
    "ex4": (["session new ex4 --players A,B,C,D,E", "deal", "drop e", "meld a KS KS KH", "add a KS",
             "borrow a --from 1 KH --with KD KC", "meld b JH QH KH", "meld b 4H 4D 4C 4S", "out b 6H 6D 6C 6S"],
            {"A": 3, "B": 9, "C": -5, "D": -5, "E": -2}),
    "ex5": (["session new ex5 --players A,B,C,D,E,F,G,H --dealer H", "deal", "drop f g h",
             'spread a "AS 2S 3S 4S | 5S 5S 5S | KH KH KC KD"'],
            {"A": 74, "B": -17, "C": -17, "D": -17, "E": -17, "F": -2, "G": -2, "H": -2}),
    "ex6": (["session new ex6 --players A,B,C,D,E", "deal", "meld b 3C 3H 3D", "foul b --after-discard",
             "meld a JS QS KS", "meld c 7C 7C 7C", "undo", "meld a 4H 4D 4C 4S", "out a 6H 6D 6C 6S"],
            {"A": 20, "B": -5, "C": -5, "D": -5, "E": -5}),
    "ex7": (["session new ex7 --players A,B,C,D,E,F", "deal", "drop b c d e f", "deal"],
            {"A": 10, "B": -2, "C": -2, "D": -2, "E": -2, "F": -2}),
}


def record(db, name):
    for line in EXAMPLES[name][0]:
        pan(db, line)


def odd_values() -> list:
    """Values that every check must think about: of each wrong type, and texts, numbers and
    lists at their bounds and just past them."""
    from pancli.app.archive_check import MAX_NUMBER, MAX_REASON, MAX_STAMP, MAX_TEXT, MAX_WORD
    from pancli.core.names import MAX_PLAYER_NAME

    texts = ["x" * n for n in sorted({MAX_WORD, MAX_STAMP, MAX_PLAYER_NAME, MAX_REASON, MAX_TEXT})]
    return [None, True, False, 0, -1, 1, MAX_NUMBER, MAX_NUMBER + 1, -MAX_NUMBER - 1, 1.5, "", "A"] \
        + texts + [t + "x" for t in texts] + [[], ["a"], ["a"] * 100, ["a"] * 101, [1], [None], {}, {"a": 1},
                                              {"a": [1.5]}, {1: 2}, [[[[[[["deep"]]]]]]], [[[[["deep"]]]]]]


def night_events() -> list:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "p.db"
        record(db, "ex6")  # a deal, a meld with payments, a foul, an undo, a payload field left null
        return tomllib.loads(pan(db, "export --format toml -o -").output)["events"]


PLAYERS = ["Ana", "Ben", "Cruz", "Dee"]


def cashier_archive(n: int, game_name: str) -> dict:
    """n buy-ins, each undone and recorded again: 3n events. Before, this took minutes at n = 2000;
    run it by hand with a larger n to see the time grow only as n does."""
    g = game(game_name)
    events: list[dict] = []

    def add(kind, payload, undo_of=None):
        seq = len(events) + 1
        events.append({"seq": seq, "hand": None, "kind": kind, "created_at": "2026-01-01T20:00:00+00:00",
                       "undo_of": undo_of, "payload": payload, "payments": []})
        return seq

    for i in range(n):
        buy = {"kind": "buyin", "player": PLAYERS[i % 4], "chips": 1 + i % 9}
        seq = add("buyin", buy)
        add("undo", {"kind": "undo", "undid": "buyin", "seq": seq}, undo_of=seq)
        add("buyin", dict(buy))
    return {"format": archive.FORMAT, "version": archive.VERSION,
            "session": {"name": "cashier", "game": game_name, "created_at": "2026-01-01T20:00:00+00:00",
                        "seats": PLAYERS, "dealer": None, "chip_value": None, "closed_at": None},
            "rules": g.rules_to_dict(g.schema.defaults), "events": events}
