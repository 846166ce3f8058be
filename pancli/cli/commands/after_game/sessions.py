"""`pan sessions` and `pan session list`: the one lister of the sessions in the database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pancli.app.views import session_list_data, standing_words
from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.options import JSON
from pancli.cli.output import console, english_for_json, print_json
from pancli.cli.render import column
from pancli.core.i18n import _
from pancli.core.text import wrap_words
from pancli.core.words import signed

commands = command_set()  # what this module adds to `pan`


@commands.command("sessions")
def sessions_cmd(as_json: bool = JSON) -> None:
    """Every session: date, players, hands and the biggest winner (the current one is marked).

    Example: pan sessions --json
    """
    from rich.table import Table  # noqa: PLC0415 start-up: rich

    from pancli.app.reports import sessions_overview  # noqa: PLC0415 start-up: the app layer
    from pancli.core.numbers import date_text  # noqa: PLC0415 start-up: decimal

    store = app_context().open_store(create=False)
    rows = english_for_json(as_json, lambda: sessions_overview(store))
    if as_json:
        print_json(rows)
        return
    if not rows:
        console().print(_("No sessions yet: start one with `pan session new NAME --players A,B,C`."))
        return
    games = len({r["game"] for r in rows}) > 1  # one game's name in every row says nothing
    table = Table(title_justify="left")
    for col in ("", "date", "session", *(["game"] if games else []), "players", "hands", "biggest winner"):
        table.add_column(column(col) if col else "", justify="right" if col == "hands" else "left")
    for r in rows:
        w = r["biggest_winner"]
        mark = "*" if r["current"] else ""
        name = r["name"] + (" " + _("(closed)") if r["closed"] else "")
        if not r["recorded_here"]:
            name += " " + _("(read-only, from {device})").format(device=r["device_label"] or r["device"][:8])
        if r.get("leader"):  # a game scored in points or letters: its leader in its own terms
            best = standing_words({"players": [r["leader"]], "columns": r["leader"]["columns"]})[0]
        else:
            best = f"{w['name']} {signed(w['net'])}" if w else "-"
        table.add_row(mark, date_text(r["date"]), name, *([r["game"]] if games else []), ", ".join(r["players"]),
                      str(r["hands"]), best)
    out = console()
    out.print(table)
    for line in _sessions_legend(rows):
        out.print(line)


def _sessions_legend(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """What the marks of the list of sessions mean, in sentences that fit the width."""
    lines = [_("* the current session.")] if any(r["current"] for r in rows) else []
    if not all(r["recorded_here"] for r in rows):
        lines.append(_("A session from another device is read-only here: it is recorded on that device, and "
                       "`pan sync` brings its new events."))
    return [part for line in lines for part in wrap_words(line, console().width)]


def list_briefly(as_json: bool) -> None:
    """`pan session list`: a line a session, its device if it is recorded elsewhere."""
    rows = english_for_json(as_json, lambda: session_list_data(app_context().open_store(create=False)))
    if as_json:
        print_json(rows)
        return
    from pancli.core.numbers import date_text  # noqa: PLC0415 start-up: decimal

    out = console()
    for r in rows:
        mark = "*" if r["current"] else " "
        closed = " " + _("(closed)") if r["closed"] else ""
        device = r["device_label"] or (r["device"] or "")[:8] or _("another device")
        away = "" if r["recorded_here"] else " " + _("(recorded on {device}, read-only here)").format(device=device)
        line = f"  {r['name']}  {r['game']}  {date_text(r['created_at'])}  {', '.join(r['players'])}{closed}{away}"
        first, *more = wrap_words(line, out.width)  # indented as a row of its own: more lines under the name
        for part in [mark + first[1:], *more]:
            out.print(part, soft_wrap=True)
