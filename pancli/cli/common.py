"""What every command shares: the app, the global options, output and error handling."""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from pancli.core.errors import PanError


class PanGroup(TyperGroup):
    """Turns every PanError into one line on stderr and its exit code, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PanError as e:
            typer.echo(f"Error: {one_line(str(e))}", err=True)
            raise typer.Exit(e.exit_code) from None
        except KeyboardInterrupt:
            typer.echo("Interrupted: nothing was recorded by the interrupted command.", err=True)
            raise typer.Exit(130) from None
        except Exception as e:
            # A database error outside Store.lock()/snapshot() (a damaged page met by a plain
            # query): one line like every StoreError, not a traceback. sqlite3 is looked up,
            # not imported, so commands that never open the database do not pay for it.
            sqlite3 = sys.modules.get("sqlite3")
            if sqlite3 is None or not isinstance(e, sqlite3.DatabaseError):
                raise
            from pancli.storage.store import store_error, resolve_path

            from pancli.cli.context import app_context

            err = store_error(resolve_path(app_context().db), e)
            typer.echo(f"Error: {one_line(str(err))}", err=True)
            raise typer.Exit(err.exit_code) from None


def one_line(text: str) -> str:
    """An error quotes what the user typed: a newline or other control character in it is shown
    escaped (\\n), so the explanation stays one line and cannot forge output of its own."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


PRESET_HELP = "House rules preset: hoyle, cardroom-ca, online-pan, japanese-wp (default hoyle)."
RULES_HELP = "House rules file (TOML), as written by `pan rules init`."


def multiword_command(*names: str) -> type[TyperCommand]:
    """A command class whose named options take every word up to the next option.

    click gives an option one value; a dealer types `--add 5S 5S` or `--hand 5S 5S 4H`.
    """

    class MultiWordCommand(TyperCommand):
        def parse_args(self, ctx, args):
            out: list[str] = []
            i = 0
            while i < len(args):
                if args[i] in names:
                    name, taken = args[i], []
                    i += 1
                    while i < len(args) and not args[i].startswith("-"):
                        taken.append(args[i])
                        i += 1
                    out += [name, " ".join(taken)]
                    continue
                out.append(args[i])
                i += 1
            return super().parse_args(ctx, out)

    return MultiWordCommand


def new_app(help: str, **kw) -> typer.Typer:
    return typer.Typer(help=help, cls=PanGroup, no_args_is_help=True, add_completion=False,
                       pretty_exceptions_enable=False, rich_markup_mode=None, **kw)


app = new_app("Record a real Pan table, settle disputed melds, and keep every night's chips in SQLite.\n\n"
              "Example: pan session new friday --players Ana,Ben,Cruz && pan deal && pan meld ana 5S 5S 5S")

def console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
