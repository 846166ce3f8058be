"""SQL for looking after the database: counts, SQLite's own checks, and a consistent copy.

One part of a ``Store``, over its connection; pancli/app/check/ and app/database.py decide what the answers mean.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pancli.core.errors import StoreError
from pancli.core.i18n import _
from pancli.core.rows import CheckMark, LogPiece
from pancli.storage.mapping import ALL_EVENT_COLUMNS, ALL_PAYMENT_COLUMNS, ALL_TALLY_COLUMNS
from pancli.storage.migrations import NET, SCHEMA_SET
from pancli.storage.voided import voided_in_session

# One row a line, every column as a JSON array (SQLite writes it, in C: half the time it takes
# Python to fetch the same rows as tuples). json_array escapes every control character, so a
# line never holds a newline and a piece's text never a NUL. The rows come in the subquery's
# order: SQLite never flattens a subquery with ORDER BY into an aggregate (and a mark is used
# only by the SQLite version that wrote it).
_PIECE = {
    "events": f"SELECT group_concat(j, char(10)) FROM (SELECT json_array({ALL_EVENT_COLUMNS}) AS j FROM events "
              "WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq)",
    "payments": f"SELECT group_concat(j, char(10)) FROM (SELECT json_array({ALL_PAYMENT_COLUMNS}) AS j FROM payments "
                "WHERE session_id = ? AND event_id > ? AND event_id <= ? ORDER BY event_id, id)",
    "tallies": f"SELECT group_concat(j, char(10)) FROM (SELECT json_array({ALL_TALLY_COLUMNS}) AS j FROM tallies "
               "WHERE session_id = ? AND event_id > ? AND event_id <= ? ORDER BY event_id, id)",
}

# The running totals against the sums of the effective log, in one statement: rows of each
# table that differ, rows one side has and the other lacks, and the sum of the net balances.
_TOTALS = f"""
WITH voided AS ({voided_in_session(':s')}),
moves AS (SELECT coalesce(hand, 0) AS hand, payee AS player, sum(chips) AS net FROM payments
          WHERE session_id = :s AND event_id NOT IN voided GROUP BY 1, 2
          UNION ALL
          SELECT coalesce(hand, 0), payer, -sum(chips) FROM payments
          WHERE session_id = :s AND event_id NOT IN voided GROUP BY 1, 2),
hands AS MATERIALIZED (SELECT hand, player, sum(net) AS net FROM moves GROUP BY hand, player HAVING sum(net) != 0),
nets AS MATERIALIZED (SELECT player, sum(net) AS amount FROM hands GROUP BY player),
counts AS (SELECT player, stat, sum(amount) AS amount FROM tallies
           WHERE session_id = :s AND event_id NOT IN voided GROUP BY player, stat HAVING sum(amount) != 0),
wanted AS (SELECT player, '{NET}' AS stat, amount FROM nets WHERE amount != 0
           UNION ALL SELECT player, stat, amount FROM counts)
SELECT (SELECT count(*) FROM hands w LEFT JOIN hand_totals h
          ON h.session_id = :s AND h.hand = w.hand AND h.player = w.player WHERE h.net IS NOT w.net)
       + abs((SELECT count(*) FROM hands) - (SELECT count(*) FROM hand_totals WHERE session_id = :s AND net != 0))
       + (SELECT count(*) FROM wanted w LEFT JOIN totals t
          ON t.session_id = :s AND t.player = w.player AND t.stat = w.stat WHERE t.amount IS NOT w.amount)
       + abs((SELECT count(*) FROM wanted) - (SELECT count(*) FROM totals WHERE session_id = :s AND amount != 0)),
       (SELECT coalesce(sum(amount), 0) FROM nets)
