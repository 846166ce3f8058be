"""`pan db check` reads a session's log in rows whose fields are named once, by the row classes of
pancli/core/rows.py: the SQL that reads and digests them is made from the fields, and the
replay finds each field by its name's position; the text a check mark's digest is taken of
stays what released pancli wrote it from."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from pancli.core.rows import EventRow, PaymentRow, TallyRow
from pancli.storage import mapping
from pancli.storage.store import Store

from helpers import CYCLE, PLAYERS, run_sql

MAIN = Path(__file__).parent / "fixtures" / "main_9347d07" / "pancli.db"
ROWS = {"events": EventRow, "payments": PaymentRow, "tallies": TallyRow}

# sha256 of the text of each session of MAIN read as one piece (every event), as pancli read it
# at commit db9e6d8, before its rows had names: the text a check mark's digest is taken of.
MAIN_PIECES = {
    "tonight": (103, "515a9a88db678b273834767f4592d8723e86bae5d0d2a0bcba3990fefb604601"),
    "tuesday": (16, "ea5627e460539469c95562fae0a4bf65265a4772eda2a6d74098c7da2dd39b53"),
    "warsaw": (6, "3e4eff835731bae392f71154b13aafda4a32ab8072bfc9d41d0fe32ca4b1e93c"),
}


@pytest.fixture
def main_store(tmp_path):
    shutil.copyfile(MAIN, tmp_path / "pancli.db")
    store = Store(tmp_path / "pancli.db", create=False)
    yield store
    store.close()


def test_the_text_of_a_piece_is_what_it_was(main_store):
    """Check marks stay valid: the columns are read in the order they were."""
    seen = {}
    for session in main_store.sessions():
        last, _digest = MAIN_PIECES[session.name]
        text = main_store.care.piece(session.id, 1, last, rows=False).text
        seen[session.name] = (last, hashlib.sha256(text.encode("utf-8")).hexdigest())
    assert seen == MAIN_PIECES


def test_the_rows_of_a_piece_are_the_rows_of_their_tables(main_store):
    """Each field of a row, named by its row class, holds what SQLite holds in that column."""
    conn = main_store.conn
    for session in main_store.sessions():
        last, _digest = MAIN_PIECES[session.name]
        piece = main_store.care.piece(session.id, 1, last)
        assert piece.text == main_store.care.piece(session.id, 1, last, rows=False).text
        read = {"events": piece.events, "payments": piece.payments, "tallies": piece.tallies}
        for table, row in ROWS.items():
            order = "seq" if table == "events" else "event_id, id"
            want = [dict(zip(row._fields, r)) for r in conn.execute(
                f"SELECT {', '.join(row._fields)} FROM {table} WHERE session_id = ? ORDER BY {order}", [session.id])]
            assert [row._make(r)._asdict() for r in read[table]] == want
        assert piece.events and piece.tallies


@pytest.mark.parametrize("table", ROWS)
def test_the_rows_have_every_column_and_only_those(tmp_path, table):
    """A column added to a table is added to its row class, and so read and digested."""
    store = Store(tmp_path / "p.db")
    try:
        names = [r[1] for r in store.conn.execute(f"PRAGMA table_info({table})")]
    finally:
        store.close()
    assert sorted(ROWS[table]._fields) == sorted(names)


def test_the_column_lists_are_made_from_the_rows():
    assert mapping.ALL_EVENT_COLUMNS == ", ".join(EventRow._fields)
    assert mapping.ALL_PAYMENT_COLUMNS == ", ".join(PaymentRow._fields)
    assert mapping.ALL_TALLY_COLUMNS == ", ".join(TallyRow._fields)


@pytest.fixture
def night(pan):
    pan(f"session new night --players {PLAYERS} --dealer F")
    for _ in range(2):
        for line in CYCLE:
            pan(line)
    pan("db check --full")
    return pan


@pytest.mark.parametrize("sql, words", [
    # each column the replay reads by name, changed
    ("UPDATE payments SET payee = payer WHERE id = (SELECT max(id) FROM payments)", "event #"),
    ("UPDATE payments SET code = 'gift' WHERE id = (SELECT max(id) FROM payments)", "event #"),
    ("UPDATE payments SET params = '{\"n\": 9}' WHERE id = (SELECT max(id) FROM payments)", "event #"),
    ("UPDATE payments SET chips = 2.5 WHERE id = (SELECT max(id) FROM payments)", "2.5 chips"),
    ("UPDATE tallies SET stat = 'fouls' WHERE id = (SELECT max(id) FROM tallies)", "event #"),
    ("UPDATE tallies SET player = 'Z' WHERE id = (SELECT max(id) FROM tallies)", "event #"),
    ("UPDATE payments SET hand = hand + 1 WHERE id = (SELECT max(id) FROM payments)", "to another hand"),
    ("UPDATE tallies SET hand = hand + 1 WHERE id = (SELECT max(id) FROM tallies)", "to another hand"),
    ("UPDATE events SET seq = seq + 1 WHERE seq = (SELECT max(seq) FROM events)", "missing"),
])
def test_a_column_read_by_name_is_compared(night, sql, words):
    run_sql(night.db, sql)
    bad = night("db check --full", code=1)
    assert words in bad.output and "Traceback" not in bad.output
    assert sqlite3.connect(night.db).execute("SELECT count(*) FROM events").fetchone()[0] > 0
