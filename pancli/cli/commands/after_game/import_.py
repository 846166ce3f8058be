"""`pan import`: an archive written by `pan export` back into the database."""

from __future__ import annotations

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.options import JSON
from pancli.cli.output import console, print_json
from pancli.core.errors import InputError, RuleError
from pancli.core.i18n import _, ngettext
from pancli.core.names import clean_name

commands = command_set()  # what this module adds to `pan`


@commands.command("import")
def import_cmd(file: str = typer.Argument(..., help="An archive written by `pan export` (TOML or JSON)."),
               as_name: str | None = typer.Option(None, "--as", metavar="NAME", help="Import under another name."),
               as_json: bool = JSON) -> None:
    """Rebuild a session from an archive, recomputing and checking every payment; twice imports it once.

    Example: pan import sessions/friday.toml --as friday-copy
    """
    from pancli.app import archive_import  # noqa: PLC0415 start-up: the app layer

    data = archive_import.read(file)  # the header checked now; each event as it is read, before its replay
    if as_name is not None:
        as_name = clean_name(as_name, "session")
    from pancli.storage.paths import resolve_path  # noqa: PLC0415 start-up: storage

    ctx = app_context()
    new_file = not resolve_path(ctx.db).exists()
    store = ctx.open_store(create=True)
    try:
        try:
            result = archive_import.import_file(store, data, as_name)
        except RuleError as e:  # a replayed event the rules refuse: the archive is at fault (exit 2)
            raise InputError(e.message, e.hint) from None
        except (TypeError, KeyError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as e:
            # A value the checks above let through but a game core cannot take: the archive's fault,
            # not a crash; the import ran as one transaction, so nothing was stored.
            raise InputError(_("{file} holds an event pancli cannot replay ({error})").format(
                                 file=file, error=type(e).__name__),
                             _("nothing was imported; export it again with `pan export`")) from None
    except InputError:
        if new_file:  # a refused import leaves no database behind where there was none
            path = store.path
            ctx.close()
            for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                leftover.unlink(missing_ok=True)
        raise
    app_context().forget_session()
    if as_json:
        print_json(result)
    elif result["status"] == "present":
        console().print(_("Already in the database as session {name}: nothing imported.").format(name=result["name"]))
    elif result["status"] == "extended":
        console().print(ngettext("Brought session {name} up to date: {n} new event, every payment checked.",
                                 "Brought session {name} up to date: {n} new events, every payment checked.",
                                 result["events"]).format(name=result["name"], n=result["events"]))
    else:
        console().print(ngettext("Imported session {name} ({n} event, every payment checked). "
                                 "It is now the current session.",
                                 "Imported session {name} ({n} events, every payment checked). "
                                 "It is now the current session.", result["events"]).format(
            name=result["name"], n=result["events"]))
