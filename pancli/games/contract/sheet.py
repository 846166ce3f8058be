"""The contract game's score sheet: each deal's points, the contract it was played for, the
running totals, and who won once the fifth deal is scored."""

from __future__ import annotations

from typing import Any

from pancli.core.i18n import _, pgettext
from pancli.core.words import signed as with_sign
from pancli.games.contract.engine import DEALS, GameState, describe_contract, winners


def sheet(state: GameState) -> dict[str, Any]:
    signed = state.rules.scoring == "signed"
    running = [0] * len(state.players)
    rows = []
    for number, changes in enumerate(state.history, 1):
        running = [r + c for r, c in zip(running, changes)]
        rows.append({"number": number, "note": describe_contract(number), "scores": list(changes),
                     "running": running})
    caption = (_("points each deal, the running total below (highest wins)") if signed
               else _("points each deal, the running total below (lowest wins)"))
    return {"unit": "points", "round": "deal", "signed": signed, "note_label": pgettext("sheet column", "contract"),
            "caption": caption,
            # the contract game's own word for its rounds (Russian says розыгрыш, not a hand's сдача)
            "round_by": pgettext("contract game", "Deal by deal"), "round_one": pgettext("contract game", "deal"),
            "players": list(state.players), "rows": rows, "totals": list(state.totals),
            "result": _result(state, signed)}


def _result(state: GameState, signed: bool) -> str | None:
    if not state.over:
        if not state.history:
            return None
        return _("Deal {deal} of {deals} is next: {contract}.").format(deal=state.deal, deals=DEALS,
                                                                       contract=describe_contract(state.deal))
    best = winners(state)
    score = with_sign(state.total(best[0]), zero="+0") if signed else str(state.total(best[0]))
    if len(best) == 1:
        return _("{player} wins the game with {points}.").format(player=best[0], points=score)
    return _("{first} and {last} share first place with {points}.").format(
        first=", ".join(best[:-1]), last=best[-1], points=score)
