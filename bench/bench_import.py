"""Benchmark of `pan export` and `pan import` of long nights, and of `pan import` and `pan db
check` on sessions of many buy-ins and undos. Prints figures; asserts nothing.

    .venv/bin/python bench/bench_import.py [--hands 1000,10000] [--sizes 500,1000,2000] [--game panguingue]

1. --hands: for each N, a night of N hands of bench_scale.py's (15 players, 30 events a hand),
   exported as TOML and JSON and each imported into a fresh database, every one a whole `pan`
   process: its CPU time (user + system) and the most memory it held. Beside each, its floor
   measured in the same run: for an export, reading the session's rows a segment at a time; for
   an import, parsing each event of the archive alone (rtoml, tomllib, json), nothing checked,
   replayed or stored. Memory should not grow with N.
2. --sizes: for each N, an archive of one session: N buy-ins, each followed by an undo and the
   buy-in again (3N events, as a cashier who keeps mistyping would record them). It is imported
   into a fresh database, then the database is checked, each timed in-process. Both replay every
   event once, so the time per event should stay flat as N grows; before each undo replayed the
   session from its start, doubling N took four times as long.

Run it against a plain install (`pip install .`, not -e): an editable one adds to each start-up.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_scale  # noqa: E402

from pancli.app import archive, archive_import, archive_read, archive_write, toml_reader  # noqa: E402
from pancli.app.check import database as dbcare  # noqa: E402
from pancli.app.recorder import Recorder  # noqa: E402
from pancli.app.rulesfile import resolve as resolve_rules  # noqa: E402
from pancli.games import game  # noqa: E402
from pancli.games.panguingue.rules import DEFAULTS, to_dict  # noqa: E402
from pancli.storage.store import Store  # noqa: E402

PLAYERS = ["Ana", "Ben", "Cruz", "Dee"]


def buyin_archive(n: int, game_name: str = "panguingue") -> dict:
    """An archive of n buy-ins, each undone and recorded again."""
    g = game(game_name)
    rules = g.rules_to_dict(resolve_rules(None, None, game_name))
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


PEAK = """import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime, r.ru_maxrss // 1024, code)"""


def pan_process(db: Path, *args: str) -> tuple[float, int]:
    """A whole `pan` process: its CPU seconds and the most memory it held (MB)."""
    pan = Path(sys.executable).with_name("pan")
    cmd = [str(pan)] if pan.exists() else [sys.executable, "-m", "pancli"]
    out = subprocess.run([sys.executable, "-c", PEAK, *cmd, "--db", str(db), *args], capture_output=True,
                         text=True, check=True).stdout.split()
    if out[2] != "0":
        raise SystemExit(f"pan {' '.join(args)} failed")
    return float(out[0]), int(out[1])


def cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def read_rows(db: Path) -> None:
    """The export's floor: every row of the session read, a segment at a time."""
    store = Store(db)
    session = store.session("scale")
    with store.snapshot():
        for _ in archive_write.stored_events(store, session):
            pass
    store.close()


def parse_events(path: Path, loads=None) -> None:
    """The import's floor: each event of the archive parsed alone, nothing checked or stored."""
    was = toml_reader.loads
    if loads is not None:
        toml_reader.loads = loads
    try:
        for _ in archive_read.open_archive(path).events:
            pass
    finally:
        toml_reader.loads = was


def night(folder: Path, hands: int) -> Path:
    db = folder / f"night-{hands}.db"
    store = Store(db)
    with store.lock():
        sid = store.create_session("scale", "panguingue", bench_scale.PLAYERS, None, to_dict(DEFAULTS), None)
        store.set_setting("current_session", str(sid))
    bench_scale.bulk(store, Recorder(store, store.session("scale")), range(hands), [0])
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return db


def nights(sizes: list[int]) -> None:
    print(f"TOML reader: {toml_reader.NAME}; figures are whole processes, floors in this one (CPU s)")
    print(f"{'hands':>7} {'events':>8} {'what':12} {'MB file':>8} {'CPU s':>7} {'peak MB':>8} "
          f"{'floor s':>8} {'ratio':>6}  floor")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for hands in sizes:
            db = night(folder, hands)
            events = hands * len(bench_scale.hand_events(0))
            rows = cpu(lambda: read_rows(db))  # noqa: B023 called at once
            for fmt in ("toml", "json"):
                path = folder / f"night-{hands}.{fmt}"
                spent, peak = pan_process(db, "export", "--format", fmt, "-o", str(path))
                mb = path.stat().st_size / 2**20
                print(f"{hands:>7} {events:>8} {'export ' + fmt:12} {mb:>8.0f} {spent:>7.1f} {peak:>8} "
                      f"{rows:>8.1f} {spent / rows:>6.1f}  reading the rows")
            for fmt in ("toml", "json"):
                path = folder / f"night-{hands}.{fmt}"
                spent, peak = pan_process(folder / f"import-{hands}-{fmt}.db", "import", str(path))
                floors = ([("rtoml", None), ("tomllib", tomllib.loads)] if fmt == "toml" else [("json", json.loads)])
                for i, (name, loads) in enumerate(floors):
                    floor = cpu(lambda: parse_events(path, loads))  # noqa: B023 called at once
                    head = (f"{hands:>7} {events:>8} {'import ' + fmt:12} {path.stat().st_size / 2**20:>8.0f} "
                            f"{spent:>7.1f} {peak:>8}") if i == 0 else " " * 54
                    print(f"{head} {floor:>8.1f} {spent / floor:>6.1f}  parsing each event ({name})")
                (folder / f"import-{hands}-{fmt}.db").unlink()
            for p in folder.glob(f"night-{hands}*"):
                p.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", default="1000", help="Nights to export and import, in hands, comma-separated (0: none).")
    ap.add_argument("--sizes", default="500,1000,2000", help="Numbers of buy-ins, comma-separated (0: none).")
    ap.add_argument("--game", default="panguingue")
    args = ap.parse_args()
    hands = [int(x) for x in args.hands.split(",") if int(x)]
    if hands:
        nights(hands)
    sizes = [int(x) for x in args.sizes.split(",") if int(x)]
    if not sizes:
        return
    print()
    print(f"{'N buy-ins':>10} {'events':>7} {'import s':>9} {'db check s':>11} {'us/event':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            data = archive.parse(archive.to_json(buyin_archive(n, args.game)))
            store = Store(Path(tmp) / f"import-{n}.db")
            t = time.perf_counter()
            result = archive_import.import_document(store, data)
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
