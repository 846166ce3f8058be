"""What every command shares: the app, the global options, output and error handling."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from typer import BadParameter  # typer runs its own copy of click (0.22 on)
from typer._click.exceptions import NoSuchOption, UsageError
from typer.core import TyperCommand, TyperGroup

from pancli.core.errors import PanError
from pancli.core.text import json_text, one_line
from pancli.core.words import plural


class MistypedWord(UsageError):
    """A mistyped command or option, said in one line with the closest word, the way a mistyped
    player is (``resolve_player``): no usage block, no "Try 'pan -h'" line."""

    def show(self, file=None) -> None:
        typer.echo(f"Error: {one_line(self.message)}", file=file, err=file is None)


def _in_shell(ctx) -> bool:
    """Whether the line was typed at `pan table` (which hands every line its AppContext)."""
    return bool(getattr(ctx.find_root().obj, "in_shell", False))


def _said(ctx) -> str:
    """The command as the person typed it: `pan rules` on a command line, `rules` at the table."""
    path = ctx.command_path
    if _in_shell(ctx):
        path = path.split(" ", 1)[1] if " " in path else ""
    return path


def _help_words(ctx, what: str) -> str:
    """`pan check -h` on a command line, `help check` at the table."""
    said = _said(ctx)
    told = (f"help {said}" if said else "help") if _in_shell(ctx) else f"{said} -h"
    return f"(`{told}` lists {what})"


def no_such_command(ctx, word: str) -> MistypedWord:
    from pancli.core.knobs import closest

    close = closest(word, [n for n in ctx.command.list_commands(ctx) if n != word])
    guess = f": did you mean {close}?" if close else ""
    said = _said(ctx) if ctx.parent is not None else ""
    where = f"{said} has no command" if said else "no command"
    return MistypedWord(f"{where} '{word}'{guess} {_help_words(ctx, 'the commands')}", ctx=ctx)


def no_such_option(e: NoSuchOption) -> MistypedWord:
    from pancli.core.knobs import closest

    ctx = e.ctx
    if ctx is None:  # pragma: no cover - click always names the context
        return MistypedWord(f"no option {e.option_name} (`pan -h` lists the options)")
    names: list[str] = []
    for p in ctx.command.get_params(ctx):
        if getattr(p, "param_type_name", "") == "option" and not getattr(p, "hidden", False):
            names += list(p.opts) + list(p.secondary_opts)
    if e.option_name.startswith("--"):
        names = [n for n in names if n.startswith("--")]
    close = closest(e.option_name, names)
    guess = f": did you mean {close}?" if close else ""
    said = _said(ctx) or "pan"
    return MistypedWord(f"{said} has no option {e.option_name}{guess} {_help_words(ctx, 'its options')}",
                        ctx=ctx)


class PanGroup(TyperGroup):
    """Turns every PanError into one line on stderr and its exit code, never a traceback."""

    def resolve_command(self, ctx, args):
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None \
                and not ctx.resilient_parsing:
            raise no_such_command(ctx, args[0])
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None and not hasattr(cmd, "commands"):
            rest = negative_numbers_as_arguments(cmd, ctx, rest)
        return name, cmd, rest

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except NoSuchOption as e:  # `pan --dbb x`: the group's own options
            raise no_such_option(e) from None

    def invoke(self, ctx):
        with errors_as_messages():
            return super().invoke(ctx)


@contextmanager
def errors_as_messages() -> Iterator[None]:
    """Every PanError (and a word click could not read, a Ctrl-C, a database error) as one line
    on stderr and its exit code, never a traceback."""
    try:
        yield
    except NoSuchOption as e:  # an option of the command below this group
        raise no_such_option(e) from None
    except PanError as e:
        typer.echo(f"Error: {one_line(str(e))}", err=True)
        raise typer.Exit(e.exit_code) from None
    except BadParameter as e:  # a word click could not read as the option's type: one line
        typer.echo(f"Error: {one_line(e.format_message())}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo("Interrupted: nothing was recorded by the interrupted command.", err=True)
        raise typer.Exit(130) from None
    except OSError as e:
        line = os_error_line(e)
        if line is None:
            raise  # a reader that went away: `main` ends the command quietly
        say_error(line)
        raise typer.Exit(2) from None
    except Exception as e:
        # A database error outside Store.lock()/snapshot() (a damaged page met by a plain
        # query): one line like every StoreError, not a traceback. sqlite3 is looked up,
        # not imported, so commands that never open the database do not pay for it.
        sqlite3 = sys.modules.get("sqlite3")
        if sqlite3 is None or not isinstance(e, sqlite3.DatabaseError):
            raise
        from pancli.cli.context import app_context
        from pancli.storage.paths import resolve_path
        from pancli.storage.store import store_error

        err = store_error(resolve_path(app_context().db), e)
        typer.echo(f"Error: {one_line(str(err))}", err=True)
        raise typer.Exit(err.exit_code) from None


def os_error_line(e: OSError) -> str | None:
    """What an OS error that reached the top says, in one line naming the path and the reason;
    None for a closed standard output (`pan history | head -1`), which ends a command quietly."""
    import errno
    import os

    if isinstance(e, BrokenPipeError) or e.errno == errno.EPIPE:
        return None
    why = e.strerror or str(e) or type(e).__name__
    if e.filename is not None:
        names = os.fsdecode(e.filename) + (f" or {os.fsdecode(e.filename2)}" if e.filename2 is not None else "")
        return f"cannot use {names}: {why}: check the path and its permissions; the command stopped there"
    if _from_stdout(e):
        return f"cannot write to standard output{_stdout_name()}: {why}"
    return f"the command stopped: {why}"


def _from_stdout(e: OSError) -> bool:
    """Whether the error came from writing standard output: the innermost frame holds it (click's
    echo, rich's console) or its line names it (``sys.stdout.write``)."""
    import linecache

    tb = e.__traceback__
    if tb is None or sys.stdout is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    for value in frame.f_locals.values():
        try:
            if value is sys.stdout or getattr(value, "file", None) is sys.stdout:
                return True
        except Exception:  # a local whose `file` cannot be read is not a console
            continue
    return "stdout" in linecache.getline(frame.f_code.co_filename, tb.tb_lineno)


def _stdout_name() -> str:
    """" (/dev/full)": the file behind standard output, where the system says (Linux)."""
    import os

    try:
        return f" ({os.readlink(f'/proc/self/fd/{sys.stdout.fileno()}')})"
    except (OSError, ValueError, AttributeError):
        return ""


def say_error(line: str) -> None:
    """"Error: …" on standard error, even when standard error itself cannot be written."""
    try:
        typer.echo(f"Error: {one_line(line)}", err=True)
    except (OSError, ValueError):
        pass


def quiet_stdout() -> None:
    """Point standard output at the null device, so Python's final flush has nowhere to fail
    (the way the Python docs advise for SIGPIPE)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        sys.stdout = None


_NEGATIVE = re.compile(r"-(?:\d|\.\d|inf\b|infinity\b|nan\b)", re.IGNORECASE)


def negative_numbers_as_arguments(cmd, ctx, args: list[str]) -> list[str]:
    """`pan buyin ana -50`: click reads -50 as options -5 and -0. A word that looks like a negative
    number and names no option is an argument, so the argument's type can refuse it in one line.
    The words are reordered as click reads them anyway: options with their values, then `--`,
    then the arguments in order."""
    if not any(_NEGATIVE.match(a) for a in args) or "--" in args:
        return args
    takes_value, names = set(), set()
    multiword = set(getattr(cmd, "multiword_options", ()))
    for p in cmd.get_params(ctx):
        if getattr(p, "param_type_name", "") != "option":
            continue
        for o in list(p.opts) + list(p.secondary_opts):
            names.add(o)
            if not p.is_flag and not p.count:
                takes_value.add(o)
    options, arguments = [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a in names or (a.startswith("--") and a.split("=", 1)[0] in names):
            options.append(a)
            i += 1
            if a in multiword:
                while i < len(args) and not args[i].startswith("-"):
                    options.append(args[i])
                    i += 1
            elif a in takes_value and i < len(args):
                options.append(args[i])
                i += 1
            continue
        if a.startswith("-") and len(a) > 1 and not _NEGATIVE.match(a):
            options.append(a)  # an unknown option: click names it
        else:
            arguments.append(a)
        i += 1
    return options + ["--"] + arguments if arguments else options


def echo(text: str) -> None:
    """A plain line on standard output, any stored text in it made inert (see ``one_line``)."""
    typer.echo(one_line(text))


PRESET_HELP = "House rules preset: hoyle, cardroom-ca, online-pan, japanese-wp (default hoyle)."
RULES_HELP = "House rules file (TOML), as written by `pan rules init`."


def multiword_command(*names: str) -> type[TyperCommand]:
    """A command class whose named options take every word up to the next option.

    click gives an option one value; a dealer types `--add 5S 5S` or `--hand 5S 5S 4H`.
    """

    class MultiWordCommand(TyperCommand):
        multiword_options = names

        def parse_args(self, ctx, args):
            out: list[str] = []
            i = 0
            while i < len(args):
                if args[i] in names:
                    name, taken = args[i], []
                    i += 1
                    while i < len(args) and not args[i].startswith("-"):
                        taken.append(args[i])
                        i += 1
                    out += [name, " ".join(taken)]
                    continue
                out.append(args[i])
                i += 1
            return super().parse_args(ctx, out)

    return MultiWordCommand


# -h as well as --help, on every command (click passes it down to every sub-context).
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def new_app(help: str, **kw) -> typer.Typer:
    return typer.Typer(help=help, cls=PanGroup, no_args_is_help=True, add_completion=False,
                       pretty_exceptions_enable=False, rich_markup_mode=None,
                       context_settings=CONTEXT_SETTINGS, **kw)


def command_set() -> typer.Typer:
    """The commands one module adds to `pan`, mounted on the root by name and loaded when first used."""
    return typer.Typer(cls=PanGroup, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                       context_settings=CONTEXT_SETTINGS)


def count_of(n: int, what: str) -> str:
    return plural(n, what)


def output_width(stream=None) -> int | None:
    """The width to lay output (standard output, or ``stream``) out in when it is not a terminal:
    COLUMNS when it is a sane number, else 80 (a terminal measures itself: None)."""
    import os

    if (stream or sys.stdout).isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and 20 <= int(columns) <= 1000 else 80


def console(stderr: bool = False, markup: bool = False, **kw):
    """A rich console that shows every string literally: no markup (`[/red]Ben` is a name), no
    emoji codes, and any control or invisible character escaped. Styling is given by ``styled``
    (rich Text); the few places that print markup of their own pass ``markup=True`` and escape
    what they interpolate.

    Its width is the terminal's, or piped ``output_width`` (80, or COLUMNS); every table it
    prints is first fitted to that width (``fit_table``) so no word is broken."""
    from rich.console import Console
    from rich.table import Table

    from pancli.core.names import inert

    class PanConsole(Console):
        def render_str(self, text: str, **options):
            return super().render_str(inert(text), **options)

        def print(self, *objects, **options):
            from pancli.cli.fit import fit_table

            for o in objects:
                if isinstance(o, Table):
                    fit_table(o, self)
            super().print(*objects, **options)

        def _render_buffer(self, buffer) -> str:
            # Without colour (piped), no line ends in the spaces rich pads cells and breaks with.
            text = super()._render_buffer(buffer)
            if self.color_system is not None:
                return text
            return "\n".join(line.rstrip(" ") for line in text.split("\n"))

    if "width" not in kw and "file" not in kw:
        kw["width"] = output_width(sys.stderr if stderr else None)
    return PanConsole(stderr=stderr, highlight=False, markup=markup, emoji=False, **kw)


def styled(*parts):
    """Rich Text from pieces: a string, or (string, style); every string made inert."""
    from rich.text import Text

    from pancli.core.names import inert

    out = Text()
    for part in parts:
        text, style = (part, None) if isinstance(part, str) else part
        out.append(inert(text), style=style)
    return out


def print_json(data: Any) -> None:
    sys.stdout.write(json_text(data) + "\n")
