"""Live replication off the machine (`pan replicate`) and bringing a database back (`pan restore`),
with Litestream as a process of its own."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import typer

from pancli.cli.context import app_context
from pancli.cli.groups import command_set
from pancli.cli.output import console
from pancli.core.errors import InputError, StoreError
from pancli.core.i18n import _

commands = command_set()  # what this module adds to `pan`

TARGET_HELP = "A folder, or an sftp://, s3:// (any S3-compatible storage) or file:// URL."


@commands.command()
def replicate(target: str | None = typer.Argument(None, help=TARGET_HELP + " Default: the one used last time."),
              interval: str = typer.Option("250ms", "--interval", help="How often changes are sent (250ms, 1s, …)."),
              once: bool = typer.Option(False, "--once", help="Send what is new once and stop.")) -> None:
    """Stream the database off this machine while the table records, with Litestream: every
    committed event reaches the replica within the interval. Ctrl-C stops it.

    Run it in a second terminal for the evening (like `pan serve`); `pan restore` brings the
    database back on any machine.

    Example: pan replicate sftp://backup@nas.local/pan
    """
    import tempfile  # noqa: PLC0415 start-up: tempfile

    from pancli.app import replicate as rep  # noqa: PLC0415 start-up: the app layer
    from pancli.storage import dblock  # noqa: PLC0415 start-up: storage

    rep.binary()  # without Litestream, one line saying how to get it, before anything is touched
    store = app_context().open_store(create=False)  # made WAL by opening, as every pancli write keeps it
    saved = store.setting("replica")
    url = rep.replica_url(target or saved or "")
    if not target and not saved:
        raise InputError(_("no replica given, and this database has none yet"), _("pan replicate FOLDER-OR-URL"))
    if url != saved:
        with store.lock():
            store.set_setting("replica", url)
    db = Path(store.path).resolve()
    holding = dblock.hold(db)  # while Litestream follows it, `pan restore` must not replace it
    app_context().close()
    text = rep.config(db, url, interval)
    args = None
    try:
        with tempfile.TemporaryDirectory(prefix="pancli-litestream-") as tmp:
            cfg = Path(tmp) / "litestream.yml"
            cfg.write_text(text, encoding="utf-8")
            args, tie, pipe = rep.tied(rep.replicate_args(cfg, once))  # it stops if this pan dies, even by -9
            if not once:
                console().print(_("Replicating {db} to {url} every {interval} with Litestream. Ctrl-C stops.").format(
                    db=db, url=url, interval=interval), markup=False)
            try:
                code = subprocess.run(args, **tie).returncode
            except KeyboardInterrupt:  # Litestream got the Ctrl-C too: it sends what is left and stops
                code = 0
            except OSError as e:
                raise InputError(_("cannot run Litestream: {why}").format(why=e.strerror or e), rep.how_to_get()) from None
            finally:
                if pipe is not None:
                    os.close(pipe)
    finally:
        if holding is not None:
            holding.release()
    if code:
        raise StoreError(_("Litestream stopped with status {code}").format(code=code), _("see its message above"))
    if once:
        console().print(_("Sent {db} to {url}.").format(db=db, url=url), markup=False)
