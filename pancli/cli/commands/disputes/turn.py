"""`pan turn`: rule on a turn situation (taking a discard, the drawn card, a discard before a flat
player, forcing) the way `pan check` rules on a meld.

At the top only what `pan --help` loads anyway; the rules engine is loaded inside the commands.
"""

from __future__ import annotations

import shutil
import sys
from typing import TYPE_CHECKING, NoReturn

import typer

from pancli.cli.groups import command_set, new_app
from pancli.cli.options import json_option
from pancli.cli.output import english_for_json, output_width, print_json
from pancli.cli.params import MELDS
from pancli.cli.words.grammar import multiword_command
from pancli.cli.words.help_texts import PRESET_HELP, RULES_HELP
from pancli.core.errors import InputError
from pancli.core.grouping import MELDS_HELP, has_separator, meld_texts
from pancli.core.i18n import N_, _
from pancli.core.text import wrap_words

if TYPE_CHECKING:
    from pancli.games.panguingue.rules import HouseRules
    from pancli.games.panguingue.turns import TurnRuling

commands = command_set()  # what this module adds to `pan`
SHARES_A_COMMIT = True  # a script's lines of these commands share its group commit (cli/shell/script.py)

turn_app = new_app("Rule on a turn: may a discard be taken, what becomes of the drawn card, may a card be "
                   "discarded before a flat player, must a discard be taken (forcing).\n\n"
                   "Exit status: 0 allowed, 1 not allowed, 2 bad input.\n\n"
                   "Example: pan turn take 5S --from stock --hand 5S 5S")
commands.add_typer(turn_app, name="turn")

# Options that take several words: --hand 5S 5S, --melds 5S 5S 5S / AH 2H 3H.
_TurnCommand = multiword_command("--hand", "--melds", "--next-flat")

_CARD_HELP = "The card, such as 5S or 5♠."
_HAND_HELP = "The player's hand cards, such as 5S 5S 4H (none for an empty hand)."
_MELDS_HELP = f"The player's own {MELDS_HELP}."
_FLAT_HELP = f"The melds of the next player when they are flat (ten cards melded): {MELDS_HELP}."
_FROM_HELP = "Where the top discard came from: stock (rejected stock card), hand, or upcard."

_Preset = typer.Option(None, "--preset", "-p", metavar="PRESET", help=PRESET_HELP)
_Rules = typer.Option(None, "--rules", metavar="FILE", help=RULES_HELP)
_Json = json_option("Print JSON instead of text.")


@turn_app.command("take", cls=_TurnCommand)
def take(
    card: str = typer.Argument(..., metavar="CARD", help=_CARD_HELP),
    origin: str | None = typer.Option(None, "--from", metavar="stock|hand|upcard", help=_FROM_HELP),
    hand: str | None = typer.Option(None, "--hand", metavar="CARD...", help=_HAND_HELP),
    melds: str | None = typer.Option(None, "--melds", metavar="MELDS", click_type=MELDS, help=_MELDS_HELP),
    first_turn: bool = typer.Option(False, "--first-turn", help="The eldest's first turn: the card is the upcard."),
    json_: bool = _Json,
    preset: str | None = _Preset,
    rules_file: str | None = _Rules,
) -> None:
    """May the player take the top discard? Only a rejected stock card (or the upcard) that they
    melds at once, by default.

    Exit status: 0 they may take it, 1 they may not, 2 bad input.

    Example: pan turn take 5S --from stock --hand 5S 5S

    Example: pan turn take QH --from upcard --melds "6H 7H JH" --json
    """
    from pancli.games.panguingue.turns import UPCARD, may_take  # noqa: PLC0415 start-up: the game engine

    rules = _rules(preset, rules_file)
    if origin is None:
        if not first_turn:
            _bad(_("say where the top discard came from"), _("add --from stock, --from hand or --from upcard"))
        origin = UPCARD
    ruling = english_for_json(json_, lambda: may_take(_card(card, rules), _origin(origin), _hand(hand, rules),
                                            _melds(melds, rules), rules, first_turn=first_turn))
    _emit(_top(card, origin, rules), ruling, json_, (N_("may take"), N_("may not take")))


@turn_app.command("drawn", cls=_TurnCommand)
def drawn(
    card: str = typer.Argument(..., metavar="CARD", help=_CARD_HELP),
    hand: str | None = typer.Option(None, "--hand", metavar="CARD...", help=_HAND_HELP + " Before the draw."),
    melds: str | None = typer.Option(None, "--melds", metavar="MELDS", click_type=MELDS, help=_MELDS_HELP),
    next_flat: str | None = typer.Option(None, "--next-flat", metavar="MELDS", click_type=MELDS, help=_FLAT_HELP),
    json_: bool = _Json,
    preset: str | None = _Preset,
    rules_file: str | None = _Rules,
) -> None:
    """What must the player do with the card they drew from the stock? Meld it or discard it, never
    keep it, unless it would feed a flat next player.

    Exit status: 0 they may keep it in their hand, 1 they may not, 2 bad input.

    Example: pan turn drawn 4C --hand 5S 5S --melds "AH 2H 3H"

    Example: pan turn drawn QH --hand 2C 4D --next-flat "6H 7H JH | 5S 5S 5S | KH KD KC KS"
    """
    from pancli.games.panguingue.turns import drawn_card  # noqa: PLC0415 start-up: the game engine

    rules = _rules(preset, rules_file)
    ruling = english_for_json(json_, lambda: drawn_card(_card(card, rules), _hand(hand, rules), _melds(melds, rules), rules,
                                              next_flat=_melds(next_flat, rules) or None))
    # Translators: {card} is a card such as 4♣
    _emit(_("{card} drawn from the stock").format(card=_show(card, rules)), ruling, json_,
          (N_("may keep it"), N_("may not keep it")))


