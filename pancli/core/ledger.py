"""What one recorded event does: chips that move, counters that change, lines to say.

Every game's pure core returns a Step from applying one event; storage keeps the
payments and tallies beside the event, so standings are sums over effective events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TOPS = "(tops)"    # the chips on the foot of the stock until someone wins them
HOUSE = "(house)"  # a house collection leaves the players for good
POOLS = (TOPS, HOUSE)


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    chips: int
    reason: str

    def line(self) -> str:
        return f"{self.payer} pays {self.payee} {self.chips}: {self.reason}"


@dataclass(frozen=True)
class Tally:
    """A counter for standings and reports: hands played, won, dropped, conditions, points."""

    player: str
    stat: str
    amount: int = 1


@dataclass
class Step:
    """The result of applying one event to a game state."""

    state: Any
    payments: list[Payment] = field(default_factory=list)
    tallies: list[Tally] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
