"""`pan undo`: the last effective event voided with its payments."""

from __future__ import annotations

from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.output import echo
from pancli.core.i18n import _
from pancli.core.text import payment_lines

commands = command_set()  # what this module adds to `pan`
SHARES_A_COMMIT = True  # a script's lines of these commands share its group commit (cli/shell/script.py)


@commands.command()
def undo() -> None:
    """Void the last effective event with its payments; repeatable. The history keeps it, marked.

    Example: pan undo
    """
    recorder = app_context().open_recorder()
    last, voided = recorder.undo()
    echo(recorder.game.event_words({"kind": "undo", "undid": last.kind, "seq": last.seq}, last.payload))
    for line in payment_lines(voided):
        echo("  " + _("voided: {payment}").format(payment=line))
