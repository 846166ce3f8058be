"""Several hosts or tables: `pan sync FOLDER` through a folder a file-sync engine shares."""

from __future__ import annotations

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.output import console, count_of, print_json

commands = command_set()  # what this module adds to `pan`


@commands.command("sync")
def sync_cmd(folder: str | None = typer.Argument(None, help="The shared folder (default: the one used last time); "
                                                 "or `trust` or `forget` followed by a DEVICE."),
             device: str | None = typer.Argument(None, help="With trust or forget: the device (its name or id).",
                                                 show_default=False),
             show_status: bool = typer.Option(False, "--status", help="Each device: its key, what it has contributed, "
                                              "when it was first and last seen."),
             create: bool = typer.Option(False, "--create", help="Create FOLDER if it does not exist."),
             device_name: str | None = typer.Option(None, "--device-name", metavar="NAME",
                                                       help="Name this device (kept; shown to the others)."),
             key: str | None = typer.Option(None, "--key", metavar="KEY",
                                            help="With trust: the device's public key (64 hex digits)."),
             as_json: bool = typer.Option(False, "--json", help="Print JSON for scripts.")):
    """One history across hosts and tables: write this device's sessions to a shared folder, each
    signed with this device's key, and bring in every other device's that its own key signed.
    Exits 1 when a file is refused or two copies of a session contradict each other.

    Any file-sync engine can share the folder (Syncthing, Nextcloud, a cloud drive, a git
    repository). Each session is recorded by one device and read-only on the others.
    `pan sync trust DEVICE [--key KEY]` pins a device's key ahead (or takes the one it offers
    now, after a key change); `pan sync forget DEVICE` drops a device (a lost laptop).

    Example: pan sync ~/Sync/pan-club
    """
    from pancli.app import sync
    from pancli.core.errors import InputError

    ctx = app_context()
    if folder in ("trust", "forget") and device is not None:
        store = ctx.open_store(create=False)
        data = sync.trust(store, device, key) if folder == "trust" else sync.forget(store, device)
        if as_json:
            print_json(data)
        elif folder == "trust":
            typer.echo(inert(f"Pinned the key of {data['label']} ({data['device'][:8]}): {data['fingerprint']}"
                             + (f", in place of {data['replaced']}." if data["replaced"] else ".")))
        else:
            n = data["sessions"]
            typer.echo(inert(f"Forgot {data['label']} ({data['device'][:8]}) and its key; "
                             + ("it had no session here." if not n else
                                f"its {count_of(n, 'session')} {'stays' if n == 1 else 'stay'} here, read-only.")))
        return
    if device is not None:
        raise InputError(f"'{device}' is one word too many", "pan sync FOLDER, pan sync trust DEVICE or "
                         "pan sync forget DEVICE")
    if key is not None:
        raise InputError("--key goes with `pan sync trust DEVICE`", "pan sync trust DEVICE --key KEY")
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


def inert(text: str) -> str:
    from pancli.core.names import inert as made_inert

    return made_inert(text)


def _print_outcome(out) -> None:
    from pancli.cli.output import output_width
    from pancli.core.names import inert
    from pancli.core.text import wrap_words

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
    for p in out.pinned:
        say(f"First sight of {p['label']} ({p['device'][:8]}): its key {p['fingerprint']} is now pinned.")
    for f in out.refused:
        claims = f" (it claims {f['device_label']}, {f['device'][:8]})" if f.get("device") else ""
        say(f"Refused {f['file']}{claims}: {f['why']}.")
    for e in out.errors:
        say(f"Could not use {e['path']}: {e['why']}.")
    width = (output_width() or console().width) if out.conflicts else 0  # rich loads only to lay them out
    for c in out.conflicts:
        head, *more = c["text"]
        for line in [head, *("  " + x for x in more)]:
            for part in wrap_words(inert(line), width):
                typer.echo(part)
    changed = len(out.written) + len(out.imported) + len(out.extended)
    summary = "nothing changed" if not changed else f"{count_of(changed, 'session')} changed"
    problems = len(out.conflicts) + len(out.refused) + len(out.errors)
    say(f"Synced {out.label} with {out.folder}: {summary}"
        + (f"; {count_of(problems, 'problem')} to look at." if problems else "."))


def _print_status(data: dict) -> None:
    from rich.table import Table

    from pancli.core.numbers import date_text, datetime_text
    from pancli.core.text import wrap_words

    con = console()
    folder = data["folder_shown"]
    for line in (f"This device is {data['label']}; " + (f"it syncs with {folder}." if folder else
                                                          "it has not synced yet."),
                 f"Its id is {data['device'][:8]}, its key {data['fingerprint']}."):
        for part in wrap_words(line, con.width):
            con.print(part, markup=False, soft_wrap=True)
    table = Table(title_justify="left", box=None, pad_edge=False, padding=(0, 1))
    for col in ("device", "key", "sessions", "events", "first seen", "last seen"):
        table.add_column(col, justify="right" if col in ("sessions", "events") else "left", no_wrap=col == "key")
    for d in data["devices"]:
        table.add_row((d["label"] or d["device"][:8]) + (" *" if d["this"] else ""), d["fingerprint"] or "not known yet",
                      str(d["sessions"]), str(d["events"]), date_text(d["first_seen"]) if d["first_seen"] else "-",
                      datetime_text(d["last_seen"][:16].replace("T", " ")) if d["last_seen"] else "never")
    con.print(table)
    con.print("* this device. Read the keys aloud: the same four groups mean the same key.")
