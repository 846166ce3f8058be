"""The board of Panguingue (`pan board --json`, the table page), for the type checker and the tests."""

from typing import TypedDict

from pancli.games.board import Board


class MeldJson(TypedDict):
    """A meld on the table, numbered as `pan add` and `pan foul` name it."""

    number: int
    cards: list[str]          # stored codes, in the order people lay them out
    condition: str            # its tag (pancli/games/panguingue/conditions.py)
    worth: int                # the chips it collects


class SeatJson(TypedDict):
    """A player of the hand in play."""

    name: str
    status: str               # "in", "dropped" or "dead"
    stayed: bool
    melded: int               # cards down
    melds: list[MeldJson]
    chips_this_hand: int


class NextHand(TypedDict, total=False):
    """Once a hand is over: who deals the next one and who is eldest."""

    next_dealer: str
    next_eldest: str


class HandJson(NextHand):
    """The hand in play (or the last one, once over)."""

    number: int
    dealer: str
    eldest: str
    over: bool
    result: str               # "in play", "void", "won by NAME", "tops chopped by A and B": English
    winner: str | None
    tops: int
    players: list[SeatJson]


class PanguingueBoard(Board):
    """`pan board --json`: the seats and the hand in play (None before the first deal)."""

    seats: list[str]
    hand: HandJson | None
