"""An undo names the event it voids by row id: one whose `undo_of` is an event of another session
(a damaged or hand-edited file) voids nothing in either session, and the recorder's replay and
`pan db check --full` both refuse it with the same sentence."""

from __future__ import annotations

from helpers import Pan, run_sql, sql_value


def two_nights(tmp_path) -> Pan:
    pan = Pan(tmp_path / "x.db")
    pan("session new one --players Ana,Ben,Cruz --dealer Cruz --chip-value 0.25")
    pan("deal")
    pan("drop Ana")
    pan("session new two --players Dee,Eve,Fay --dealer Fay")
    pan("deal")
    pan("drop Dee")
    return pan


def forge_an_undo_of_the_other_sessions_event(pan: Pan) -> None:
    """Session two's next event: an undo whose target is session one's event of seq 2 (the drop),
    while session two's own seq 2 is its last effective event."""
    one = sql_value(pan.db, "SELECT id FROM sessions WHERE name = 'one'")
    two = sql_value(pan.db, "SELECT id FROM sessions WHERE name = 'two'")
    target = sql_value(pan.db, f"SELECT id FROM events WHERE session_id = {one} AND seq = 2")
    run_sql(pan.db, "INSERT INTO events (session_id, seq, hand, kind, payload, created_at, undo_of) "
                    f"SELECT {two}, 3, hand, 'undo', '{{\"kind\": \"undo\"}}', created_at, {target} "
                    f"FROM events WHERE session_id = {two} AND seq = 2")


def test_the_recorder_refuses_it_and_voids_nothing(tmp_path):
    pan = two_nights(tmp_path)
    pan("session use one")
    one = pan.json("board")
    pan("session use two")
    forge_an_undo_of_the_other_sessions_event(pan)
    out = pan("board", ok=False).output  # before: taken as an undo of this session's #2, Dee's drop
    assert "event #3 (undo) cannot be replayed: it undoes an event that is not in this session's log" in out
    pan("session use one")
    assert pan.json("board") == one  # nor is the other session's event voided


def test_db_check_refuses_it_with_a_sentence(tmp_path):
    pan = two_nights(tmp_path)
    forge_an_undo_of_the_other_sessions_event(pan)
    out = pan("db check --full", ok=False).output
    assert "it undoes an event that is not in this session's log" in out
    assert "None" not in out
