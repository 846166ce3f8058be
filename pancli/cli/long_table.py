"""A long table (a career's nights, a season's players) drawn with its body written row by row: rich
lays out the title, the header and the borders of the table once, and each row of one line whose
cells fit their columns is written as the segments rich would have made of it, without rich's
layout of every cell (measuring, padding, wrapping: most of the time of `pan player` and `pan
standings --season` at club scale). What is drawn is the same, byte for byte: any table or row
this does not cover (a cell of two lines, one wider than its column, styles on rows or columns,
footers, lines between rows) is drawn by rich, and the first row written is checked against the
one rich draws before the rest are written.

rich is imported inside the functions: only a command that prints a table loads it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.segment import Segment
    from rich.table import Table
    from rich.text import Text

LONG = 12  # rows from which a table is worth drawing row by row


class LongTable:
    """A table rich prints as it would print ``table``, its rows written without rich's layout."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        drawn = _drawn(self.table, console, options)
        if drawn is None:
            yield self.table
        else:
            yield from drawn


def long_table(table: Table) -> Table | LongTable:
    """``table`` as it is to be printed: a long one that may be drawn row by row wrapped, any other as it is."""
    plain = (not table.show_footer and not table.caption and not table.show_lines and not table.leading
             and not table.row_styles and not table.expand
             and table.min_width is None and table.width is None and not table.collapse_padding)
    if not plain or len(table.rows) < LONG or not table.columns:
        return table
    return LongTable(table)


def _cells(table: Table, console: Console, options: ConsoleOptions) -> list[list[Text]] | None:
    """Every body cell as the Text rich would render, by row; None if one is not a line of text."""
    from rich.text import Text  # noqa: PLC0415 rich: only a command that draws a table

    columns = []
    for column in table.columns:
        if column.style or column.highlight or column.justify not in ("left", "right"):
            return None
        texts = []
        for cell in column.cells:
            if isinstance(cell, str):
                text = console.render_str(cell, highlight=False, markup=options.markup)
            elif isinstance(cell, Text):
                text = cell
            else:
                return None
            plain = text.plain
            if not plain or plain != plain.strip() or "\n" in plain or "\t" in plain \
                    or (text.justify or column.justify) not in ("left", "right"):
                return None
            texts.append(text)
        columns.append(texts)
    return [list(row) for row in zip(*columns, strict=True)]


def _edges(table: Table) -> int:
    """The cells a table's rules and edges take (rich's extra width)."""
    if table.box is None:
        return 0
    return len(table.columns) - 1 + (2 if table.show_edge else 0)


def _pads(table: Table, i: int) -> tuple[int, int]:
    """The padding left and right of column ``i``'s cells (none at the table's edges without
    ``pad_edge``; ``collapse_padding`` is not drawn here)."""
    _, right, _, left = table.padding
    if not table.pad_edge:
        left = 0 if i == 0 else left
        right = 0 if i == len(table.columns) - 1 else right
    return left, right


def _widths(table: Table, console: Console, options: ConsoleOptions, rows: list[list[Text]]) -> list[int] | None:
    """Each column's width with its padding, as rich gives it where every column is as wide as
    its widest cell and the table fits (no width of a column's own, nothing wider than the room):
    those widths without measuring through rich again; None where rich is to share the width."""
    from rich.cells import cell_len  # noqa: PLC0415 rich: only a command that draws a table

    max_width = options.max_width - _edges(table)
    simple = all(c.width is None and c.min_width is None and c.max_width is None and not c.ratio
                 for c in table.columns)
    if not simple or max_width < 1:
        return None
    widths = []
    for i, column in enumerate(table.columns):
        header = column.header
        if table.show_header and not isinstance(header, str):
            return None
        head = cell_len(console.render_str(header, highlight=False, markup=options.markup).plain
                        if table.show_header and isinstance(header, str) else "")
        widest = max([head, *(cell_len(row[i].plain) for row in rows)])
        padded = widest + sum(_pads(table, i))
        if "\n" in str(header) or padded > max_width:
            return None
        widths.append(padded or 1)
    return widths if sum(widths) <= max_width else None


