"""The `pan` commands that record, made from the games' declarations (pancli/games/actions.py).

An ``Action`` becomes a Typer command: an argument or an --option for each ``Param`` (many
words or one, required or not, the click type of its kind from cli/params.py, its metavar), its
help the declaration's (``Action.command_help``), and its run the events the declaration builds.
The callback is one function with a built ``__signature__``: typer reads it as it reads a
written one, so the help, the usage and the errors are a written command's.

Two ways of reading the words. The game at the top (`pan meld`) reads each word in its click
type as click parses it, as the shell's fast path does too (cli/shell/direct.py); a game's own group
(`pan contract lay`) takes the words as they are and reads them against its session with the
readers the dealer's page uses (app/parameters.py).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import typer

import pancli.cli.params as types
from pancli.cli.context import app_context
from pancli.cli.groups import new_app
from pancli.cli.words.grammar import multiword_command
from pancli.core.hints import CLI, wording
from pancli.games import game
from pancli.games.actions import CARD_EACH, CARDS, COUNT, FLAG, IN_HAND, MELD, MELDS, PLAYER, Action, Param, read_melds

# What a command does with its words: (the action, its words by the parameters' names).
Run = Callable[[Action, dict[str, Any]], object]

# The click type of each kind: at the top it reads the word (a player, cards); in a game's group
# only Tab's candidates come from it, and the command reads the word against its session.
_AT_TOP = {PLAYER: types.PLAYER, IN_HAND: types.PLAYER_IN_HAND, CARDS: types.CARDS, MELDS: types.MELDS,
           MELD: types.MELD}
_IN_GROUP = {PLAYER: types.NAME, IN_HAND: types.NAME, MELDS: types.MELDS, MELD: types.MELD}


def click_type(p: Param, at_top: bool) -> Any:
    if p.multiword:  # one text of several words, read by the action's own ``words``
        return None
    if p.read_as == COUNT:
        return types.CountType(p.noun, p.low, p.high)
    return (_AT_TOP if at_top else _IN_GROUP).get(p.read_as)


def annotation(p: Param) -> Any:
    if p.kind == FLAG:
        return bool
    one: Any = int if p.read_as in (COUNT, MELD) and not p.multiword else str
    shape: Any = list[one] if p.many else one
    return shape if p.required else shape | None


def parameter(p: Param, at_top: bool) -> inspect.Parameter:
    """The Typer parameter of ``p``, as a written command would declare it."""
    # a help that names a command is the command line's own wording of its code (cli/words/hints.py)
    given: dict[str, Any] = {"help": p.help if isinstance(p.help, str) else str(wording(p.help, CLI))}
    kind = click_type(p, at_top)
    if kind is not None:
        given["click_type"] = kind
    if p.metavar:
        given["metavar"] = p.metavar
    if p.option:
        # An option of many words is never click's "required": what the action needs and lacks is
        # refused in the table's words, by its own reading (`pan borrow ana` without --from); a
        # required option of one word is (`pan contract deal` without --out).
        default: Any = ... if p.required and not p.multiword else False if p.kind == FLAG else None
        names = (p.option, p.short) if p.short else (p.option,)
        info = typer.Option(default, *names, **given)
    else:
        info = typer.Argument(... if p.required else None, **given)
    return inspect.Parameter(p.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=info,
                             annotation=annotation(p))


def command_params(action: Action) -> list[Param]:
    """The command line's parameters: one for each of the command's names (borrow's --from holds
    two of the declaration's), then those of the command line alone."""
    seen: set[str] = set()
    out = []
    for p in (*action.params, *action.extra):
        if p.arg not in seen:
            seen.add(p.arg)
            out.append(p)
    return out


def callback(action: Action, run: Run, at_top: bool) -> Callable[..., object]:
    """The command's function: its words by the parameters' names, given to ``run``."""
    names = [(p.name, p.arg) for p in action.params]

    def command(**words: Any) -> object:
        return run(action, {name: words[arg] for name, arg in names})

    listed = [parameter(p, at_top) for p in command_params(action)]
    command.__signature__ = inspect.Signature(listed)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in listed}
    command.__name__ = command.__qualname__ = "_".join(action.command).replace("-", "_")
    command.__doc__ = action.command_help()
    return command


def add_commands(apps: Mapping[tuple[str, ...], typer.Typer], actions: Iterable[Action], run: Run,
                 at_top: bool) -> None:
    """Each action as a command of the app its words start with (``apps``: () for `pan` itself,
    ("seat",) for `pan seat …`, ("contract",) for `pan contract …`), in the order declared."""
    for action in actions:
        *path, name = action.command
        app = apps.get(tuple(path))
        if app is None:
            continue
        multiword = [n for p in action.params if p.multiword for n in (p.option, p.short) if n]
        cls = multiword_command(*multiword) if multiword else None
        app.command(name, cls=cls)(callback(action, run, at_top))


# -- the game at the top ----------------------------------------------------------------------

class CommandLineTable:
    """What an action's own reading needs (``pancli.games.actions.Table``) on the command line:
    the session's players, and cards read as `pan`'s CARDS type reads them."""

    def player(self, text: str) -> str:
        return app_context().open_recorder().player(text)

    def read_cards(self, text: str) -> tuple[str, ...]:
        return tuple(types.CARDS.convert(text, None, None))


def values_at_top(action: Action, words: dict[str, Any]) -> dict[str, Any]:
    """The values the action's builder takes from the words its click types read: the cards of
    several words in one list, melds grouped and read; or what its own reading makes of them."""
    table = CommandLineTable()
    if action.words is not None:
        return action.words(words, table)
    values = dict(words)
    for p in action.params:
        if p.kind == CARDS and p.many:
            values[p.name] = types.flat(words[p.name])
        elif p.kind == MELDS:
            values[p.name] = read_melds(list(words[p.name] or ()), table.read_cards)
    return values


# -- a game's own group ----------------------------------------------------------------------

def in_group(action: Action, words: dict[str, Any]) -> object:
    """Record the action of a game's group from its words as typed: each read against the session
    by the reader of its kind (cli/commands/other_games/game_commands.py ``record_action``)."""
    from pancli.cli.commands.other_games.game_commands import record_action  # noqa: PLC0415 only a game's own group records through it

    given: dict[str, Any] = {}
    for p in action.params:
        value = words.get(p.name)
        if isinstance(value, (list, tuple)) and p.kind == CARD_EACH:
            value = " ".join(value)  # NAME=CARD words, one text
        given[p.name] = value if value != () else None  # no words: not given
    return record_action(action.command[0], action.name, **given)


def game_group(name: str) -> typer.Typer:
    """`pan NAME …` of a game that writes no commands of its own: its declared actions whose
    command starts with its name (``GameBase.register_commands``)."""
    g = game(name)
    actions = [a for a in g.actions if len(a.command) == 2 and a.command[0] == name]
    example = next((a.example for a in actions if a.example), "")
    app = new_app(f"{g.title}." + (f"\n\nExample: {example}" if example else ""))

    @app.callback()
    def group() -> None:  # a group even of one command: `pan NAME VERB`, never `pan NAME`
        """"""

    add_commands({(name,): app}, actions, in_group, at_top=False)
    return app
