"""`pan contract …`: Mendelev's five-deal contract rummy, the first of the other games called Pan.

Recording commands write events to the current session through the same recorder as
Panguingue, so `pan undo`, `pan history` and `pan standings` work for it unchanged. The dispute
commands (`check`, `buy`) need no session at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import typer

from pancli.app.views import board_data
from pancli.cli.action_commands import add_commands, in_group
from pancli.cli.commands.other_games.game_commands import (
    game_recorder,
    rules_options,
    seat_list,
    seat_name,
)
from pancli.cli.groups import new_app
from pancli.cli.options import JSON
from pancli.cli.output import print_json, say
from pancli.cli.params import MELDS, CountType
from pancli.core.errors import InputError
from pancli.core.grouping import MELDS_HELP, meld_texts
from pancli.core.i18n import _, ngettext
from pancli.core.words import signed
from pancli.games import game as get_game
from pancli.storage.catalogs import speaking

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from pancli.games.contract.board import ContractBoard

contract_app = new_app("Mendelev's five-deal contract rummy: record contracts, lay-offs and deal scores; "
                       "settle disputed contracts and «May I?» buys.\n\n"
                       "Example: pan contract lay ana 7S 7H 7D / QC QD QS")



def in_english() -> AbstractContextManager[None]:
    """The block speaks English: what `--json` prints stays the same in every language."""
    return speaking("en")

_C_PRESET, _C_RULES = rules_options("contract", "mendelev", "mendelev, contract")


# == contract rummy =======================================================================

# The recording commands: the game's declared actions (pancli/games/contract/actions.py).
add_commands({("contract",): contract_app}, get_game("contract").actions, in_group, at_top=False)


@contract_app.command("status")
def contract_status(as_json: bool = JSON) -> None:
    """The deal in play: its contract, who deals, the numbered melds on the table, and the running totals.

    Example: pan contract status --json
    """
    from pancli.games.contract.engine import summary  # noqa: PLC0415 start-up: the game engine

    recorder = game_recorder("contract")
    if as_json:
        with in_english():  # --json is for scripts: its texts stay English in every language
            print_json(board_data(recorder))
        return
    data = cast("ContractBoard", board_data(recorder))  # the board of its game
    if data["over"]:
        say(summary(recorder.state()))
        return
    say(_("{session} · deal {deal} of {deals} · contract: {contract} · {dealer} deals").format(
        session=data["session"], deal=data["deal"], deals=data["deals"], contract=data["contract"],
        dealer=data["dealer"]))
    for m in data["table"]:
        line = (_("  meld {number}: {cards}  ({owner}'s set)") if m["kind"] == "set"
                else _("  meld {number}: {cards}  ({owner}'s sequence)"))
        say(line.format(number=m["number"], cards=m["shown"], owner=m["owner"]))
    if data["down"]:
        say(_("Contracts down: {players}").format(players=", ".join(data["down"])))
    if data["out"]:
        if data["left"]:
            say(_("{player} went out; cards left recorded for: {players}").format(
                player=data["out"], players=", ".join(data["left"])))
        else:
            say(_("{player} went out; cards left recorded for: nobody yet").format(player=data["out"]))
    say(_("Totals: {totals}").format(
        totals=", ".join(f"{r['player']} {signed(r['score'], zero='+0')}" for r in data["standings"])))


@contract_app.command("check")
def contract_check(
    melds: list[str] = typer.Argument(..., metavar="MELDS", click_type=MELDS, help=f"The lay-down, {MELDS_HELP}."),
    deal: int = typer.Option(..., "--deal", "-d", click_type=CountType("a deal number", 1, 1000), help="Which deal's contract (1-5)."),
    preset: str | None = _C_PRESET,
    rules_file: str | None = _C_RULES,
    as_json: bool = JSON,
) -> None:
    """Is this lay-down exactly the deal's contract? Needs no session.

    Exit status: 0 legal, 1 not legal under the house rules, 2 bad input.

    Example: pan contract check --deal 1 7S 7H 7D / QC QD QS
    """
    from pancli.app.rulesfile import resolve as resolve_rules  # noqa: PLC0415 start-up: the app layer
    from pancli.games.contract.engine import classify_meld, describe_contract, parse_melds, validate_contract  # noqa: PLC0415 start-up: the game engine

    rules = resolve_rules(preset, rules_file, "contract")
    laid = parse_melds(meld_texts(melds))
    if not laid:
        raise InputError(_("no melds given"), _("write the lay-down, e.g. 7S 7H 7D / QC QD QS"))
    verdict = validate_contract(rules, deal, laid)
    if as_json:
        with in_english():  # --json is for scripts: its texts stay English in every language
            verdict = validate_contract(rules, deal, laid)
            data = {"deal": deal, "contract": describe_contract(deal), "legal": verdict.legal,
                    "reason": verdict.reason,
                    "melds": [{"cards": [c.code for c in m], "kind": kind, "description": what}
                              for m in laid for kind, what in [classify_meld(m, rules)]]}
        print_json(data)
    elif verdict.legal:
        say(_("Legal: {reason}").format(reason=verdict.reason))
    else:
        say(_("Not legal: {reason}").format(reason=verdict.reason))
    raise typer.Exit(0 if verdict.legal else 1)


@contract_app.command("buy")
def contract_buy(
    discarder: str = typer.Option(..., "--discarder", metavar="NAME", help="Who discarded the card."),
    asker: str = typer.Option(..., "--asker", metavar="NAME", help="Who asks «May I?» to buy it."),
    seats: str = typer.Option(..., "--seats", metavar="A,B,C", help="Every player in playing order."),
    refused_by: str | None = typer.Option(None, "--refused-by", metavar="NAME",
                                             help="The first player asked who said no (everyone before agreed)."),
    cards: int = typer.Option(1, "--cards", click_type=CountType("a number of cards", 0, 1000),
                              help="How many cards off the top of the pack are bought."),
    preset: str | None = _C_PRESET,
    rules_file: str | None = _C_RULES,
    as_json: bool = JSON,
) -> None:
    """Rule on buying the discard: who must agree, what the buyer or a refuser takes, who plays next.

    The turn after a buy follows house rule buy_turn: from_buyer (the default, players passed over
    lose their turn) or unchanged (preset contract). Needs no session.
    Exit status: 0 the request stands, 1 it is not allowed, 2 bad input.

    Example: pan contract buy --discarder A --asker D --refused-by C --seats A,B,C,D
    """
    from pancli.app.rulesfile import resolve as resolve_rules  # noqa: PLC0415 start-up: the app layer
    from pancli.games.contract.engine import rule_buy  # noqa: PLC0415 start-up: the game engine

    rules = resolve_rules(preset, rules_file, "contract")
    table = seat_list(seats)
    d, a = seat_name(table, discarder), seat_name(table, asker)
    r = seat_name(table, refused_by) if refused_by else None
    ruling = rule_buy(rules, table, d, a, r, cards)
    if as_json:
        with in_english():  # --json is for scripts: its texts stay English in every language
            ruling = rule_buy(rules, table, d, a, r, cards)
    data = {"legal": ruling.legal, "reason": ruling.reason, "permission_from": list(ruling.permission_from),
            "taker": ruling.taker, "pack_cards": ruling.pack_cards, "deck_cards": ruling.deck_cards,
            "cards_gained": ruling.cards_gained, "discards": ruling.discards, "next_player": ruling.next_player,
            "skipped": list(ruling.skipped), "buy_turn": rules.buy_turn}
    if as_json:
        print_json(data)
        raise typer.Exit(0 if ruling.legal else 1)
    if not ruling.legal:
        say(_("Not allowed: {reason}").format(reason=ruling.reason))
        raise typer.Exit(1)
    say(_("Ruling: {reason}").format(reason=ruling.reason))
    if ruling.permission_from:
        say(_("Permission from: {players}").format(players=", ".join(ruling.permission_from)))
    else:
        say(_("Permission from: nobody"))
    taken = (ngettext("{player} takes {pack} pack + {deck} deck (+{n} card), then discards",
                      "{player} takes {pack} pack + {deck} deck (+{n} cards), then discards", ruling.cards_gained)
             if ruling.discards else
             ngettext("{player} takes {pack} pack + {deck} deck (+{n} card), discards nothing",
                      "{player} takes {pack} pack + {deck} deck (+{n} cards), discards nothing", ruling.cards_gained))
    say(taken.format(player=ruling.taker, pack=ruling.pack_cards, deck=ruling.deck_cards, n=ruling.cards_gained))
    if ruling.skipped:
        say(_("Next to play: {player}  (passed over: {players})").format(player=ruling.next_player,
                                                                        players=", ".join(ruling.skipped)))
    else:
        say(_("Next to play: {player}").format(player=ruling.next_player))
    raise typer.Exit(0 if ruling.legal else 1)
