"""Benchmark of a long history: `pan standings`, `pan report`, `pan player`, `pan sessions` and
`pan db check` as whole processes, beside `pan --version` (the start-up floor) in the same run;
with --history, `pan history` beside its own floor at 1,000 and 10,000 hands.

    .venv/bin/python bench/bench_history.py [--hands 10000] [--players 15] [--sessions 1] [--runs 3] [--db FILE]
    .venv/bin/python bench/bench_history.py --history [--players 15] [--runs 3]

Builds a synthetic Panguingue history (default: one session of 10,000 hands at a 15-seat table):
every event goes through the real game core, so the payments are the ones pancli would store,
and is inserted with Store.append inside a few large transactions. About one hand in 40 has a
slip that is undone and one in 50 is void. Then it times each command (median of --runs) and
prints the database size. Targets: standings under 0.3 s, report and player under 0.5 s (issue
20), the file under 100 MB. Run it with the python of a plain install (`pip install .`): an
editable one adds to every start-up. Prints figures; asserts nothing.

--history: for a night of 1,000 and one of 10,000 hands, `pan history` piped (its time, CPU and
peak RSS, the median of --runs) beside its floor in the same run: a Python process that reads the
session's events and payments with sqlite3 and writes the same text to stdout. Goals (issue 39):
within 3x the floor in time, and memory flat in the night's length.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pancli.core.rows import LoggedEvent  # noqa: E402
from pancli.games import game  # noqa: E402
from pancli.games.panguingue.rules import preset  # noqa: E402
from pancli.storage.store import Store  # noqa: E402

RANKS = "A234567JQK"
SUITS = "SHDC"
TARGETS = {"standings": 0.3, "report": 0.5, "player P01": 0.5}


def meld_of(rng: random.Random, rank: str, size: int) -> list[str]:
    """A legal meld of one rank: one suit (a condition) or at least three different suits."""
    if size == 3 and rng.random() < 0.5:
        suit = rng.choice(SUITS)
        return [rank + suit] * 3
    suits = rng.sample(SUITS, 4)[:max(3, min(size, 4))]
    cards = [rank + s for s in suits]
    while len(cards) < size:
        cards.append(rank + rng.choice(suits))
    return cards[:size]


def hand_events(rng: random.Random, state) -> list[dict]:
    """The events of one plausible hand after its deal: drops, a few melds, the winner going out."""
    order = list(state.hand.order)
    ranks = rng.sample(RANKS, len(RANKS))
    winner = rng.choice(order)
    others = [p for p in order if p != winner]
    rng.shuffle(others)
    drops = others[:rng.randint(6, min(10, len(others) - 2))] if len(order) > 4 else others[:1]
    active = [p for p in others if p not in drops]
    events = [{"kind": "drop", "player": p} for p in sorted(drops, key=order.index)]
    if rng.random() < 0.02:
        return events + [{"kind": "void"}]
    plays = []
    for p in active[:rng.randint(0, 2)]:
        plays.append({"kind": "meld", "player": p, "cards": meld_of(rng, ranks.pop(), 3)})
    first = meld_of(rng, ranks.pop(), 3)
    plays.append({"kind": "meld", "player": winner, "cards": first})
    if len(set(first)) == 1 and rng.random() < 0.5:  # a one-suit set grows by a card
        plays.append({"kind": "add", "player": winner, "cards": [first[0]]})
        plays.append({"kind": "meld", "player": winner, "cards": meld_of(rng, ranks.pop(), 4)})
        plays.append({"kind": "out", "player": winner, "cards": meld_of(rng, ranks.pop(), 3)})
    else:
        plays.append({"kind": "meld", "player": winner, "cards": meld_of(rng, ranks.pop(), 4)})
        plays.append({"kind": "out", "player": winner, "cards": meld_of(rng, ranks.pop(), 4)})
    return events + plays


def build(path: Path, hands: int, players: int, sessions: int, seed: int) -> dict:
    rng = random.Random(seed)
    g = game("panguingue")
    rules = preset("hoyle")
    names = [f"P{i:02d}" for i in range(1, players + 1)]
    store = Store(path)
    counts = {"events": 0, "undos": 0}
    per_session = hands // sessions
    for s in range(sessions):
        with store.lock():
            sid = store.create_session(f"night-{s + 1:03d}", g.name, names, None, g.rules_to_dict(rules), 0.25)
            store.set_setting("current_session", str(sid))
        state = g.new_state(rules, names, None)
        seq = 0
        pending: list[tuple] = []

        def flush():
            with store.lock():
                at = store.log.last_seq(sid)
                for kind, payload, hand, payments, tallies, undo in pending:
                    at += 1
                    store.log.append(sid, LoggedEvent(at, kind, payload, hand, payments=tuple(payments),
                                                      tallies=tuple(tallies)))
                    if undo:
                        at += 1
                        store.log.append(sid, LoggedEvent(at, "undo", undo, hand, undo_of=at - 1))
            pending.clear()

        for _ in range(per_session):
            events = [{"kind": "deal", "dealer": None}] + hand_events(rng, _dealt(g, state))
            for i, ev in enumerate(events):
                slip = None
                if i == 1 and rng.random() < 0.025:
                    # a drop recorded for the wrong player, undone at once
                    wrong = {"kind": "drop", "player": state.hand.order[-1]}
                    step = g.apply(state, wrong)
                    seq += 1
                    slip = {"kind": "undo", "undid": "drop", "seq": seq}
                    pending.append(("drop", wrong, g.hand_number(step.state), step.payments, step.tallies, slip))
                    seq += 1
                    counts["undos"] += 1
                step = g.apply(state, ev)
                payload = g.enrich(state, ev, step)
                state = step.state
                seq += 1
                pending.append((ev["kind"], payload, g.hand_number(state), step.payments, step.tallies, None))
            if len(pending) > 20_000:
                flush()
        flush()
        counts["events"] += seq
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return counts


def _dealt(g, state):
    """The state after the next deal, to plan the hand's events (the deal itself is replayed in order)."""
    return g.apply(state, {"kind": "deal", "dealer": None}).state


