"""`pan polish …`: Polish Pan (P-A-N), the shedding game, the second of the other games called Pan.

Recording commands write events to the current session through the same recorder as
Panguingue; the dispute commands (`check`, `deal-sizes`) need no session at all. Its chess clock
is `pan clock` (cli/commands/other_games/clock.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import typer
from typer.core import TyperCommand

from pancli.app.views import board_data
from pancli.cli.action_commands import add_commands, in_group
from pancli.cli.commands.other_games.game_commands import game_recorder, rules_options, seat_list, seat_name
from pancli.cli.groups import new_app
from pancli.cli.options import JSON
from pancli.cli.output import print_json, say
from pancli.cli.params import CountType
from pancli.core.errors import InputError
from pancli.core.i18n import _, ngettext
from pancli.games import game as get_game
from pancli.storage.catalogs import speaking

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from typer._click.core import Context  # the copy of click that typer runs

    from pancli.games.frenchpack import Card
    from pancli.games.polish.board import PolishBoard

polish_app = new_app("Polish Pan (P-A-N): record each deal's loser, check plays and pickups, deal sizes.\n\n"
                     "Example: pan polish lost ben")



def in_english() -> AbstractContextManager[None]:
    """The block speaks English: what `--json` prints stays the same in every language."""
    return speaking("en")

_P_PRESET, _P_RULES = rules_options("Polish Pan", "standard", "standard, piki-cofane, beton, timed")


# == Polish Pan ===========================================================================

# The recording commands: the game's declared actions (pancli/games/polish/actions.py).
add_commands({("polish",): polish_app}, get_game("polish").actions, in_group, at_top=False)


@polish_app.command("status")
def polish_status(as_json: bool = JSON) -> None:
    """Everyone's letters, the deals so far, and who deals next.

    Example: pan polish status
    """
    from pancli.games.polish.engine import summary  # noqa: PLC0415 start-up: the game engine

    recorder = game_recorder("polish")
    if as_json:
        with in_english():  # --json is for scripts: its texts stay English in every language
            print_json(board_data(recorder))
        return
    data = cast("PolishBoard", board_data(recorder))  # the board of its game
    say(summary(recorder.state()))
    if data["next_dealer"]:
        say(_("{player} deals next; the holder of the 9♥ opens.").format(player=data["next_dealer"]))


class _TakeCommand(TyperCommand):
    """Lets ``--take`` take an optional count: ``--take``, ``--take 2`` or ``--take=2``."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            if arg.startswith("--take="):
                out += ["--take", "--take-count", arg.split("=", 1)[1]]
            elif arg == "--take" and i + 1 < len(args) and args[i + 1].lstrip("-").isdigit():
                out += ["--take", "--take-count", args[i + 1]]
                i += 1
            else:
                out.append(arg)
            i += 1
        return super().parse_args(ctx, out)


def _polish_codes(text: str | None) -> list[Card]:
    from pancli.games.polish.engine import parse_cards  # noqa: PLC0415 start-up: the game engine

    return parse_cards(text or "")


