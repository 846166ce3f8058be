"""`pan seat add|remove`: players arrive and leave between hands, made from the game's declarations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pancli.cli.action_commands import add_commands
from pancli.cli.groups import command_set, new_app
from pancli.cli.record import record_action
from pancli.games import default_game

if TYPE_CHECKING:
    from pancli.games.actions import Action

commands = command_set()  # what this module adds to `pan`
SHARES_A_COMMIT = True  # a script's lines of these commands share its group commit (cli/shell/script.py)


seat_app = new_app("Players arrive and leave between hands.\n\nExample: pan seat add Eve --after Ben")
commands.add_typer(seat_app, name="seat")


def _seat_actions() -> list[Action]:
    """The default game's declared actions under `pan seat`."""
    return [a for a in default_game().actions if a.command[0] == "seat"]


add_commands({("seat",): seat_app}, _seat_actions(), record_action, at_top=True)
