"""What the views of pancli/app/views.py give `--json` and the pages, where its shape is fixed.

For the type checker only: import it under ``TYPE_CHECKING`` (the views return plain dicts, the
JSON `--json` prints). A player's row of the standings stays open JSON: its columns are the
tallies its game keeps. So does a game's board past what every board holds: each game shapes its
own (``Game.board``).
"""

from typing import Any, NotRequired, TypedDict

from pancli.core.json_types import JsonObject
from pancli.core.settle import SettlementJson
from pancli.games.board import Board


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


class StandingsJson(TypedDict):
    """`pan standings --json`: a row per player (net chips, the game's tallies, money when a chip
    has a value), the pools and the sum of the balances (0 in a sound ledger)."""

    session: str
    game: str
    chip_value: Any                  # a Decimal, or None: printed as a number
    players: list[JsonObject]
    pools: dict[str, int]
    sum: int
    columns: NotRequired[list[str]]  # a game scored in points or letters: its own columns
    currency: NotRequired[str]       # the session's (ISO 4217), only when it has one


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


class HistoryJson(TypedDict):
    """`pan history --json` (all of it, one hand's, or the events a reader picked)."""

    session: str
    events: list[EventJson]


class HistoryPageJson(HistoryJson):
    """One page of the history, as the pages read it: its hands, newest last, and where it is."""

    hands: list[int | None]  # None: the events before the first hand
    page: int                # 1 is the newest
    pages: int


class SettleJson(SettlementJson):
    """`pan settle --json`: the session's name, then the settlement (pancli/core/settle.py)."""

    session: str


# `pan board --json` (`pan contract status --json`, `pan polish status --json`) and /api/board: the
# table now, as its game shapes it. Every board names its session; the rest is the game's own
# TypedDict (PanguingueBoard, ContractBoard, PolishBoard in each game's game.py), read as open JSON
# by what shows any game's board (the generic page, the dealer's view).
BoardJson = Board
