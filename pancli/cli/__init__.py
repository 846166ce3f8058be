"""The `pan` command line: a thin shell that parses, calls the pure core, stores and renders."""

from __future__ import annotations

from typing import Optional

import typer

from pancli.cli.common import app, options


@app.callback()
def root(
    db: Optional[str] = typer.Option(None, "--db", envvar="PANCLI_DB", metavar="PATH",
                                     help="Database file (default: pancli.db in the user's data directory)."),
):
    """Record a real Pan table, settle disputed melds, and keep every night's chips in SQLite.

    Example: pan check 5S 5S 5S
    """
    options["db"] = db


# Each module adds its commands to `app` when imported.
from pancli.cli import check, games, record, reports, table, turn  # noqa: E402,F401
from pancli.cli import serve  # noqa: E402,F401


def main() -> None:
    app()
