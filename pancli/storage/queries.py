"""Read-only queries for reports, careers, the list of sessions and settle-up.

One part of a ``Store``, over its connection: each method is one SQL statement over the event log or its projections,
returning plain Python values; what they mean is computed in pancli/app/reports.py.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence

from pancli.core.rows import Session
from pancli.storage.mapping import SESSION_COLUMNS, session_row, session_rows
from pancli.storage.migrations import NET
from pancli.storage.voided import VOIDED_ANYWHERE, VOIDED_IN_SESSION


class ReportQueries:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn  # the Store's

    def hands_played(self, session_id: int) -> int:
        row = self.conn.execute(
            f"SELECT max(hand) FROM events WHERE session_id = ? AND kind != 'undo' AND id NOT IN ({VOIDED_IN_SESSION})",
            [session_id, session_id]).fetchone()
        return row[0] or 0

    def hands_per_session(self) -> dict[int, int]:
        return dict(self.conn.execute(
            f"SELECT session_id, max(hand) FROM events WHERE kind != 'undo' AND id NOT IN ({VOIDED_ANYWHERE}) "
            "GROUP BY session_id").fetchall())

    def last_own_event(self, device: str) -> int:
        """The id of the newest event of the sessions ``device`` records (`pan sync --watch`:
        an event recorded here since; what a sync imports is another device's)."""
        return int(self.conn.execute(
            "SELECT coalesce(max(id), 0) FROM events WHERE session_id IN "
            "(SELECT id FROM sessions WHERE device = ? OR device IS NULL)", [device]).fetchone()[0])

    def last_event_of_open_sessions(self) -> dict[int, str]:
        """Each session not closed that has an event: the time of its latest (the lobby's live tables)."""
        return dict(self.conn.execute(
            "SELECT e.session_id, e.created_at FROM events e JOIN (SELECT session_id, max(seq) AS seq FROM events "
            "WHERE session_id IN (SELECT id FROM sessions WHERE closed_at IS NULL) GROUP BY session_id) l "
            "ON e.session_id = l.session_id AND e.seq = l.seq").fetchall())

    def balances_of_all_sessions(self) -> list[tuple[int, str, int]]:
        """Every session's nets that are not zero, from the running totals (the log's payments
        summed: `pan db check` holds them to it)."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT session_id, player, amount FROM totals WHERE stat = ? AND amount != 0", [NET])]

    def seat_names(self) -> list[str]:
        """Every name in a session's players, sessions in the order of their ids and each one's
        players in seating order (repeats kept): without reading the sessions' other columns."""
        return [r[0] for r in self.conn.execute(
            "SELECT p.value FROM sessions s, json_each(s.players) p ORDER BY s.id, p.key")]

    def seat_spellings(self) -> set[str]:
        """Every name typed at a seat of any session (its players, and whoever has a running
        total), each spelling once."""
        return {r[0] for r in self.conn.execute(
            "SELECT p.value FROM sessions s, json_each(s.players) p "
            "UNION SELECT t.player FROM sessions s JOIN totals t ON t.session_id = s.id")}

    def seats_named(self, spellings: Iterable[str]) -> list[tuple[int, str]]:
        """(session id, seat) of every seat typed as one of these spellings, exactly, each once."""
        return [tuple(r) for r in self.conn.execute(
            "WITH names(n) AS (SELECT value FROM json_each(?)) "
            "SELECT s.id, p.value FROM sessions s, json_each(s.players) p WHERE p.value IN (SELECT n FROM names) "
            "UNION SELECT s.id, t.player FROM sessions s JOIN totals t ON t.session_id = s.id "
            "WHERE t.player IN (SELECT n FROM names)", [json.dumps(sorted(set(spellings)))])]

    def sessions_by_id(self, ids: Iterable[int]) -> dict[int, Session]:
        """The sessions of these ids (a player's nights, not every session held)."""
        return {s.id: s for s in map(session_row, self.conn.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
            [json.dumps(sorted(set(ids)))]))}

    def tally_players(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT player FROM tallies")]

    def stack_moves(self, session_id: int) -> list[tuple[int, int | None, str, int]]:
        """Every effective change of a player's stack in order: (seq, hand, player, chips), with
        buy-ins adding and cash-outs taking away."""
        rows = self.conn.execute(
            f"""SELECT e.id, e.seq, e.hand, x.player, SUM(x.d) FROM (
                   SELECT event_id, payee AS player, chips AS d FROM payments WHERE session_id = ?
                   UNION ALL SELECT event_id, payer, -chips FROM payments WHERE session_id = ?
                   UNION ALL SELECT event_id, player, CASE stat WHEN 'buyin' THEN amount ELSE -amount END
                             FROM tallies WHERE session_id = ? AND stat IN ('buyin', 'cashout')) x
                JOIN events e ON e.id = x.event_id
                WHERE e.id NOT IN ({VOIDED_IN_SESSION}) GROUP BY e.id, x.player ORDER BY e.id""",
            [session_id, session_id, session_id, session_id]).fetchall()
        return [(seq, hand, player, d) for _, seq, hand, player, d in rows]

    def sessions_of_game(self, game: str, year: str | None) -> dict[int, Session]:
        """The sessions of one game begun in a year (``year`` None: in any), by id: a season's,
        not every session the database holds."""
        return {s.id: s for s in session_rows(self.conn.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE game = ?1 AND (?2 IS NULL OR substr(created_at, 1, 4) = ?2) "
            "ORDER BY id", [game, year]))}

    def totals_as_played(self, ids: Iterable[int]) -> list[tuple[int, str, str, int]]:
        """``totals_of_all_sessions`` of these sessions only (a season's), in the order they were
        played (``Session.played``: begun, device, row; then the seat and the stat)."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT t.session_id, t.player, t.stat, t.amount FROM sessions s JOIN totals t ON t.session_id = s.id "
            "WHERE s.id IN (SELECT value FROM json_each(?)) AND t.amount != 0 "
            "ORDER BY s.created_at, coalesce(s.device, ''), s.id, t.player, t.stat",
            [json.dumps(sorted(set(ids)))])]

    def totals_of_all_sessions(self) -> list[tuple[int, str, str, int]]:
        """(session id, player, stat, amount) of every running total that is not zero: nets are
        the stat '(net)', tallies their own words."""
        return [tuple(r) for r in self.conn.execute(
            "SELECT session_id, player, stat, amount FROM totals WHERE amount != 0 ORDER BY session_id")]

    # -- a person's seats (the club): the same sums over a list of (session id, seat name) ------

    def seat_nets(self, seats: str) -> dict[int, int]:
        """Net chips per session of the seats ``seats`` (JSON: [[session id, name], …])."""
        return dict(self.conn.execute(
            f"""WITH seats(sid, name) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
                                         FROM json_each(?))
                SELECT p.session_id, SUM(CASE WHEN p.payee = s.name COLLATE NOCASE THEN p.chips ELSE -p.chips END)
                FROM seats s JOIN payments p ON p.session_id = s.sid
                 AND (p.payee = s.name COLLATE NOCASE OR p.payer = s.name COLLATE NOCASE)
                WHERE p.event_id NOT IN ({VOIDED_ANYWHERE}) GROUP BY p.session_id""", [seats]).fetchall())

    def seat_tallies(self, seats: str) -> list[tuple[int, str, int]]:
        return [tuple(r) for r in self.conn.execute(
            f"""WITH seats(sid, name) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
                                         FROM json_each(?))
                SELECT t.session_id, t.stat, SUM(t.amount) FROM seats s JOIN tallies t
                 ON t.session_id = s.sid AND t.player = s.name COLLATE NOCASE
                WHERE t.event_id NOT IN ({VOIDED_ANYWHERE}) GROUP BY t.session_id, t.stat""", [seats])]

    def seat_events(self, seats: str, kinds: Sequence[str]) -> list[tuple[int, str]]:
        marks = ", ".join("?" * len(kinds))
        return [tuple(r) for r in self.conn.execute(
            f"""WITH seats(sid, name) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
                                         FROM json_each(?))
                SELECT e.session_id, e.payload FROM seats s JOIN events e ON e.session_id = s.sid
                WHERE e.kind IN ({marks}) AND json_extract(e.payload, '$.player') = s.name COLLATE NOCASE
                 AND e.id NOT IN ({VOIDED_ANYWHERE})""", [seats, *kinds])]

    def seat_takebacks(self, seats: str, codes: Sequence[str]) -> list[tuple[int, int, str]]:
        marks = ", ".join("?" * len(codes))
        return [tuple(r) for r in self.conn.execute(
            f"""WITH seats(sid, name) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
                                         FROM json_each(?))
                SELECT DISTINCT p.session_id, p.event_id, p.params FROM seats s JOIN payments p
                 ON p.session_id = s.sid AND p.payer = s.name COLLATE NOCASE
                WHERE p.code IN ({marks}) AND p.params IS NOT NULL AND p.event_id NOT IN ({VOIDED_ANYWHERE})
                ORDER BY p.event_id""", [seats, *codes])]

    def seat_payments(self, seats: str) -> list[tuple[int, str, str, int, str | None]]:
        """Every effective payment to or from a seat of ``seats`` (JSON: [[session id, name], …]),
        each once: (session id, payer, payee, chips, code)."""
        return [tuple(r[1:]) for r in self.conn.execute(
            f"""WITH seats(sid, name) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
                                         FROM json_each(?))
                SELECT DISTINCT p.id, p.session_id, p.payer, p.payee, p.chips, p.code FROM seats s JOIN payments p
                 ON p.session_id = s.sid AND (p.payer = s.name COLLATE NOCASE OR p.payee = s.name COLLATE NOCASE)
                WHERE p.event_id NOT IN ({VOIDED_ANYWHERE})
                ORDER BY p.session_id, p.id""", [seats])]

    def payments_between(self, seats: str, others: str) -> list[tuple[int, str, str, int, str | None]]:
        """Every effective payment from a seat of one list to a seat of the other, either way:
        (session id, payer, payee, chips, code)."""
        # The nights both sat at first, each pair of seats once, then only those nights' payments
        # (joined to both lists at once, SQLite read every seat of the other list for each payment).
        return [tuple(r) for r in self.conn.execute(
            f"""WITH a(sid, name) AS MATERIALIZED (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
                                                   FROM json_each(?)),
                     b(sid, name) AS MATERIALIZED (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
                                                   FROM json_each(?)),
                     pair(sid, a, b) AS MATERIALIZED (SELECT a.sid, a.name, b.name FROM a JOIN b ON b.sid = a.sid)
                SELECT p.session_id, p.payer, p.payee, p.chips, p.code FROM pair CROSS JOIN payments p
                 ON p.session_id = pair.sid
                WHERE ((p.payer = pair.a COLLATE NOCASE AND p.payee = pair.b COLLATE NOCASE)
                    OR (p.payer = pair.b COLLATE NOCASE AND p.payee = pair.a COLLATE NOCASE))
                  AND p.event_id NOT IN ({VOIDED_ANYWHERE})
                ORDER BY p.session_id, p.id""", [seats, others])]

