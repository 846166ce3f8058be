"""SIGKILL a recording process at random moments: the database stays whole and keeps every success."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections import Counter

import pytest

from pancli.games import game
from pancli.store import Store

WRITER = textwrap.dedent("""
    import sys
    from pancli.recorder import Recorder
    from pancli.store import Store
    from pancli.errors import PanError

    store = Store(sys.argv[1])
    rec = Recorder(store, store.session("night"))
    lines = [("deal", {}), ("meld", {"player": "Ana", "cards": ["5S", "5S", "5S"]}),
             ("add", {"player": "Ana", "cards": ["5S"]}), ("meld", {"player": "Ben", "cards": ["AH", "2H", "3H"]}),
             ("meld", {"player": "Ana", "cards": ["KH", "KD", "KS"]}), ("out", {"player": "Ana", "cards": ["4H", "4D", "4C"]})]
    while True:
        for kind, payload in lines:
            try:
                rec.record({"kind": kind, **payload})
            except PanError:
                continue
            print(store.last_event_id(rec.session["id"]), flush=True)
""")


def check_consistent(path, reported: list[int]) -> None:
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    store = Store(path)
    sid = store.session("night")["id"]
    ids = {r[0] for r in store.conn.execute("SELECT id FROM events")}
    assert set(reported) <= ids, "a command that reported success is missing"
    assert sum(store.balances(sid).values()) == 0
    g = game("panguingue")
    session = store.session("night")
    state = g.new_state(g.rules_from_dict(session["rules"]), session["players"], None)
    recomputed = Counter()
    for ev in store.effective_events(sid):
        step = g.apply(state, ev["payload"])
        state = step.state
        stored = Counter((p["payer"], p["payee"], p["chips"], p["reason"]) for p in store.payments_of(ev["id"]))
        assert stored == Counter((p.payer, p.payee, p.chips, p.reason) for p in step.payments), \
            f"event {ev['id']} is half recorded"
        recomputed.update(stored)
    store.close()


def run_kills(tmp_path, runs: int, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp_path / "crash.db"
    store = Store(path)
    with store.lock():
        store.create_session("night", "panguingue", ["Ana", "Ben", "Cruz"], None,
                             game("panguingue").rules_to_dict(game("panguingue").resolve_rules(None, None)), None)
    store.close()
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    for _ in range(runs):
        proc = subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0.15, 0.6))
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        reported = [int(x) for x in out.split()]
        check_consistent(path, reported)


def test_sigkill_mid_write_keeps_database_consistent(tmp_path):
    run_kills(tmp_path, runs=12, seed=1)


@pytest.mark.slow
def test_sigkill_many_times(tmp_path):
    run_kills(tmp_path, runs=150, seed=2)
