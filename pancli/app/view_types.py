"""What the views of pancli/app/views.py give `--json` and the pages, where its shape is fixed.

For the type checker only: import it under ``TYPE_CHECKING`` (the views return plain dicts, the
JSON `--json` prints). The standings and the history whole stay open JSON for now: the pages
add to them (the page shown, a game's own columns).
"""

from typing import TypedDict

from pancli.core.json_types import JsonObject


class SessionListRow(TypedDict):
    """One session of `pan session list --json`."""

    name: str
    game: str
    created_at: str
    players: list[str]
    closed: bool
    current: bool
    device: str | None
    device_label: str | None
    recorded_here: bool  # else brought in by `pan sync`, read-only here


class PaymentJson(TypedDict):
    """One payment of an event of `pan history --json`."""

    event_id: int
    payer: str
    payee: str
    chips: int
    reason: str
    code: str | None         # null if stored by pancli 0.1
    params: JsonObject | None


class EventJson(TypedDict):
    """One event of `pan history --json`."""

    seq: int
    hand: int | None
    kind: str
    text: str                # the event in words
    payload: JsonObject
    created_at: str
    voided: bool
    undo_of: int | None
    payments: list[PaymentJson]

