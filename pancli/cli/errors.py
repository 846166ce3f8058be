"""Errors at the edge of the command line: every PanError, mistyped word, Ctrl-C and database
error becomes one line on standard error and its exit code, never a traceback."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any

import typer
from typer import BadParameter  # typer runs its own copy of click (0.22 on)
from typer._click.exceptions import NoSuchOption, UsageError
from typer.core import TyperGroup

from pancli.cli.context import app_context
from pancli.cli.streams import os_error_line
from pancli.core.errors import PanError
from pancli.core.i18n import _
from pancli.core.text import one_line

if TYPE_CHECKING:
    from typer._click.core import Context


class MistypedWord(UsageError):
    """A mistyped command or option, said in one line with the closest word, the way a mistyped
    player is (``resolve_player``): no usage block, no "Try 'pan -h'" line."""

    def show(self, file: IO[Any] | None = None) -> None:
        from pancli.cli.words.framework import error_line  # noqa: PLC0415 click's words: only when an error is said

        typer.echo(error_line(one_line(self.message)), file=file, err=file is None)


def _in_shell(ctx: Context) -> bool:
    """Whether the line was typed at `pan table` (which hands every line its AppContext)."""
    return bool(getattr(ctx.find_root().obj, "in_shell", False))


def _said(ctx: Context) -> str:
    """The command as the person typed it: `pan rules` on a command line, `rules` at the table."""
    path = ctx.command_path
    if _in_shell(ctx):
        path = path.split(" ", 1)[1] if " " in path else ""
    return path


def _help_words(ctx: Context, what: str) -> str:
    """`pan check -h` on a command line, `help check` at the table."""
    said = _said(ctx)
    told = (f"help {said}" if said else "help") if _in_shell(ctx) else f"{said} -h"
    if what == "commands":
        # Translators: {told} is a command such as `pan rules -h` or `help rules`, never translated
        return _("(`{told}` lists the commands)").format(told=told)
    return _("(`{told}` lists its options)").format(told=told)


def no_such_command(ctx: Context, word: str) -> MistypedWord:
    from pancli.core.knobs import closest  # noqa: PLC0415 only a mistyped command

    group = ctx.command
    assert isinstance(group, TyperGroup)  # only a group is asked for a command by name
    close = closest(word, [n for n in group.list_commands(ctx) if n != word])
    said = _said(ctx) if ctx.parent is not None else ""
    told = _help_words(ctx, "commands")
    if said and close:
        text = _("{command} has no command '{word}': did you mean {close}? {help}")
    elif said:
        text = _("{command} has no command '{word}' {help}")
    elif close:
        text = _("no command '{word}': did you mean {close}? {help}")
    else:
        text = _("no command '{word}' {help}")
    return MistypedWord(text.format(command=said, word=word, close=close, help=told), ctx=ctx)


def no_such_option(e: NoSuchOption) -> MistypedWord:
    from pancli.core.knobs import closest  # noqa: PLC0415 only a mistyped option

    ctx = e.ctx
    if ctx is None:  # pragma: no cover - click always names the context
        return MistypedWord(_("no option {option} (`pan -h` lists the options)").format(option=e.option_name))
    names: list[str] = []
    for p in ctx.command.get_params(ctx):
        if getattr(p, "param_type_name", "") == "option" and not getattr(p, "hidden", False):
            names += list(p.opts) + list(p.secondary_opts)
    if e.option_name.startswith("--"):
        names = [n for n in names if n.startswith("--")]
    close = closest(e.option_name, names)
    said = _said(ctx) or "pan"
    text = _("{command} has no option {option}: did you mean {close}? {help}") if close else \
        _("{command} has no option {option} {help}")
    return MistypedWord(text.format(command=said, option=e.option_name, close=close,
                                    help=_help_words(ctx, "options")), ctx=ctx)


@contextmanager
def errors_as_messages() -> Iterator[None]:
    """Every PanError (and a word click could not read, a Ctrl-C, a database error) as one line
    on stderr and its exit code, never a traceback."""
    try:
        yield
    except NoSuchOption as e:  # an option of the command below this group
        raise no_such_option(e) from None
    except PanError as e:
        say_error(str(e), raising=True)
        raise typer.Exit(e.exit_code) from None
    except BadParameter as e:  # a word click could not read as the option's type: one line
        from pancli.cli.words.framework import click_message  # noqa: PLC0415 click's words: only when an error is said

        say_error(click_message(e.format_message()), raising=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo(_("Interrupted: nothing was recorded by the interrupted command."), err=True)
        raise typer.Exit(130) from None
    except OSError as e:
        line = os_error_line(e)
        if line is None:
            raise  # a reader that went away: `main` ends the command quietly
        say_error(line)
        raise typer.Exit(2) from None
    except database_errors() as e:
        # A database error outside Store.lock()/snapshot() (a damaged page met by a plain
        # query): one line like every StoreError, not a traceback.
        from pancli.storage.paths import resolve_path  # noqa: PLC0415 the database layer: only for a database error
        from pancli.storage.store import store_error  # noqa: PLC0415 the database layer: only for a database error

        err = store_error(resolve_path(app_context().db), e)
        say_error(str(err), raising=True)
        raise typer.Exit(err.exit_code) from None


def say_error(line: str, raising: bool = False) -> None:
    """"Error: …" on standard error, even when standard error itself cannot be written (unless
    ``raising``: then an OS error writing it goes on up, as it always has)."""
    from pancli.cli.words.framework import error_line  # noqa: PLC0415 click's words: only when an error is said

    if raising:
        typer.echo(error_line(one_line(line)), err=True)
        return
    try:
        typer.echo(error_line(one_line(line)), err=True)
    except (OSError, ValueError):
        pass


def database_errors() -> tuple[Any, ...]:
    """sqlite3's database errors (typed Any: SQL's module is storage's to import), looked up, not
    imported (commands that never open the database do not pay for it; with no sqlite3 loaded
    there is none to catch)."""
    sqlite3 = sys.modules.get("sqlite3")
    return () if sqlite3 is None else (sqlite3.DatabaseError,)
