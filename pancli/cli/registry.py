"""`pan` itself: the root group that finds a command where it lives (cli/commands/<room>/, see
cli/commands/__init__.py) and loads its module when the command is first asked for, the panels of
`pan --help` made from the rooms, and which commands' lines share a script's commit."""

from __future__ import annotations

import keyword
import os
import sys
from copy import copy
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

import typer
from typer._completion_classes import completion_init
from typer.core import TyperGroup

from pancli.cli.commands import ROOMS
from pancli.cli.groups import CONTEXT_SETTINGS, PanGroup, command_set
from pancli.cli.shell.line import typed_word
from pancli.cli.terminal import shown_streams, wanted
from pancli.cli.words.language import speak_from_argv
from pancli.core.i18n import N_, _

if TYPE_CHECKING:
    from collections.abc import MutableMapping, Sequence

    from typer._click.core import Command, Context
    from typer._click.formatting import HelpFormatter

DECLARED = "declared"  # where a command made from a declaration lives: no module of its own


@cache
def rooms() -> tuple[ModuleType, ...]:
    """The rooms of cli/commands/, in the order of their panels (each a small package: its panel and
    its commands' names)."""
    return tuple(import_module(f"pancli.cli.commands.{room}") for room in ROOMS)


@cache
def module_of(name: str) -> str | None:
    """Where the command ``name`` of `pan` lives: its module (``pancli.cli.commands.<room>.<name>``),
    DECLARED for one of the default game's declared actions, or None for no command of pan's own.
    Only the small packages of the rooms are imported, never a command's module."""
    for room in rooms():
        if name in room.COMMANDS:
            file = name + "_" if keyword.iskeyword(name) else name
            if os.path.exists(os.path.join(os.path.dirname(room.__file__ or ""), f"{file}.py")):
                return f"{room.__name__}.{file}"
            return DECLARED
    return None


def own_names() -> list[str]:
    """pan's own commands, in the order of `pan --help`."""
    return [n for room in rooms() for n in room.COMMANDS]


# `pan --help` groups the commands in the order a host needs them during an evening: a panel a room.
def own_panels() -> list[tuple[str, list[str]]]:
    return [(room.PANEL, list(room.COMMANDS)) for room in rooms()]


def declared_command(name: str) -> typer.Typer:
    """The default game's declared action ``name`` as a command set of one (cli/action_commands.py)."""
    from pancli.cli.action_commands import add_commands  # noqa: PLC0415 only a declared action's command
    from pancli.cli.record import record_action  # noqa: PLC0415 only a declared action's command
    from pancli.games import default_game  # noqa: PLC0415 the games: only a declared action's command

    one = command_set()
    add_commands({(): one}, [a for a in default_game().actions if a.command == (name,)], record_action, at_top=True)
    return one


def shares_a_commit(name: str) -> bool:
    """Whether a script's line of the command ``name`` may join its group commit (cli/shell/script.py):
    a declared action records through Store.lock(), and a command's module says so of its commands
    (``SHARES_A_COMMIT``). Asked just before the line runs, so the module is loaded anyway."""
    module = module_of(name)
    if module is None:
        return False
    return module == DECLARED or bool(getattr(import_module(module), "SHARES_A_COMMIT", False))


class GameCommands:
    """What a game's ``register_commands`` is given (``pancli.games.protocol.CommandHooks``)."""

    def __init__(self) -> None:
        self.groups: dict[str, tuple[str, str, str | None]] = {}

    def add_group(self, name: str, module: str, attr: str, panel: str | None = None) -> None:
        self.groups[name] = (module, attr, panel)


