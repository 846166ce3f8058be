"""Fitting output to a width counted in terminal cells: tables that never break a word, and names
padded so they line up when one of them is CJK or an emoji (two cells a character).

rich is imported inside the functions: only output that draws a table or pads a name loads it.
"""

from __future__ import annotations

import re
import shutil
from typing import TYPE_CHECKING

from pancli.cli.letters import LETTERS
from pancli.cli.terminal import rich_as_wide
from pancli.core.text import word_pieces
from pancli.core.width import ambiguous_wide, cells

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.table import Table


def cell_width(text: str) -> int:
    """How many terminal cells the text takes (``pancli.core.width``: ambiguous characters as the
    terminal is said to draw them)."""
    return cells(text)


def pad(text: str, width: int) -> str:
    """The text padded to ``width`` terminal cells, where ``str.ljust`` would count characters."""
    return text + " " * max(0, width - cell_width(text))


def _column_ranges(table: Table, console: Console) -> list[tuple[int, int]]:
    """Per column, the narrowest it can be without breaking a word (its longest word, or its
    whole text when it does not wrap) and its natural width, both without padding."""
    from rich.measure import Measurement  # noqa: PLC0415 rich: only a command that draws a table

    options = console.options
    out = []
    for column in table.columns:
        cells = ([column.header] if table.show_header else []) + list(column.cells)
        sizes = [Measurement.get(console, options, c) for c in cells] or [Measurement(1, 1)]
        widest = max((m.maximum if column.no_wrap else m.minimum) for m in sizes)
        low = max(widest, column.min_width or 0)
        out.append((low, max(low, max(m.maximum for m in sizes))))
    return out


def _overhead(table: Table) -> int:
    """The cells a table takes beyond its columns' text: padding, rules and edges."""
    from rich.padding import Padding  # noqa: PLC0415 rich: only a command that draws a table

    _, right, _, left = Padding.unpack(table.padding)
    total = len(table.columns) * (left + right)
    if table.box is None:
        return total
    return total + len(table.columns) - 1 + (2 if table.show_edge else 0)


def table_min_width(table: Table, console: Console) -> int:
    """The narrowest the table can be drawn without breaking a word: each column as wide as its
    longest word (its whole text when it does not wrap), with padding and rules."""
    return sum(low for low, _ in _column_ranges(table, console)) + _overhead(table)


def _cuts_a_word(table: Table, console: Console) -> bool:
    """Whether rich, left to itself, would draw the table with a word cut short (its columns end
    a word they cannot fit with an ellipsis)."""
    from rich.text import Text  # noqa: PLC0415 rich: only a command that draws a table

    def ellipses(cell: RenderableType) -> int:
        return (cell.plain if isinstance(cell, Text) else str(cell)).count("…")

    shown = sum(ellipses(c) for column in table.columns for c in [column.header, *column.cells])
    drawn = sum(seg.text.count("…") for line in console.render_lines(table, pad=False) for seg in line)
    return drawn > shown


def _share_width(table: Table, console: Console, ranges: list[tuple[int, int]]) -> None:
    """A table wider than the console that fits at its longest words gets each column's width
    fixed: at least its longest word, the rest shared in proportion to what each would take more.
    rich alone shrinks the widest columns first, below their longest word (``friday@ana…``).
    ``ranges``: ``_column_ranges`` of the table (its cells measured once)."""
    room = console.width - _overhead(table)
    if sum(high for _, high in ranges) <= room or sum(low for low, _ in ranges) > room:
        return
    if not _cuts_a_word(table, console):
        return  # rich's own widths cut no word: keep them
    spare = room - sum(low for low, _ in ranges)
    want = sum(high - low for low, high in ranges)
    widths = [low + (high - low) * spare // want for low, high in ranges]
    for i in sorted(range(len(ranges)), key=lambda i: widths[i] - ranges[i][1])[:room - sum(widths)]:
        widths[i] += 1  # what the rounding down left, to the columns furthest from their width
    for column, width in zip(table.columns, widths):
        column.width = width


def fit_table(table: Table, console: Console) -> None:
    """A table too wide for the console at its longest words is drawn compact (no rules, one
    space between columns) before rich would break a word; a left title is not padded to the
    table's width (no trailing spaces when piped). On a terminal that draws ambiguous characters
    wide (``--ambiguous-wide``) its borders are ASCII."""
    if table.title_justify == "left":
        table.title_justify = "default"
    if ambiguous_wide():  # a terminal that draws box drawing two cells wide: ASCII borders
        from rich import box  # noqa: PLC0415 rich: only under --ambiguous-wide

        rich_as_wide()
        if table.box is not None:
            table.box = box.ASCII
    if table.width is not None:
        return
    ranges = _column_ranges(table, console)  # every cell measured once (a season has hundreds of rows)
    if sum(low for low, _ in ranges) + _overhead(table) > console.width:  # narrower than its longest words
        table.box, table.show_edge, table.pad_edge = None, False, False
        table.padding = (0, 1, 0, 0)
    _share_width(table, console, ranges)


def terminal_width() -> int:
    return shutil.get_terminal_size((80, 24)).columns


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_BREAKS = re.compile(r"(?<=[·|]) ")  # where a board line may break: after its separators


def visible_len(text: str) -> int:
    """Terminal cells, not characters: a CJK name or an emoji takes two."""
    return cells(_ANSI.sub("", text))


def fit_words(text: str, width: int, indent: str = "    ") -> list[str]:
    """The text as lines of at most `width` columns (each ending in a newline), a long line broken
    between its items (after · or |), else between words, never inside a word (a word of a
    script written without spaces, Japanese, breaks by phrase: ``word_pieces``); the lines after
    the first are indented. Lines that fit are kept exactly as they are. Under ``--ambiguous-wide``
    suits and box drawing are letters and ASCII first (as the streams print them, and the table
    shell's prompt_toolkit lines, which bypass the streams), so a line is measured as it is drawn."""
    if ambiguous_wide():
        text = text.translate(LETTERS)
    out = []
    for line in text.rstrip("\n").split("\n"):
        if visible_len(line) <= width:
            out.append(line + "\n")
            continue
        lead = line[:len(line) - len(line.lstrip(" "))]
        room = max(1, width - visible_len(lead + indent))
        units: list[tuple[str, str]] = []
        for item in _BREAKS.split(line.strip(" ")):
            if visible_len(lead + indent + item) <= width:
                units.append((" ", item))
                continue
            for word in item.split(" "):
                pieces = word_pieces(word, room) if "\x1b" not in word else [word]
                units += [(" ", pieces[0])] + [("", piece) for piece in pieces[1:]]
        current = lead + units[0][1]
        for sep, u in units[1:]:
            if visible_len(current) + len(sep) + visible_len(u) <= width:
                current += sep + u
            else:
                out.append(current + "\n")
                current = lead + indent + u
        out.append(current + "\n")
    return out
