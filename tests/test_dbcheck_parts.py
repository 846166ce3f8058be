"""`pan db check` checks a long session in parts, each replayed from a checkpoint in a process of
its own: the parts must find exactly what one replay from the start finds."""

from __future__ import annotations

import sqlite3

import pytest

from pancli.app.check import database as dbcare, session as session_check
from pancli.games import game
from pancli.storage.store import Store

from helpers import CYCLE, PLAYERS


@pytest.fixture
def night(pan, monkeypatch):
    """Eight hands of the worked example, with undos inside hands and one undone deal."""
    monkeypatch.setattr(session_check, "PARALLEL_FROM", 10)
    pan(f"session new night --players {PLAYERS} --dealer F")
    for i in range(8):
        for line in CYCLE:
            pan(line)
            if line.startswith("meld a KH") and i % 3 == 0:
                pan("undo")
                pan(line)
        if i == 4:
            pan("deal")
            pan("undo")  # a deal that never counted: no part may start there
    return pan.db


def check(db, workers):
    store = Store(db, create=False)
    try:
        with store.snapshot():
            session = store.sessions()[0]
            plan = session_check.plan(store, session, None)
            problem, figures = session_check.check_session(store, plan, workers=workers)
            figures.pop("mark", None)  # its pieces are the parts'
            finals = store.log.checkpoint_seqs(session.id, "deal", plan.start)
            return session_check._parts(game("panguingue"), plan, workers, finals), (problem, figures)
    finally:
        store.close()


def test_parts_find_what_one_replay_finds(night):
    one_parts, one = check(night, 1)
    parts, many = check(night, 3)
    assert [first for first, *_ in one_parts] == [1] and len(parts) == 3
    assert many == one and one[0] is None
    assert one[1]["events"] == sqlite3.connect(night).execute("SELECT count(*) FROM events").fetchone()[0]


def test_a_part_starts_at_a_deal_that_was_never_undone(night):
    con = sqlite3.connect(night)
    parts, _ = check(night, 3)
    for first, *_ in parts[1:]:
        kind, eid = con.execute("SELECT kind, id FROM events WHERE seq = ?", [first]).fetchone()
        assert kind == "deal"
        assert con.execute("SELECT count(*) FROM events WHERE undo_of = ?", [eid]).fetchone()[0] == 0


@pytest.mark.parametrize("where", ["first part", "last part"])
def test_a_changed_payment_is_found_in_any_part(night, where):
    con = sqlite3.connect(night)
    parts, _ = check(night, 3)
    lo, hi = (1, parts[1][0] - 1) if where == "first part" else (parts[-1][0] + 1, 10 ** 9)
    pid, seq = con.execute("SELECT p.id, e.seq FROM payments p JOIN events e ON e.id = p.event_id "
                           "WHERE e.seq BETWEEN ? AND ? ORDER BY p.id DESC LIMIT 1", [lo, hi]).fetchone()
    con.execute("UPDATE payments SET chips = chips + 1 WHERE id = ?", [pid])
    con.commit()
    _, (problem, _) = check(night, 3)
    assert problem is not None and f"event #{seq} " in problem


def test_the_whole_check_with_its_worker_processes(night):
    """`pan db check` starts its worker processes before anything else runs beside it (a fork
    taken while a thread holds a lock can hang the child), and gives the one-replay answer."""
    store = Store(night, create=False)
    try:
        for _ in range(5):
            problem, figures = dbcare.check(store)
            assert problem is None and figures["sessions"] == 1 and figures["events"] > 10
    finally:
        store.close()


def test_a_part_starting_at_a_deal_stored_without_its_hand_number_says_so_in_one_line(night):
    con = sqlite3.connect(night)
    parts, _ = check(night, 3)
    first = parts[1][0]
    con.execute("UPDATE events SET payload = json_remove(payload, '$.hand') WHERE seq = ?", [first])  # hand-edited
    con.commit()
    _, (problem, _) = check(night, 3)
    # the part before it replays that deal and finds its payload changed; the part from it cannot
    # restore the state before it: no part raises
    assert f"event #{first} (deal)" in problem and "\n" not in problem
