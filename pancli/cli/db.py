"""Where the data lives and how it is kept: `pan db path|status|check|backup`."""

from __future__ import annotations

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set, new_app
from pancli.cli.output import console, count_of, print_json

db_app = new_app("Where the data lives and how it is kept.\n\nExample: pan db path")
commands = command_set()  # what this module adds to `pan`
commands.add_typer(db_app, name="db")

JSON = typer.Option(False, "--json", help="Print JSON for scripts.")


@db_app.command("path")
def db_path():
    """Print where the database is (--db, then PANCLI_DB, then the user's data folder).

    Example: pan db path
    """
    from pancli.storage.paths import resolve_path

    print(resolve_path(app_context().db))


@db_app.command("status")
def db_status(as_json: bool = JSON):
    """File, size, sessions, events and schema version of the database.

    Example: pan db status
    """
    from pancli.app.dbcare import status

    data = status(app_context().open_store(create=False))
    if as_json:
        print_json(data)
        return
    out = console()
    out.print(f"File: {data['file']}")
    wal = f" (+{data['wal_size'] / 1e6:.1f} MB write-ahead log)" if data["wal_size"] else ""
    out.print(f"Size: {data['size'] / 1e6:.2f} MB{wal}")
    out.print(f"Sessions: {data['sessions']} ({data['imported_sessions']} imported)")
    out.print(f"Events: {data['events']} ({count_of(data['undos'], 'undo')}), payments: {data['payments']}, tallies: {data['tallies']}")
    out.print(f"Schema version: {data['schema_version']} ({', '.join(data['migrations'])}); "
              f"SQLite {data['sqlite']}, journal {data['journal_mode']}")


@db_app.command("check")
def db_check(as_json: bool = JSON,
             full: bool = typer.Option(False, "--full", help="Replay every event, not only those recorded "
                                       "since the last check.")):
    """SQLite's integrity check, then every session replayed: stored payments must equal the recomputed
    ones and sum to zero; events are numbered with no gap. Exits 1 with the first discrepancy.

    A repeat check trusts what an earlier check on this computer verified: those events are read
    against its digests instead of replayed again (any change to them fails the check), as long
    as its mark is sealed with this user's key (check-marks.key in pancli's data folder, outside
    the database) by the same pancli and SQLite; any other mark is ignored and the session
    replayed in full.

    Example: pan db check
    """
    from pancli.app.dbcare import CheckFailed, check

    problem, figures = check(app_context().open_store(create=False), full=full)
    if problem:
        raise CheckFailed(problem, figures.get("fix", "the stored ledger and the rules disagree; nothing was changed"))
    if as_json:
        print_json({"ok": True, **figures})
        return
    events, remembered = figures["events"], figures["remembered"]
    out = console()
    if not remembered:
        out.print(f"OK: integrity check passed; {count_of(figures['sessions'], 'session')}, "
                  f"{count_of(events, 'event')} and {count_of(figures['payments'], 'payment')} replayed "
                  "and matched; every session sums to zero.")
        return
    out.print(f"OK: integrity check passed; {count_of(figures['sessions'], 'session')}, "
              f"{count_of(events, 'event')} and {count_of(figures['payments'], 'payment')} matched; "
              "every session sums to zero.")
    out.print(f"{count_of(remembered, 'event')} unchanged since an earlier check, "
              f"{count_of(events - remembered, 'new event')} replayed (`--full` replays them all).")


@db_app.command("backup")
def db_backup(file: str = typer.Argument(..., help="Where to write the copy."),
              force: bool = typer.Option(False, "--force", help="Replace FILE if it exists (never the database).")):
    """A consistent copy of the database, safe while another pan records (SQLite's backup API).

    Example: pan db backup ~/pan-backup.db
    """
    from pancli.app.dbcare import backup

    data = backup(app_context().open_store(create=False), file, force)
    console().print(f"Backed up {count_of(data['sessions'], 'session')} and {count_of(data['events'], 'event')} to {data['file']} "
                    f"({data['size'] / 1e6:.2f} MB).")
