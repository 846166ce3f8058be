"""`pan player`: one player's career, night by night."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import typer

from pancli.cli.commands.after_game.common import colored
from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.options import JSON
from pancli.cli.output import console, english_for_json, print_json
from pancli.cli.params import KNOWN_PLAYER
from pancli.cli.render import column, count_cell
from pancli.core.i18n import N_, _, ngettext
from pancli.core.words import signed, signed_money
from pancli.games import GAMES

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from pancli.core.json_types import JsonObject

commands = command_set()  # what this module adds to `pan`


# What a career counts, as a whole message each: `won 5`, `dropped 7`.
CAREER_COUNTS = {"won": N_("won {n}"), "dropped": N_("dropped {n}")}


@commands.command("player")
def player_cmd(name: str = typer.Argument(..., click_type=KNOWN_PLAYER,
                                          help="The player (a unique start of the name is enough)."),
               as_json: bool = JSON) -> None:
    """Career stats across all sessions: nights, hands, win and drop rates, net over time, best night.

    Example: pan player ana
    """
    from pancli.app.persons import player_career  # noqa: PLC0415 start-up: the app layer

    store = app_context().open_store(create=False)
    data = english_for_json(as_json, lambda: player_career(store, name))
    if as_json:
        print_json(data)
        return
    out = console()
    _print_career(out, data)
    if data["opponents"]:
        out.print()
        out.print(_opponents_table(data["opponents"]))


def _print_career(out: Console, data: Mapping[str, Any]) -> None:
    games = data["games"]
    if not games or (len(games) == 1 and games[0]["in_chips"]):  # one game played for chips: as always shown
        _print_career_in_chips(out, data["player"], data, data["nights"], data["favourite_condition"])
        return
    # several games, or one in points or letters: game by game, each in its own terms and columns
    sessions = ngettext("{n} session", "{n} sessions", data["sessions"]).format(n=data["sessions"])
    # Translators: a player or a game, then what it counts: "Ana: 3 sessions."
    out.print(_("{name}: {counts}.").format(name=data["player"], counts=sessions))
    favourite = data["favourite_condition"]

    for g in games:
        out.print()
        known = GAMES.get(g["game"])
        title = _(known.title) if known is not None else g["game"]
        if g["in_chips"]:
            _print_career_in_chips(out, title, g, g["nights"], favourite)
            favourite = None  # said once, with the first game played for chips
            continue
        n = g["sessions"]
        out.print(_("{name}: {counts}.").format(name=title, counts=ngettext("{n} session", "{n} sessions", n).format(n=n)))
        out.print(_career_table(g["nights"], g["columns"], chips=False))


def _print_career_in_chips(out: Console, name: str, data: Mapping[str, Any], nights: Sequence[JsonObject],
                           favourite: Mapping[str, Any] | None) -> None:
    """A career (or a game of it) played for chips: counts and net, the best night, the favourite
    condition, the net over time and a row per night."""
    from pancli.app.career import RATES  # noqa: PLC0415 start-up: the app layer
    from pancli.app.reports import sparkline  # noqa: PLC0415 start-up: the app layer
    from pancli.core.numbers import date_text  # noqa: PLC0415 start-up: decimal

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{x * 100:.0f}%"

    counts = [ngettext("{n} session", "{n} sessions", data["sessions"]).format(n=data["sessions"])]
    if "hands" in data:
        counts.append(ngettext("{n} hand", "{n} hands", data["hands"]).format(n=data["hands"]))
    for stat, rate in RATES.items():  # won 5 (25%), dropped 7 (35%): what the player's games count
        if stat in data:
            counted = _(CAREER_COUNTS[stat]).format(n=data[stat]) if stat in CAREER_COUNTS else f"{stat} {data[stat]}"
            counts.append(counted + (f" ({pct(data[rate])})" if rate in data else ""))
    if data["money"] is not None:
        out.print(_("{player}: {counts}, net {net} ({money}).").format(
            player=name, counts=", ".join(counts), net=signed(data["net"]),
            money=signed_money(data["money"], zero="+0.00", currency=data.get("currency"))))
    else:
        out.print(_("{player}: {counts}, net {net}.").format(player=name, counts=", ".join(counts),
                                                             net=signed(data["net"])))
    if data["best_night"]:
        b = data["best_night"]
        out.print(_("Best night: {session} ({date}) {net}.").format(session=b["session"], date=date_text(b["date"]),
                                                                    net=signed(b["net"])))
    if favourite:
        out.print(ngettext("Favourite condition: {condition} ({n} time).",
                           "Favourite condition: {condition} ({n} times).", favourite["times"]).format(
            condition=favourite["condition"], n=favourite["times"]))
    if nights:
        running = [r["running"] for r in nights]
        out.print(_("Net over time: {chart} {net}").format(
            chart=sparkline(running, min(running + [0]), max(running + [0])), net=signed(running[-1])))
        from pancli.app.career import career_columns  # noqa: PLC0415 start-up: the app layer

        out.print(_career_table(nights, career_columns(nights), chips=True))


def _opponents_table(rows: Sequence[Mapping[str, Any]]) -> Table:
    """A record against each regular opponent: nights together and the chips taken from them."""
    from rich.table import Table  # noqa: PLC0415 start-up: rich

    from pancli.app.persons import REGULAR  # noqa: PLC0415 start-up: the app layer

    table = Table(title=ngettext("Against regular opponents (from {n} night together)",
                                 "Against regular opponents (from {n} nights together)", REGULAR).format(n=REGULAR),
                  title_justify="left")
    for col in ("opponent", "nights", "net"):
        table.add_column(column(col), justify="left" if col == "opponent" else "right")
    for r in rows:
        table.add_row(r["name"], str(r["nights"]), signed(r["net"]))
    return table


def _career_table(nights: Sequence[JsonObject], columns: Sequence[str], chips: bool) -> Table:
    """A row per night: date, session, (net,) the counts of its game (, running net)."""
    from rich.table import Table  # noqa: PLC0415 start-up: rich

    from pancli.core.numbers import date_text  # noqa: PLC0415 start-up: decimal

    table = Table(title_justify="left")
    for col in ("date", "session", *(["net"] if chips else []), *columns, *(["running"] if chips else [])):
        table.add_column(column(col), justify="left" if col in ("date", "session") else "right")
    for r in nights:
        counts = [str(r.get(c, "-")) if chips else count_cell(c, r.get(c, 0)) for c in columns]
        if chips:
            table.add_row(date_text(r["date"]), r["session"], colored(r["net"]), *counts, signed(r["running"]))
        else:
            table.add_row(date_text(r["date"]), r["session"], *counts)
    return table
