"""The board of the contract game (`pan contract status --json`, its table page), for the type
checker and the tests."""

from typing import Any, TypedDict

from pancli.games.board import Board


class TableMeld(TypedDict):
    """A meld on the contract game's table, numbered as `pan contract layoff` names it."""

    number: int
    owner: str
    kind: str
    cards: list[str]     # stored codes
    shown: str           # the cards for people


class ContractBoard(Board):
    """`pan contract status --json`: the deal in play, its contract, the table and the totals."""

    deal: int
    deals: int
    contract: str                        # the contract in words
    contract_counts: dict[str, int]      # sets and sequences it asks for
    dealer: str
    over: bool
    down: list[str]                      # who has laid their contract down
    out: str | None
    table: list[TableMeld]
    left: dict[str, int]                 # points of the cards left, as recorded so far
    totals: dict[str, int]
    history: list[dict[str, int]]        # each deal's points per player
    standings: list[dict[str, Any]]
    scoring: str                         # "signed" or "penalty"
    winners: list[str]
