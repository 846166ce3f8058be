"""What a Polish Pan table records (`pan polish …`): each deal's loser, or none, and the flag that
fell on the chess clock (`pan clock` records it when it sees it fall); see pancli/games/actions.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pancli.core.i18n import N_
from pancli.games.actions import PLAYER, Action, Param

if TYPE_CHECKING:
    from pancli.core.events import ClockFlagEvent, PolishDealEvent


def _lost(v: Mapping[str, Any]) -> list[PolishDealEvent]:
    return [{"kind": "deal", "loser": v["player"]}]


def _nolose(v: Mapping[str, Any]) -> list[PolishDealEvent]:
    return [{"kind": "deal", "loser": None}]


def _flag(v: Mapping[str, Any]) -> list[ClockFlagEvent]:
    return [{"kind": "clock_flag", "player": v["player"]}]


ACTIONS = (
    Action("lost", ("polish", "lost"),
           N_("Record a deal's loser: they take the next letter; completing P-A-N loses the game."),
           N_("Lost the deal"), (Param("player", PLAYER, N_("The player left holding cards."), arg="name"),),
           _lost, ("deal",), example="pan polish lost ben"),
    Action("nolose", ("polish", "nolose"),
           N_("Record a deal that ended with no loser (the last two went out together): no letter."),
           N_("No loser"), (), _nolose, ("deal",), example="pan polish nolose"),
    # The command is the clock itself (cli/clock.py), which records this when the flag falls.
    Action("clock", ("clock",),
           N_("A chess clock for the current Polish Pan deal; a player whose time runs out loses the deal."),
           N_("Flag fell"), (Param("player", PLAYER, N_("Whose time ran out."), arg="name"),),
           _flag, ("clock_flag",), phone=False, example="pan clock --minutes 3 --first ana"),
)

# The 24-card pack: nines to aces.
PACK = tuple(rank + suit for rank in ("9", "T", "J", "Q", "K", "A") for suit in "SHDC")
