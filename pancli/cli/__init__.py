"""The `pan` command line: a thin shell that parses, calls the pure core, stores and renders."""

from __future__ import annotations

import typer

from pancli.cli.common import app
from pancli.cli.context import AppContext


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"pan (pancli) {version('pancli')}")
        except PackageNotFoundError:  # pragma: no cover - run from a checkout that was never installed
            typer.echo("pan (pancli), not installed")
        raise typer.Exit(0)


def _install_completion(ctx: typer.Context, param, value):
    """Typer's own --install-completion, its machinery loaded only when asked for."""
    if not value or ctx.resilient_parsing:
        return value
    from typer.completion import completion_init, install_callback

    completion_init()
    return install_callback(ctx, param, value)


def _show_completion(ctx: typer.Context, param, value):
    if not value or ctx.resilient_parsing:
        return value
    from typer.completion import completion_init, show_callback

    completion_init()
    return show_callback(ctx, param, value)


@app.callback()
def root(
    ctx: typer.Context,
    db: str | None = typer.Option(None, "--db", envvar="PANCLI_DB", metavar="PATH",
                                     help="Database file (default: pancli.db in the user's data folder; "
                                          "`pan db path` prints it)."),
    version: bool = typer.Option(False, "--version", is_eager=True, expose_value=False, callback=_version,
                                 help="Print pancli's version and exit."),
    install_completion: bool = typer.Option(None, "--install-completion", callback=_install_completion,
                                            expose_value=False, help="Install completion for the current shell."),
    show_completion: bool = typer.Option(None, "--show-completion", callback=_show_completion, expose_value=False,
                                         help="Show completion for the current shell, to copy it or customize "
                                              "the installation."),
):
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
    the command quietly, never with a traceback."""
    import os
    import sys

    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with the descriptor closed (`pan … >&-`)
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
    try:
        app()
        if sys.stdout is not None:
            sys.stdout.flush()  # inside the try: a pipe closed early shows up here
    except BrokenPipeError:
        _quiet_stdout(os, sys)
        sys.exit(1)
    except (OSError, ValueError) as e:  # standard output closed, or a full disk behind it
        if isinstance(e, ValueError) and "closed file" not in str(e):
            raise
        _quiet_stdout(os, sys)
        _say_why(sys, e)
        sys.exit(1)
    finally:
        # Python's exit runs the cycle collector over every object typer and pancli made; frozen,
        # they are freed without it. A command ends 15-40 ms sooner (bench/bench_startup.py).
        import gc

        gc.freeze()


def _say_why(sys, e: BaseException) -> None:
    """One line on standard error for an error of the file system that reached the top: a file
    it names (a command's own file), or the output that could not be written. Never a silent
    non-zero exit."""
    from pancli.core.names import inert

    where = getattr(e, "filename", None)
    why = getattr(e, "strerror", None) or str(e) or type(e).__name__
    text = f"Error: {why}: {where}" if where else f"Error: the output could not be written ({why})"
    try:
        sys.stderr.write(inert(text) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass  # standard error is gone too: the exit code is all that is left


def _quiet_stdout(os, sys) -> None:
    """Point standard output at the null device, so Python's final flush has nowhere to fail
    (the way the Python docs advise for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        sys.stdout = None
