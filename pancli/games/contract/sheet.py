"""The contract game's score sheet: each deal's points, the contract it was played for, the
running totals, and who won once the fifth deal is scored."""

from __future__ import annotations

from typing import Any

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
    return {"unit": "points", "round": "deal", "signed": signed, "note_label": "contract",
            "caption": f"points each deal, the running total below ({'highest' if signed else 'lowest'} wins)",
            "players": list(state.players), "rows": rows, "totals": list(state.totals),
            "result": _result(state, signed)}


def _result(state: GameState, signed: bool) -> str | None:
    if not state.over:
        return f"Deal {state.deal} of {DEALS} is next: {describe_contract(state.deal)}." if state.history else None
    best = winners(state)
    score = with_sign(state.total(best[0]), zero="+0") if signed else str(state.total(best[0]))
    if len(best) == 1:
        return f"{best[0]} wins the game with {score}."
    return f"{', '.join(best[:-1])} and {best[-1]} share first place with {score}."
