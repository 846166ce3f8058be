"""Fitting output to a width counted in terminal cells: tables that never break a word, and names
padded so they line up when one of them is CJK or an emoji (two cells a character).

rich is imported inside the functions: only output that draws a table or pads a name loads it.
"""

from __future__ import annotations


def cell_width(text: str) -> int:
    """How many terminal cells the text takes."""
    from rich.cells import cell_len

    return cell_len(text)


def pad(text: str, width: int) -> str:
    """The text padded to ``width`` terminal cells, where ``str.ljust`` would count characters."""
    return text + " " * max(0, width - cell_width(text))


def table_min_width(table, console) -> int:
    """The narrowest the table can be drawn without breaking a word: each column as wide as its
    longest word (its whole text when it does not wrap), with padding and rules."""
    from rich.measure import Measurement
    from rich.padding import Padding

    options = console.options
    _, right, _, left = Padding.unpack(table.padding)
    total = 0
    for column in table.columns:
        cells = ([column.header] if table.show_header else []) + list(column.cells)
        sizes = [Measurement.get(console, options, c) for c in cells] or [Measurement(1, 1)]
        widest = max((m.maximum if column.no_wrap else m.minimum) for m in sizes)
        total += max(widest, column.min_width or 0) + left + right
    if table.box is None:
        return total
    return total + len(table.columns) - 1 + (2 if table.show_edge else 0)


def fit_table(table, console) -> None:
    """A table too wide for the console at its longest words is drawn compact (no rules, one
    space between columns) before rich would break a word; a left title is not padded to the
    table's width (no trailing spaces when piped)."""
    if table.title_justify == "left":
        table.title_justify = "default"
    if table.width is not None or table_min_width(table, console) <= console.width:
        return
    table.box, table.show_edge, table.pad_edge = None, False, False
    table.padding = (0, 1, 0, 0)
