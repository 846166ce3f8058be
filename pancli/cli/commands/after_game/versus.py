"""Head-to-head: `pan versus PLAYER OTHER`, every chip that passed between two people."""

from __future__ import annotations

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.options import JSON
from pancli.cli.output import console, english_for_json, print_json
from pancli.core.i18n import N_, _, ngettext

commands = command_set()  # what this module adds to `pan`

# Translators: {net} is the chips one player took from the other (+12) or gave (-3)
KIND_WORDS = {"conditions": N_("{net} in conditions"), "going_out": N_("{net} going out"),
              "drops": N_("{net} in drops"), "tops": N_("{net} in the tops"), "other": N_("{net} otherwise")}


@commands.command("versus")
def versus_cmd(player: str = typer.Argument(..., help="A player: a person of the club, or a name typed at tables."),
               other: str = typer.Argument(..., help="The other player."),
               as_json: bool = JSON) -> None:
    """Head-to-head in exact chips: every chip that passed between two players, from the payments
    themselves (conditions, going out, drops and tops each apart), night by night.

    Example: pan versus Ana Ben
    """
    from pancli.app.persons import versus  # noqa: PLC0415 start-up: the app layer
    from pancli.core.numbers import date_text, signed_number  # noqa: PLC0415 start-up: decimal

    data = english_for_json(as_json, lambda: versus(app_context().open_store(create=False), player, other))
    if as_json:
        print_json(data)
        return
    a, b, n = data["player"]["name"], data["other"]["name"], data["nights"]
    out = console()
    if not n:
        out.print(_("{player} and {other} have never sat at the same table.").format(player=a, other=b), markup=False)
        return
    out.print(ngettext("{player} against {other}: {net} chips over {n} night together.",
                       "{player} against {other}: {net} chips over {n} nights together.", n).format(
        player=a, other=b, net=signed_number(data["net"]), n=n), markup=False)
    for kind, chips in data["by_kind"].items():
        if chips:
            out.print("  " + _(KIND_WORDS[kind]).format(net=signed_number(chips)), markup=False)
    for night in data["sessions"]:
        out.print("  " + _("{date} {session}: {net}").format(date=date_text(night["date"]), session=night["session"],
                                                               net=signed_number(night["net"])), markup=False)
