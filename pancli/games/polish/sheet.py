"""Polish Pan's score sheet: for each deal the letter its loser took, each player's letters so
far, and who completed the word and lost the game."""

from __future__ import annotations

from typing import Any

from pancli.core.i18n import _, pgettext
from pancli.games.polish.engine import GameState


def sheet(state: GameState) -> dict[str, Any]:
    word, players = state.rules.word, list(state.players)
    held = [0] * len(players)
    rows: list[dict[str, Any]] = []
    for number, loser in enumerate(state.deals, 1):
        before = list(held)
        if loser is not None:
            seat = players.index(loser)
            held[seat] = min(len(word), held[seat] + 1)
        if number == len(state.deals):
            held = list(state.letters)  # a flag that loses the game takes every letter at once
        rows.append({"number": number, "note": loser or pgettext("loser", "nobody"),
                     "scores": [word[b:h] for b, h in zip(before, held)],
                     "running": [word[:h] for h in held]})
    result = (_("{player} completed {word} and loses the game.").format(player=state.loser, word=word)
              if state.loser else None)
    return {"unit": "letters", "round": "deal", "signed": False, "note_label": pgettext("sheet column", "loser"),
            "caption": _("the letter of {word} each deal's loser took, the letters held below (fewest is "
                         "best)").format(word=word),
            "players": players, "rows": rows, "totals": [state.letters_of(p) for p in players], "result": result}
