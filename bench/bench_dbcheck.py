"""Benchmark of `pan db check` on a long night, beside its floor measured in the same run.

    .venv/bin/python bench/bench_dbcheck.py [--hands 10000] [--runs 3] [--db FILE] [--new-hands 20]

Builds bench_history.py's synthetic night (one session, 15 seats, default 10,000 hands: about
132,000 events; or reuses --db if it exists) and measures, each as a whole process, CPU (user +
system, its worker processes included), wall time and peak memory (the largest resident set of
any of its processes):

* the floor: reading every row of the session's events, payments and tallies (sqlite3,
  fetchmany), and SQLite's `PRAGMA integrity_check` alone, each in a fresh Python;
* `pan db check --full`: every event replayed (the first check of a database);
* `pan db check` again: nothing new, every row read against the digest of the first check;
* `pan db check` after --new-hands more hands were recorded.

Goals (issue 20): the first check within 2.5x the floor in CPU, a repeat check within 1.3x,
peak memory under 200 MB at 30,000 hands. Run it against a plain (non-editable) install for
start-up figures that are not flattered or penalised: `pip install .` into a fresh venv.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_history import build, hand_events, _dealt  # noqa: E402

READ_ROWS = """
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for table in ("events", "payments", "tallies"):
    cur = c.execute(f"SELECT * FROM {table} ORDER BY id")
    while cur.fetchmany(5000):
        pass
"""
INTEGRITY = """
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
"""


def measured(cmd: list[str]) -> tuple[float, float, float, int]:
    """(CPU s, wall s, peak RSS MB, exit code) of one whole process and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    timing = shutil.which("time", path="/usr/bin")
    out = Path(tempfile.mktemp(prefix="bench_dbcheck"))
    t = time.perf_counter()
    if timing:  # GNU time: the peak of this run alone (getrusage keeps the peak of all runs)
        rc = subprocess.run([timing, "-f", "%M", "-o", str(out), *cmd], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
    else:
        rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if timing and out.exists():
        peak = int(out.read_text().split()[-1]) / 1024
        out.unlink()
    else:
        peak = after.ru_maxrss / 1024
    return cpu, wall, peak, rc


def median_of(cmd: list[str], runs: int) -> tuple[float, float, float, int]:
    results = [measured(cmd) for _ in range(runs)]
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
            max(r[2] for r in results), max(r[3] for r in results))


def record_more(path: Path, hands: int, seed: int) -> int:
    """More hands at the end of the night, through the game core and Store.append."""
    import random

    from pancli.core.rows import LoggedEvent
    from pancli.games import game
    from pancli.storage.store import Store

    rng = random.Random(seed)
    store = Store(path)
    session = store.sessions()[0]
    g = game(session.game)
    rules = g.rules_from_dict(session.rules)
    last = store.log.last_effective(session.id, g.checkpoint_kind)
    state = g.restore(rules, last.payload)
    for ev in store.log.effective_events(session.id, last.id):
        state = g.apply(state, ev.payload).state
    added = 0
    with store.lock():
        seq = store.log.last_seq(session.id)
        for _ in range(hands):
            for ev in [{"kind": "deal", "dealer": None}] + hand_events(rng, _dealt(g, state)):
                step = g.apply(state, ev)
                payload = g.enrich(state, ev, step)
                state = step.state
                seq += 1
                store.log.append(session.id, LoggedEvent(seq, ev["kind"], payload, g.hand_number(state),
                                                         payments=tuple(step.payments), tallies=tuple(step.tallies)))
                added += 1
    store.close()
    return added


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--new-hands", type=int, default=20)
    ap.add_argument("--db", help="Database to build, or to reuse if it exists (it is copied, never changed).")
    args = ap.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench_dbcheck"))
    db = folder / "night.db"
    if args.db and Path(args.db).exists():
        shutil.copy(args.db, db)
        print(f"Copied {args.db}")
    else:
        t = time.perf_counter()
        counts = build(Path(args.db) if args.db else db, args.hands, 15, 1, args.seed)
        if args.db:
            shutil.copy(args.db, db)
        print(f"Built {args.hands:,} hands: {counts['events']:,} events in {time.perf_counter() - t:.0f} s")
    python = sys.executable
    pan = shutil.which("pan", path=str(Path(python).parent))
    pan_cmd = [pan] if pan else [python, "-m", "pancli"]
    # which pancli the timed `pan` runs (this script imports the checkout's, whatever is installed)
    imported = subprocess.run([python, "-c", "import pancli; print(pancli.__file__)"], cwd=tempfile.gettempdir(),
                              capture_output=True, text=True).stdout.strip()
    editable = "editable" if Path(imported).parent.resolve() == (ROOT / "pancli").resolve() else "installed"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, pan: {' '.join(pan_cmd)} ({editable} pancli)")
    print(f"database: {db.stat().st_size / 1e6:.1f} MB")

    read = median_of([python, "-c", READ_ROWS, str(db)], args.runs)
    integrity = median_of([python, "-c", INTEGRITY, str(db)], args.runs)
    floor = read[0] + integrity[0]
    print(f"{'':34} {'CPU s':>7} {'wall s':>7} {'peak MB':>8} {'x floor':>8}")
    print(f"{'floor: reading the rows':34} {read[0]:7.2f} {read[1]:7.2f} {read[2]:8.0f}")
    print(f"{'floor: integrity_check':34} {integrity[0]:7.2f} {integrity[1]:7.2f} {integrity[2]:8.0f}")
    print(f"{'floor: both':34} {floor:7.2f}")
    check = [*pan_cmd, "--db", str(db), "db", "check"]
    rows = [("pan db check --full (first check)", [*check, "--full"], 2.5),
            ("pan db check (repeat, nothing new)", check, 1.3)]
    for name, cmd, goal in rows:
        cpu, wall, peak, rc = median_of(cmd, args.runs)
        verdict = "ok" if cpu <= goal * floor else "MISSED"
        print(f"{name:34} {cpu:7.2f} {wall:7.2f} {peak:8.0f} {cpu / floor:7.2f}x  (goal {goal}x: {verdict})"
              + ("" if rc == 0 else f"  exit code {rc}"))
    if args.new_hands:
        added = record_more(db, args.new_hands, args.seed + 1)
        cpu, wall, peak, rc = measured(check)
        print(f"{f'pan db check ({added} new events)':34} {cpu:7.2f} {wall:7.2f} {peak:8.0f} {cpu / floor:7.2f}x"
              + ("" if rc == 0 else f"  exit code {rc}"))
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
