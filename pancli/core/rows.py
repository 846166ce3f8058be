"""What storage gives back, as every layer above it reads it: a session and one event of its log.

Frozen values, one shape each: ``Store`` makes them (pancli/storage/mapping.py is the one place
that turns SQL rows into them), and the recorder, reports, archives, sync, views and the web read
them. An event's payments and tallies are the ledger's ``Payment`` and ``Tally``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One event of a session's log as stored, undos and voided events included."""

    id: int
    seq: int
    hand: int | None
    kind: str
    payload: dict[str, Any]
    created_at: str
    undo_of: int | None                 # an undo: the id of the event it voids
    voided_by: int | None               # the id of the undo that voids this event, if any
    payments: tuple[Payment, ...]       # in the order they were written
    tallies: tuple[Tally, ...]

    @property
    def effective(self) -> bool:
        """Neither an undo nor undone."""
        return self.kind != "undo" and self.voided_by is None
