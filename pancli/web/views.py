"""What the pages show, shaped from the JSON objects: event lines, scores in words, a player's nights."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from pancli.core.text import payment_lines
from pancli.games.protocol import Game

if TYPE_CHECKING:
    from pancli.app.view_types import EventJson

GENERIC_TABLE = "table.html"  # the table page of a game without a template of its own
GENERIC_HAND = "_hand.html"    # and its hand in play, which the TV board shows too


class EventLine(TypedDict):
    """An event of the history as a page shows it."""

    seq: int
    hand: int | None
    kind: str
    text: str                # the event in words
    payments: list[str]      # each payment in a line, with its reason
    voided: bool
    people: set[str | None]  # who it names: who acts, pays or is paid (None: nobody acts)


def event_lines(events: list[EventJson]) -> list[EventLine]:
    """History events as people read them: the one-line event and its payments' reasons."""
    return [{"seq": e["seq"], "hand": e["hand"], "kind": e["kind"], "text": e["text"],
             "payments": payment_lines(e["payments"]), "voided": e["voided"],
             "people": {e["payload"].get("player")} | {p["payer"] for p in e["payments"]}
             | {p["payee"] for p in e["payments"]}} for e in events]


def night_points(nights: list[dict]) -> list[tuple[str, int]]:
    """The running net at the end of each date: two sessions on one date are one night's point."""
    by_date: dict[str, int] = {}
    running = 0
    for n in nights:
        running += n["net"]
        by_date[n["date"]] = running
    return list(by_date.items())


def table_template(g: Game) -> str:
    """The table page's template: the game's own (``Game.board_template``), else the generic one."""
    return g.board_template or GENERIC_TABLE


def seat_of(board: Mapping[str, Any], name: str | None) -> dict | None:
    """The player's place in the hand in play, if the board has a hand with players."""
    hand = board.get("hand")
    players = hand.get("players") if isinstance(hand, dict) else None
    if not name or not isinstance(players, list):
        return None
    return next((p for p in players if isinstance(p, dict) and p.get("name") == name), None)


def hand_template(g: Game) -> str:
    """The partial of the hand in play that the table page and the TV board share:
    table_panguingue.html's is _hand_panguingue.html; the generic table's, _hand.html."""
    table = table_template(g)
    return GENERIC_HAND if table == GENERIC_TABLE else "_hand_" + table.removeprefix("table_")
