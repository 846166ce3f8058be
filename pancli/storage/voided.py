"""What an undo voids, said once in SQL for every query in storage.

An undo is an event of its session (``kind = 'undo'``) whose ``undo_of`` is the row id of the
event it voids. An event is voided when an undo of its own session names it: an undo that names
another session's event (a damaged or hand-edited file) voids nothing, as the replay refuses it
(tests/test_cross_session_undo.py). The views the first schema made (``voided_events`` and the
``effective_*`` built on it) voided across sessions and were not read; step m014 drops them.
"""

from __future__ import annotations


def voided_in_session(session: str = "?", before_seq: str | None = None) -> str:
    """A SELECT of the ids of the events voided in one session: ``session`` is the SQL (a
    parameter such as ``?`` or ``:s``) that gives its id; ``before_seq``, if given, the SQL of
    the seq the undos must be numbered below."""
    sql = f"SELECT undo_of FROM events WHERE session_id = {session} AND undo_of IS NOT NULL"
    return sql if before_seq is None else f"{sql} AND seq < {before_seq}"


VOIDED_IN_SESSION = voided_in_session()

# The ids of the events voided in every session at once (a player's career), each by an undo of
# its own session.
VOIDED_ANYWHERE = ("SELECT u.undo_of FROM events u JOIN events v ON v.id = u.undo_of "
                   "WHERE u.undo_of IS NOT NULL AND v.session_id = u.session_id")
