"""The `pan` command line: a thin shell that parses, calls the pure core, stores and renders."""

from __future__ import annotations

from typing import Optional

import typer

from pancli.cli.common import app
from pancli.cli.context import AppContext


@app.callback()
def root(
    ctx: typer.Context,
    db: Optional[str] = typer.Option(None, "--db", envvar="PANCLI_DB", metavar="PATH",
                                     help="Database file (default: pancli.db in the user's data directory)."),
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


def main() -> None:
    app()
