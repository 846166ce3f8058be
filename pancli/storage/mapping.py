"""From SQL rows to the typed rows of pancli/core/rows.py: the one place that knows both shapes.

A column added to ``sessions`` is read here (and written by the statement in store.py that
inserts it); one added to ``events``, ``payments`` or ``tallies`` is read and written here
(EVENT_COLUMNS, ``event_rows``, ``event_values`` and their kin), beside its field of
``LoggedEvent``, ``Payment`` or ``Tally``; the INSERTs and `pan db check`'s columns are made from
the row classes of core/rows.py (EventRow, PaymentRow, TallyRow).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from pancli.core.ledger import NO_PARAMS, Params, Payment, Tally
from pancli.core.rows import EventRow, LoggedEvent, PaymentRow, Session, TallyRow

SESSION_COLUMNS = ("id, name, game, created_at, players, dealer, rules, chip_value, closed_at, origin, device, uid, "
                   "currency, language")
# An undo's event by seq: storage gives back seqs (events name each other so), and stores row ids.
# Only an event of the undo's own session has a seq here: one of another session is none.
UNDONE_SEQ = "(SELECT u.seq FROM events u WHERE u.id = events.undo_of AND u.session_id = events.session_id)"
EVENT_COLUMNS = f"id, seq, hand, kind, payload, created_at, {UNDONE_SEQ}"
PAYMENT_COLUMNS = "event_id, payer, payee, chips, code, params, reason"
TALLY_COLUMNS = "event_id, player, stat, amount"
# Every column, in the order `pan db check` reads and digests them: the fields of its rows (a
# column added to a table is added to its row class, or an edit of it would escape the check:
# tests/test_dbcheck_marks.py).
ALL_EVENT_COLUMNS = ", ".join(EventRow._fields)
ALL_PAYMENT_COLUMNS = ", ".join(PaymentRow._fields)
ALL_TALLY_COLUMNS = ", ".join(TallyRow._fields)


def _insert(table: str, row: Any) -> str:
    """The INSERT of a row of ``table``: every column of its row class but the id SQLite gives,
    in the class's order (``event_values``, ``payment_rows`` and ``tally_rows`` give them so)."""
    columns = row._fields[1:]
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


INSERT_EVENT = _insert("events", EventRow)
INSERT_PAYMENT = _insert("payments", PaymentRow)
INSERT_TALLY = _insert("tallies", TallyRow)


def session_row(row: Any) -> Session:
    """A row of ``SELECT {SESSION_COLUMNS} FROM sessions``."""
    sid, name, game, created_at, players, dealer, rules, chip_value, closed_at, origin, device, uid, currency, language = row
    return Session(sid, name, game, created_at, tuple(json.loads(players)), dealer, json.loads(rules),
                   chip_value, closed_at, origin, device, uid, currency, language)


def session_rows(rows: Iterable[Any]) -> list[Session]:
    """``session_row`` of many rows (a season's), each different text of house rules parsed once:
    a host's sessions share theirs. Each session has its own dict of them (the lists in it are
    shared, as nothing changes a session's rules once read)."""
    parsed: dict[str, dict[str, Any]] = {}
    out = []
    for sid, name, game, created_at, players, dealer, rules, chip_value, closed_at, origin, device, uid, currency, \
            language in rows:
        knobs = parsed.get(rules)
        if knobs is None:
            knobs = parsed[rules] = json.loads(rules)
        out.append(Session(sid, name, game, created_at, tuple(json.loads(players)), dealer, dict(knobs),
                           chip_value, closed_at, origin, device, uid, currency, language))
    return out


