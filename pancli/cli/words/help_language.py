"""Help in the language in force: every command and group of `pan` translates its help texts
(and its options' help and metavars) just before click formats them, and touches nothing in
English. The texts themselves are the msgids (``pancli.cli.words.help_catalog`` lists them)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar, cast

from typer.core import TyperCommand

from pancli.core.i18n import ENGLISH, _, language, pgettext

if TYPE_CHECKING:
    from typer._click.core import Command, Context, Parameter
    from typer._click.formatting import HelpFormatter

    _Command = Command
else:
    _Command = object  # a mixin: click's Command comes after it in each class that uses it

C = TypeVar("C", bound=type)

_HELP_ATTRS = ("help", "short_help", "epilog", "options_metavar", "subcommand_metavar")
PSEUDO = "qps"  # the pseudo-language of scripts/catalogs.py, which wraps every message in ⟦…⟧


@contextmanager
def help_in_language(command: Command, ctx: Context | None) -> Iterator[None]:
    """The command's help texts (and its options' help and metavars) in the language in force
    while click formats them, then the English ones back: the objects keep the msgids, and in
    English nothing is touched at all."""
    if language() == ENGLISH:
        yield
        return
    saved: list[tuple[object, str, str | None]] = []

    def put(obj: object, attr: str) -> None:
        text = getattr(obj, attr, None)
        if isinstance(text, str) and text:
            saved.append((obj, attr, text))
            setattr(obj, attr, _(text))

    for attr in _HELP_ATTRS:
        put(command, attr)
    if ctx is not None:
        for param in command.get_params(ctx):
            put(param, "help")
            shown = shown_name(param, ctx)
            if param.metavar is not None:
                put(param, "metavar")
            elif shown is not None and param.param_type_name == "argument":
                saved.append((param, "name", param.name))  # click shows an argument by its name
                param.name = argument_name(param, ctx)
            elif shown is not None:
                saved.append((param, "metavar", None))
                param.metavar = f"<{_(shown)}>" + ("..." if param.nargs != 1 else "")
    try:
        yield
    finally:
        for obj, attr, text in reversed(saved):
            setattr(obj, attr, text)


def argument_name(param: Parameter, ctx: Context) -> str:
    """An argument's name in the language in force: a session's name is not a person's (Polish
    says "nazwa" of the one, "imię" of the other)."""
    text = str(param.name)
    parent = getattr(ctx, "parent", None)
    if text == "name" and (getattr(param.type, "name", "") == "session"
                           or getattr(parent, "info_name", None) == "session"):
        return pgettext("session", "name")
    return _(text)


def shown_name(param: Parameter, ctx: Context) -> str | None:
    """The word click shows for a parameter without a metavar of its own: an argument's name
    (`pan meld [OPTIONS] {name} {cards}...`), an option's type (`--dealer <player>`); None when
    there is none, or its type writes its own (a choice's values, which are typed as they are)."""
    if param.metavar is not None or getattr(param, "is_flag", False) or getattr(param, "count", False):
        return None
    if param.param_type_name == "argument":
        return param.name or None
    if param.type.get_metavar(param=param, ctx=ctx) is not None:
        return None
    return param.type.name.strip("<>") or None


class HelpInLanguage(_Command):
    """What every command and group of `pan` does to speak the language in force in its help:
    the texts are translated just before click formats them (``help_in_language``)."""

    def get_help(self, ctx: Context) -> str:
        with help_in_language(self, ctx):
            return super().get_help(ctx)

    def get_usage(self, ctx: Context) -> str:
        with help_in_language(self, ctx):
            return super().get_usage(ctx)

    def get_short_help_str(self, limit: int = 45) -> str:
        with help_in_language(self, None):
            short = super().get_short_help_str(limit)
        if language() == PSEUDO and short.startswith("⟦") and not short.endswith("⟧"):
            short += "⟧"  # the pseudo-language's marker kept on a help cut to its first sentence
        return short

    def format_usage(self, ctx: Context, formatter: HelpFormatter) -> None:
        if language() == ENGLISH:
            return super().format_usage(ctx, formatter)
        pieces = self.collect_usage_pieces(ctx)
        # Translators: the start of a command's usage line, with its trailing space
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_("Usage: "))


class PanCommand(HelpInLanguage, TyperCommand):
    """A command of `pan` (each command's own class, if it has one, is mixed with HelpInLanguage)."""


_mixed: dict[type, type] = {}


def in_language(cls: C) -> C:
    """``cls`` as a command class whose help speaks the language in force."""
    if issubclass(cls, HelpInLanguage):
        return cls
    if cls not in _mixed:
        _mixed[cls] = type(cls.__name__, (HelpInLanguage, cls), {"__module__": cls.__module__,
                                                                  "__doc__": cls.__doc__})
    return cast(C, _mixed[cls])  # a subclass of cls, made with type()


