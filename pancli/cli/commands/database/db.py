"""Where the data lives and how it is kept: `pan db path|status|check|backup`."""

from __future__ import annotations

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set, new_app
from pancli.cli.options import JSON
from pancli.cli.output import console, english_for_json, print_json
from pancli.core.i18n import _, ngettext

db_app = new_app("Where the data lives and how it is kept.\n\nExample: pan db path")
commands = command_set()  # what this module adds to `pan`
commands.add_typer(db_app, name="db")



@db_app.command("path")
def db_path() -> None:
    """Print where the database is (--db, then PANCLI_DB, then the user's data folder).

    Example: pan db path
    """
    from pancli.storage.paths import resolve_path  # noqa: PLC0415 start-up: storage

    print(resolve_path(app_context().db))


@db_app.command("status")
def db_status(as_json: bool = JSON) -> None:
    """File, size, sessions, events and schema version of the database.

    Example: pan db status
    """
    from pancli.app.database import status  # noqa: PLC0415 start-up: the app layer

    data = english_for_json(as_json, lambda: status(app_context().open_store(create=False)))
    if as_json:
        print_json(data)
        return
    out = console()
    out.print(_("File: {file}").format(file=data["file"]))
    size = _megabytes(data["size"], 2)
    if data["wal_size"]:
        out.print(_("Size: {size} MB (+{wal} MB write-ahead log)").format(size=size, wal=_megabytes(data["wal_size"], 1)))
    else:
        out.print(_("Size: {size} MB").format(size=size))
    out.print(_("Sessions: {sessions} ({imported} imported)").format(sessions=data["sessions"],
                                                                     imported=data["imported_sessions"]))
    out.print(ngettext("Events: {events} ({n} undo), payments: {payments}, tallies: {tallies}",
                       "Events: {events} ({n} undos), payments: {payments}, tallies: {tallies}",
                       data["undos"]).format(events=data["events"], n=data["undos"], payments=data["payments"],
                                             tallies=data["tallies"]))
    out.print(_("Schema version: {version} ({migrations}); SQLite {sqlite}, journal {journal}").format(
        version=data["schema_version"], migrations=", ".join(data["migrations"]), sqlite=data["sqlite"],
        journal=data["journal_mode"]))


@db_app.command("check")
def db_check(as_json: bool = JSON,
             full: bool = typer.Option(False, "--full", help="Replay every event, not only those recorded "
                                       "since the last check.")) -> None:
    """SQLite's integrity check, then every session replayed: stored payments must equal the recomputed
    ones and sum to zero; events are numbered with no gap. Exits 1 with the first discrepancy.

    A repeat check trusts what an earlier check on this computer verified: those events are read
    against its digests instead of replayed again (any change to them fails the check), as long
    as its mark is sealed with this user's key (check-marks.key in pancli's data folder, outside
    the database) by the same pancli and SQLite; any other mark is ignored and the session
    replayed in full.

    Example: pan db check
    """
    from pancli.app.check.database import CheckFailed, check  # noqa: PLC0415 start-up: the app layer

    problem, figures = check(app_context().open_store(create=False), full=full)
    if problem:
        raise CheckFailed(problem, figures.get("fix") or _("the stored ledger and the rules disagree; nothing was changed"))
    if as_json:
        print_json({"ok": True, **figures})
        return
    events, remembered = figures["events"], figures["remembered"]
    out = console()
    counted = _counted(figures["sessions"], events, figures["payments"])
    if not remembered:
        out.print(_("OK: integrity check passed; {counted} replayed and matched; "
                    "every session sums to zero.").format(counted=counted))
        return
    out.print(_("OK: integrity check passed; {counted} matched; every session sums to zero.").format(counted=counted))
    fresh = events - remembered
    out.print(ngettext("{n} event unchanged since an earlier check, {replayed}",
                       "{n} events unchanged since an earlier check, {replayed}", remembered).format(
        n=remembered, replayed=ngettext("{n} new event replayed (`--full` replays them all).",
                                        "{n} new events replayed (`--full` replays them all).", fresh).format(n=fresh)))


def _counted(sessions: int, events: int, payments: int) -> str:
    """``3 sessions, 120 events and 80 payments``: a list of counts, each counted in its own words."""
    return _("{sessions}, {events} and {payments}").format(
        sessions=ngettext("{n} session", "{n} sessions", sessions).format(n=sessions),
        events=ngettext("{n} event", "{n} events", events).format(n=events),
        payments=ngettext("{n} payment", "{n} payments", payments).format(n=payments))


@db_app.command("backup")
def db_backup(file: str = typer.Argument(..., help="Where to write the copy."),
              force: bool = typer.Option(False, "--force", help="Replace FILE if it exists (never the database).")) -> None:
    """A consistent copy of the database, safe while another pan records (SQLite's backup API).

    Example: pan db backup ~/pan-backup.db
    """
    from pancli.app.database import backup  # noqa: PLC0415 start-up: the app layer

    data = backup(app_context().open_store(create=False), file, force)
    sessions = ngettext("{n} session", "{n} sessions", data["sessions"]).format(n=data["sessions"])
    events = ngettext("{n} event", "{n} events", data["events"]).format(n=data["events"])
    console().print(_("Backed up {sessions} and {events} to {file} ({size} MB).").format(
        sessions=sessions, events=events, file=data["file"], size=_megabytes(data["size"], 2)))


def _megabytes(size: int, digits: int) -> str:
    """A file's size in MB to ``digits`` decimals, with the language's decimal sign."""
    from decimal import Decimal  # noqa: PLC0415 start-up: decimal

    from pancli.core.numbers import decimal_text  # noqa: PLC0415 start-up: decimal

    return decimal_text(Decimal(f"{size / 1e6:.{digits}f}"))
