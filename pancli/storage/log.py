"""The event log: appending an event with its payments and tallies (and the running totals they
change), and reading events back.

The log is the truth. An undo is itself an event (``kind = 'undo'``, ``undo_of`` = the voided
event), so nothing is ever updated or deleted; reads give the effective events and payments.
One part of a ``Store``, over its connection.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pancli.core.rows import LoggedEvent
from pancli.storage.mapping import (
    EVENT_COLUMNS,
    INSERT_EVENT,
    INSERT_PAYMENT,
    INSERT_TALLY,
    PAYMENT_COLUMNS,
    TALLY_COLUMNS,
    UNDONE_SEQ,
    StoredEvent,
    add_payments,
    add_tallies,
    event_rows,
    event_values,
    payment_rows,
    tally_rows,
)
from pancli.storage.migrations import NET
from pancli.storage.voided import VOIDED_IN_SESSION, voided_in_session

if TYPE_CHECKING:
    from pancli.core.ledger import Payment

def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")



def _reasons(payments: Sequence[Payment]) -> list[str]:
    """Each payment's reason, worded once for the payers of one thing: they share their params
    (a condition's five payers), and a reason is the wording of its code and params alone."""
    said: dict[tuple[str, int, Any], str] = {}
    reasons = []
    for p in payments:
        if p.said is not None or p.wording is None or p.code is None:
            reasons.append(p.reason)
            continue
        key = (p.code, id(p.params), p.wording)
        reason = said.get(key)
        if reason is None:
            reason = said[key] = p.reason
        reasons.append(reason)
    return reasons


class EventLog:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn  # the Store's

    def last_event_id(self, session_id: int) -> int:
        row = self.conn.execute("SELECT max(id) FROM events WHERE session_id = ?", [session_id]).fetchone()
        return row[0] or 0

    def append(self, session_id: int, event: LoggedEvent) -> int:
        """Store one event (``append_many`` of one) and return its id."""
        return self.append_many(session_id, (event,))[-1]

    def append_many(self, session_id: int, events: Iterable[LoggedEvent]) -> list[int]:
        """Store events in order with their payments and tallies and the running totals they
        change, in a handful of statements however many events (an imported session: a batch of
        its log at a time); the one writer of the log. Each event's seq is its own (the next of
        the session's); an undo names by seq the event it voids, stored before or in this batch.
        Returns the new events' ids, in order."""
        c = self.conn
        ids: dict[int, int] = {}                      # by seq: the id of each event of this batch
        pay_rows: list[tuple[Any, ...]] = []
        count_rows: list[tuple[Any, ...]] = []
        totals: dict[tuple[str, str], int] = {}       # (player, stat): the change to its total
        hand_nets: dict[tuple[int, str], int] = {}    # (hand, player): the change to its net
        new: dict[int, tuple[Any, ...]] = {}                    # by seq: (hand, moves, changes) of this batch
        for e in events:
            seq, hand, payments, tallies, undo_of = e.seq, e.hand, e.payments or (), e.tallies or (), e.undo_of
            target = None
            if undo_of is not None:
                target = ids.get(undo_of)
                if target is None:  # stored before this batch
                    target = c.execute("SELECT id FROM events WHERE session_id = ? AND seq = ?",
                                       [session_id, undo_of]).fetchone()[0]
            event_id = c.execute(INSERT_EVENT, event_values(session_id, e, e.created_at or now(), target)).lastrowid
            assert event_id is not None  # sqlite3 sets it after an INSERT into a rowid table such as events
            ids[seq] = event_id
            if payments:
                pay_rows += payment_rows(event_id, session_id, hand, payments, _reasons(payments))
            if tallies:
                count_rows += tally_rows(event_id, session_id, hand, tallies)
            moves = [(p.payer, p.payee, p.chips) for p in payments]
            changes = [(t.player, t.stat, t.amount) for t in tallies]
            new[seq] = (hand, moves, changes)
            hand_of_moves = hand
            if target is not None:  # the voided event's payments and tallies come off the totals
                if undo_of in new:
                    hand_of_moves, voided_moves, voided_changes = new[undo_of]
                else:  # held before this batch: as `append` reads it
                    # by session and event: the index m010_append_indexes keeps (a scan otherwise)
                    voided_moves = c.execute("SELECT payer, payee, chips FROM payments WHERE session_id = ? "
                                             "AND event_id = ? ORDER BY id", [session_id, target]).fetchall()
                    voided_changes = c.execute("SELECT player, stat, amount FROM tallies WHERE session_id = ? "
                                               "AND event_id = ? ORDER BY id", [session_id, target]).fetchall()
                    hand_of_moves = c.execute("SELECT hand FROM events WHERE id = ?", [target]).fetchone()[0]
                moves = moves + [(payee, payer, chips) for payer, payee, chips in voided_moves]
                changes = changes + [(player, stat, -amount) for player, stat, amount in voided_changes]
            nets = [(payee, chips) for _, payee, chips in moves] + [(payer, -chips) for payer, _, chips in moves]
            for player, stat, amount in changes + [(player, NET, chips) for player, chips in nets]:
                totals[player, stat] = totals.get((player, stat), 0) + amount
            for player, chips in nets:
                key = (hand_of_moves or 0, player)
                hand_nets[key] = hand_nets.get(key, 0) + chips
        if pay_rows:
            c.executemany(INSERT_PAYMENT, pay_rows)
        if count_rows:
            c.executemany(INSERT_TALLY, count_rows)
        # One upsert per total that changes, not one per payment (a condition paid by five players
        # moves the payee's net once); a total is kept from its first change that is not 0.
        total_rows = [(session_id, player, stat, amount) for (player, stat), amount in totals.items() if amount]
        if total_rows:
            c.executemany("INSERT INTO totals (session_id, player, stat, amount) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT (session_id, player, stat) DO UPDATE SET amount = amount + excluded.amount",
                          total_rows)
        net_rows = [(session_id, hand, player, net) for (hand, player), net in hand_nets.items() if net]
        if net_rows:
            c.executemany("INSERT INTO hand_totals (session_id, hand, player, net) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT (session_id, hand, player) DO UPDATE SET net = net + excluded.net",
                          net_rows)
        return list(ids.values())

    def _read(self, session_id: int, where: str, args: list[Any], order: str = "id", limit: str = "",
              tallies: bool = True) -> list[LoggedEvent]:
        """The session's events that ``where`` selects, in ``order``, each with the undo that voids
        it and its payments and tallies: four ordered index scans, however long the log. Payments
        or tallies whose event is not one of the session's are left out (stray_rows counts them)."""
        c = self.conn.cursor()
        c.row_factory = None  # plain tuples: a long session has hundreds of thousands of rows
        rows = c.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE session_id = ? AND {where} "
                         f"ORDER BY {order}{limit}", [session_id, *args]).fetchall()
        if not rows:
            return []
        first, last = min(rows[0][0], rows[-1][0]), max(rows[0][0], rows[-1][0])
        span = [session_id, first, last]
        voided_by = {undo_of: seq for undo_of, seq in c.execute(
            "SELECT undo_of, seq FROM events WHERE session_id = ? AND undo_of BETWEEN ? AND ?", span)}
        payments: dict[int, list[Any]] = {r[0]: [] for r in rows}
        counts: dict[int, list[Any]] = {r[0]: [] for r in rows}
        add_payments(c.execute(f"SELECT {PAYMENT_COLUMNS} FROM payments "
                               "WHERE session_id = ? AND event_id BETWEEN ? AND ? ORDER BY event_id, id", span), payments)
        if tallies:  # what a reader of words alone (`pan history`) leaves out
            add_tallies(c.execute(f"SELECT {TALLY_COLUMNS} FROM tallies "
                                  "WHERE session_id = ? AND event_id BETWEEN ? AND ? ORDER BY event_id, id", span), counts)
        return event_rows(rows, voided_by, payments, counts)

    def session_log(self, session_id: int, first_seq: int = 1, last_seq: int | None = None,
                    tallies: bool = True) -> list[LoggedEvent]:
        """Every event of a session in order (or those numbered ``first_seq`` to ``last_seq``),
        undos and voided events included, with their payments and tallies in the order written
        (not ``tallies``: none)."""
        return self._read(session_id, "seq BETWEEN ? AND ?",
                          [first_seq, last_seq if last_seq is not None else 2 ** 62], tallies=tallies)

    def stored_events(self, session_id: int, first_seq: int = 1, last_seq: int | None = None,
                      hand: int | None = None) -> list[StoredEvent]:
        """The events numbered ``first_seq`` to ``last_seq`` (or one hand's), undos and voided
        events included, in order, with their payments, as a reader of their words gets them: as
        stored, left for it to read (``StoredEvent``). Three ordered index scans, as ``session_log``."""
        c = self.conn.cursor()
        c.row_factory = None
        where, args = ("hand = ?", [hand]) if hand is not None else (
            "seq BETWEEN ? AND ?", [first_seq, last_seq if last_seq is not None else 2 ** 62])
        rows = c.execute(f"SELECT id, seq, hand, payload, {UNDONE_SEQ} FROM events WHERE session_id = ? AND {where} "
                         "ORDER BY id", [session_id, *args]).fetchall()
        if not rows:
            return []
        span = [session_id, rows[0][0], rows[-1][0]]
        voided_by = dict(c.execute("SELECT undo_of, seq FROM events WHERE session_id = ? AND undo_of BETWEEN ? AND ?",
                                   span))
        # Each event's payments as one JSON text, its rows in the order written (the index walked
        # in event_id, id order feeds each group so): a night repeats the same text thousands of
        # times, and its reader words each text once.
        payments = dict(c.execute(
            "SELECT event_id, json_group_array(json_array(payer, payee, chips, code, params, reason)) FROM payments "
            "WHERE session_id = ? AND event_id BETWEEN ? AND ? GROUP BY event_id", span))
        get, paid = voided_by.get, payments.get
        return [StoredEvent(seq, hand_, payload, undo_of, get(eid), paid(eid, ""))
                for eid, seq, hand_, payload, undo_of in rows]

    def ids_of(self, session_id: int, seqs: list[int]) -> dict[int, int]:
        """The row id of each of the session's events given by seq."""
        if not seqs:
            return {}
        marks = ", ".join("?" * len(seqs))
        return dict(self.conn.execute(f"SELECT seq, id FROM events WHERE session_id = ? AND seq IN ({marks})",
                                      [session_id, *seqs]))

    def event_state(self, session_id: int, seq: int, before_seq: int) -> tuple[str, bool] | None:
        """The kind of event ``seq``, and whether an undo before ``before_seq`` voided it."""
        row = self.conn.execute(
            f"SELECT kind, id IN ({voided_in_session('?', '?')}) FROM events WHERE session_id = ? AND seq = ?",
            [session_id, before_seq, session_id, seq]).fetchone()
        return (row[0], bool(row[1])) if row else None

    def effective_before(self, session_id: int, before_seq: int, checkpoint_kind: str | None
                         ) -> tuple[list[LoggedEvent], bool]:
        """The events before ``before_seq`` still effective after the undos before it, from the
        last such ``checkpoint_kind`` on (all of them without one), and whether any precede those."""
        voided = voided_in_session("?", "?")
        effective = f"kind != 'undo' AND id NOT IN ({voided})"
        first = None
        if checkpoint_kind:
            first = self.conn.execute(
                f"SELECT max(seq) FROM events WHERE session_id = ? AND seq < ? AND kind = ? AND {effective}",
                [session_id, before_seq, checkpoint_kind, session_id, before_seq]).fetchone()[0]
        rows = self._read(session_id, f"seq >= ? AND seq < ? AND {effective}",
                          [first or 1, before_seq, session_id, before_seq], "seq")
        more = first is not None and self.conn.execute(
            f"SELECT 1 FROM events WHERE session_id = ? AND seq < ? AND {effective} LIMIT 1",
            [session_id, first, session_id, before_seq]).fetchone() is not None
        return rows, more

    def effective_tail(self, session_id: int, before_seq: int, limit: int) -> list[LoggedEvent]:
        """The last ``limit`` events before ``before_seq`` still effective after the undos before
        it, in order."""
        voided = voided_in_session("?", "?")
        rows = self._read(session_id, f"seq < ? AND kind != 'undo' AND id NOT IN ({voided})",
                          [before_seq, session_id, before_seq], "seq DESC", f" LIMIT {int(limit)}")
        return rows[::-1]

    def hand_events(self, session_id: int, hand: int) -> list[LoggedEvent]:
        """Every event recorded in one hand, undos and voided events included."""
        return self._read(session_id, "hand = ?", [hand])

    def payloads_by_seq(self, session_id: int, seqs: list[int]) -> dict[int, dict[str, Any]]:
        """The payloads of these events of the session (what undos took back), by seq."""
        if not seqs:
            return {}
        marks = ", ".join("?" * len(seqs))
        return {seq: json.loads(text) for seq, text in self.conn.execute(
            f"SELECT seq, payload FROM events WHERE session_id = ? AND seq IN ({marks})", [session_id, *seqs])}

    def effective_events(self, session_id: int, since_id: int = 0) -> list[LoggedEvent]:
        """The effective events (neither undos nor undone) from the event ``since_id`` on."""
        return self._read(session_id, f"id >= ? AND kind != 'undo' AND id NOT IN ({VOIDED_IN_SESSION})",
                          [since_id, session_id])

    def last_effective(self, session_id: int, kind: str | None = None) -> LoggedEvent | None:
        """The last effective event (of ``kind``, if given)."""
        where = f"kind != 'undo' AND id NOT IN ({VOIDED_IN_SESSION})"
        args: list[int | str] = [session_id]
        if kind:
            where, args = where + " AND kind = ?", args + [kind]
        found = self._read(session_id, where, args, "id DESC", " LIMIT 1")
        return found[0] if found else None

    def undone_ids(self, session_id: int) -> set[int]:
        """The id of every event of a session that an undo names."""
        return {r[0] for r in self.conn.execute(VOIDED_IN_SESSION, [session_id])}

    def checkpoint_seqs(self, session_id: int, kind: str, first_seq: int = 1) -> list[int]:
        """The seq of every effective (never undone) event of ``kind`` in a session (from
        ``first_seq`` on), in order."""
        return [r[0] for r in self.conn.execute(
            f"SELECT seq FROM events WHERE session_id = ? AND kind = ? AND seq >= ? AND id NOT IN "
            f"({VOIDED_IN_SESSION}) ORDER BY seq",
            [session_id, kind, first_seq, session_id])]

    def last_checkpoint_seq(self, session_id: int, kind: str, last_seq: int | None = None) -> int | None:
        """The seq of the last effective event of ``kind`` (numbered ``last_seq`` at most)."""
        row = self.conn.execute(
            f"SELECT seq FROM events WHERE session_id = ? AND kind = ? AND seq <= ? AND id NOT IN "
            f"({VOIDED_IN_SESSION}) ORDER BY id DESC LIMIT 1",
            [session_id, kind, last_seq if last_seq is not None else 2 ** 62, session_id]).fetchone()
        return row[0] if row else None

    def stray_rows(self, session_id: int, after_event: int = 0) -> tuple[int, int]:
        """How many of a session's payments, and how many of its tallies (of the events after
        ``after_event``), belong to no event of that session or say another hand than their event."""
        return tuple(self.conn.execute(
            f"SELECT count(*) FROM {table} r LEFT JOIN events e ON e.id = r.event_id "
            "WHERE r.session_id = ? AND r.event_id > ? "
            "AND (e.id IS NULL OR e.session_id != r.session_id OR r.hand IS NOT e.hand)",
            [session_id, after_event]).fetchone()[0] for table in ("payments", "tallies"))

    def event_hands(self, session_id: int, after_seq: int = 0) -> list[tuple[int, int | None]]:
        """(seq, hand) of each event after ``after_seq``, in order: where each hand lies in the log."""
        cur = self.conn.cursor()
        cur.row_factory = None  # plain tuples: a 10,000-hand night has 130,000 of them
        return cur.execute("SELECT seq, hand FROM events WHERE session_id = ? AND seq > ? ORDER BY seq",
                           [session_id, after_seq]).fetchall()

    def last_seq(self, session_id: int) -> int:
        seq: int = self.conn.execute("SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ?",
                                     [session_id]).fetchone()[0]
        return seq

    def balances(self, session_id: int) -> dict[str, int]:
        """Net chips per player and pool, from the running totals."""
        return {player: amount for player, amount in self.conn.execute(
            "SELECT player, amount FROM totals WHERE session_id = ? AND stat = ? AND amount != 0 ORDER BY player",
            [session_id, NET])}

    def tallies(self, session_id: int) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for player, stat, total in self.conn.execute(
                "SELECT player, stat, amount FROM totals WHERE session_id = ? AND stat != ? AND amount != 0",
                [session_id, NET]):
            out.setdefault(player, {})[stat] = total
        return out

    def hand_nets(self, session_id: int) -> dict[tuple[int, str], int]:
        """Each player's net chips per hand (hand 0: outside any hand), from the running totals."""
        cur = self.conn.cursor()
        cur.row_factory = None  # plain tuples: a 10,000-hand night has 150,000 of them
        return {(hand, player): net for hand, player, net in cur.execute(
            "SELECT hand, player, net FROM hand_totals WHERE session_id = ? AND net != 0", [session_id])}


