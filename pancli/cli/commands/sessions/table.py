"""pan table: a shell that stays open all night at the table, or runs a file of lines."""

from __future__ import annotations

import contextlib
import sys

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.core.errors import InputError
from pancli.core.i18n import _

commands = command_set()  # what this module adds to `pan`


@commands.command()
def table(
    session: str | None = typer.Argument(None, help="Session to record (default: the current one)."),
    script: str | None = typer.Option(None, "--script", "-f", metavar="FILE",
                                         help="Run the lines of FILE instead of prompting (- for stdin)."),
    keep_going: bool = typer.Option(False, "--keep-going", "-k",
                                    help="With a script: go on after a refused line; exit 1 at the end."),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="With a script: print only refused lines and the final standings."),
) -> None:
    """Open the table shell: type `deal`, `d cruz`, `m ben 5s5s5s`, `o ben`, `u`… one line per event.

    Every accepted line is saved before the next prompt; a refused line changes nothing and says
    why; `redo` records again what `undo` took back; quit or Ctrl-D leaves with the night's
    standings. Without a terminal on stdin (`pan table < tonight.pan`) or with --script, it runs the
    lines, stops at the first refused one (line number, exit 1) and prints the final standings; the
    lines are saved in groups, and what each prints is shown once its group is saved.

    Example: pan table --script examples/tonight.pan --quiet
    """
    from pancli.cli.shell.script import run_script  # noqa: PLC0415 start-up: the table shell
    from pancli.cli.shell.table_shell import TableShell  # noqa: PLC0415 start-up: the table shell

    shell = TableShell(db=app_context().db, session=session, board=not (quiet or script or not sys.stdin.isatty()))
    if script is None and sys.stdin.isatty():
        from pancli.cli.shell.prompt import interactive  # noqa: PLC0415 start-up: the table shell

        raise typer.Exit(interactive(shell))
    if script is None and not quiet:
        typer.echo(_("pan table: standard input is not a terminal, so its lines are run as a script "
                     "(`pan table --help` explains)."), err=True)
    if script is None or script == "-":
        lines, source = sys.stdin, "stdin"
    else:
        try:
            lines, source = open(script, encoding="utf-8"), script
        except OSError as e:
            raise InputError(_("cannot read {file}").format(file=script), e.strerror or str(e)) from None
    with lines if lines is not sys.stdin else contextlib.nullcontext():  # stdin stays open
        code = run_script(shell, lines, source=source, keep_going=keep_going, quiet=quiet)
    raise typer.Exit(code)

