"""What a Polish Pan table records (`pan polish …`): each deal's loser, or none (see
pancli/games/actions.py). A fallen flag of the chess clock is recorded by `pan clock`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pancli.core.i18n import N_
from pancli.games.actions import PLAYER, Action, Param

if TYPE_CHECKING:
    from pancli.core.events import PolishDealEvent


def _lost(v: Mapping[str, Any]) -> list[PolishDealEvent]:
    return [{"kind": "deal", "loser": v["player"]}]


def _nolose(v: Mapping[str, Any]) -> list[PolishDealEvent]:
    return [{"kind": "deal", "loser": None}]


ACTIONS = (
    Action("lost", ("polish", "lost"),
           N_("Record a deal's loser: they take the next letter; completing P-A-N loses the game."),
           N_("Lost the deal"), (Param("player", PLAYER, N_("The player left holding cards."), arg="name"),),
           _lost, ("deal",), example="pan polish lost ben"),
    Action("nolose", ("polish", "nolose"),
           N_("Record a deal that ended with no loser (the last two went out together): no letter."),
           N_("No loser"), (), _nolose, ("deal",), example="pan polish nolose"),
)

# The 24-card pack: nines to aces.
PACK = tuple(rank + suit for rank in ("9", "T", "J", "Q", "K", "A") for suit in "SHDC")
