"""Any game's board JSON as people read it, for the generic table page (``table.html``).

A game without a template of its own still shows its table: ``Game.board`` returns plain JSON
data, and this turns it into sections of labelled values (lists as lists, rows of like
objects as a table, objects as labelled pairs), never a Python repr.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING

from pancli.core.i18n import _

if TYPE_CHECKING:
    from pancli.app.view_types import StandingsJson

SHOWN_ELSEWHERE = ("session", "game", "seats")  # the page's header and its list of seats


def label(key) -> str:
    """A key as a label: ``chips_this_hand`` → ``chips this hand``."""
    return str(key).replace("_", " ")


def heading(key) -> str:
    """A key as a heading: ``chips_this_hand`` → ``Chips this hand``."""
    text = label(key)
    return text[:1].upper() + text[1:]


def _scalar(value) -> bool:
    return value is None or isinstance(value, (str, int, float, Decimal))


def text(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def node(value) -> dict:
    """One value as a node the template draws: text, list, table or pairs (nested as deep as the data)."""
    if _scalar(value):
        return {"kind": "text", "text": text(value)}
    if isinstance(value, dict):
        if not value:
            return {"kind": "text", "text": _("none")}
        return {"kind": "pairs", "pairs": [(label(k), node(v)) for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        if not value:
            return {"kind": "text", "text": _("none")}
        if all(isinstance(v, dict) and v for v in value):
            columns = list(value[0])
            if all(list(v) == columns and all(_scalar(x) for x in v.values()) for v in value):
                return {"kind": "table", "columns": [label(c) for c in columns],
                        "rows": [[text(v[c]) for c in columns] for v in value]}
        return {"kind": "list", "entries": [node(v) for v in value]}
    return {"kind": "text", "text": text(value)}


def sections(board: Mapping[str, object]) -> list[tuple[str, dict]]:
    """The board's own parts, each under a heading from its key, in the board's order."""
    return [(heading(k), node(v)) for k, v in board.items() if k not in SHOWN_ELSEWHERE]


def standing_columns(standings: StandingsJson) -> list[str]:
    """The counts worth a column in ranked-by-net standings: the ones some player has."""
    keys = dict.fromkeys(k for row in standings["players"] for k in row if k not in ("name", "net", "money"))
    return [k for k in keys if any(row.get(k) for row in standings["players"])]
