"""A very long session: 15 players, 10,000 hands, 300,000 events. Run by hand; asserts nothing.

    .venv/bin/python bench/bench_scale.py [--hands 10000] [--slice 1000] [--full] [--solver]

Every hand is the same 30 legal events with the roles rotating (1 deal, 5 drops, 4 stays, four
players melding and adding 4 times each, a winner melding 3 times and going out).

Recording goes through Recorder.record, the path of every `pan` command: one IMMEDIATE
transaction and one fsync (synchronous=FULL) per event. That runs at a few hundred events a
second here, so by default the first --slice hands and the last --slice hands are recorded that
way, and the hands between are built through the same game core (games.apply and enrich, exactly
what Recorder.record does) and stored with Store.append, 100 hands per transaction. --full
records every event through Recorder.record.

Reports: events/s over the first and the last 1,000 events recorded through the recorder (and
per 10,000 while it runs), whole-process `pan standings`, `pan standings --json`, `pan board
--json` and `pan history --hand N --json` at the end (median of 7), and the database size.

--solver adds the arrangement solver's worst cases (many duplicates, long ropes, 11 to 20
cards): p50, p99 and max of solve() per case.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pancli.games.panguingue.rules import DEFAULTS, to_dict  # noqa: E402
from pancli.app.recorder import Recorder  # noqa: E402
from pancli.core.rows import LoggedEvent  # noqa: E402
from pancli.storage.store import Store  # noqa: E402

PLAYERS = [f"P{i:02d}" for i in range(1, 16)]
# What the four other melders lay in each hand: meld, add, add, meld (8 cards each).
MELDERS = [
    [["6H"] * 3, ["6H"], ["6H"], ["JC", "JD", "JS"]],
    [["7D"] * 3, ["7D"], ["7D"], ["QC", "QD", "QS"]],
    [["AC", "2C", "3C"], ["4C"], ["5C"], ["JH", "QH", "KH"]],
    [["3S"] * 3, ["3S"], ["3S"], ["2D", "2H", "2S"]],
]


def hand_events(h: int) -> list[dict]:
    w = h % len(PLAYERS)

    def who(k: int) -> str:
        return PLAYERS[(w + k) % len(PLAYERS)]

    events = [{"kind": "deal"}]
    events += [{"kind": "drop", "player": who(5 + i)} for i in range(5)]
    events += [{"kind": "stay", "player": who(1 + i)} for i in range(4)]
    for i, melds in enumerate(MELDERS):
        for j, cards in enumerate(melds):
            events.append({"kind": "meld" if j in (0, 3) else "add", "player": who(1 + i), "cards": cards})
    events += [{"kind": "meld", "player": who(0), "cards": ["5S"] * 3},
               {"kind": "add", "player": who(0), "cards": ["5S"]},
               {"kind": "meld", "player": who(0), "cards": ["KH", "KD", "KS", "KC"]},
               {"kind": "out", "player": who(0), "cards": ["4H", "4D", "4C"]}]
    return events


def record(rec: Recorder, hands: range, rates: list[tuple[int, float]], counter: list[int]) -> None:
    """Through Recorder.record, noting the time of every event."""
    for h in hands:
        for event in hand_events(h):
            rec.record(event)
            counter[0] += 1
            rates.append((counter[0], time.perf_counter()))


def bulk(store: Store, rec: Recorder, hands: range, counter: list[int]) -> None:
    """The same core as Recorder.record, many events per transaction."""
    g, sid = rec.game, rec.session.id
    state = rec.state()
    for start in range(hands.start, hands.stop, 100):
        with store.lock():
            seq = store.log.last_seq(sid)
            for h in range(start, min(start + 100, hands.stop)):
                for event in hand_events(h):
                    step = g.apply(state, event)
                    payload = g.enrich(state, event, step)
                    seq += 1
                    store.log.append(sid, LoggedEvent(seq, event["kind"], payload, g.hand_number(step.state),
                                                      payments=tuple(step.payments), tallies=tuple(step.tallies)))
                    state = step.state
                    counter[0] += 1
        print(f"  bulk: {counter[0]:,} events", end="\r", flush=True)
    print()


def rate(marks: list[tuple[int, float]]) -> float:
    (n0, t0), (n1, t1) = marks[0], marks[-1]
    return (n1 - n0) / (t1 - t0)


def whole_process(cmd: list[str], runs: int = 7) -> tuple[float, float]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(cmd, capture_output=True, env=env, check=True)  # warm
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, env=env, check=True)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), min(ts)


def solver_worst_cases(runs: int, seed: int) -> None:
    from pancli.games.panguingue.cards import RANKS, SUITS
    from pancli.games.panguingue.solver import solve

    rng = random.Random(seed)

    def dup_heavy(n):  # few distinct cards, many copies: the set search branches most
        ranks = rng.sample(RANKS, 2)
        return [rng.choice(ranks) + rng.choice(SUITS) for _ in range(n)]

    def long_ropes(n):  # runs of one suit, doubled and tripled
        suit = rng.choice(SUITS)
        return [RANKS[i % 10] + suit for i in range(n)]

    def dense(n):  # neighbouring ranks, all suits: ropes and sets overlap everywhere
        start = rng.randrange(0, 6)
        return [RANKS[start + rng.randrange(5)] + rng.choice(SUITS) for _ in range(n)]

    def one_card(n):
        return ["5S"] * min(n, 8) + ["5H"] * max(0, n - 8)

    cases = [(name, fn, n) for n in (11, 14, 17, 20)
             for name, fn in (("duplicates", dup_heavy), ("long ropes", long_ropes), ("dense", dense),
                              ("one card x n", one_card))]
    print(f"\nsolver worst cases ({runs} bags each; times in ms):")
    print(f"  {'case':16} {'cards':>5} {'p50':>8} {'p99':>8} {'max':>8}")
    for name, fn, n in cases:
        times = []
        for _ in range(runs):
            bag = fn(n)
            rng.shuffle(bag)
            t0 = time.perf_counter()
            solve(bag, DEFAULTS)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        print(f"  {name:16} {n:5} {times[len(times) // 2]:8.3f} {times[int(len(times) * 0.99) - 1]:8.3f} "
              f"{times[-1]:8.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--slice", type=int, default=1_000, help="hands recorded through the recorder at each end")
    ap.add_argument("--full", action="store_true", help="record every hand through Recorder.record")
    ap.add_argument("--solver", action="store_true", help="also time the solver's worst cases")
    ap.add_argument("--solver-runs", type=int, default=300)
    ap.add_argument("--db", help="keep the database here (default: a temporary folder)")
    args = ap.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench_scale"))
    db = Path(args.db) if args.db else folder / "scale.db"
    store = Store(db)
    with store.lock():
        sid = store.create_session("scale", "panguingue", PLAYERS, None, to_dict(DEFAULTS), None)
        store.set_setting("current_session", str(sid))
    rec = Recorder(store, store.session("scale"))
    head = args.hands if args.full else min(args.slice, args.hands)
    tail = 0 if args.full else min(args.slice, args.hands - head)
    counter = [0]
    marks: list[tuple[int, float]] = [(0, time.perf_counter())]
    print(f"{len(PLAYERS)} players, {args.hands:,} hands x {len(hand_events(0))} events; "
          + ("all through Recorder.record" if args.full else
             f"hands 1-{head:,} and the last {tail:,} through Recorder.record, the rest bulk-built"))
    t0 = time.perf_counter()
    for start in range(0, head, 100):
        record(rec, range(start, min(start + 100, head)), marks, counter)
        print(f"  recorder: {counter[0]:,} events, {rate(marks[-3000:]):.0f} events/s lately", end="\r", flush=True)
    print()
    head_marks = list(marks)
    if not args.full:
        bulk(store, rec, range(head, args.hands - tail), counter)
        tail_marks = [(counter[0], time.perf_counter())]
        record(rec, range(args.hands - tail, args.hands), tail_marks, counter)
    else:
        tail_marks = head_marks
    total = time.perf_counter() - t0
    print(f"events: {counter[0]:,} in {total:.0f} s")
    print(f"recording, first 1,000 events: {rate(head_marks[:1001]):.0f} events/s")
    print(f"recording, last 1,000 events:  {rate(tail_marks[-1001:]):.0f} events/s")
    for i in range(10_000, len(head_marks), 10_000):
        print(f"  events {i - 10_000:,}-{i:,}: {rate(head_marks[i - 10_000:i + 1]):.0f} events/s")
    balances = store.log.balances(sid)
    assert sum(balances.values()) == 0
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    size = db.stat().st_size
    print(f"database: {size / 2 ** 20:.1f} MiB ({size / counter[0]:.0f} bytes per event)")
    pan = Path(sys.executable).with_name("pan")
    pan_cmd = [str(pan)] if pan.exists() else [sys.executable, "-m", "pancli"]
    for line in (["standings"], ["standings", "--json"], ["board", "--json"],
                 ["history", "--hand", str(args.hands), "--json"]):
        med, low = whole_process([*pan_cmd, "--db", str(db), *line])
        print(f"pan {' '.join(line):28} {med * 1000:6.0f} ms median, {low * 1000:6.0f} ms best (whole process)")
    if args.solver:
        solver_worst_cases(args.solver_runs, seed=1)
    if not args.db:
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        folder.rmdir()


if __name__ == "__main__":
    main()