@polish_app.command("check", cls=_TakeCommand)
def polish_check(
    pile: str = typer.Option("", "--pile", metavar="CARDS", help='The pile from the bottom (9H) to the top; "" for a new deal.'),
    play: str | None = typer.Option(None, "--play", metavar="CARDS", help="The cards played, in the order laid."),
    take: bool = typer.Option(False, "--take", help="Take from the pile instead of playing: --take or --take N."),
    take_count: int | None = typer.Option(None, "--take-count", click_type=CountType("a number of cards", 0, 1000), hidden=True),
    hand: str | None = typer.Option(None, "--hand", metavar="CARDS", help="The mover's hand, to check they hold the play."),
    seats: str | None = typer.Option(None, "--seats", metavar="A,B,C", help="The players clockwise, to say who moves next."),
    mover: str | None = typer.Option(None, "--mover", metavar="NAME", help="Who plays or takes (with --seats)."),
    out: str | None = typer.Option(None, "--out", metavar="A,B", help="Players already out of the deal."),
    preset: str | None = _P_PRESET,
    rules_file: str | None = _P_RULES,
    as_json: bool = JSON,
) -> None:
    """Is this play or pickup legal, why, what does a pickup take, and who moves next? Needs no session.

    Exit status: 0 legal, 1 not legal under the house rules, 2 bad input.

    Example: pan polish check --pile "9H 9S TD" --play JC --seats A,B,C --mover B
    """
    from pancli.app.rulesfile import resolve as resolve_rules  # noqa: PLC0415 start-up: the app layer
    from pancli.games.frenchpack import format_cards  # noqa: PLC0415 start-up: the game engine
    from pancli.games.polish.engine import check_play, check_take, next_player, take_choices  # noqa: PLC0415 start-up: the game engine

    rules = resolve_rules(preset, rules_file, "polish")
    if take_count is not None and not take:
        raise InputError(_("a count goes with --take"), _("write --take N"))
    if (play is None) == (not take):
        raise InputError(_("say what the mover does: --play CARDS or --take [N]"),
                         _('e.g. pan polish check --pile "9H TC" --take'))
    cards_on_pile = _polish_codes(pile)
    table = seat_list(seats) if seats else None
    who = None
    if mover is not None:
        if table is None:
            raise InputError(_("--mover needs --seats"), _("list the players clockwise: --seats A,B,C"))
        who = seat_name(table, mover)
    elif table is not None:
        raise InputError(_("--seats needs --mover"), _("say who plays or takes: --mover NAME"))
    gone = [seat_name(table, p) for p in (out or "").split(",") if p.strip()] if table else []
    if out and table is None:
        raise InputError(_("--out needs --seats and --mover"), _("list the players clockwise: --seats A,B,C"))
    data: dict[str, Any] = {"pile": [c.code for c in cards_on_pile]}
    held = _polish_codes(hand) if hand is not None else None
    if play is not None:
        played = _polish_codes(play)
        verdict = check_play(rules, cards_on_pile, played, held)
        if as_json:
            with in_english():  # --json is for scripts: its texts stay English in every language
                verdict = check_play(rules, cards_on_pile, played, held)
        after = cards_on_pile + played if verdict.legal else cards_on_pile
        data.update(action="play", cards=[c.code for c in played], legal=verdict.legal, reason=verdict.reason,
                    taken=[], choices=[])
    else:
        taking = check_take(rules, cards_on_pile, take_count)
        if as_json:
            with in_english():
                taking = check_take(rules, cards_on_pile, take_count)
        after = list(taking.pile) if taking.legal else cards_on_pile
        data.update(action="take", cards=[], legal=taking.legal, reason=taking.reason,
                    taken=[c.code for c in taking.taken], choices=take_choices(rules, cards_on_pile))
    data["pile_after"] = [c.code for c in after]
    data["next"] = next_player(rules, table, who, after, gone) if who and table is not None and data["legal"] else None
    if as_json:
        print_json(data)
        raise typer.Exit(0 if data["legal"] else 1)
    if not data["legal"]:
        say(_("Not legal: {reason}").format(reason=data["reason"]))
        raise typer.Exit(1)
    say(_("Legal: {reason}").format(reason=data["reason"]))
    shown = format_cards(after)
    say(_("Pile now: {cards}").format(cards=shown) if shown else _("Pile now: empty"))
    if data["next"]:
        say(_("Next to move: {player}").format(player=data["next"]))
    raise typer.Exit(0 if data["legal"] else 1)


@polish_app.command("deal-sizes")
def polish_deal_sizes(players: int = typer.Argument(..., click_type=CountType("a number of players", 0, 1000), help="How many players (2-6)."),
                      as_json: bool = JSON) -> None:
    """How many cards each player gets from the 24-card pack, in dealing order.

    Example: pan polish deal-sizes 5
    """
    from pancli.games.polish.engine import deal_sizes  # noqa: PLC0415 start-up: the game engine

    sizes = deal_sizes(players)
    if as_json:
        print_json({"players": players, "sizes": sizes})
        return
    say(ngettext("{n} player: {sizes}", "{n} players: {sizes}", players).format(
        n=players, sizes=", ".join(str(n) for n in sizes)))
