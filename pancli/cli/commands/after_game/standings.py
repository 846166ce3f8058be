"""`pan standings`: per player, the session's or a season's nets, hands and counts."""

from __future__ import annotations

import typer

from pancli.app.views import standings_data
from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.options import JSON
from pancli.cli.output import console, english_for_json, print_json, say
from pancli.cli.params import SESSION
from pancli.cli.render import season_table, standings_table
from pancli.games import DEFAULT_GAME

commands = command_set()  # what this module adds to `pan`
SHARES_A_COMMIT = True  # a script's lines of these commands share its group commit (cli/shell/script.py)


@commands.command()
def standings(as_json: bool = JSON, name: str | None = typer.Option(None, "--session", click_type=SESSION, help="Session (default: current)."),
              season: str | None = typer.Option(None, "--season", metavar="YEAR|all",
                                                   help="Every session of a year (or all of them), from every device synced here."),
              game: str = typer.Option(DEFAULT_GAME, "--game", help="With --season: which game's sessions.")) -> None:
    """Per player: net chips (and money), hands played, won, dropped, conditions collected.

    Example: pan standings --season 2026
    """
    if season is not None:
        from pancli.app.reports import season_standings  # noqa: PLC0415 start-up: the app layer

        data = english_for_json(as_json, lambda: season_standings(app_context().open_store(create=False),
                                                                  None if season == "all" else season, game))
        if as_json:
            print_json(data)
        else:
            from pancli.app.seasons import season_lines  # noqa: PLC0415 start-up: the app layer

            console().print(season_table(data))
            for line in season_lines(data):  # what a closed season leaves out, the seats unsure: said once
                say(line)
        return

    standings = english_for_json(as_json, lambda: standings_data(app_context().open_recorder(name)))
    if as_json:
        print_json(standings)
    else:
        console().print(standings_table(standings))