"""

# What hand_totals cannot show by itself, once each hand's rows (hand 1 on) are known to be
# right: the players' nets in ``totals`` (their sums), the tallies, and the payments outside
# any hand (hand 0, or below), against the effective log. Those payments are found through
# their events (a payment's hand is its event's, which the replay and the stray-row check see
# to): no index of payments has the hand, and reading them all costs more.
_TOTALS_REST = f"""
WITH voided AS ({voided_in_session(':s')}),
outside AS (SELECT coalesce(hand, 0) AS hand, payer, payee, chips FROM payments
            WHERE session_id = :s AND event_id IN (SELECT id FROM events WHERE session_id = :s AND coalesce(hand, 0) <= 0)
            AND event_id NOT IN voided),
hand0 AS MATERIALIZED (SELECT hand, player, sum(net) AS net FROM (
            SELECT hand, payee AS player, chips AS net FROM outside UNION ALL SELECT hand, payer, -chips FROM outside)
          GROUP BY hand, player HAVING sum(net) != 0),
stored0 AS MATERIALIZED (SELECT hand, player, net FROM hand_totals WHERE session_id = :s AND hand <= 0 AND net != 0),
nets AS MATERIALIZED (SELECT player, sum(net) AS amount FROM hand_totals WHERE session_id = :s GROUP BY player),
counts AS (SELECT player, stat, sum(amount) AS amount FROM tallies
           WHERE session_id = :s AND event_id NOT IN voided GROUP BY player, stat HAVING sum(amount) != 0),
wanted AS MATERIALIZED (SELECT player, '{NET}' AS stat, amount FROM nets WHERE amount != 0
           UNION ALL SELECT player, stat, amount FROM counts)
SELECT (SELECT count(*) FROM (SELECT * FROM hand0 EXCEPT SELECT * FROM stored0))
       + (SELECT count(*) FROM (SELECT * FROM stored0 EXCEPT SELECT * FROM hand0))
       + (SELECT count(*) FROM wanted w LEFT JOIN totals t
          ON t.session_id = :s AND t.player = w.player AND t.stat = w.stat WHERE t.amount IS NOT w.amount)
       + abs((SELECT count(*) FROM wanted) - (SELECT count(*) FROM totals WHERE session_id = :s AND amount != 0)),
       (SELECT coalesce(sum(amount), 0) FROM nets)
