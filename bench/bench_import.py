"""Benchmark of `pan import` and `pan db check` on sessions of many buy-ins and undos.

    .venv/bin/python bench/bench_import.py [--sizes 500,1000,2000] [--game panguingue]

For each N, an archive of one session: N buy-ins, each followed by an undo and the buy-in again
(3N events, as a cashier who keeps mistyping would record them). It is imported into a fresh
database, then the database is checked, each timed in-process. Both replay every event once, so
the time per event should stay flat as N grows; before each undo replayed the session from its
start, doubling N took four times as long. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pancli.app import archive, dbcare  # noqa: E402
from pancli.games import game  # noqa: E402
from pancli.storage.store import Store  # noqa: E402

PLAYERS = ["Ana", "Ben", "Cruz", "Dee"]


def buyin_archive(n: int, game_name: str = "panguingue") -> dict:
    """An archive of n buy-ins, each undone and recorded again."""
    g = game(game_name)
    rules = g.rules_to_dict(g.resolve_rules(None, None))
    events: list[dict] = []

    def add(kind: str, payload: dict, undo_of: int | None = None) -> int:
        seq = len(events) + 1
        events.append({"seq": seq, "hand": None, "kind": kind, "created_at": f"2026-01-01T20:{seq % 60:02d}:00+00:00",
                       "undo_of": undo_of, "payload": payload, "payments": []})
        return seq

    for i in range(n):
        buy = {"kind": "buyin", "player": PLAYERS[i % len(PLAYERS)], "chips": 10 + i % 7}
        seq = add("buyin", buy)
        add("undo", {"kind": "undo", "undid": "buyin", "seq": seq}, undo_of=seq)
        add("buyin", dict(buy))
    return {"format": archive.FORMAT, "version": archive.VERSION,
            "session": {"name": f"cashier-{n}", "game": game_name, "created_at": "2026-01-01T20:00:00+00:00",
                        "seats": PLAYERS, "dealer": None, "chip_value": None, "closed_at": None},
            "rules": rules, "events": events}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="500,1000,2000", help="Numbers of buy-ins, comma-separated.")
    ap.add_argument("--game", default="panguingue")
    args = ap.parse_args()
    print(f"{'N buy-ins':>10} {'events':>7} {'import s':>9} {'db check s':>11} {'us/event':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            data = archive.parse(archive.to_json(buyin_archive(n, args.game)))
            store = Store(Path(tmp) / f"import-{n}.db")
            t = time.perf_counter()
            result = archive.import_archive(store, data)
            imported = time.perf_counter() - t
            t = time.perf_counter()
            problem, _ = dbcare.check(store)
            checked = time.perf_counter() - t
            store.close()
            events = len(data["events"])
            flag = "" if result["status"] == "imported" and problem is None else f"  ({result['status']}, {problem})"
            print(f"{n:>10} {events:>7} {imported:>9.2f} {checked:>11.2f} {(imported + checked) / events * 1e6:>9.0f}{flag}")


if __name__ == "__main__":
    main()
