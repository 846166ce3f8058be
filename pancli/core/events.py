"""The payload of each kind of event, as a type: what the actions' builders make and the engines'
handlers read.

One TypedDict per kind and game, written from the declarations of pancli/core/payloads.py and
each game's ``PAYLOADS`` (tests/test_events.py holds the two to each other: the same fields,
of the same types, a nullable one ``NotRequired[... | None]``). A field that is not nullable
is ``NotRequired`` only where an event is stored without it: a Panguingue deal before the core
adds its seats and number, a contract game's hand given as cards or as points.

For the type checker only: import it under ``TYPE_CHECKING`` (a stored event is plain JSON, and
nothing here is made or checked at run time; the archive check and the recorder check payloads
against the declarations). No ``from __future__ import annotations``: ``NotRequired`` must be
read when a class is made, for ``__required_keys__``.
"""

from typing import Any, Literal, NotRequired, TypedDict

# -- every game's: the bank, and the undo the recorder writes -----------------------------------


class BuyinEvent(TypedDict):
    kind: Literal["buyin"]
    player: str
    chips: int


class CashoutEvent(TypedDict):
    kind: Literal["cashout"]
    player: str
    chips: int


class UndoEvent(TypedDict):
    kind: Literal["undo"]
    undid: str
    seq: int


BankEvent = BuyinEvent | CashoutEvent


# -- Panguingue ----------------------------------------------------------------------------------


class SeatAddEvent(TypedDict):
    kind: Literal["seat_add"]
    player: str
    after: NotRequired[str | None]


class SeatRemoveEvent(TypedDict):
    kind: Literal["seat_remove"]
    player: str


class PanDealEvent(TypedDict):
    kind: Literal["deal"]
    dealer: NotRequired[str | None]
    seats: NotRequired[list[str]]      # added by the core when it is stored (Panguingue.enrich)
    hand: NotRequired[int | None]


class DropEvent(TypedDict):
    kind: Literal["drop"]
    player: str


class StayEvent(TypedDict):
    kind: Literal["stay"]
    player: str


class MeldEvent(TypedDict):
    kind: Literal["meld"]
    player: str
    cards: list[str]


class AddEvent(TypedDict):
    kind: Literal["add"]
    player: str
    cards: list[str]
    to: NotRequired[int | None]


class SplitEvent(TypedDict):
    kind: Literal["split"]
    player: str
    meld: NotRequired[int | None]
    into: list[str]                    # each part's cards, a space between them


# "from" and "with" are keywords: the functional form.
BorrowEvent = TypedDict("BorrowEvent", {"kind": Literal["borrow"], "player": str, "from": int, "cards": list[str],
                                        "with": list[str]})


class SpreadEvent(TypedDict):
    kind: Literal["spread"]
    player: str
    melds: list[str]                   # each meld's cards, a space between them


class PanOutEvent(TypedDict):
    kind: Literal["out"]
    player: str
    cards: list[str]
    to: NotRequired[int | None]


class FoulEvent(TypedDict):
    kind: Literal["foul"]
    player: str
    after_discard: bool
    meld: NotRequired[int | None]


class DeadEvent(TypedDict):
    kind: Literal["dead"]
    player: str


class VoidEvent(TypedDict):
    kind: Literal["void"]


class ChopEvent(TypedDict):
    kind: Literal["chop"]


PanguingueEvent = (SeatAddEvent | SeatRemoveEvent | PanDealEvent | DropEvent | StayEvent | MeldEvent | AddEvent
                   | SplitEvent | BorrowEvent | SpreadEvent | PanOutEvent | FoulEvent | DeadEvent | VoidEvent
                   | ChopEvent)


# -- the contract game ---------------------------------------------------------------------------


class ContractEvent(TypedDict):
    kind: Literal["contract"]
    player: str
    melds: list[list[str]]             # each meld of the contract, as its cards


class LayOffEvent(TypedDict):
    kind: Literal["lay_off"]
    player: str
    meld: NotRequired[int | None]
    cards: list[str]


class ContractOutEvent(TypedDict):
    kind: Literal["out"]
    player: str
    discard: NotRequired[str | None]


class HandEvent(TypedDict):
    kind: Literal["hand"]
    player: str
    cards: NotRequired[list[str]]      # the cards left, or
    points: NotRequired[int | None]    # their value as counted at the table


class ContractDealEvent(TypedDict):
    """A whole deal at once (an archive or a rules file): who went out, every other hand."""

    kind: Literal["deal"]
    out: NotRequired[str | None]
    discard: NotRequired[str | None]
    hands: dict[str, Any]              # name: cards, or points
    contracts: NotRequired[dict[str, Any]]  # name: melds


ContractGameEvent = ContractEvent | LayOffEvent | ContractOutEvent | HandEvent | ContractDealEvent


# -- Polish Pan ----------------------------------------------------------------------------------


class PolishDealEvent(TypedDict):
    kind: Literal["deal"]
    loser: NotRequired[str | None]


class ClockFlagEvent(TypedDict):
    kind: Literal["clock_flag"]
    player: str


PolishEvent = PolishDealEvent | ClockFlagEvent


# Each declaration's kinds and their types, for the test that holds them to each other.
BANK_TYPES: dict[str, type] = {"buyin": BuyinEvent, "cashout": CashoutEvent, "undo": UndoEvent}
GAME_TYPES: dict[str, dict[str, type]] = {
    "panguingue": {"seat_add": SeatAddEvent, "seat_remove": SeatRemoveEvent, "deal": PanDealEvent, "drop": DropEvent,
                   "stay": StayEvent, "meld": MeldEvent, "add": AddEvent, "split": SplitEvent, "borrow": BorrowEvent,
                   "spread": SpreadEvent, "out": PanOutEvent, "foul": FoulEvent, "dead": DeadEvent,
                   "void": VoidEvent, "chop": ChopEvent},
    "contract": {"contract": ContractEvent, "lay_off": LayOffEvent, "out": ContractOutEvent, "hand": HandEvent,
                 "deal": ContractDealEvent},
    "polish": {"deal": PolishDealEvent, "clock_flag": ClockFlagEvent},
}
