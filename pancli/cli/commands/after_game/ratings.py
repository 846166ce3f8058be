"""`pan ratings`: a season's ratings from each night's ranking (pancli/app/ratings.py)."""

from __future__ import annotations

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.options import JSON
from pancli.cli.output import console, english_for_json, print_json, say
from pancli.cli.render import column
from pancli.core.i18n import _, ngettext
from pancli.core.ratings import RATED_FROM
from pancli.games import DEFAULT_GAME

commands = command_set()  # what this module adds to `pan`


@commands.command("ratings")
def ratings_cmd(season: str = typer.Option("all", "--season", metavar="YEAR|all",
                                           help="The nights of a year (or all of them), from every device synced here."),
                game: str = typer.Option(DEFAULT_GAME, "--game", help="Which game's nights."),
                rated_from: int = typer.Option(RATED_FROM, "--rated-from", metavar="N",
                                               help="Nights a player needs before a rating shows."),
                as_json: bool = JSON) -> None:
    """Ratings of a season: each night ranks its table by the chips each seat ended with, and a
    rating (OpenSkill, Bradley–Terry) follows every player night by night, the persons of the
    club counted across every host.

    Example: pan ratings --season 2026
    """
    from rich.table import Table  # noqa: PLC0415 start-up: rich

    from pancli.app.ratings import season_ratings  # noqa: PLC0415 start-up: the app layer

    data = english_for_json(as_json, lambda: season_ratings(
        app_context().open_store(create=False), None if season == "all" else season, game, rated_from))
    if as_json:
        print_json(data)
        return
    out = console()
    from pancli.app.seasons import season_lines  # noqa: PLC0415 start-up: the app layer

    for line in season_lines(data):  # what a closed season leaves out, the seats unsure: said once
        say(line)
    if not data["players"]:
        out.print(_("No nights to rate in this season yet."))
        return
    title = _("Ratings") if data["season"] == "all" else _("Ratings {year}").format(year=data["season"])
    table = Table(title=title + " · " + ngettext("{n} night", "{n} nights", data["sessions"]).format(
        n=data["sessions"]), title_justify="left")
    for col in ("place", "player", "rating", "nights"):
        table.add_column(column(col), justify="left" if col == "player" else "right")
    for r in data["players"]:
        table.add_row("" if r["place"] is None else str(r["place"]), r["name"],
                      "-" if r["rating"] is None else f"{r['rating']:.1f}", str(r["nights"]))
    out.print(table)
    n = data["rated_from"]
    out.print(ngettext("A rating shows from {n} night played: a cautious estimate of skill, surer as "
                       "the nights add up.",
                       "A rating shows from {n} nights played: a cautious estimate of skill, surer as "
                       "the nights add up.", n).format(n=n))