def _row(table: Table, console: Console, widths: list[int], cells: list[Text], last: bool) -> list[Segment] | None:
    """One body row's line as rich's ``Table._render`` yields it (its newline included), or None
    if a cell does not fit its column."""
    from rich.cells import cell_len  # noqa: PLC0415 rich: only a command that draws a table
    from rich.segment import Segment  # noqa: PLC0415 rich: only a command that draws a table
    from rich.style import Style  # noqa: PLC0415 rich: only a command that draws a table
    from rich.text import Text  # noqa: PLC0415 rich: only a command that draws a table

    box = table.box
    out: list[Segment] = []
    if box is not None and table.show_edge:
        out.append(Segment(box.foot_left if last else box.mid_left, Style.null()))
    n = len(cells)
    for i, (width, cell, column) in enumerate(zip(widths, cells, table.columns, strict=True)):
        left, right = _pads(table, i)
        room = width - left - right
        size = cell_len(cell.plain)
        if room < 1 or size > room:
            return None
        right_justified = (cell.justify or column.justify) == "right"
        if left:
            out.append(Segment(" " * left, Style.null()))
        if not cell.spans and not cell.style:  # plain text: one unstyled segment, as rich renders it
            space = " " * (room - size)
            out.append(Segment(space + cell.plain if right_justified else cell.plain + space))
        else:  # as rich renders a cell's line: justified, its own style a span of the line
            line = cell.copy()
            if right_justified:
                line.pad_left(room - size)
            else:
                line.pad_right(room - size)
            out.extend(Text("\n").join([line]).render(console))
        if right:
            out.append(Segment(" " * right, Style.null()))
        if box is not None and i < n - 1:
            out.append(Segment(box.foot_vertical if last else box.mid_vertical, Style.null()))
    if box is not None and table.show_edge:
        out.append(Segment(box.foot_right if last else box.mid_right, Style.null()))
    out.append(Segment.line())
    return out


def _plain_runs(segments: list[Segment]) -> list[tuple[str, object]]:
    """Segments as they print: adjacent unstyled ones are one text (a styled one stays apart)."""
    out: list[tuple[str, object]] = []
    for seg in segments:
        if seg.control:
            out.append((seg.text, seg))
        elif not seg.style and out and out[-1][1] is None:
            out[-1] = (out[-1][0] + seg.text, None)
        else:
            out.append((seg.text, seg.style or None))
    return out


def _drawn(table: Table, console: Console, options: ConsoleOptions) -> Iterator[Segment] | None:
    """The table's segments, its body written row by row; None when rich is to draw it all."""
    if console.get_style(table.style or "") or console.get_style(table.border_style or ""):
        return None
    if table.box is not None:
        box = table.box.substitute(options, safe=console.safe_box if table.safe_box is None else table.safe_box)
        if not table.show_header:
            box = box.get_plain_headed_box()
        if box is not table.box:  # what rich would draw with differs from the table's own: rich draws it
            return None
    top, _right, bottom, _left = table.padding
    if top or bottom:
        return None
    rows = _cells(table, console, options)
    if rows is None or any(r.style is not None or r.end_section for r in table.rows):
        return None
    widths = _widths(table, console, options, rows)
    if widths is None:
        return None
    lines = [_row(table, console, widths, cells, last=i == len(rows) - 1) for i, cells in enumerate(rows)]
    if any(line is None for line in lines):
        return None
    # rich draws the title, the header, the borders and the first row, its columns at these widths
    head = copy.copy(table)  # the table's own title, box, padding and styles
    head.columns, head.rows = [], []
    for i, column in enumerate(table.columns):
        left, right = _pads(table, i)
        if widths[i] - left - right < 1:
            return None
        head.add_column(column.header, column.footer, header_style=column.header_style,
                        highlight=column.highlight, footer_style=column.footer_style, style=column.style,
                        justify=column.justify, vertical=column.vertical, overflow=column.overflow,
                        width=widths[i] - left - right, no_wrap=column.no_wrap)
    head.add_row(*(next(iter(column.cells)) for column in table.columns))
    drawn = console.render_lines(head, options, pad=False, new_lines=True)
    edged = table.box is not None and table.show_edge  # a bottom edge after the rows
    at = len(drawn) - (2 if edged else 1)  # the first row's line, the last rich drew before the edge
    first = _row(table, console, widths, rows[0], last=True)
    if first is None or at < 1 or _plain_runs(drawn[at]) != _plain_runs(first):
        return None
    return _segments(drawn[:at], lines, drawn[at + 1:])


def _segments(before: list[list[Segment]], rows: list[list[Segment] | None],
              after: list[list[Segment]]) -> Iterator[Segment]:
    for line in before:
        yield from line
    for row in rows:
        if row is not None:
            yield from row
    for line in after:
        yield from line
