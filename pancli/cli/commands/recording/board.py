"""`pan board`: the current hand."""

from __future__ import annotations

from pancli.app.views import board_data
from pancli.cli.groups import command_set
from pancli.cli.options import JSON
from pancli.cli.output import console, english_for_json, print_json
from pancli.cli.record import pan_recorder
from pancli.cli.render import board_table

commands = command_set()  # what this module adds to `pan`
SHARES_A_COMMIT = True  # a script's lines of these commands share its group commit (cli/shell/script.py)


@commands.command()
def board(as_json: bool = JSON) -> None:
    """The current hand: dealer, eldest, who is in, everyone's numbered melds and worth, chips moved, tops.

    Example: pan board --json
    """
    recorder = pan_recorder()
    data = english_for_json(as_json, lambda: board_data(recorder))
    if as_json:
        print_json(data)
    else:
        console().print(board_table(data, recorder.game))
