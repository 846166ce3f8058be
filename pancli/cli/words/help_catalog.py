"""Every help text of `pan`'s command tree, for the catalog: what typer shows (a docstring
cleandoc'ed, with its "Example:" lines), each option's help and metavar, and where it is written.
``scripts/catalogs.py`` extracts them from here, since typer reads them from signatures and
docstrings where no ``_()`` can be."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from pancli.cli import registry
from pancli.cli.words.help_language import shown_name

if TYPE_CHECKING:
    from typer._click.core import Command, Context


def _source(callback: Callable[..., Any] | None) -> str:
    """The file that wrote a command (its callback's), or '' when it cannot be told."""
    try:
        found = inspect.getsourcefile(inspect.unwrap(callback)) if callback is not None else None
    except TypeError:
        found = None
    return str(Path(found).resolve()) if found else ""


def _walk(command: Command, ctx: Context, where: str, out: list[tuple[str, str]]) -> None:
    here = _source(getattr(command, "callback", None)) or where
    for attr in ("help", "short_help", "epilog", "options_metavar", "subcommand_metavar"):
        text = getattr(command, attr, None)
        if isinstance(text, str) and text:
            out.append((text, here))
    for param in command.get_params(ctx):
        for text in (getattr(param, "help", None), param.metavar, shown_name(param, ctx)):
            if isinstance(text, str) and text:
                out.append((text, here))
    if not isinstance(command, TyperGroup):
        return
    for name in command.list_commands(ctx):
        sub = command.get_command(ctx, name)
        if sub is not None:
            _walk(sub, ctx, here, out)


def help_messages() -> list[tuple[str, str]]:
    """(text, the file that wrote it) for every help text of the whole tree, the games' groups
    included, each once (the first place it is written)."""
    command = typer.main.get_command(registry.app)
    ctx = typer.Context(command, info_name="pan")
    found: list[tuple[str, str]] = []
    _walk(command, ctx, str(Path(registry.__file__).resolve()), found)
    seen: set[str] = set()
    out = []
    for text, where in found:
        if text not in seen:
            seen.add(text)
            out.append((text, where))
    return out
