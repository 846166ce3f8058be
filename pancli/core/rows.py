"""What storage gives back, as every layer above it reads it: a session and one event of its log.

Frozen values, one shape each: ``Store`` makes them (pancli/storage/mapping.py is the one place
that turns SQL rows into them), and the recorder, reports, archives, sync, views and the web read
them. An event's payments and tallies are the ledger's ``Payment`` and ``Tally``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from pancli.core.ledger import Payment, Tally


@dataclass(frozen=True, slots=True)
class Session:
    """One session: its header as created (players in seating order, every house-rule knob)."""

    id: int
    name: str
    game: str
    created_at: str
    players: tuple[str, ...]
    dealer: str | None
    rules: dict[str, Any]
    chip_value: float | None
    closed_at: str | None
    origin: str | None          # fingerprint of the archive it was imported from
    device: str | None          # with uid, its global id: the device that records it
    uid: str | None
    currency: str | None = None   # ISO 4217, when the host gave one: the chip value is in its minor units
    language: str | None = None   # the house language of the phone pages (a code of pancli.storage.catalogs.available())

    @property
    def mark(self) -> str:
        """What a tap of the dealer's phone names the session by: its global ``uid`` (a session
        without one, never seen in a database of this version, by its row id)."""
        return self.uid or f"id:{self.id}"

    @property
    def played(self) -> tuple[str, str, int]:
        """Where the session comes among others: when it began; two begun in one second, by the
        device that recorded them (so in one order on every host), then in the order that
        database holds them (on the device that recorded them, the order they began in)."""
        return self.created_at, self.device or "", self.id


class LoggedEvent(NamedTuple):
    """One event of a session's log, undos and voided events included: as storage gives it back
    and stores it, as an archive holds it, and as a replay reads it. Events name each other by
    seq, never by row id. A column of the log is a field here (at the end, with a default), read
    and written by pancli/storage/mapping.py and, if archived, by the archive's writer and reader.

    Immutable and cheap to make (a named tuple: a frozen dataclass costs three times as much to
    build, and a night is read and imported thousands of events at a time)."""

    seq: int
    kind: str
    payload: dict[str, Any]
    hand: int | None = None
    created_at: str | None = None       # None: not stored yet (stored as now)
    undo_of: int | None = None          # an undo: the seq of the event it voids
    voided_by: int | None = None        # the seq of the undo that voids this event, if any
    payments: tuple[Payment, ...] | None = None  # in the order written; None: not known (an archive
    tallies: tuple[Tally, ...] | None = None     # without payments; an archive holds no tallies)
    id: int | None = None               # the row id, once stored

    @property
    def effective(self) -> bool:
        """Neither an undo nor undone."""
        return self.kind != "undo" and self.voided_by is None


# The rows of `pan db check`, every column of ``events``, ``payments`` and ``tallies`` as it
# reads and digests them. The fields ARE the columns: the SQL that reads them is made from
# ``_fields`` (pancli/storage/mapping.py), so a column added to a table is added to its row, at
# the end, and nowhere else. Made by call, not by class statement: that would compile each
# field's annotation (this module is imported by every command; a class costs four times more).
EventRow = NamedTuple("EventRow", [  # noqa: UP014 start-up, above
    ("id", int), ("session_id", int), ("seq", int), ("hand", int | None), ("kind", str),
    ("payload", str),             # the JSON text, as stored
    ("created_at", str), ("undo_of", int | None),
])
PaymentRow = NamedTuple("PaymentRow", [  # noqa: UP014 start-up, above
    ("id", int), ("event_id", int), ("session_id", int), ("hand", int | None), ("payer", str), ("payee", str),
    ("chips", int),               # as stored: db check refuses any other number
    ("reason", str | None),
    ("code", str | None),         # None: written by pancli 0.1
    ("params", str | None),       # the JSON text, as stored
])
TallyRow = NamedTuple("TallyRow", [  # noqa: UP014 start-up, above
    ("id", int), ("event_id", int), ("session_id", int), ("hand", int | None), ("player", str), ("stat", str),
    ("amount", int),
])


@dataclass(frozen=True, slots=True)
class LogPiece:
    """The events numbered ``first_seq`` to ``last_seq`` of a session, with their payments and
    tallies, as `pan db check` reads them: ``text`` holds every column of every row (what its
    digest is taken of), and the rows are lists parsed from it, field by field of EventRow,
    PaymentRow and TallyRow (``Row._make`` names one), left empty when only the text was asked
    for. Lists, not named rows: making and reading those would cost a long check a tenth more
    (Python 3.11 reads a tuple's subclass on its slow path)."""

    first_seq: int
    last_seq: int
    text: str
    events: list[list[Any]]
    payments: list[list[Any]]
    tallies: list[list[Any]]


@dataclass(frozen=True, slots=True)
class CheckMark:
    """What `pan db check` verified of a session: every event up to ``last_seq`` (id
    ``last_event``), read in ``pieces`` (first seq, last seq, sha256 of the piece's text) whose
    digests, with the session's game, seats and rules, make ``digest``; the running totals of
    the hands below ``hands_below`` (over for good), whose rows make ``hands_digest``; by which
    pancli and SQLite."""

    session_id: int
    last_seq: int
    last_event: int
    digest: str
    pieces: tuple[tuple[int, int, str], ...]
    hands_below: int
    hands_digest: str
    pancli: str
    sqlite: str
    checked_at: str
