"""`pan restore`: a database brought back from where `pan replicate` streamed it, with Litestream."""

from __future__ import annotations

import typer

from pancli.cli.commands.hosts.replicate import TARGET_HELP
from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.output import console
from pancli.core.i18n import _, ngettext

commands = command_set()  # what this module adds to `pan`


@commands.command()
def restore(target: str = typer.Argument(..., help=TARGET_HELP),
            output: str | None = typer.Option(None, "-o", "--output", metavar="FILE",
                                                 help="Where to restore (default: the database, --db)."),
            force: bool = typer.Option(False, "--force", help="Replace FILE if it exists.")) -> None:
    """Bring a database back from a replica made by `pan replicate`, check it (`pan db check`)
    and put it in place. It is refused while a pancli process (`pan table`, `pan serve`,
    `pan replicate`) has the database open: close it first.

    Example: pan restore sftp://backup@nas.local/pan
    """
    from pancli.app import replicate as rep  # noqa: PLC0415 start-up: the app layer
    from pancli.storage.paths import resolve_path  # noqa: PLC0415 start-up: storage

    rep.binary()  # without Litestream, one line saying how to get it, before anything is touched
    url = rep.replica_url(target)
    dest = rep.restore_target(output, resolve_path(app_context().db), force)
    figures = rep.restore(url, dest)
    sessions = ngettext("{n} session", "{n} sessions", figures["sessions"]).format(n=figures["sessions"])
    events = ngettext("{n} event", "{n} events", figures["events"]).format(n=figures["events"])
    # Translators: {sessions} is "1 session", {events} "12 events"
    console().print(_("Restored {file} from {url}: {sessions}, {events}; `pan db check` passes.").format(
        file=dest, url=url, sessions=sessions, events=events), markup=False)
