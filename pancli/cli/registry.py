"""Which module holds each command of `pan`, the panels of `pan --help`, and `pan` itself: the root
group that loads a command's module when the command is first asked for."""

from __future__ import annotations

import typer
from typer.core import TyperGroup

from pancli.cli.groups import CONTEXT_SETTINGS, PanGroup
from pancli.core.i18n import N_, _

# Which module defines each top-level command. A command imports only its own module, so
# `pan meld` never loads the report or rules code. The games' own command groups
# (`pan contract …`) come from the games themselves (``Game.register_commands``).
COMMAND_MODULES = {
    "demo": "commands.first_time.demo",
    "session": "record", "seat": "record", "table": "commands.sessions.table",
    "deal": "record", "drop": "record", "stay": "record", "meld": "record", "add": "record",
    "split": "record", "borrow": "record", "spread": "record", "out": "record", "foul": "record",
    "dead": "record", "void": "record", "chop": "record", "undo": "record", "board": "record",
    "check": "commands.disputes.check", "turn": "commands.disputes.turn", "rules": "commands.disputes.rules",
    "standings": "record", "history": "record", "report": "commands.after_game.reports", "player": "commands.after_game.reports",
    "sessions": "commands.after_game.reports", "settle": "commands.after_game.reports", "buyin": "commands.after_game.reports", "cashout": "commands.after_game.reports",
    "export": "commands.after_game.reports", "import": "commands.after_game.reports", "rescore": "commands.after_game.reports",
    "clock": "commands.other_games.clock",
    "serve": "commands.sessions.serve",
    "sync": "commands.hosts.sync", "replicate": "commands.hosts.replicate", "restore": "commands.hosts.replicate",
    "db": "commands.database.db",
}

# `pan --help` groups the commands in the order a host needs them during an evening.
PANELS = [
    (N_("First time here"), ["demo"]),
    (N_("Sessions and seats"), ["session", "seat", "table", "serve"]),
    (N_("Recording a hand"), ["deal", "drop", "stay", "meld", "add", "split", "borrow", "spread", "out",
                          "foul", "dead", "void", "chop", "undo", "board"]),
    (N_("Disputes"), ["check", "turn", "rules"]),
    (N_("After the game"), ["standings", "history", "report", "player", "sessions", "settle", "buyin",
                        "cashout", "export", "import", "rescore"]),
    (N_("The other games called Pan"), ["clock"]),  # and the games' own groups (Game.register_commands)
    (N_("The database"), ["db"]),
    (N_("Several hosts or tables"), ["sync", "replicate", "restore"]),
]


class GameCommands:
    """What a game's ``register_commands`` is given (``pancli.games.protocol.CommandHooks``)."""

    def __init__(self) -> None:
        self.groups: dict[str, tuple[str, str, str | None]] = {}

    def add_group(self, name: str, module: str, attr: str, panel: str | None = None) -> None:
        self.groups[name] = (module, attr, panel)


class RootGroup(PanGroup):
    """`pan` itself: finds a command's module when the command is first asked for."""

    def _module_command(self, module: str, name: str):
        """Only the command asked for is turned into a click command: typer reads the signature
        and type hints of every command it converts, and `pan meld` need not pay for the other
        twenty commands of its module."""
        from copy import copy
        from importlib import import_module

        source = import_module(f"pancli.cli.{module}").commands
        one = copy(source)
        one.registered_commands = [c for c in source.registered_commands  # named as typer names them
                                   if (c.name or c.callback.__name__.lower().replace("_", "-")) == name]
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
            from pancli.games import GAMES

            hooks = GameCommands()
            for g in GAMES.values():
                g.register_commands(hooks)
            found = self._games_commands = hooks.groups
        return found

    def _game_group(self, name: str):
        from importlib import import_module

        where = self.games_commands().get(name)
        if where is None:
            return None
        module, attr, _panel = where
        found = getattr(import_module(module), attr)
        # A Typer app, or what makes one from the game's declarations (action_commands.game_group).
        return typer.main.get_command(found if isinstance(found, typer.Typer) else found(name))

    def get_command(self, ctx, name: str):
        if name in self.commands:
            return self.commands[name]
        module = COMMAND_MODULES.get(name)
        if module is not None:
            cmd = self._module_command(module, name)
        else:
            cmd = self._game_group(name)
        if cmd is not None:
            cmd.name = name
            self.commands[name] = cmd
        return cmd

    def panels(self) -> list[tuple[str, list[str]]]:
        """PANELS, with the games' own groups first in the panel each asks for."""
        extra: dict[str, list[str]] = {}
        for name, (_m, _a, panel) in self.games_commands().items():
            if name not in COMMAND_MODULES and panel:
                extra.setdefault(panel, []).append(name)
        out = [(title, extra.pop(title, []) + [n for n in names if n not in self.games_commands()])
               for title, names in PANELS]
        return out + list(extra.items())

    def list_commands(self, ctx) -> list[str]:
        names = list(COMMAND_MODULES) + [n for n in self.games_commands() if n not in COMMAND_MODULES]
        order = [n for _t, panel in self.panels() for n in panel]
        return sorted(names, key=lambda n: order.index(n) if n in order else len(order))

    def format_commands(self, ctx, formatter) -> None:
        """The commands in panels (PANELS), plain click formatting: no rich on the way to the help."""
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

    def main(self, args=None, *rest, **kw):
        """Each command line speaks its own language, chosen before click parses anything (`pan
        --help --lang pl`); a line typed at `pan table` keeps the shell's."""
        if not getattr(kw.get("obj"), "in_shell", False):
            import sys

            from pancli.cli.words.language import speak_from_argv

            speak_from_argv(list(sys.argv[1:] if args is None else args))
        return super().main(args, *rest, **kw)

    def _main_shell_completion(self, ctx_args, prog_name, complete_var=None) -> None:
        # Typer's completion classes are registered only when a shell asks for completions.
        import os

        var = complete_var or f"_{prog_name}_COMPLETE".replace("-", "_").upper()
        if os.environ.get(var):
            from typer._completion_classes import completion_init

            completion_init()
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def all_commands(self, ctx=None) -> dict:
        """Every command by name, loading every module (for help, completion and the docs)."""
        return {n: c for n in self.list_commands(ctx) if (c := self.get_command(ctx, n)) is not None}


app = typer.Typer(help="Record a real Pan table, settle disputed melds, and keep every night's chips in SQLite.\n\n"
                       "Example: pan session new friday --players Ana,Ben,Cruz && pan deal && pan meld ana 5S 5S 5S",
                  cls=RootGroup, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  rich_markup_mode=None, context_settings=CONTEXT_SETTINGS)
