"""An undo names the event it voids by row id: one whose `undo_of` is an event of another session
(a damaged or hand-edited file) voids nothing in either session, and the recorder's replay and
`pan db check --full` both refuse it with the same sentence."""

from __future__ import annotations

from helpers import forge_an_undo_of_the_other_sessions_event, two_nights


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
