"""Several hosts or tables: `pan sync FOLDER` through a folder a file-sync engine shares."""

from __future__ import annotations

import typer

from pancli.cli.common import command_set, console, count_of, print_json
from pancli.cli.context import app_context

commands = command_set()  # what this module adds to `pan`


@commands.command("sync")
def sync_cmd(folder: str | None = typer.Argument(None, help="The shared folder (default: the one used last time)."),
             show_status: bool = typer.Option(False, "--status", help="What each device has contributed, and when it last synced."),
             create: bool = typer.Option(False, "--create", help="Create FOLDER if it does not exist."),
             device_name: str | None = typer.Option(None, "--device-name", metavar="NAME",
                                                       help="Name this device (kept; shown to the others)."),
             as_json: bool = typer.Option(False, "--json", help="Print JSON for scripts.")):
    """One history across hosts and tables: write this device's sessions to a shared folder and bring
    in every other device's. Exits 1 when two copies of a session contradict each other.

    Any file-sync engine can share the folder (Syncthing, Nextcloud, a cloud drive, a git
    repository). Each session is recorded by one device and read-only on the others.

    Example: pan sync ~/Sync/pan-club
    """
    from pancli.app import sync

    ctx = app_context()
    if show_status:
        data = sync.status(ctx.open_store(create=False))
        if as_json:
            print_json(data)
        else:
            _print_status(data)
        return
    store = ctx.open_store(create=True)
    out = sync.sync(store, folder, device_name, create)
    ctx.forget_session()
    if as_json:
        print_json(out.to_json())
    else:
        _print_outcome(out)
    if not out.ok:
        raise typer.Exit(1)


def _print_outcome(out) -> None:
    from pancli.core.names import inert

    def say(text: str) -> None:
        """One plain line, never wrapped (it may hold a file name), inert: names and files come
        from other devices."""
        typer.echo(inert(text))

    for w in out.written:
        say(f"Wrote {w['name']} ({count_of(w['events'], 'event')}).")
    for i in out.imported:
        say(f"Imported {i['name']} from {i['device_label']} ({count_of(i['events'], 'event')}, "
            "every payment checked; read-only here).")
    for e in out.extended:
        say(f"Brought {e['name']} up to date from {e['device_label']}: "
            f"{count_of(e['events'], 'new event')}.")
    for f in out.incomplete:
        say(f"Not complete yet, read again next time: {f['file']} ({f['why']}).")
    for f in out.refused:
        say(f"Refused {f['file']}: {f['why']}.")
    for c in out.conflicts:
        at = f"the copies differ from event #{c['seq']} on" if c["seq"] else c["why"]
        sides = "; ".join(f"{s['where']}" + (f" (written by {s['device_label']})" if s.get("device_label") else "")
                          + f": {count_of(s['events'], 'event')}" for s in c["sides"])
        say(f"Conflict in session {c['session']} (recorded on {c['device_label']} {c['device'][:8]}): "
            f"{at}. {sides}. Both are left as they are.")
    changed = len(out.written) + len(out.imported) + len(out.extended)
    summary = "nothing changed" if not changed else f"{count_of(changed, 'session')} changed"
    problems = len(out.conflicts) + len(out.refused)
    say(f"Synced {out.label} with {out.folder}: {summary}"
        + (f"; {count_of(problems, 'problem')} to look at." if problems else "."))


def _print_status(data: dict) -> None:
    from rich.table import Table

    con = console()
    con.print(f"This device: {data['label']} ({data['device'][:8]}); folder: {data['folder'] or 'none yet'}",
              markup=False)
    table = Table(title_justify="left")
    for col in ("device", "sessions", "events", "last event", "last sync"):
        table.add_column(col, justify="right" if col in ("sessions", "events") else "left")
    for d in data["devices"]:
        table.add_row((d["label"] or d["device"][:8]) + (" *" if d["this"] else ""), str(d["sessions"]),
                      str(d["events"]), (d["last_event"] or "-")[:16].replace("T", " "),
                      (d["last_sync"] or "never")[:16].replace("T", " "))
    con.print(table)
    con.print("* this device")
