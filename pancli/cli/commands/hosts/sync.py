"""Several hosts or tables: `pan sync FOLDER` through a folder a file-sync engine shares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.options import JSON
from pancli.cli.output import console, print_json
from pancli.core.errors import InputError
from pancli.core.i18n import _, ngettext
from pancli.core.names import inert
from pancli.core.text import wrap_words

if TYPE_CHECKING:
    from pancli.app.sync.outcome import Outcome

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
             watch: bool = typer.Option(False, "--watch", help="Keep syncing: again whenever the folder or this "
                                        "database changes, until Ctrl-C; a line each time something changed."),
             as_json: bool = JSON) -> None:
    """One history across hosts and tables: write this device's sessions to a shared folder, each
    signed with this device's key, and bring in every other device's that its own key signed.
    Exits 1 when a file is refused or two copies of a session contradict each other.

    Any file-sync engine can share the folder (Syncthing, Nextcloud, a cloud drive, a git
    repository). Each session is recorded by one device and read-only on the others.
    `pan sync trust DEVICE [--key KEY]` pins a device's key ahead (or takes the one it offers
    now, after a key change); `pan sync forget DEVICE` drops a device (a lost laptop).

    Example: pan sync ~/Sync/pan-club
    """
    from pancli.app.sync import devices  # noqa: PLC0415 start-up: the app layer

    ctx = app_context()
    if folder in ("trust", "forget") and device is not None:
        store = ctx.open_store(create=False)
        data = devices.trust(store, device, key) if folder == "trust" else devices.forget(store, device)
        if as_json:
            print_json(data)
        elif folder == "trust":
            text = _("Pinned the key of {device} ({id}): {key}, in place of {old}.") if data["replaced"] else \
                _("Pinned the key of {device} ({id}): {key}.")
            typer.echo(inert(text.format(device=data["label"], id=data["device"][:8], key=data["fingerprint"],
                                         old=data["replaced"])))
        else:
            n = data["sessions"]
            text = ngettext("Forgot {device} ({id}) and its key; its {n} session stays here, read-only.",
                            "Forgot {device} ({id}) and its key; its {n} sessions stay here, read-only.", n) \
                if n else _("Forgot {device} ({id}) and its key; it had no session here.")
            typer.echo(inert(text.format(device=data["label"], id=data["device"][:8], n=n)))
        return
    if device is not None:
        raise InputError(_("'{word}' is one word too many").format(word=device),
                         _("pan sync FOLDER, pan sync trust DEVICE or pan sync forget DEVICE"))
    if key is not None:
        # Translators: commands, never translated (only DEVICE and KEY may be)
        raise InputError(_("--key goes with `pan sync trust DEVICE`"), _("pan sync trust DEVICE --key KEY"))
    if show_status:
        data = devices.status(ctx.open_store(create=False))
        if as_json:
            print_json(data)
        else:
            _print_status(data)
        return
    store = ctx.open_store(create=True)
    if watch:
        from pancli.cli.sync_watch import watch_folder  # noqa: PLC0415 only --watch

        return watch_folder(store, folder, device_name, create, as_json)
    from pancli.app.club import sync_host  # noqa: PLC0415 start-up: the app layer

    out = sync_host(store, folder, device_name, create)
    ctx.forget_session()
    if as_json:
        print_json(out.to_json())
    else:
        _print_outcome(out)
    if not out.ok:
        raise typer.Exit(1)


def _print_outcome(out: Outcome) -> None:
    def say(text: str) -> None:
        """One plain line, never wrapped (it may hold a file name), inert: names and files come
        from other devices."""
        typer.echo(inert(text))

    for w in out.written:
        n = w["events"]
        say(ngettext("Wrote {session} ({n} event).", "Wrote {session} ({n} events).", n).format(
            session=w["name"], n=n))
    for i in out.imported:
        n = i["events"]
        say(ngettext("Imported {session} from {device} ({n} event, every payment checked; read-only here).",
                     "Imported {session} from {device} ({n} events, every payment checked; read-only here).",
                     n).format(session=i["name"], device=i["device_label"], n=n))
    for e in out.extended:
        n = e["events"]
        say(ngettext("Brought {session} up to date from {device}: {n} new event.",
                     "Brought {session} up to date from {device}: {n} new events.", n).format(
            session=e["name"], device=e["device_label"], n=n))
    from pancli.cli.sync_findings import print_findings  # noqa: PLC0415 start-up: cli.sync_findings

    print_findings(out)
    changed = len(out.written) + len(out.imported) + len(out.extended)
    summary = ngettext("{n} session changed", "{n} sessions changed", changed).format(n=changed) if changed \
        else _("nothing changed")
    problems = len(out.conflicts) + len(out.refused) + len(out.errors)
    if problems:
        # Translators: {summary} is "nothing changed" or "2 sessions changed"; {problems} is "1 problem"
        text = _("Synced {device} with {folder}: {summary}; {problems} to look at.")
    else:
        text = _("Synced {device} with {folder}: {summary}.")
    say(text.format(device=out.label, folder=out.folder, summary=summary,
                    problems=ngettext("{n} problem", "{n} problems", problems).format(n=problems)))


def _print_status(data: Mapping[str, Any]) -> None:
    from rich.table import Table  # noqa: PLC0415 start-up: rich

    from pancli.core.numbers import date_text, datetime_text  # noqa: PLC0415 start-up: decimal

    con = console()
    folder = data["folder_shown"]
    first = _("This device is {device}; it syncs with {folder}.") if folder else \
        _("This device is {device}; it has not synced yet.")
    for line in (first.format(device=data["label"], folder=folder),
                 _("Its id is {id}, its key {key}.").format(id=data["device"][:8], key=data["fingerprint"])):
        for part in wrap_words(line, con.width):
            con.print(part, markup=False, soft_wrap=True)
    table = Table(title_justify="left", box=None, pad_edge=False, padding=(0, 1))
    columns = {"device": _("device"), "key": _("key"), "sessions": _("sessions"), "events": _("events"),
               "first seen": _("first seen"), "last seen": _("last seen")}
    for col, title in columns.items():
        table.add_column(title, justify="right" if col in ("sessions", "events") else "left", no_wrap=col == "key")
    for d in data["devices"]:
        table.add_row((d["label"] or d["device"][:8]) + (" *" if d["this"] else ""),
                      d["fingerprint"] or _("not known yet"), str(d["sessions"]), str(d["events"]),
                      date_text(d["first_seen"]) if d["first_seen"] else "-",
                      datetime_text(d["last_seen"][:16].replace("T", " ")) if d["last_seen"] else _("never"))
    con.print(table)
    con.print(_("* this device. Read the keys aloud: the same four groups mean the same key."))
