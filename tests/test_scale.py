"""A long session stays correct: 15 players, 450 hands, 13,500 events (slow; no timing asserted).

The hands are bench/bench_scale.py's: the first and last ones recorded through Recorder.record,
the middle built through the same core and stored with Store.append in big transactions. Then
the whole log replays to exactly the stored payments and tallies, the checkpointed board equals
the full replay, whole `pan` processes read the right standings, and an undo at the end of the
long log restores the standings exactly. bench_scale.py measures the speed of the same thing.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from pancli.app.recorder import Recorder
from pancli.games.panguingue.rules import DEFAULTS, to_dict
from pancli.storage.store import Store

from helpers import check_consistent, pan_process as run_pan

pytestmark = pytest.mark.slow

_spec = importlib.util.spec_from_file_location("bench_scale", Path(__file__).resolve().parent.parent / "bench" / "bench_scale.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

HANDS = 450


def test_long_session_stays_correct(tmp_path):
    db = tmp_path / "scale.db"
    store = Store(db)
    with store.lock():
        sid = store.create_session("scale", "panguingue", bench.PLAYERS, None, to_dict(DEFAULTS), None)
        store.set_setting("current_session", str(sid))
    rec = Recorder(store, store.session("scale"))
    counter, marks = [0], []
    bench.record(rec, range(0, 20), marks, counter)
    bench.bulk(store, rec, range(20, HANDS - 20), counter)
    bench.record(rec, range(HANDS - 20, HANDS), marks, counter)
    assert counter[0] == HANDS * 30
    store.close()

    assert check_consistent(db) == {"scale": HANDS * 30}

    standings = json.loads(run_pan(db, "standings --json").stdout)
    assert standings["sum"] == 0
    rows = {r["name"]: r for r in standings["players"]}
    assert sum(r["won"] for r in rows.values()) == HANDS
    assert all(r["hands"] == HANDS for r in rows.values())
    # Each player wins every 15th hand, melds in 4 of 15 and drops in 5 of 15.
    assert all(r["won"] == HANDS // 15 for r in rows.values())
    assert all(r["dropped"] == 5 * HANDS // 15 for r in rows.values())

    board = json.loads(run_pan(db, "board --json").stdout)
    assert board["hand"]["number"] == HANDS and board["hand"]["winner"] == bench.PLAYERS[(HANDS - 1) % 15]
    history = json.loads(run_pan(db, f"history --hand {HANDS} --json").stdout)
    assert len(history["events"]) == 30

    before = run_pan(db, "standings --json").stdout
    assert run_pan(db, "undo").returncode == 0  # the last going out
    assert json.loads(run_pan(db, "standings --json").stdout) != json.loads(before)
    assert run_pan(db, "out " + " ".join([bench.PLAYERS[(HANDS - 1) % 15], "4H", "4D", "4C"])).returncode == 0
    after = json.loads(run_pan(db, "standings --json").stdout)
    assert after == json.loads(before)
    check_consistent(db)
