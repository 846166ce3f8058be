"""`pan db status`, `pan db check`, `pan db backup`."""

import json
import sqlite3
import threading

import pytest

from pancli.app.recorder import Recorder
from pancli.storage.migrations import _SCHEMA_V1, KNOWN_MIGRATIONS
from pancli.storage.store import Store

from helpers import pan_in_process as pan, run_sql  # noqa: E402


def make(db):
    for line in ["session new ex1 --players A,B,C,D,E,F", "deal", "drop f", "meld a 5S 5S 5S", "add a 5S",
                 "meld b 3C 3H 3D", "undo", "meld a KH KD KS KC", "out a 4H 4D 4C", "buyin a 10"]:
        pan(db, line)


def test_status(tmp_path):
    db = tmp_path / "p.db"
    make(db)
    data = json.loads(pan(db, "db status --json").output)
    assert data["sessions"] == 1 and data["events"] == 9 and data["undos"] == 1
    assert data["schema_version"] == len(KNOWN_MIGRATIONS) and data["size"] > 0 and data["file"].endswith("p.db")
    assert f"Schema version: {len(KNOWN_MIGRATIONS)}" in pan(db, "db status").output


def test_check_passes_then_finds_a_changed_payment(tmp_path):
    db = tmp_path / "p.db"
    make(db)
    ok = pan(db, "db check")
    assert "OK" in ok.output and "1 session," in ok.output
    run_sql(db, "UPDATE payments SET chips = 5 WHERE reason LIKE '%goes out%' AND payer = 'C'")
    bad = pan(db, "db check", ok=False)
    assert bad.exit_code == 1
    assert "event #8 (out)" in bad.output and "C pays A 5" in bad.output and "Traceback" not in bad.output
    assert len(bad.output.strip().splitlines()) == 1


def test_check_finds_a_payment_of_a_voided_event_changed(tmp_path):
    db = tmp_path / "p.db"
    make(db)
    run_sql(db, "UPDATE events SET payload = json_set(payload, '$.cards', json('[\"3C\",\"3H\",\"3S\"]')) WHERE seq = 5")
    bad = pan(db, "db check", ok=False)
    assert bad.exit_code == 1 and "#5" in bad.output


@pytest.mark.parametrize("sql", [
    "UPDATE totals SET amount = amount + 1 WHERE player = 'A' AND stat = '(net)'",
    "UPDATE totals SET amount = amount + 1 WHERE player = 'A' AND stat = 'hands'",
    "UPDATE hand_totals SET net = net + 1 WHERE player = 'A' AND hand = 1",
])
def test_check_finds_running_totals_that_differ_from_the_log(tmp_path, sql):
    db = tmp_path / "p.db"
    make(db)
    run_sql(db, sql)
    bad = pan(db, "db check", ok=False)
    assert bad.exit_code == 1 and "the running totals differ from the sums of the log" in bad.output


def test_check_finds_stray_tallies_and_payments_of_another_hand(tmp_path):
    db = tmp_path / "p.db"
    make(db)
    pan(db, "session new ex2 --players X,Y")
    pan(db, "deal")
    run_sql(db, "INSERT INTO tallies (event_id, session_id, hand, player, stat, amount) "
                "SELECT id, 1, 1, 'A', 'hands', 1 FROM events WHERE session_id = 2")
    bad = pan(db, "db check", ok=False)
    assert bad.exit_code == 1 and "1 tallies belong to no event" in bad.output
    db2 = tmp_path / "q.db"
    make(db2)
    run_sql(db2, "UPDATE payments SET hand = 7 WHERE id = (SELECT min(id) FROM payments)")
    bad = pan(db2, "db check", ok=False)
    assert bad.exit_code == 1 and "1 payments and 0 tallies" in bad.output and "another hand" in bad.output


def test_check_reports_integrity_failure(tmp_path):
    db = tmp_path / "p.db"
    make(db)
    pan(db, "db check")
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'payments_session_moves'").fetchone()[0]
    con.close()
    data = bytearray(db.read_bytes())
    # scribble over the cells of an index page
    start = (root - 1) * page_size + 16
    data[start:start + page_size - 32] = b"\x13" * (page_size - 32)
    db.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        p = db.with_name(db.name + suffix)
        if p.exists():
            p.unlink()
    bad = pan(db, "db check", ok=False)
    assert bad.exit_code in (1, 2) and "Traceback" not in bad.output


def test_backup_copy_is_complete(tmp_path):
    db, copy = tmp_path / "p.db", tmp_path / "copy.db"
    make(db)
    pan(db, ["db", "backup", str(copy)])
    assert json.loads(pan(copy, "standings --json --session ex1").output) == \
        json.loads(pan(db, "standings --json --session ex1").output)
    again = pan(db, ["db", "backup", str(copy)], ok=False)
    assert again.exit_code == 2 and "--force" in again.output
    pan(db, ["db", "backup", str(copy), "--force"])
    assert pan(db, ["db", "backup", str(db)], ok=False).exit_code == 2


def test_backup_while_another_connection_writes(tmp_path):
    db = tmp_path / "p.db"
    pan(db, "session new busy --players A,B,C")
    stop = threading.Event()
    written = []

    def writer():
        store = Store(db)
        rec = Recorder(store, store.session("busy"))
        while not stop.is_set():
            rec.record({"kind": "deal", "dealer": None})
            rec.record({"kind": "drop", "player": rec.state().hand.order[0]})
            rec.record({"kind": "drop", "player": rec.state().hand.order[1]})
            written.append(1)
        store.close()

    t = threading.Thread(target=writer)
    t.start()
    try:
        copies = []
        for i in range(5):
            copy = tmp_path / f"copy{i}.db"
            pan(db, ["db", "backup", str(copy)])
            copies.append(copy)
    finally:
        stop.set()
        t.join()
    assert written
    for copy in copies:
        # every copy is a committed state: each event with all of its payments, replaying cleanly
        check = pan(copy, "db check")
        assert "OK" in check.output


def test_a_first_schema_database_is_upgraded_by_a_reading_command(tmp_path):
    db = tmp_path / "p.db"
    make(db)
    con = sqlite3.connect(db)
    for index in ("events_session_id", "events_session_undo", "payments_session_moves", "tallies_session_counts"):
        con.execute(f"DROP INDEX {index}")
    con.execute("CREATE INDEX payments_session ON payments(session_id, event_id)")  # the first schema's
    con.execute("CREATE INDEX payments_event ON payments(event_id)")
    con.execute("CREATE INDEX tallies_session ON tallies(session_id, event_id)")
    con.execute("DROP TABLE totals")
    con.execute("DROP TABLE hand_totals")
    con.executescript(_SCHEMA_V1[_SCHEMA_V1.index("CREATE VIEW"):])  # the first schema's views, which m003 reads
    con.execute("DELETE FROM _sqlite_migrations WHERE name IN ('m002_covering_indexes', 'm003_totals', "
                "'m004_hand_totals', 'm010_append_indexes', 'm014_drop_voided_views')")
    con.commit()
    con.close()
    st = json.loads(pan(db, "standings --json --session ex1").output)
    assert {r["name"]: r["net"] for r in st["players"]}["A"] == 54
    assert json.loads(pan(db, "db status --json").output)["schema_version"] == len(KNOWN_MIGRATIONS)
    assert "OK" in pan(db, "db check").output  # the running totals were built from the log
    indexes = {r[0] for r in sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"payments_session_moves", "tallies_session_counts"} <= indexes
    assert not {"payments_session", "payments_event", "payments_session_cover", "tallies_session",
                "tallies_session_cover"} & indexes
    assert not sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type = 'view'").fetchall()