def event_rows(rows: Iterable[Sequence[Any]], voided_by: dict[int, int], payments: dict[int, list[Payment]],
               tallies: dict[int, list[Tally]]) -> list[LoggedEvent]:
    """Rows of ``SELECT {EVENT_COLUMNS} FROM events``, with the seq of the undo voiding each (by
    event id) and their payments and tallies (lists by event id, as ``add_payments`` and
    ``add_tallies`` fill them)."""
    loads = json.loads
    get = voided_by.get
    return [LoggedEvent(seq, kind, loads(payload), hand, created_at, undo_of, get(eid),
                        tuple(payments[eid]), tuple(tallies[eid]), eid)
            for eid, seq, hand, kind, payload, created_at, undo_of in rows]


def event_values(session_id: int, e: LoggedEvent, created_at: str, target: int | None) -> list[Any]:
    """The values of INSERT_EVENT for ``e``, stored at ``created_at``; ``target``: the row id of
    the event an undo voids."""
    return [session_id, e.seq, e.hand, e.kind, json.dumps(e.payload, ensure_ascii=False), created_at, target]


def payment_rows(event_id: int, session_id: int, hand: int | None, payments: Sequence[Payment],
                 reasons: Sequence[str]) -> list[tuple[Any, ...]]:
    """The rows of INSERT_PAYMENT for one event's payments, each with its reason as worded."""
    return [(event_id, session_id, hand, p.payer, p.payee, p.chips, reason, p.code, p.params.to_json())
            for p, reason in zip(payments, reasons)]


def tally_rows(event_id: int, session_id: int, hand: int | None, tallies: Sequence[Tally]) -> list[tuple[Any, ...]]:
    """The rows of INSERT_TALLY for one event's tallies."""
    return [(event_id, session_id, hand, t.player, t.stat, t.amount) for t in tallies]


def add_payments(rows: Iterable[Sequence[Any]], into: dict[int, list[Payment]]) -> None:
    """Rows of ``SELECT {PAYMENT_COLUMNS} FROM payments`` as Payments, appended to their event's
    list in ``into`` (rows of other events are left out). Each distinct params text is read once."""
    params: dict[str, Params] = {}
    for eid, payer, payee, chips, code, text, reason in rows:
        found = into.get(eid)
        if found is None:
            continue
        if code is None:  # written by pancli 0.1
            found.append(Payment(payer, payee, chips, None, NO_PARAMS, None, reason))
            continue
        p = params.get(text)
        if p is None:
            p = params[text] = Params.from_json(text) if text is not None else NO_PARAMS
        found.append(Payment(payer, payee, chips, code, p, None, reason))


class StoredEvent(NamedTuple):
    """An event as a reader of its words alone gets it (`pan history`): its payload and payments
    as stored, the JSON texts: the payload, and the payments' rows as one JSON array of arrays
    (payer, payee, chips, code, params, reason), "" for none, read with
    ``payload_of`` and worded (app/history_stream.py ``row_lines``) only by a reader that has not
    met the same text before (a long night says its drops and pools thousands of times)."""

    seq: int
    hand: int | None
    payload: str
    undo_of: int | None                  # an undo: the seq of the event it voids
    voided_by: int | None                # the seq of the undo that voids this event, if any
    payments: str


def payload_of(text: str) -> dict[str, Any]:
    """A payload as ``StoredEvent`` holds it, read."""
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def stored_payment(row: PaymentRow) -> Payment:
    """A payment from its row (as `pan db check` reads them)."""
    code, text = row.code, row.params
    params = Params.from_json(text) if code is not None and text is not None else NO_PARAMS
    return Payment(row.payer, row.payee, row.chips, code, params, None, row.reason)


def stored_tally(row: TallyRow) -> Tally:
    """A tally from its row."""
    return Tally(row.player, row.stat, row.amount)


def add_tallies(rows: Iterable[Sequence[Any]], into: dict[int, list[Tally]]) -> None:
    """Rows of ``SELECT {TALLY_COLUMNS} FROM tallies`` as Tallies, appended as ``add_payments`` does."""
    for eid, player, stat, amount in rows:
        found = into.get(eid)
        if found is not None:
            found.append(Tally(player, stat, amount))
