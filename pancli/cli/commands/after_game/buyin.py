"""`pan buyin`: a player buys chips from the bank, which settle-up counts."""

from __future__ import annotations

import typer

from pancli.cli.groups import command_set
from pancli.cli.params import CHIPS, PLAYER
from pancli.cli.record import record

commands = command_set()  # what this module adds to `pan`
SHARES_A_COMMIT = True  # a script's lines of these commands share its group commit (cli/shell/script.py)


@commands.command()
def buyin(name: str = typer.Argument(..., click_type=PLAYER, help="Who buys chips."),
          chips: int = typer.Argument(..., click_type=CHIPS, help="How many chips.")):
    """A player buys chips from the bank; settle-up counts it.

    Example: pan buyin ana 100
    """
    record({"kind": "buyin", "player": name, "chips": chips})
