"""The options and arguments several commands share, each defined once: `--json`, the session
named as an argument, `--force`."""

from __future__ import annotations

from typing import Any

import typer

from pancli.cli.params import SESSION as SESSION_NAME


def json_option(help: str = "Print JSON for scripts.") -> Any:
    """`--json`: print JSON for scripts (a command may say what its JSON holds)."""
    return typer.Option(False, "--json", help=help)


JSON = json_option()
SESSION = typer.Argument(None, metavar="[SESSION]", click_type=SESSION_NAME, help="Session name (default: the current one).")
FORCE = typer.Option(False, "--force", help="Replace the file if it exists (never the database).")
