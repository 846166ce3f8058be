"""The board of Polish Pan (`pan polish status --json`, its table page), for the type checker and
the tests."""

from typing import Any

from pancli.games.board import Board


class PolishBoard(Board):
    """`pan polish status --json`: the deals so far, each player's letters, who deals next."""

    word: str                       # the word the letters spell (P-A-N)
    deals: int
    losers: list[str | None]        # each deal's loser, None for a deal without one
    over: bool
    loser: str | None               # who completed the word
    next_dealer: str | None
    letters: dict[str, str]
    standings: list[dict[str, Any]]
    clock_minutes: int