def timed(cmd: list[str], env: dict, runs: int) -> tuple[float, int]:
    times, rc = [], 0
    for _ in range(runs):
        t = time.perf_counter()
        rc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE).returncode
        times.append(time.perf_counter() - t)
    return statistics.median(times), rc


# The floor of `pan history`: the rows read with sqlite3, and the text written to stdout.
FLOOR = textwrap.dedent("""
    import sqlite3, sys
    db, text = sys.argv[1], sys.argv[2]
    conn = sqlite3.connect(db)
    sid = conn.execute("SELECT max(id) FROM sessions").fetchone()[0]
    for sql in ("SELECT * FROM events WHERE session_id = ? ORDER BY seq",
                "SELECT * FROM payments WHERE session_id = ? ORDER BY event_id, id"):
        rows = conn.execute(sql, [sid])
        while rows.fetchmany(2000):
            pass
    out = sys.stdout
    with open(text, encoding="utf-8") as f:
        for line in f:
            out.write(line)
""")


def measured(cmd: list[str], env: dict) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one whole process, its output thrown away. The peak is GNU
    time's where it is installed: a child's own maxrss starts at this process's, which built the
    night."""
    timing = Path("/usr/bin/time")
    report = Path(tempfile.mktemp(prefix="bench_history"))
    run = [str(timing), "-f", "%M", "-o", str(report), *cmd] if timing.exists() else cmd
    t = time.perf_counter()
    proc = subprocess.Popen(run, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit(f"{' '.join(cmd)}: exit code {proc.returncode}")
    peak = usage.ru_maxrss / 1024
    if report.exists():
        peak = int(report.read_text().split()[-1]) / 1024
        report.unlink()
    return wall, usage.ru_utime + usage.ru_stime, peak


def history_bench(players: int, runs: int, seed: int) -> None:
    pan = str(Path(sys.executable).with_name("pan"))
    print(f"{'':28} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'x floor':>8}")
    for hands in (1_000, 10_000):
        with tempfile.TemporaryDirectory() as tmp:
            path, text = Path(tmp) / "bench.db", Path(tmp) / "history.txt"
            counts = build(path, hands, players, 1, seed)
            env = dict(os.environ, PANCLI_DB=str(path), COLUMNS="200")
            with text.open("w", encoding="utf-8") as out:
                subprocess.run([pan, "history", "--no-pager"], env=env, stdout=out, check=True)
            lines = sum(1 for _ in text.open(encoding="utf-8"))
            floor = [measured([sys.executable, "-c", FLOOR, str(path), str(text)], env) for _ in range(runs)]
            ours = [measured([pan, "history", "--no-pager"], env) for _ in range(runs)]
            f = [statistics.median(m[i] for m in floor) for i in range(3)]
            o = [statistics.median(m[i] for m in ours) for i in range(3)]
            print(f"{hands:,} hands: {counts['events']:,} events, {lines:,} lines")
            print(f"{'  floor (sqlite3 + write)':28} {f[0]:7.2f} {f[1]:7.2f} {f[2]:8.0f}")
            verdict = "ok" if o[0] <= 3 * f[0] else "MISSED"
            print(f"{'  pan history':28} {o[0]:7.2f} {o[1]:7.2f} {o[2]:8.0f} {o[0] / f[0]:7.2f}x"
                  f"  (goal 3x: {verdict})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=15)
    ap.add_argument("--sessions", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", help="Database file to build (default: a temporary one, removed after).")
    ap.add_argument("--history", action="store_true", help="pan history beside its floor at 1,000 and 10,000 hands")
    args = ap.parse_args()
    if args.history:
        history_bench(args.players, args.runs, args.seed)
        return

    tmp = None
    if args.db:
        path = Path(args.db)
        if path.exists():
            sys.exit(f"{path} exists; give a new file")
    else:
        tmp = tempfile.TemporaryDirectory()
        path = Path(tmp.name) / "bench.db"
    t = time.perf_counter()
    counts = build(path, args.hands, args.players, args.sessions, args.seed)
    built = time.perf_counter() - t
    size = path.stat().st_size + sum(Path(str(path) + s).stat().st_size for s in ("-wal",)
                                     if Path(str(path) + s).exists())
    print(f"Built {args.hands} hands, {args.players} players, {args.sessions} session(s): "
          f"{counts['events']} events ({counts['undos']} undone slips) in {built:.1f} s")
    print(f"Database size: {size / 1e6:.1f} MB (target under 100 MB)")

    pan = str(Path(sys.executable).with_name("pan"))
    env = dict(os.environ, PANCLI_DB=str(path))
    for name, cmd in (("--version", [pan, "--version"]), ("standings", [pan, "standings"]),
                      ("report", [pan, "report"]), ("player P01", [pan, "player", "P01"]),
                      ("sessions", [pan, "sessions"]), ("db check", [pan, "db", "check"])):
        seconds, rc = timed(cmd, env, args.runs if name != "db check" else 1)
        target = TARGETS.get(name)
        verdict = "" if target is None else (" ok" if seconds < target else " MISSED")
        print(f"pan {name:<12} {seconds:6.2f} s" + (f" (target {target} s){verdict}" if target else "")
              + ("" if rc == 0 else f"  exit code {rc}"))
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    main()