"""


class DatabaseCare:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn  # the Store's

    def counts(self) -> dict[str, Any]:
        """Rows of every kind, undos, imported sessions, applied migrations, SQLite and journal mode."""
        c = self.conn
        out = {t: c.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
               for t in ("sessions", "events", "payments", "tallies")}
        out["undos"] = c.execute("SELECT count(*) FROM events WHERE kind = 'undo'").fetchone()[0]
        out["imported_sessions"] = c.execute("SELECT count(*) FROM sessions WHERE origin IS NOT NULL").fetchone()[0]
        out["migrations"] = [r[0] for r in c.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = ? ORDER BY applied_at, name", [SCHEMA_SET])]
        out["sqlite"] = sqlite3.sqlite_version
        out["journal_mode"] = c.execute("PRAGMA journal_mode").fetchone()[0]
        return out

    def integrity_problem(self) -> str | None:
        """SQLite's integrity and foreign-key checks: the first problem, or None."""
        return _integrity_problem(self.conn)

    @staticmethod
    def integrity_problem_at(path: str | os.PathLike[str]) -> str | None:
        """The same checks on a connection of their own, so they can run in another thread while
        this one replays the log (SQLite lets go of Python's lock while it checks)."""
        conn = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=ro", uri=True, timeout=30,
                               check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            # A page cache of 32 MB: with SQLite 3.40 a larger one saves no time (1.6 s on 10,000
            # hands, 5.0 s on 30,000, with 32 or 128 MB) and 128 MB was most of a check's memory.
            conn.execute("PRAGMA cache_size = -32768")
            return _integrity_problem(conn)
        finally:
            conn.close()

    # -- what `pan db check` reads and remembers --------------------------------------------

    def piece(self, session_id: int, first_seq: int, last_seq: int, rows: bool = True) -> LogPiece:
        """The events numbered ``first_seq`` to ``last_seq`` with their payments and tallies: the
        text of every column, and (``rows``) the rows parsed from it."""
        c = self.conn
        # Payments and tallies by event id: those after the event before the piece, to its last
        # event, so that pieces next to each other leave no row of the session out.
        after, last = c.execute(
            "SELECT coalesce((SELECT id FROM events WHERE session_id = :s AND seq < :a ORDER BY seq DESC LIMIT 1), 0), "
            "(SELECT id FROM events WHERE session_id = :s AND seq BETWEEN :a AND :b ORDER BY seq DESC LIMIT 1)",
            {"s": session_id, "a": first_seq, "b": last_seq}).fetchone()
        if last is None:
            return LogPiece(first_seq, last_seq, "", [], [], [])
        texts = [c.execute(_PIECE["events"], [session_id, first_seq, last_seq]).fetchone()[0] or ""]
        texts += [c.execute(_PIECE[t], [session_id, after, last]).fetchone()[0] or "" for t in ("payments", "tallies")]
        from pancli.core.json_reader import sqlite_json  # noqa: PLC0415 start-up: orjson, only when the log is read back
        parsed = [sqlite_json("[" + t.replace("\n", ",") + "]") if rows and t else [] for t in texts]
        return LogPiece(first_seq, last_seq, "\0".join(texts), *parsed)

    def session_basis(self, session_id: int) -> str:
        """What a replay of the session starts from: its game, seats, first dealer and rules."""
        basis: str = self.conn.execute("SELECT json_array(game, players, dealer, rules) FROM sessions WHERE id = ?",
                                       [session_id]).fetchone()[0]
        return basis

    def totals_check(self, session_id: int) -> tuple[int, int]:
        """How many rows of the running totals differ from the sums of the effective log (none
        in a sound database), and what the net balances sum to."""
        differ, total = self.conn.execute(_TOTALS, {"s": session_id}).fetchone()
        return differ, total

    def totals_rest_check(self, session_id: int) -> tuple[int, int]:
        """totals_check for what hand_totals cannot show by itself (see _TOTALS_REST), for a
        session whose hand_totals rows from hand 1 on are known to be right."""
        differ, total = self.conn.execute(_TOTALS_REST, {"s": session_id}).fetchone()
        return differ, total

    def hand_totals_between(self, session_id: int, first: int, last: int | None) -> set[tuple[int, str, int]]:
        """The running net of each player in hands ``first`` to ``last`` (or on), where not 0,
        as (hand, player, net)."""
        cur = self.conn.cursor()
        cur.row_factory = None  # plain tuples, to compare with the replay's
        return set(cur.execute(
            "SELECT hand, player, net FROM hand_totals WHERE session_id = ? AND hand BETWEEN ? AND ? AND net != 0",
            [session_id, first, last if last is not None else 2 ** 62]))

    def hand_totals_text(self, session_id: int, below: int) -> str:
        """Every column of the session's hand_totals rows of hands 1 to ``below`` - 1, as
        ``piece`` writes rows: what a check mark's digest of them is taken of."""
        return self.conn.execute(
            "SELECT group_concat(j, char(10)) FROM (SELECT json_array(session_id, hand, player, net) AS j "
            "FROM hand_totals WHERE session_id = ? AND hand BETWEEN 1 AND ? ORDER BY hand, player)",
            [session_id, below - 1]).fetchone()[0] or ""

    def hand_at(self, session_id: int, seq: int) -> int | None:
        """The hand of the session's event numbered ``seq``."""
        row = self.conn.execute("SELECT hand FROM events WHERE session_id = ? AND seq = ?", [session_id, seq]).fetchone()
        return row[0] if row else None

    def session_size(self, session_id: int, after_event: int = 0) -> tuple[int, int]:
        """How many events and payments the session has (after the event ``after_event``)."""
        row = self.conn.execute(
            "SELECT (SELECT count(*) FROM events WHERE session_id = :s AND id > :a), "
            "(SELECT count(*) FROM payments WHERE session_id = :s AND event_id > :a)",
            {"s": session_id, "a": after_event}).fetchone()
        return row[0], row[1]

    def event_at(self, session_id: int, seq: int) -> int | None:
        """The id of the session's event numbered ``seq``."""
        row = self.conn.execute("SELECT id FROM events WHERE session_id = ? AND seq = ?", [session_id, seq]).fetchone()
        return row[0] if row else None

    def stored_out_of_order(self, session_id: int) -> tuple[int, int] | None:
        """The first event (its seq) stored after one with a higher number (that one's seq), if any:
        events are numbered in the order they are stored."""
        row = self.conn.execute(
            "SELECT seq, earlier FROM (SELECT seq, max(seq) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING "
            "AND 1 PRECEDING) AS earlier FROM events WHERE session_id = ?) WHERE seq < earlier LIMIT 1",
            [session_id]).fetchone()
        return (row[0], row[1]) if row else None

    def seq_of_event(self, event_id: int) -> tuple[int, int] | None:
        """The session and seq of an event, by id."""
        row = self.conn.execute("SELECT session_id, seq FROM events WHERE id = ?", [event_id]).fetchone()
        return (row[0], row[1]) if row else None

    def check_marks(self) -> dict[int, CheckMark]:
        """What earlier checks verified, by session id; a mark that is not what a check writes
        (edited by hand, damaged) is left out: its session is replayed in full."""
        marks = {}
        for r in self.conn.execute("SELECT session_id, last_seq, last_event, digest, pieces, hands_below, "
                                   "hands_digest, pancli, sqlite, checked_at FROM check_marks"):
            mark = _mark_of(r)
            if mark is not None:
                marks[mark.session_id] = mark
        return marks

    def save_check_marks(self, marks: list[CheckMark]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO check_marks (session_id, last_seq, last_event, digest, pieces, hands_below, "
            "hands_digest, pancli, sqlite, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(m.session_id, m.last_seq, m.last_event, m.digest, json.dumps([list(p) for p in m.pieces]),
              m.hands_below, m.hands_digest, m.pancli, m.sqlite, m.checked_at) for m in marks])

    @staticmethod
    def sqlite_version() -> str:
        return sqlite3.sqlite_version

    def copy_to(self, path: str | os.PathLike[str]) -> dict[str, Any]:
        """A consistent copy of the whole database into a new file (SQLite's backup API, one read
        transaction), in rollback-journal mode and checked; returns its check and counts."""
        try:
            target = sqlite3.connect(path)
            try:
                self.conn.backup(target)
                target.execute("PRAGMA journal_mode = DELETE")
                return {"check": target.execute("PRAGMA quick_check").fetchone()[0],
                        "events": target.execute("SELECT count(*) FROM events").fetchone()[0],
                        "sessions": target.execute("SELECT count(*) FROM sessions").fetchone()[0]}
            finally:
                target.close()
        except sqlite3.DatabaseError as e:
            raise StoreError(_("cannot back up to {path}: {error}").format(path=path, error=e),
                             _("check the folder is writable")) from None


def _mark_of(r: Sequence[Any]) -> CheckMark | None:
    """A check mark from its row, or None when a field is not of the kind a check writes."""
    try:
        pieces = tuple((int(a), int(b), d) for a, b, d in json.loads(r[4]))
    except (ValueError, TypeError, RecursionError):
        return None
    ints, texts = (r[0], r[1], r[2], r[5]), (r[3], r[6], r[7], r[8], r[9])
    if not all(type(x) is int for x in ints) or not all(isinstance(x, str) for x in texts) \
            or not all(isinstance(d, str) for _a, _b, d in pieces):
        return None
    return CheckMark(r[0], r[1], r[2], r[3], pieces, r[5], r[6], r[7], r[8], r[9])


def _integrity_problem(conn: sqlite3.Connection) -> str | None:
    rows = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    if rows != ["ok"]:
        return _("SQLite integrity check: {findings}").format(findings="; ".join(rows[:3]))
    fk = conn.execute("PRAGMA foreign_key_check").fetchall()
    if fk:
        return _("foreign key check: table {table} row {row} points to a missing {parent}").format(
            table=fk[0][0], row=fk[0][1], parent=fk[0][2])
    return None
