"""`pan report`: the evening at a glance, and its score sheet as SVG, HTML, CSV or a workbook."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import typer

from pancli.cli.commands.after_game.common import colored, store_and_session, write_target
from pancli.cli.fit import cell_width, pad
from pancli.cli.groups import command_set
from pancli.cli.options import FORCE, JSON, SESSION
from pancli.cli.output import console, echo, english_for_json, print_json, styled
from pancli.cli.render import column, count_cell, pool_label
from pancli.core.errors import InputError
from pancli.core.i18n import _, ngettext, pgettext
from pancli.core.names import inert
from pancli.core.words import signed, signed_money
from pancli.games import game

if TYPE_CHECKING:
    from rich.console import RenderableType

    from pancli.core.rows import Session
    from pancli.storage.store import Store

commands = command_set()  # what this module adds to `pan`


def _report_renderables(data: Mapping[str, Any], width: int) -> list[RenderableType]:
    from decimal import Decimal  # noqa: PLC0415 start-up: decimal

    from rich import box  # noqa: PLC0415 start-up: rich
    from rich.table import Table  # noqa: PLC0415 start-up: rich
    from rich.text import Text  # noqa: PLC0415 start-up: rich

    from pancli.app.reports import sample, sparkline, tallies_of  # noqa: PLC0415 start-up: the app layer
    from pancli.core.numbers import date_text, decimal_text  # noqa: PLC0415 start-up: decimal

    if "columns" in data:  # a game not played for chips: in its own terms
        return _own_report_renderables(data, width)
    out: list[RenderableType] = []
    cv = data["chip_value"]
    title = ngettext("{session} · {game} · {date} · {n} hand", "{session} · {game} · {date} · {n} hands",
                     data["hands"]).format(session=data["session"], game=data["game"], date=date_text(data["date"]),
                                           n=data["hands"])
    title += " · " + pgettext("session", "closed") if data["closed"] else ""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    counts = tallies_of(data["game"])  # the counts its game declares, each a column
    cols = ["player", "net"] + (["money"] if cv else []) + [REPORT_COLUMNS.get(c, c) for c in counts] + ["best"]
    banked = any(r["buyin"] or r["cashout"] for r in data["players"])
    if banked:
        cols += ["bought", "cashed"]
    for col in cols:
        header = column(col)
        table.add_column(header, justify="left" if col == "player" else "right", no_wrap=True,
                         min_width=max(cell_width(header), 4))
    for r in data["players"]:
        big = _("{chips} in hand {hand}").format(chips=signed(r["largest_hand"]["chips"]),
                                                 hand=r["largest_hand"]["hand"]) if r["largest_hand"] else "-"
        cells = [r["name"], colored(r["net"])] + ([signed_money(r["money"], currency=data.get("currency"))] if cv else []) + [
            _count_cell(r, c) for c in counts] + [big]
        if banked:
            cells += [str(r["buyin"]), str(r["cashout"])]
        table.add_row(*cells)
    for name, chips in data["pools"].items():
        table.add_row(pool_label(name), signed(chips), *([""] * (len(cols) - 2)))
    out.append(table)
    if "conditions" in counts:
        # Translators: conds, best, bought and cashed are the columns' headers above: the same words
        legend = _("conds: conditions laid (chips they collected); best: the player's best hand.")
    else:
        # Translators: best is the column's header above: the same word
        legend = _("best: the player's best hand.")
    if banked:
        # Translators: bought and cashed are the columns' headers
        legend += " " + _("bought/cashed: chips from and to the bank.")
    out.append(Text(legend, style="dim"))
    if data["largest_hand"]:
        b = data["largest_hand"]
        out.append(styled(_("Largest hand: {player} {chips} in hand {hand}.").format(
            player=b["player"], chips=signed(b["chips"]), hand=b["hand"])))
    if data["hands"]:
        name_w = max(cell_width(r["name"]) for r in data["players"])
        chart_w = max(10, min(data["hands"], width - name_w - 12))
        series = {r["name"]: sample(r["running"], chart_w) for r in data["players"]}
        lo = min(min(v) for v in series.values())
        hi = max(max(v) for v in series.values())
        lo, hi = min(lo, 0), max(hi, 0)
        if data["hands"] <= chart_w:
            running = _("Running total, hand by hand (from {low} to {high}):")
        else:
            running = _("Running total, hand by hand (from {low} to {high}, one mark per {per} hands):")
        per = decimal_text(Decimal(f"{data['hands'] / chart_w:.1f}"))
        out.append(Text("\n" + running.format(low=signed(lo), high=signed(hi), per=per)))
        for r in data["players"]:
            line = styled(f"{pad(r['name'], name_w)}  ")
            line.append(sparkline(series[r["name"]], lo, hi),
                        style="green" if r["net"] > 0 else ("red" if r["net"] < 0 else None))
            line.append(f"  {signed(r['net'])}")
            out.append(line)
    if data["sum"] != 0:
        out.append(Text(_("Warning: the ledger sums to {sum}, not 0; run `pan db check`.").format(sum=data["sum"]),
                        style="red"))
    return out


def _own_report_renderables(data: Mapping[str, Any], width: int) -> list[RenderableType]:
    """The report of a game scored in points or letters: its standings' columns in place order,
    the running points deal by deal (a game scored in letters has no chart) and the result; no
    chips, money or best hand, unless chips were bought at the bank."""
    from rich import box  # noqa: PLC0415 start-up: rich
    from rich.table import Table  # noqa: PLC0415 start-up: rich
    from rich.text import Text  # noqa: PLC0415 start-up: rich

    from pancli.app.reports import sample, sparkline  # noqa: PLC0415 start-up: the app layer
    from pancli.core.numbers import date_text  # noqa: PLC0415 start-up: decimal

    out: list[RenderableType] = []
    title = ngettext("{session} · {game} · {date} · {n} deal", "{session} · {game} · {date} · {n} deals",
                     data["deals"]).format(session=data["session"], game=data["game"], date=date_text(data["date"]),
                                           n=data["deals"])
    title += " · " + pgettext("session", "closed") if data["closed"] else ""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    banked = any(r["buyin"] or r["cashout"] for r in data["players"])
    cols = ["place", "player", *data["columns"], *(["bought", "cashed"] if banked else [])]
    for col in cols:
        header = column(col)
        table.add_column(header, justify="left" if col == "player" else "right", no_wrap=True,
                         min_width=max(cell_width(header), 4))
    for r in data["players"]:
        cells = [count_cell(c, r.get(c, 0)) if r.get(c, 0) != "" else "-" for c in data["columns"]]
        table.add_row(str(r.get("place", "")), r["name"], *cells,
                      *([str(r["buyin"]), str(r["cashout"])] if banked else []))
    out.append(table)
    if banked:
        # Translators: bought and cashed are the columns' headers
        out.append(Text(_("bought/cashed: chips from and to the bank."), style="dim"))
    runs = [r["running"] for r in data["players"]]
    if data["deals"] and runs and all(v and all(isinstance(x, int) for x in v) for v in runs):
        name_w = max(cell_width(r["name"]) for r in data["players"])
        chart_w = max(10, min(data["deals"], width - name_w - 12))
        series = {r["name"]: sample(r["running"], chart_w) for r in data["players"]}
        lo = min(0, *(min(v) for v in series.values()))
        hi = max(0, *(max(v) for v in series.values()))
        out.append(Text("\n" + _("Points, deal by deal (from {low} to {high}):").format(low=signed(lo), high=signed(hi))))
        for r in data["players"]:
            total = r["running"][-1]
            line = styled(f"{pad(r['name'], name_w)}  ")
            line.append(sparkline(series[r["name"]], lo, hi),
                        style="green" if total > 0 else ("red" if total < 0 else None))
            line.append(f"  {signed(total)}")
            out.append(line)
    if data["result"]:
        out.append(Text("\n" + data["result"]))
    return out


# The report's narrow headers of two counts (the standings' are written out).
REPORT_COLUMNS = {"dropped": "drop", "conditions": "conds"}


def _count_cell(row: Mapping[str, Any], stat: str) -> str:
    """One count of a player's row of the report: conditions with the chips they collected,
    points with their sign (as the standings write them)."""
    n = row.get(stat, 0)
    if stat == "conditions":
        return f"{n} ({row['condition_chips']})" if n or row["condition_chips"] else "0"
    return count_cell(stat, n)


@commands.command()
def report(name: str | None = SESSION, as_json: bool = JSON,
           svg: str | None = typer.Option(None, "--svg", metavar="FILE", help="Also save the report as an SVG picture."),
           html: str | None = typer.Option(None, "--html", metavar="FILE",
                                           help="Also save the night's score sheet as an HTML page that prints on one sheet."),
           csv: str | None = typer.Option(None, "--csv", metavar="FILE",
                                          help="Also save the score sheet, hands x players, as CSV for a spreadsheet."),
           bom: bool | None = typer.Option(None, "--bom/--no-bom",
                                           help="With --csv: a byte order mark first, from which a spreadsheet "
                                                "knows the file is UTF-8 (the default)."),
           xlsx: str | None = typer.Option(None, "--xlsx", metavar="FILE",
                                           help="Also save the report as a spreadsheet (.xlsx): standings, "
                                                "settle-up and hand by hand, numbers as numbers."),
           as_text: bool = typer.Option(False, "--text",
                                        help="Print the night in a few lines to paste into a group chat."),
           force: bool = FORCE) -> None:
    """The evening at a glance: nets, money, hands won and dropped, conditions, largest hand, a chart.

    --html writes the night's score sheet (each hand's chips for each player, or the game's own
    score deal by deal, the totals and the settle-up), made to print on one A4 or Letter page;
    --csv the same grid for a spreadsheet; --xlsx a workbook with a sheet for the standings, one
    for the settle-up and one for the night hand by hand; --text prints the night for a chat: the
    winner, each player's result and who pays whom.

    Example: pan report friday --svg friday.svg

    Example: pan report --xlsx friday.xlsx

    Example: pan report --text
    """
    from pancli.app.reports import session_report  # noqa: PLC0415 start-up: the app layer

    if bom is not None and not csv:
        raise InputError(_("--bom is for the CSV sheet"), _("add --csv FILE, or leave --bom out"))
    if as_text and as_json:
        raise InputError(_("--text and --json are two ways to print the report"), _("choose one of them"))
    targets = [(write_target(path, force, f"{kind} report"), kind)
               for path, kind in ((svg, "svg"), (html, "html"), (csv, "csv"), (xlsx, "xlsx")) if path]
    if len({t.resolve() for t, _kind in targets}) < len(targets):
        raise InputError(_("--svg, --html, --csv and --xlsx name the same file"), _("give them different names"))
    store, session = store_and_session(name)
    quiet = as_json or as_text  # what goes to standard output is only the JSON, or only the summary
    data = english_for_json(as_json, lambda: session_report(store, session))
    if as_json:
        print_json(data)
    elif as_text:
        from pancli.app.summary import night_summary  # noqa: PLC0415 start-up: the app layer

        for line in night_summary(store, session):
            echo(line)
    else:
        out = console()
        for r in _report_renderables(data, out.width):
            out.print(r)
    for path, kind in targets:
        from pancli.app.files import write_atomic  # noqa: PLC0415 start-up: the app layer

        if kind == "svg":
            rec = console(record=True, width=100, file=io.StringIO())
            for r in _report_renderables(data, 100):
                rec.print(r)
            text: str | bytes = rec.export_svg(title=f"pan report {inert(data['session'])}")
        elif kind == "xlsx":
            from pancli.app.workbook import night_workbook  # noqa: PLC0415 start-up: the app layer

            text = night_workbook(store, session)
        else:
            text = _sheet(store, session, kind, bom is not False)
        write_atomic(path, text)
        if not quiet:
            console().print(_("Saved the report to {path}.").format(path=path))


def _sheet(store: Store, session: Session, kind: str, bom: bool) -> str:
    """The score sheet as an HTML page (pancli.web.sheet) or CSV."""
    from pancli.app.reports import sheet_csv, sheet_grid  # noqa: PLC0415 start-up: the app layer
    from pancli.app.views import chips_to_settle, settle_json, settle_result  # noqa: PLC0415 start-up: the app layer

    sheet = sheet_grid(store, session)
    if kind == "csv":
        return sheet_csv(sheet, bom)
    from pancli.web.sheet import sheet_html  # noqa: PLC0415 start-up: the web app

    settled, _value = settle_result(store, session)
    settle = settle_json(session, settled) if chips_to_settle(session, settled) else None  # none of a chipless game
    return sheet_html(sheet | {"settle": settle}, _(game(session.game).title))
