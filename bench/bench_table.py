"""Benchmark for `pan table`: pipe about 1,000 recorded events through one shell process.

    .venv/bin/python bench/bench_table.py [--events 1000] [--runs 3] [--profile]

Writes a script of whole hands on a six-player table (deal, two drops, melds, additions,
going out: 12 events a hand), pipes it into `pan table --quiet` in a fresh process on a fresh
database, and reports wall time and events per second, start-up included. Every event is its
own committed transaction (WAL, synchronous=FULL), exactly as at the table. The target is
1,000 events in under 3 seconds. The disk floor (the same number of bare commits) is printed
beside it: on a shared disk fsync latency varies tenfold, and it bounds the figure. --profile runs the same lines in-process under cProfile
and prints the top functions.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAN = [sys.executable, "-m", "pancli"]

# One hand: the names are fixed, so any dealer and eldest will do (drops come before melds).
HAND = [
    "deal",
    "d eli fay",          # 2 events
    "m ana ah2h3h",
    "m ben kc kc kc",
    "a ana 4h",
    "m cruz 6d6d6d",
    "a ana 5h 6h",
    "m dee qs qh qd",
    "m ana 7c7c7c",
    "a ben kc",
    "o ana 7c 7c",        # Ana reaches 11 cards and goes out
]
EVENTS_PER_HAND = 12


def script(events: int) -> str:
    hands = -(-events // EVENTS_PER_HAND)
    lines = ["session new bench --players Ana,Ben,Cruz,Dee,Eli,Fay --preset hoyle"]
    for _ in range(hands):
        lines += HAND
    return "\n".join(lines) + "\n"


def run_once(text: str) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        env = {**os.environ, "PANCLI_DB": str(db)}
        start = time.perf_counter()
        proc = subprocess.run(PAN + ["table", "--quiet"], input=text, text=True, capture_output=True,
                              env=env, cwd=ROOT)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"pan table failed ({proc.returncode}):\n{proc.stderr}")
        with sqlite3.connect(db) as conn:
            events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    return wall, events


def disk_baseline(commits: int) -> float:
    """Seconds for bare one-row transactions committed as pancli commits them: the fsync floor."""
    with tempfile.TemporaryDirectory() as tmp:
        conn = sqlite3.connect(Path(tmp) / "floor.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE t (x)")
        start = time.perf_counter()
        for i in range(commits):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t VALUES (?)", [i])
            conn.execute("COMMIT")
        took = time.perf_counter() - start
        conn.close()
    return took


def profile(text: str) -> None:
    import cProfile
    import pstats

    sys.path.insert(0, str(ROOT))
    from pancli.cli.shell import TableShell

    with tempfile.TemporaryDirectory() as tmp:
        shell = TableShell(db=str(Path(tmp) / "bench.db"), board=False)
        prof = cProfile.Profile()
        prof.enable()
        shell.run_script(text.splitlines(), quiet=True, out=open(os.devnull, "w"))
        prof.disable()
        pstats.Stats(prof).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(int(os.environ.get("TOP", "30")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    text = script(args.events)
    if args.profile:
        profile(text)
        return
    start = time.perf_counter()
    subprocess.run(PAN + ["--help"], capture_output=True, cwd=ROOT)
    startup = time.perf_counter() - start
    floor = disk_baseline(args.events)
    results = [run_once(text) for _ in range(args.runs)]
    floor = (floor + disk_baseline(args.events)) / 2
    walls = [w for w, _ in results]
    events = results[0][1]
    best, median = min(walls), statistics.median(walls)
    print(f"lines: {len(text.splitlines())}, events recorded: {events}, runs: {args.runs}")
    print(f"`pan --help` start-up: {startup:.2f} s")
    print(f"disk floor (before and after, averaged): {args.events} bare committed transactions "
          f"(WAL, synchronous=FULL): {floor:.2f} s")
    print(f"pan table --quiet, whole process: median {median:.2f} s, best {best:.2f} s")
    print(f"events per second (median run, start-up included): {events / median:,.0f}")
    print(f"per event: {1000 * median / events:.2f} ms; target 1,000 events in < 3 s: "
          + ("met" if median * 1000 / events < 3.0 else "MISSED"))


if __name__ == "__main__":
    main()