class RootGroup(PanGroup):
    """`pan` itself: finds a command's module when the command is first asked for."""

    def _module_command(self, module: str, name: str) -> Command | None:
        """Only the command asked for is turned into a click command: typer reads the signature
        and type hints of every command it converts, and `pan session new` need not pay for the
        other commands of its module."""
        source = declared_command(name) if module == DECLARED else import_module(module).commands
        one = copy(source)
        one.registered_commands = [c for c in source.registered_commands  # named as typer names them
                                   if (c.name or getattr(c.callback, "__name__", "").lower().replace("_", "-")) == name]
        one.registered_groups = [g for g in source.registered_groups if g.name == name]
        if not one.registered_commands and not one.registered_groups:
            return None
        found = typer.main.get_command(one)
        if not one.registered_groups:
            return found
        assert isinstance(found, TyperGroup)  # a Typer with a group becomes a group
        return found.commands.get(name)

    def games_commands(self) -> dict[str, tuple[str, str, str | None]]:
        """The command groups the games add (``Game.register_commands``), by name: (module,
        attribute, panel). Asked once per command line, and only for a command that is not
        pan's own: `pan meld` never looks."""
        found = getattr(self, "_games_commands", None)
        if found is None:
            from pancli.games import GAMES  # noqa: PLC0415 the games: only a command pan does not have

            hooks = GameCommands()
            for g in GAMES.values():
                g.register_commands(hooks)
            found = self._games_commands = hooks.groups
        return found

    def _game_group(self, name: str) -> Command | None:
        where = self.games_commands().get(name)
        if where is None:
            return None
        module, attr, _panel = where
        found = getattr(import_module(module), attr)
        # A Typer app, or what makes one from the game's declarations (action_commands.game_group).
        return typer.main.get_command(found if isinstance(found, typer.Typer) else found(name))

    def get_command(self, ctx: Context | None, name: str) -> Command | None:  # ctx None: the shell asks without one
        if name in self.commands:
            return self.commands[name]
        module = module_of(name)
        if module is not None:
            cmd = self._module_command(module, name)
        else:
            cmd = self._game_group(name)
        if cmd is not None:
            cmd.name = name
            self.commands[name] = cmd
        return cmd

    def panels(self) -> list[tuple[str, list[str]]]:
        """The rooms' panels, with the games' own groups first in the panel each asks for."""
        extra: dict[str, list[str]] = {}
        own = own_names()
        for name, (_m, _a, panel) in self.games_commands().items():
            if name not in own and panel:
                extra.setdefault(panel, []).append(name)
        out = [(title, extra.pop(title, []) + [n for n in names if n not in self.games_commands()])
               for title, names in own_panels()]
        return out + list(extra.items())

    def list_commands(self, ctx: Context | None) -> list[str]:
        own = own_names()
        names = own + [n for n in self.games_commands() if n not in own]
        order = [n for _t, panel in self.panels() for n in panel]
        return sorted(names, key=lambda n: order.index(n) if n in order else len(order))

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """The commands in panels (a room a panel), plain click formatting: no rich on the way to the help."""
        found = [(n, c) for n in self.list_commands(ctx)
                 if (c := self.get_command(ctx, n)) is not None and not c.hidden]
        if not found:
            return
        width = max(len(n) for n, _c in found)
        limit = formatter.width - 6 - width
        panels = self.panels()
        placed = {n for _t, panel in panels for n in panel}
        panels += [(N_("Other commands"), [n for n, _c in found if n not in placed])]
        by_name = dict(found)
        for title, names in panels:
            rows = [(n.ljust(width), by_name[n].get_short_help_str(limit)) for n in names if n in by_name]
            if rows:
                with formatter.section(_(title)):
                    formatter.write_dl(rows)

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kw: Any) -> Any:
        """Each command line speaks its own language, chosen before click parses anything (`pan
        --help --lang pl`); a line typed at `pan table` keeps the shell's."""
        if not getattr(kw.get("obj"), "in_shell", False):
            argv = list(sys.argv[1:] if args is None else args)
            if any(a.startswith("－") for a in argv):  # －－ｊｓｏｎ: an option typed full-width
                argv = args = [typed_word(a) if a.startswith("－") else a for a in argv]
            speak_from_argv(argv)
            with shown_streams(wanted(argv)):  # Japanese lines fitted; --ambiguous-wide: letter suits
                return super().main(args, *rest, **kw)
        return super().main(args, *rest, **kw)

    def _main_shell_completion(self, ctx_args: MutableMapping[str, Any], prog_name: str,
                               complete_var: str | None = None) -> None:
        # Typer's completion classes are registered only when a shell asks for completions.
        var = complete_var or f"_{prog_name}_COMPLETE".replace("-", "_").upper()
        if os.environ.get(var):
            completion_init()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def all_commands(self, ctx: Context | None = None) -> dict[str, Command]:
        """Every command by name, loading every module (for help, completion and the docs)."""
        return {n: c for n in self.list_commands(ctx) if (c := self.get_command(ctx, n)) is not None}


app = typer.Typer(help="Record a real Pan table, settle disputed melds, and keep every night's chips in SQLite.\n\n"
                       "Example: pan session new friday --players Ana,Ben,Cruz && pan deal && pan meld ana 5S 5S 5S",
                  cls=RootGroup, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  rich_markup_mode=None, context_settings=CONTEXT_SETTINGS)
