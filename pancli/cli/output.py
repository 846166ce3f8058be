"""What commands print: plain lines, rich consoles fitted to the width, styled text and JSON, every
stored string in them shown literally."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import IO, TYPE_CHECKING, Any, TypeVar

import typer

from pancli.cli.terminal import rich_as_wide
from pancli.core.errors import PanError
from pancli.core.i18n import ENGLISH, speaking_catalog
from pancli.core.names import inert
from pancli.core.text import json_text, one_line, wrap_words
from pancli.core.words import plural

if TYPE_CHECKING:
    from rich.console import Console
    from rich.segment import Segment
    from rich.text import Text

T = TypeVar("T")


def echo(text: str) -> None:
    """A plain line on standard output, any stored text in it made inert (see ``one_line``)."""
    typer.echo(one_line(text))


def say(line: str) -> None:
    """One plain line (no rich, so commands start fast), broken between words to fit the
    terminal, or 80 columns (COLUMNS) when piped, as `pan check` and `pan turn` rulings are."""
    for part in wrap_words(line, output_width() or shutil.get_terminal_size((80, 24)).columns):
        echo(part)


def count_of(n: int, what: str) -> str:
    return plural(n, what)


def output_width(stream: IO[str] | None = None) -> int | None:
    """The width to lay output (standard output, or ``stream``) out in when it is not a terminal:
    COLUMNS when it is a sane number, else 80 (a terminal measures itself: None)."""
    if (stream or sys.stdout).isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and 20 <= int(columns) <= 1000 else 80


def console(stderr: bool = False, markup: bool = False, **kw: Any) -> Console:
    """A rich console that shows every string literally: no markup (`[/red]Ben` is a name), no
    emoji codes, and any control or invisible character escaped. Styling is given by ``styled``
    (rich Text); the few places that print markup of their own pass ``markup=True`` and escape
    what they interpolate.

    Its width is the terminal's, or piped ``output_width`` (80, or COLUMNS); every table it
    prints is first fitted to that width (``fit_table``) so no word is broken."""
    from rich.console import Console  # noqa: PLC0415 rich: only a command that prints through a console
    from rich.table import Table  # noqa: PLC0415 rich: only a command that prints through a console

    class PanConsole(Console):
        def render_str(self, text: str, **options: Any) -> Text:
            return super().render_str(inert(text), **options)

        def print(self, *objects: Any, **options: Any) -> None:
            from pancli.cli.fit import fit_table  # noqa: PLC0415 the fitter: only when a table is printed
            from pancli.cli.long_table import long_table  # noqa: PLC0415 only when a table is printed

            shown = []
            for o in objects:
                if isinstance(o, Table):
                    fit_table(o, self)
                    o = long_table(o)  # a long one's rows written without rich's layout of each cell
                shown.append(o)
            super().print(*shown, **options)

        def _render_buffer(self, buffer: Iterable[Segment]) -> str:
            # Without colour (piped), no line ends in the spaces rich pads cells and breaks with.
            text = super()._render_buffer(buffer)
            if self.color_system is not None:
                return text
            return "\n".join(line.rstrip(" ") for line in text.split("\n"))

    rich_as_wide()  # --ambiguous-wide: rich measures ambiguous characters two cells, as pancli does
    if "width" not in kw and "file" not in kw:
        kw["width"] = output_width(sys.stderr if stderr else None)
    return PanConsole(stderr=stderr, highlight=False, markup=markup, emoji=False, **kw)


def styled(*parts: str | tuple[str, str | None]) -> Text:
    """Rich Text from pieces: a string, or (string, style); every string made inert."""
    from rich.text import Text  # noqa: PLC0415 rich: only a command that styles text

    out = Text()
    for part in parts:
        text, style = (part, None) if isinstance(part, str) else part
        out.append(inert(text), style=style)
    return out


def print_json(data: Any) -> None:
    """JSON on one line, never broken to fit the width (a name in Japanese would cut a string in two)."""
    write: Callable[[str], Any] = getattr(sys.stdout, "write_whole", sys.stdout.write)
    write(json_text(data) + "\n")


def in_english() -> AbstractContextManager[None]:
    """English inside the block: what ``--json`` prints is the same in every language."""
    return speaking_catalog(ENGLISH, None)


def english_for_json(as_json: bool, compute: Callable[[], T]) -> T:
    """What ``compute`` finds, for ``--json`` in English (what scripts read is the same in every
    language, whatever words the layers below put in it); a refusal is computed again to be said
    in the language the person reads."""
    if not as_json:
        return compute()
    try:
        with in_english():
            return compute()
    except PanError:
        return compute()  # raises it again, in the language in force
