"""What every game's board holds (`pan board --json`, the web view), for the type checker.

``Game.board`` gives the table now as JSON-ready data; each game's own TypedDict (its
``board.py``) adds its parts to ``Board``. Nothing loads these at run time: the games import
them under ``TYPE_CHECKING`` (tests/test_view_types.py holds them to the JSON).
"""

from typing import TypedDict


class Board(TypedDict):
    """The table now, JSON-ready (`pan board --json`, the web view): what every game's board
    holds. Each game's own TypedDict adds its parts (a board of Panguingue: the hand in play)."""

    session: str


class SeatsBoard(Board):
    """The board of a game that shapes none of its own (``GameBase.board``)."""

    game: str
    seats: list[str]
