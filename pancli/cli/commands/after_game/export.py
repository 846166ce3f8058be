"""`pan export`: a session as an archive (TOML or JSON), or the archive format's description."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

import typer

from pancli.cli.commands.after_game.common import store_and_session, write_target
from pancli.cli.groups import command_set
from pancli.cli.options import FORCE, SESSION
from pancli.cli.output import console
from pancli.core.errors import InputError
from pancli.core.i18n import _

commands = command_set()  # what this module adds to `pan`


def _print_format_doc(value: bool) -> None:
    """--format-doc: the archive format, as shipped inside the package (wherever pancli is installed)."""
    if value:
        from importlib.resources import files  # noqa: PLC0415 start-up: importlib.resources

        from pancli.app.archive_check import payloads_markdown  # noqa: PLC0415 start-up: the app layer

        sys.stdout.write(files("pancli").joinpath("data", "archive-format.md").read_text(encoding="utf-8"))
        sys.stdout.write(payloads_markdown())
        raise typer.Exit(0)


@commands.command()
def export(name: str | None = SESSION,
           fmt: str = typer.Option("toml", "--format", "-f", help="toml (the archive), json (the same), csv (payments and standings)."),
           output: str | None = typer.Option(None, "--output", "-o", metavar="FILE",
                                                help="Where to write (- for standard output). Default: sessions/NAME.toml "
                                                     "for toml, standard output for json and csv."),
           format_doc: bool = typer.Option(False, "--format-doc", is_eager=True, callback=_print_format_doc,
                                           help="Print the description of the archive format and exit."),
           force: bool = FORCE) -> None:
    """Write a session out: TOML is the portable archive `pan import` reads back; CSV is for spreadsheets.

    `pan export --format-doc` prints the archive format, field by field.

    Example: pan export friday --format toml -o friday.toml
    """
    from pancli.app import archive, archive_write  # noqa: PLC0415 start-up: the app layer
    from pancli.app.files import session_file_name, write_atomic  # noqa: PLC0415 start-up: the app layer
    from pancli.storage.log import now  # noqa: PLC0415 start-up: storage

    fmt = fmt.lower()
    if fmt not in ("toml", "json", "csv"):
        raise InputError(_("unknown format '{format}'").format(format=fmt), _("choose toml, json or csv"))
    path = write_target(output, force, "archive") if output not in (None, "-") else None
    store, session = store_and_session(name)
    if output is None and fmt == "toml":
        path = write_target(str(Path("sessions") / session_file_name(session.name, ".toml")), force, "archive")
    if fmt == "csv":
        with store.snapshot():
            text = archive.to_csv(store, session)
        if path is None:
            sys.stdout.write(text)
            return
        write_atomic(path, text, mkdir=True)
    else:
        exported_at = now() if fmt == "toml" else None

        def write_to(out: TextIO) -> None:  # the archive as its events are read: a night is never held whole
            archive_write.export(store, session, fmt, out.write, exported_at)

        if path is None:
            write_to(sys.stdout)
            return

        def write_file(partial: Path) -> None:
            with open(partial, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as f:
                write_to(f)

        write_atomic(path, write_file, mkdir=True)
    console().print(_("Wrote {path} ({format}).").format(path=path, format=fmt))
