"""`pan sync FOLDER --watch`: sync, then again whenever the folder or this database changes
(pancli/app/sync_watch.py decides when), a line each time something changed, until Ctrl-C."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

import typer

from pancli.app import sync_watch
from pancli.app.club import sync_host
from pancli.app.sync.run import folder_of
from pancli.cli.errors import database_errors
from pancli.cli.output import print_json
from pancli.cli.sync_findings import print_findings
from pancli.core.errors import PanError
from pancli.core.i18n import _, ngettext
from pancli.core.names import inert
from pancli.core.text import one_line

if TYPE_CHECKING:
    from pancli.app.sync.outcome import Outcome
    from pancli.storage.store import Store


def watch_folder(store: Store, folder: str | None, device_name: str | None, create: bool, as_json: bool) -> None:
    root = folder_of(store, folder, create)  # a folder that is not one: refused here, before watching
    me = store.sync.device_id()
    first = [True]

    def run() -> None:
        try:
            out = sync_host(store, folder, device_name if first[0] else None, create and first[0])
        except (PanError, OSError, *database_errors()) as e:  # a refusal, a busy database, a file gone: on watching
            if first[0]:
                raise
            why = one_line(e.message) if isinstance(e, PanError) else one_line(str(e))
            typer.echo(inert(_("{time} Could not sync: {why}; watching on.").format(time=clock(), why=why)),
                       err=as_json)
            return
        if first[0]:
            typer.echo(inert(_("Watching {folder} as {device}: a line each time something changes; "
                               "Ctrl-C stops.").format(folder=out.folder, device=out.label)), err=as_json)
        first[0] = False
        if as_json:
            if moved(out) or not out.ok or out.incomplete or out.pinned:
                print_json(out.to_json())
            return
        line = what_changed(out)
        if line:
            typer.echo(inert(_("{time} {what}.").format(time=clock(), what=line)))
        print_findings(out)

    stop = threading.Event()
    try:
        sync_watch.watch(store, root, me, run, stop)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
    typer.echo(_("Stopped watching."), err=as_json)  # with --json, standard output holds JSON only


def clock() -> str:
    return time.strftime("%H:%M:%S")


def moved(out: Outcome) -> bool:
    return bool(out.written or out.imported or out.extended or (out.club and out.club["new"]))


def what_changed(out: Outcome) -> str:
    """The sessions one sync moved, in one line: what went out, what came in; empty when none
    (new roster entries are said by print_findings, as `pan sync` says them)."""
    parts = []
    for w in out.written:
        n = w["events"]
        parts.append(ngettext("sent {session} ({n} event)", "sent {session} ({n} events)", n).format(
            session=w["name"], n=n))
    for i in out.imported:
        n = i["events"]
        parts.append(ngettext("took in {session} from {device} ({n} event)",
                              "took in {session} from {device} ({n} events)", n).format(
            session=i["name"], device=i["device_label"], n=n))
    for e in out.extended:
        n = e["events"]
        parts.append(ngettext("{session} from {device}: {n} new event",
                              "{session} from {device}: {n} new events", n).format(
            session=e["name"], device=e["device_label"], n=n))
    # Translators: between the parts of one line: "sent k1 (5 events); took in b1 from ben (5 events)"
    return _("; ").join(parts)
