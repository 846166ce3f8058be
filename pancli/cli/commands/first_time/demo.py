"""pan demo: the sample evening recorded into a database of its own, started afresh every run."""

from __future__ import annotations

import contextlib
import contextvars
import io
from pathlib import Path

import typer

from pancli.app.views import standings_data
from pancli.cli.fit import terminal_width
from pancli.cli.groups import command_set
from pancli.cli.output import console
from pancli.cli.render import standings_table
from pancli.core.errors import StoreError
from pancli.core.i18n import _
from pancli.core.text import wrap_words

commands = command_set()  # what this module adds to `pan`


def demo_path() -> Path:
    """The demo's own database, next to (never instead of) the user's default one."""
    from pancli.storage.paths import data_dir  # noqa: PLC0415 start-up: storage

    return data_dir() / "demo.db"


def _remove_database(path: Path) -> None:
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}.history")):
        p.unlink(missing_ok=True)


def _shown(path: Path) -> str:
    """A path as a person would type it: under the home folder as ~/…"""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return str(path)


@commands.command()
def demo() -> None:
    """Record a sample evening (seven players, nine hands of Panguingue) into a demo database of its
    own and show how it ended. Your own database is never touched; every run starts the demo afresh.

    Example: pan demo
    """
    from importlib.resources import files  # noqa: PLC0415 start-up: importlib.resources

    from pancli.cli.shell.script import run_script  # noqa: PLC0415 start-up: the table shell
    from pancli.cli.shell.table_shell import TableShell  # noqa: PLC0415 start-up: the table shell

    path = demo_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_database(path)
    except OSError as e:
        raise StoreError(_("cannot start the demo database {path}").format(path=path), e.strerror or str(e)) from None
    script = files("pancli").joinpath("data", "tonight.pan").read_text(encoding="utf-8")
    shell = TableShell(db=str(path), board=False)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            # In a context of its own: each line of the script puts a language in force, and the
            # demo goes on in the one its own command chose.
            code = contextvars.copy_context().run(run_script, shell, script.splitlines(), source="tonight.pan",
                                                  quiet=True, out=out, err=err)
        if code:  # the sample is tested; this would be a bug, shown rather than hidden
            typer.echo(err.getvalue(), err=True, nl=False)
            raise typer.Exit(code)

        rec = shell.recorder()
        assert rec is not None  # the sample's script started its session
        data = standings_data(rec)
    finally:
        shell.close()
    db = _shown(path)
    # Translators: keep the line breaks (each line fits 80 columns) and the two spaces before {db}
    room = terminal_width()  # a line a catalog broke at 80 characters may be wider in cells
    intro = _("The sample evening: seven players (Gus sits down after hand 3), nine hands of\n"
              "Panguingue under Hoyle's rules, typed line by line as a dealer would at\n"
              "`pan table`, went into a demo database of its own (started afresh each run):\n"
              "  {db}\n"
              "Your own database is untouched.\n").format(db=db)
    typer.echo("\n".join(part for line in intro.split("\n") for part in wrap_words(line, room)))
    console().print(standings_table(data))
    rows = [
        (f"pan --db {db} report", _("the evening at a glance")),
        (f"pan --db {db} settle", _("who pays whom")),
        ("pan check 5S 5S 5S", _("judge a disputed meld")),
        ("pan session new friday --players Ana,Ben,Cruz", _("start your own table,")),
        ("pan table", _("then record it hand by hand")),
    ]
    width = max(len(a) for a, _b in rows)
    lines = []
    for a, b in rows:  # a description too long for the terminal goes on under itself
        first, *more = wrap_words(b, max(16, room - width - 4))
        lines += [f"  {a.ljust(width)}  {first}\n"] + [f"  {'':{width}}  {x.strip()}\n" for x in more]
    typer.echo("\n" + _("Try next:") + "\n" + "".join(lines), nl=False)