@turn_app.command("discard", cls=_TurnCommand)
def discard(
    card: str = typer.Argument(..., metavar="CARD", help=_CARD_HELP),
    next_flat: str | None = typer.Option(None, "--next-flat", metavar="MELDS", click_type=MELDS, help=_FLAT_HELP),
    hand: str | None = typer.Option(None, "--hand", metavar="CARD...",
                                       help="Every card they could discard: when all of them fit the flat "
                                            "player's melds, any discard is allowed."),
    json_: bool = _Json,
    preset: str | None = _Preset,
    rules_file: str | None = _Rules,
) -> None:
    """May the player discard this card? Not one that fits the melds of the flat player after them.

    Exit status: 0 they may discard it, 1 they may not, 2 bad input.

    Example: pan turn discard QH --next-flat "6H 7H JH | 5S 5S 5S | KH KD KC KS"
    """
    from pancli.games.panguingue.turns import may_discard  # noqa: PLC0415 start-up: the game engine

    rules = _rules(preset, rules_file)
    ruling = english_for_json(json_, lambda: may_discard(_card(card, rules), _melds(next_flat, rules) or None, rules,
                                               hand=None if hand is None else _hand(hand, rules)))
    _emit(_("discard {card}").format(card=_show(card, rules)), ruling, json_,
          (N_("may discard it"), N_("may not discard it")))


@turn_app.command("force", cls=_TurnCommand)
def force(
    card: str = typer.Argument(..., metavar="CARD", help=_CARD_HELP),
    origin: str = typer.Option(..., "--from", metavar="stock|hand|upcard", help=_FROM_HELP),
    melds: str | None = typer.Option(None, "--melds", metavar="MELDS", click_type=MELDS, help=_MELDS_HELP),
    demanded: bool = typer.Option(False, "--demanded", help="A player demanded that they take it."),
    json_: bool = _Json,
    preset: str | None = _Preset,
    rules_file: str | None = _Rules,
) -> None:
    """Must the player take the top discard because it fits one of their melds (forcing)?

    Exit status: 0 they must take it, 1 they need not, 2 bad input.

    Example: pan turn force 5S --from stock --melds "5S 5S 5S" --demanded
    """
    from pancli.games.panguingue.turns import must_take  # noqa: PLC0415 start-up: the game engine

    rules = _rules(preset, rules_file)
    ruling = english_for_json(json_, lambda: must_take(_card(card, rules), _origin(origin), _melds(melds, rules), rules,
                                             demanded=demanded))
    _emit(_top(card, origin, rules), ruling, json_, (N_("must take it"), N_("need not take it")))


# -- helpers ------------------------------------------------------------------------------


def _bad(message: str, hint: str) -> NoReturn:
    raise InputError(message, hint)


def _rules(preset: str | None, rules_file: str | None) -> HouseRules:
    from pancli.app.rulesfile import resolve  # noqa: PLC0415 start-up: the app layer

    rules: HouseRules = resolve(preset, rules_file)  # pan turn is Panguingue's: its rules
    return rules


def _origin(origin: str) -> str:
    from pancli.games.panguingue.turns import ORIGINS  # noqa: PLC0415 start-up: the game engine

    value = origin.strip().lower()
    if value not in ORIGINS:
        _bad(_("--from '{origin}' is not a place a discard comes from").format(origin=origin),
             _("use --from stock, hand or upcard"))
    return value


def _card(token: str, rules: HouseRules) -> str:
    from pancli.games.panguingue.cards import parse_card  # noqa: PLC0415 start-up: the game engine

    return parse_card(token, rules.rank_set)


def _show(token: str, rules: HouseRules) -> str:
    from pancli.games.panguingue.cards import format_card  # noqa: PLC0415 start-up: the game engine

    return format_card(_card(token, rules))


# Where the top discard came from (the --from word), for people.
_WHERE = {"stock": N_("{card} (rejected stock card)"), "hand": N_("{card} (discarded from a hand)"),
          "upcard": N_("{card} (the upcard)")}


def _top(token: str, origin: str, rules: HouseRules) -> str:
    return _(_WHERE[origin.strip().lower()]).format(card=_show(token, rules))


def _hand(text: str | None, rules: HouseRules) -> tuple[str, ...]:
    from pancli.games.panguingue.cards import parse_cards  # noqa: PLC0415 start-up: the game engine

    if not text:
        return ()
    if has_separator([text]):
        _bad(_("a hand is not melds"), _("give the hand cards without / between them"))
    return parse_cards(text, rules.rank_set)


def _melds(value: object, rules: HouseRules) -> list[tuple[str, ...]]:
    """The melds of a MeldsType option (``pancli.core.grouping``), read under these rules."""
    from pancli.games.panguingue.cards import parse_cards  # noqa: PLC0415 start-up: the game engine

    if not value:
        return []
    words = value if isinstance(value, tuple) else (str(value),)
    return [parse_cards(text, rules.rank_set) for text in meld_texts(words)]


def _emit(title: str, ruling: TurnRuling, as_json: bool, words: tuple[str, str]) -> NoReturn:
    if as_json:
        print_json(ruling.to_json())
    else:
        verdict = _(words[0] if ruling.allowed else words[1])
        lines = [_("{situation}: {verdict}").format(situation=title, verdict=verdict), f"  {ruling.reason}"]
        if ruling.must:
            lines.append("  " + _("must: {what}").format(what=ruling.must))

        width = output_width() or _terminal_width()
        sys.stdout.write("".join(x + "\n" for line in lines for x in wrap_words(line, width)))
    raise typer.Exit(0 if ruling.allowed else 1)


def _terminal_width() -> int:
    return shutil.get_terminal_size((80, 24)).columns
