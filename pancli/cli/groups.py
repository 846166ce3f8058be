"""The command groups of `pan`: how a command module makes its commands and a game its group, with
-h on every command, the grammar of the words, help in the language in force, and errors as one
line."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer
from typer._click.exceptions import NoSuchOption
from typer.core import TyperGroup

from pancli.cli.errors import errors_as_messages, no_such_command, no_such_option
from pancli.cli.shell.line import typed_word
from pancli.cli.words.grammar import negative_numbers_as_arguments
from pancli.cli.words.help_language import HelpInLanguage, PanCommand, in_language

if TYPE_CHECKING:
    from typer._click.core import Command, Context
    from typer.core import TyperCommand
    from typer.models import CommandFunctionType


class PanGroup(HelpInLanguage, TyperGroup):
    """Turns every PanError into one line on stderr and its exit code, never a traceback."""

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        if args and not args[0].isascii():  # ｃｈｅｃｋ, as a Japanese keyboard types it
            args = [_typed_token(args[0]), *args[1:]]
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None \
                and not ctx.resilient_parsing:
            raise no_such_command(ctx, args[0])
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None and not hasattr(cmd, "commands"):
            rest = negative_numbers_as_arguments(cmd, ctx, rest)
        return name, cmd, rest

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except NoSuchOption as e:  # `pan --dbb x`: the group's own options
            raise no_such_option(e) from None

    def invoke(self, ctx: Context) -> Any:
        with errors_as_messages():
            return super().invoke(ctx)


class PanTyper(typer.Typer):
    """A Typer whose commands are PanCommands (a command's own class gains HelpInLanguage)."""

    def command(self, name: str | None = None, *, cls: type[TyperCommand] | None = None,
                **kw: Any) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(name, cls=in_language(cls or PanCommand), **kw)


# -h as well as --help, on every command (click passes it down to every sub-context).
def _typed_token(token: str) -> str:
    """A command's or an option's name as typed on a Japanese keyboard (ｃｈｅｃｋ) read as ASCII."""
    return typed_word(token)


# Commands and options are found by their names after NFKC (click's token_normalize_func).
CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"], "token_normalize_func": _typed_token}


def new_app(help: str, **kw: Any) -> typer.Typer:
    return PanTyper(help=help, cls=PanGroup, no_args_is_help=True, add_completion=False,
                    pretty_exceptions_enable=False, rich_markup_mode=None,
                    context_settings=CONTEXT_SETTINGS, **kw)


def command_set() -> typer.Typer:
    """The commands one module adds to `pan`, mounted on the root by name and loaded when first used."""
    return PanTyper(cls=PanGroup, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                    context_settings=CONTEXT_SETTINGS)
