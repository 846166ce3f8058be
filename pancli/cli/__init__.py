"""The `pan` command line: a thin shell that parses, calls the pure core, stores and renders."""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

import typer
from typer._completion_classes import completion_init
from typer.completion import install_callback, show_callback

import pancli  # its version is the distribution's too (pyproject reads it from there)
from pancli.cli.context import AppContext
from pancli.cli.errors import errors_as_messages, say_error
from pancli.cli.registry import app
from pancli.cli.streams import guard_streams, os_error_line, quiet_stdout
from pancli.cli.words import hints as _hints  # noqa: F401 the command line words the games' hints (pancli/core/hints.py)
from pancli.cli.words.language import speak


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pan (pancli) {pancli.__version__}")
        raise typer.Exit(0)


def _lang(ctx: typer.Context, value: str | None) -> str | None:
    """``--lang`` puts its language in force before anything else is read or printed. A line
    typed at `pan table` without its own --lang keeps the language the shell speaks."""
    if value is None and getattr(ctx.obj, "in_shell", False):
        return value
    with errors_as_messages():
        speak(value)
    return value


def _install_completion(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
    """Typer's own --install-completion, its machinery loaded only when asked for."""
    if not value or ctx.resilient_parsing:
        return value
    completion_init()
    return install_callback(ctx, param, value)


def _show_completion(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
    if not value or ctx.resilient_parsing:
        return value
    completion_init()
    return show_callback(ctx, param, value)


@app.callback()
def root(
    ctx: typer.Context,
    db: str | None = typer.Option(None, "--db", envvar="PANCLI_DB", metavar="PATH",
                                     help="Database file (default: pancli.db in the user's data folder; "
                                          "`pan db path` prints it)."),
    lang: str | None = typer.Option(None, "--lang", is_eager=True, callback=_lang, metavar="LANG",
                                    help="Language to speak: en, pl or ru (default: PANCLI_LANG, then the "
                                         "locale's LANGUAGE, LC_ALL, LC_MESSAGES or LANG)."),
    ambiguous_wide: bool = typer.Option(False, "--ambiguous-wide", expose_value=False,
                                        help="The terminal draws East Asian ambiguous characters two cells "
                                             "wide: suits as letters, ASCII borders, a QR code of spaces "
                                             "(default: PANCLI_AMBIGUOUS_WIDE=1)."),
    version: bool = typer.Option(False, "--version", is_eager=True, expose_value=False, callback=_version,
                                 help="Print pancli's version and exit."),
    install_completion: bool = typer.Option(None, "--install-completion", callback=_install_completion,
                                            expose_value=False, help="Install completion for the current shell."),
    show_completion: bool = typer.Option(None, "--show-completion", callback=_show_completion, expose_value=False,
                                         help="Show completion for the current shell, to copy it or customize "
                                              "the installation."),
) -> None:
    """Record a real Pan table, settle disputed melds, and keep every night's chips in SQLite.

    Example: pan check 5S 5S 5S
    """
    obj = ctx.obj
    if not isinstance(obj, AppContext):  # a fresh invocation; the shell brings its own per line
        obj = ctx.obj = AppContext()
        ctx.call_on_close(obj.close)
        if db is not None:
            obj.db = db
    elif db is not None and (source := ctx.get_parameter_source("db")) is not None and source.name == "COMMANDLINE":
        obj.db = db  # a shell line's own --db; PANCLI_DB never overrides the shell's database


def main() -> None:
    """`pan`: a reader that goes away (`pan history | head -1`) or a closed standard output ends
    the command quietly; any other OS error is one line naming the path and the reason, never
    a traceback and never a silent failure."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with the descriptor closed (`pan … >&-`)
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
    guard_streams()  # an OS error writing them says which stream it was (the language: RootGroup.main)
    try:
        try:
            app()
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()  # inside the try: a pipe closed early, or a full disk, shows up here
    except OSError as e:
        line = os_error_line(e)
        quiet_stdout()
        if line is None:
            sys.exit(1)
        say_error(line)
        sys.exit(2)
    except ValueError as e:  # standard output closed
        if "closed file" not in str(e):
            raise
        quiet_stdout()
        sys.exit(1)
    finally:
        # Python's exit runs the cycle collector over every object typer and pancli made; frozen,
        # they are freed without it. A command ends 15-40 ms sooner (bench/bench_startup.py).
        gc.freeze()
