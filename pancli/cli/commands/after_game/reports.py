"""Reports, settle-up, buy-ins and cash-outs, archives and re-scoring: parse, call, render."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import typer

from pancli.cli.context import app_context
from pancli.cli.fit import cell_width, pad
from pancli.cli.groups import command_set
from pancli.cli.output import console, english_for_json, print_json, styled
from pancli.cli.params import CHIPS, HAND, KNOWN_PLAYER, PLAYER, SESSION as SESSION_NAME
from pancli.cli.record import record
from pancli.cli.render import column, count_cell, pool_label
from pancli.core.errors import InputError, RuleError
from pancli.core.i18n import N_, _, ngettext, pgettext
from pancli.core.words import signed, signed_money

commands = command_set()  # what this module adds to `pan`

JSON = typer.Option(False, "--json", help="Print JSON for scripts.")
SESSION = typer.Argument(None, metavar="[SESSION]", click_type=SESSION_NAME, help="Session name (default: the current one).")


# What a career counts, as a whole message each: `won 5`, `dropped 7`.
CAREER_COUNTS = {"won": N_("won {n}"), "dropped": N_("dropped {n}")}

FORCE = typer.Option(False, "--force", help="Replace the file if it exists (never the database).")


def _target(path: str, force: bool, what: str):
    """Where a command may write: never the database or its -wal/-shm, an existing file only with --force."""
    from pancli.app.files import check_target
    from pancli.storage.paths import resolve_path

    return check_target(path, force, resolve_path(app_context().db), what)


def _session(name: str | None) -> tuple:
    store = app_context().open_store(create=False)
    return store, store.session(name)


def _colored(n: int):
    return styled((signed(n), "green" if n > 0 else ("red" if n < 0 else None)))


# -- buy-ins and cash-outs -----------------------------------------------------------------

@commands.command()
def buyin(name: str = typer.Argument(..., click_type=PLAYER, help="Who buys chips."),
          chips: int = typer.Argument(..., click_type=CHIPS, help="How many chips.")):
    """A player buys chips from the bank; settle-up counts it.

    Example: pan buyin ana 100
    """
    record({"kind": "buyin", "player": name, "chips": chips})


@commands.command()
def cashout(name: str = typer.Argument(..., click_type=PLAYER, help="Who cashes chips in."),
            chips: int = typer.Argument(..., click_type=CHIPS, help="How many chips.")):
    """A player cashes chips in at the bank; settle-up counts it.

    Example: pan cashout ana 60
    """
    record({"kind": "cashout", "player": name, "chips": chips})


# -- the evening's report ------------------------------------------------------------------

def _report_renderables(data: dict, width: int) -> list:
    from decimal import Decimal

    from rich import box
    from rich.table import Table
    from rich.text import Text

    from pancli.app.reports import sample, sparkline, tallies_of
    from pancli.core.numbers import date_text, decimal_text

    if "columns" in data:  # a game not played for chips: in its own terms
        return _own_report_renderables(data, width)
    out: list = []
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
        cells = [r["name"], _colored(r["net"])] + ([signed_money(r["money"], currency=data.get("currency"))] if cv else []) + [
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


def _own_report_renderables(data: dict, width: int) -> list:
    """The report of a game scored in points or letters: its standings' columns in place order,
    the running points deal by deal (a game scored in letters has no chart) and the result; no
    chips, money or best hand, unless chips were bought at the bank."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from pancli.app.reports import sample, sparkline
    from pancli.core.numbers import date_text

    out: list = []
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
           force: bool = FORCE):
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
    from pancli.app.reports import session_report

    if bom is not None and not csv:
        raise InputError(_("--bom is for the CSV sheet"), _("add --csv FILE, or leave --bom out"))
    if as_text and as_json:
        raise InputError(_("--text and --json are two ways to print the report"), _("choose one of them"))
    targets = [(_target(path, force, f"{kind} report"), kind)
               for path, kind in ((svg, "svg"), (html, "html"), (csv, "csv"), (xlsx, "xlsx")) if path]
    if len({t.resolve() for t, _kind in targets}) < len(targets):
        raise InputError(_("--svg, --html, --csv and --xlsx name the same file"), _("give them different names"))
    store, session = _session(name)
    quiet = as_json or as_text  # what goes to standard output is only the JSON, or only the summary
    data = english_for_json(as_json, lambda: session_report(store, session))
    if as_json:
        print_json(data)
    elif as_text:
        from pancli.app.summary import night_summary
        from pancli.cli.output import echo

        for line in night_summary(store, session):
            echo(line)
    else:
        out = console()
        for r in _report_renderables(data, out.width):
            out.print(r)
    for path, kind in targets:
        import io

        from pancli.app.files import write_atomic
        from pancli.core.names import inert

        if kind == "svg":
            rec = console(record=True, width=100, file=io.StringIO())
            for r in _report_renderables(data, 100):
                rec.print(r)
            text: str | bytes = rec.export_svg(title=f"pan report {inert(data['session'])}")
        elif kind == "xlsx":
            from pancli.app.workbook import night_workbook

            text = night_workbook(store, session)
        else:
            text = _sheet(store, session, kind, bom is not False)
        write_atomic(path, text)
        if not quiet:
            console().print(_("Saved the report to {path}.").format(path=path))


def _sheet(store, session, kind: str, bom: bool) -> str:
    """The score sheet as an HTML page (pancli.web.sheet) or CSV."""
    from pancli.app.reports import sheet_csv, sheet_grid
    from pancli.app.views import chips_to_settle, settle_json, settle_result
    from pancli.games import game

    sheet = sheet_grid(store, session)
    if kind == "csv":
        return sheet_csv(sheet, bom)
    from pancli.web.sheet import sheet_html

    settled, _value = settle_result(store, session)
    settle = settle_json(session, settled) if chips_to_settle(session, settled) else None  # none of a chipless game
    return sheet_html(sheet | {"settle": settle}, _(game(session.game).title))


# -- careers and the list of sessions ------------------------------------------------------

@commands.command("player")
def player_cmd(name: str = typer.Argument(..., click_type=KNOWN_PLAYER,
                                          help="The player (a unique start of the name is enough)."),
               as_json: bool = JSON):
    """Career stats across all sessions: nights, hands, win and drop rates, net over time, best night.

    Example: pan player ana
    """
    from pancli.app.reports import player_career

    store = app_context().open_store(create=False)
    data = english_for_json(as_json, lambda: player_career(store, name))
    if as_json:
        print_json(data)
        return
    out = console()
    games = data["games"]
    if not games or (len(games) == 1 and games[0]["in_chips"]):  # one game played for chips: as always shown
        _print_career_in_chips(out, data["player"], data, data["nights"], data["favourite_condition"])
        return
    # several games, or one in points or letters: game by game, each in its own terms and columns
    sessions = ngettext("{n} session", "{n} sessions", data["sessions"]).format(n=data["sessions"])
    # Translators: a player or a game, then what it counts: "Ana: 3 sessions."
    out.print(_("{name}: {counts}.").format(name=data["player"], counts=sessions))
    favourite = data["favourite_condition"]
    from pancli.games import GAMES

    for g in games:
        out.print()
        known = GAMES.get(g["game"])
        title = _(known.title) if known is not None else g["game"]
        if g["in_chips"]:
            _print_career_in_chips(out, title, g, g["nights"], favourite)
            favourite = None  # said once, with the first game played for chips
            continue
        n = g["sessions"]
        out.print(_("{name}: {counts}.").format(name=title, counts=ngettext("{n} session", "{n} sessions", n).format(n=n)))
        out.print(_career_table(g["nights"], g["columns"], chips=False))


def _print_career_in_chips(out, name: str, data: Mapping[str, Any], nights: list, favourite) -> None:
    """A career (or a game of it) played for chips: counts and net, the best night, the favourite
    condition, the net over time and a row per night."""
    from pancli.app.reports import RATES, sparkline
    from pancli.core.numbers import date_text

    pct = lambda x: "-" if x is None else f"{x * 100:.0f}%"  # noqa: E731
    counts = [ngettext("{n} session", "{n} sessions", data["sessions"]).format(n=data["sessions"])]
    if "hands" in data:
        counts.append(ngettext("{n} hand", "{n} hands", data["hands"]).format(n=data["hands"]))
    for stat, rate in RATES.items():  # won 5 (25%), dropped 7 (35%): what the player's games count
        if stat in data:
            counted = _(CAREER_COUNTS[stat]).format(n=data[stat]) if stat in CAREER_COUNTS else f"{stat} {data[stat]}"
            counts.append(counted + (f" ({pct(data[rate])})" if rate in data else ""))
    if data["money"] is not None:
        out.print(_("{player}: {counts}, net {net} ({money}).").format(
            player=name, counts=", ".join(counts), net=signed(data["net"]),
            money=signed_money(data["money"], zero="+0.00", currency=data.get("currency"))))
    else:
        out.print(_("{player}: {counts}, net {net}.").format(player=name, counts=", ".join(counts),
                                                             net=signed(data["net"])))
    if data["best_night"]:
        b = data["best_night"]
        out.print(_("Best night: {session} ({date}) {net}.").format(session=b["session"], date=date_text(b["date"]),
                                                                    net=signed(b["net"])))
    if favourite:
        out.print(ngettext("Favourite condition: {condition} ({n} time).",
                           "Favourite condition: {condition} ({n} times).", favourite["times"]).format(
            condition=favourite["condition"], n=favourite["times"]))
    if nights:
        running = [r["running"] for r in nights]
        out.print(_("Net over time: {chart} {net}").format(
            chart=sparkline(running, min(running + [0]), max(running + [0])), net=signed(running[-1])))
        from pancli.app.reports import career_columns

        out.print(_career_table(nights, career_columns(nights), chips=True))


def _career_table(nights: list, columns, chips: bool):
    """A row per night: date, session, (net,) the counts of its game (, running net)."""
    from rich.table import Table

    from pancli.core.numbers import date_text

    table = Table(title_justify="left")
    for col in ("date", "session", *(["net"] if chips else []), *columns, *(["running"] if chips else [])):
        table.add_column(column(col), justify="left" if col in ("date", "session") else "right")
    for r in nights:
        counts = [str(r.get(c, "-")) if chips else count_cell(c, r.get(c, 0)) for c in columns]
        if chips:
            table.add_row(date_text(r["date"]), r["session"], _colored(r["net"]), *counts, signed(r["running"]))
        else:
            table.add_row(date_text(r["date"]), r["session"], *counts)
    return table


@commands.command("sessions")
def sessions_cmd(as_json: bool = JSON):
    """Every session: date, players, hands and the biggest winner (the current one is marked).

    Example: pan sessions --json
    """
    from rich.table import Table

    from pancli.app.reports import sessions_overview
    from pancli.app.views import standing_words
    from pancli.core.numbers import date_text

    store = app_context().open_store(create=False)
    rows = english_for_json(as_json, lambda: sessions_overview(store))
    if as_json:
        print_json(rows)
        return
    if not rows:
        console().print(_("No sessions yet: start one with `pan session new NAME --players A,B,C`."))
        return
    games = len({r["game"] for r in rows}) > 1  # one game's name in every row says nothing
    table = Table(title_justify="left")
    for col in ("", "date", "session", *(["game"] if games else []), "players", "hands", "biggest winner"):
        table.add_column(column(col) if col else "", justify="right" if col == "hands" else "left")
    for r in rows:
        w = r["biggest_winner"]
        mark = "*" if r["current"] else ""
        name = r["name"] + (" " + _("(closed)") if r["closed"] else "")
        if not r["recorded_here"]:
            name += " " + _("(read-only, from {device})").format(device=r["device_label"] or r["device"][:8])
        if r.get("leader"):  # a game scored in points or letters: its leader in its own terms
            best = standing_words({"players": [r["leader"]], "columns": r["leader"]["columns"]})[0]
        else:
            best = f"{w['name']} {signed(w['net'])}" if w else "-"
        table.add_row(mark, date_text(r["date"]), name, *([r["game"]] if games else []), ", ".join(r["players"]),
                      str(r["hands"]), best)
    out = console()
    out.print(table)
    for line in _sessions_legend(rows):
        out.print(line)


def _sessions_legend(rows: list[dict]) -> list[str]:
    """What the marks of the list of sessions mean, in sentences that fit the width."""
    from pancli.core.text import wrap_words

    lines = [_("* the current session.")] if any(r["current"] for r in rows) else []
    if not all(r["recorded_here"] for r in rows):
        lines.append(_("A session from another device is read-only here: it is recorded on that device, and "
                       "`pan sync` brings its new events."))
    return [part for line in lines for part in wrap_words(line, console().width)]


# -- settle-up -----------------------------------------------------------------------------

@commands.command()
def settle(name: str | None = SESSION,
           chip_value: str | None = typer.Option(None, "--chip-value", metavar="AMOUNT",
                                                    help="Money per chip (default: the session's)."),
           as_json: bool = JSON):
    """Who pays whom: the fewest payments that square every player, each explained, checked to sum to zero.

    Without buy-ins each player pays or is paid their net from play: Ana +81 and Fay -48 make
    "Fay pays Ana $12.00 (48 chips)".

    Once anyone buys chips (`pan buyin`) it settles in bank mode: each player hands in the chips
    they hold (bought, plus net from play, less cashed out) and is paid for them, or pays for any
    they are short; the bank pays back what it took in. Ana bought 20 and won 8: Ana holds 28 and
    receives 28 chips' worth, from the bank and from whoever is short. A stack that went below
    zero during play is named, with what to do about it.

    Example: pan settle friday --chip-value 0.25
    """
    from pancli.app.views import chips_to_settle, settle_json, settle_result
    from pancli.core import money as mo

    value = mo.chip_value(chip_value) if chip_value is not None else None
    store, session = _session(name)
    if as_json:
        print_json(english_for_json(True, lambda: settle_json(session, settle_result(store, session, chip_value)[0])))
        return
    s, value = settle_result(store, session, chip_value)
    if not chips_to_settle(session, s):  # a game in points or letters: its result, not an empty settle-up
        _print_no_chips(console(), store, session)
        return
    _print_settlement(console(), session.name, s, value)


def _print_no_chips(out, store, session) -> None:
    """Settle-up of a game scored in points or letters where no chip changed hands: that said
    once, then each player's score and the result, in the game's own terms."""
    from pancli.app.recorder import Recorder
    from pancli.app.reports import sheet_grid
    from pancli.app.views import no_chips_words, standings_data
    from pancli.core.text import wrap_words

    out.print(_("Settle-up · {session}").format(session=session.name))
    for line in no_chips_words(session, standings_data(Recorder(store, session)), sheet_grid(store, session)["result"]):
        for part in wrap_words(line, out.width):
            out.print(part, soft_wrap=True)


def _print_settlement(out, session_name: str, s, value) -> None:
    from pancli.core import settle as st
    from pancli.core.numbers import chip_price
    from pancli.core.text import wrap_words

    def say(line: str, indent: str = "") -> None:
        for part in wrap_words(indent + line, out.width):
            out.print(part, soft_wrap=True)

    price = chip_price(value, s.currency) if value else ""
    if value:
        # Translators: {price} is an amount with its currency: $0.50, $0.125
        out.print(_("Settle-up · {session} · {price} a chip").format(session=session_name, price=price))
    else:
        out.print(_("Settle-up · {session}").format(session=session_name))
    say(st.mode_line(s))
    if s.banked:
        out.print(_bank_table(s, value))
        say(st.holds_note(s))
        say(st.bank_line(s) or "")
    else:
        label_w = max([14] + [cell_width(p.label) for p in s.parties])
        # The word after each balance, padded as wide as the widest (``chip `` as wide as ``chips``).
        nouns = [ngettext("chip", "chips", abs(p.balance)) for p in s.parties]
        noun_w = max([5] + [cell_width(n) for n in nouns])
        for p, noun in zip(s.parties, nouns):
            amount = f"  {st.party_money(p, s)}" if value else ""
            out.print(f"  {pad(p.label, label_w)} {signed(p.balance):>6} {pad(noun, noun_w)}{amount}")
    if s.transfers:
        n = len(s.transfers)
        out.print(ngettext("{n} payment:", "{n} payments:", n).format(n=n))
        for t in s.transfers:
            say(st.transfer_line(t, s), "  ")
    else:
        out.print(_("Nobody owes anything."))
    say(_("Check: the balances sum to 0 chips and after these payments everyone is square."))
    for note in st.pool_notes(s):
        say(_("Note: {note}").format(note=note))
    for f in s.flags:
        say(st.flag_line(f, s))


def _bank_table(s, value):
    """Bank mode, per player: bought, net from play, cashed out (when anyone did), what they hold,
    and what they pay or receive."""
    from rich import box
    from rich.table import Table

    from pancli.core import settle as st

    cashed = any(p.cashed for p in s.parties)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    cols = ["player", "bought", "net"] + (["cashed out"] if cashed else []) + ["holds", "settles"]
    for col in cols:
        table.add_column(column(col), justify="left" if col in ("player", "settles") else "right",
                         no_wrap=col != "settles")
    for p in s.parties:
        if p.name in st.PARTY_NAMES:
            continue
        table.add_row(p.name, str(p.bought), signed(p.net), *([str(p.cashed)] if cashed else []),
                      st.count(p.balance), st.settles(p, s))
    return table


# -- archives ------------------------------------------------------------------------------

def _print_format_doc(value: bool) -> None:
    """--format-doc: the archive format, as shipped inside the package (wherever pancli is installed)."""
    if value:
        from importlib.resources import files

        from pancli.app.archive_check import payloads_markdown

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
           force: bool = FORCE):
    """Write a session out: TOML is the portable archive `pan import` reads back; CSV is for spreadsheets.

    `pan export --format-doc` prints the archive format, field by field.

    Example: pan export friday --format toml -o friday.toml
    """
    from pancli.app import archive, archive_write
    from pancli.app.files import session_file_name, write_atomic
    from pancli.storage.log import now

    fmt = fmt.lower()
    if fmt not in ("toml", "json", "csv"):
        raise InputError(_("unknown format '{format}'").format(format=fmt), _("choose toml, json or csv"))
    path = _target(output, force, "archive") if output not in (None, "-") else None
    store, session = _session(name)
    if output is None and fmt == "toml":
        path = _target(str(Path("sessions") / session_file_name(session.name, ".toml")), force, "archive")
    if fmt == "csv":
        with store.snapshot():
            text = archive.to_csv(store, session)
        if path is None:
            sys.stdout.write(text)
            return
        write_atomic(path, text, mkdir=True)
    else:
        exported_at = now() if fmt == "toml" else None

        def write_to(out) -> None:  # the archive as its events are read: a night is never held whole
            archive_write.export(store, session, fmt, out.write, exported_at)

        if path is None:
            write_to(sys.stdout)
            return

        def write_file(partial: Path) -> None:
            with open(partial, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as f:
                write_to(f)

        write_atomic(path, write_file, mkdir=True)
    console().print(_("Wrote {path} ({format}).").format(path=path, format=fmt))


@commands.command("import")
def import_cmd(file: str = typer.Argument(..., help="An archive written by `pan export` (TOML or JSON)."),
               as_name: str | None = typer.Option(None, "--as", metavar="NAME", help="Import under another name."),
               as_json: bool = JSON):
    """Rebuild a session from an archive, recomputing and checking every payment; twice imports it once.

    Example: pan import sessions/friday.toml --as friday-copy
    """
    from pancli.app import archive_import
    from pancli.core.names import clean_name

    data = archive_import.read(file)  # the header checked now; each event as it is read, before its replay
    if as_name is not None:
        as_name = clean_name(as_name, "session")
    from pancli.storage.paths import resolve_path

    ctx = app_context()
    new_file = not resolve_path(ctx.db).exists()
    store = ctx.open_store(create=True)
    try:
        try:
            result = archive_import.import_file(store, data, as_name)
        except RuleError as e:  # a replayed event the rules refuse: the archive is at fault (exit 2)
            raise InputError(e.message, e.hint) from None
        except (TypeError, KeyError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as e:
            # A value the checks above let through but a game core cannot take: the archive's fault,
            # not a crash; the import ran as one transaction, so nothing was stored.
            raise InputError(_("{file} holds an event pancli cannot replay ({error})").format(
                                 file=file, error=type(e).__name__),
                             _("nothing was imported; export it again with `pan export`")) from None
    except InputError:
        if new_file:  # a refused import leaves no database behind where there was none
            path = store.path
            ctx.close()
            for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                leftover.unlink(missing_ok=True)
        raise
    app_context().forget_session()
    if as_json:
        print_json(result)
    elif result["status"] == "present":
        console().print(_("Already in the database as session {name}: nothing imported.").format(name=result["name"]))
    elif result["status"] == "extended":
        console().print(ngettext("Brought session {name} up to date: {n} new event, every payment checked.",
                                 "Brought session {name} up to date: {n} new events, every payment checked.",
                                 result["events"]).format(name=result["name"], n=result["events"]))
    else:
        console().print(ngettext("Imported session {name} ({n} event, every payment checked). "
                                 "It is now the current session.",
                                 "Imported session {name} ({n} events, every payment checked). "
                                 "It is now the current session.", result["events"]).format(
            name=result["name"], n=result["events"]))


# -- re-scoring ----------------------------------------------------------------------------

def _parse_sets(sets: list[str]) -> dict:
    import tomllib

    out = {}
    for item in sets:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise InputError(_("--set {item} is not KNOB=VALUE").format(item=repr(item)), _("e.g. --set ante=1"))
        try:
            out[key.strip()] = tomllib.loads(f"v = {value.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            out[key.strip()] = value.strip()
    return out


def _rule_value(value: object) -> str:
    """A rule's value in the rescore line: yes and no in the reader's words (True and False in English)."""
    if isinstance(value, bool):
        # Translators: a yes-or-no rule's old and new value: "tops_chop_allowed False → True"
        return pgettext("rule value", "True") if value else pgettext("rule value", "False")
    return str(value)


@commands.command()
def rescore(name: str | None = SESSION,
            hand: int | None = typer.Option(None, "--hand", click_type=HAND, help="Only this hand."),
            preset: str | None = typer.Option(None, "--preset", help="House-rules preset to replay under."),
            rules: str | None = typer.Option(None, "--rules", metavar="FILE", help="House-rules TOML file to replay under."),
            sets: list[str] | None = typer.Option(None, "--set", metavar="KNOB=VALUE",
                                                     help="Change one knob (repeatable), on top of the preset, the file, "
                                                          "or the session's own rules."),
            as_json: bool = JSON):
    """What the recorded play would have paid under other house rules; the session is not changed.

    Example: pan rescore friday --preset cardroom-ca
    """
    from rich.table import Table

    from pancli.app.rescore import rescore as do_rescore
    from pancli.app.rulesfile import resolve as resolve_rules
    from pancli.games import game as get_game

    if not (preset or rules or sets):
        raise InputError(_("say which rules to replay under"), _("give --preset P, --rules FILE or --set KNOB=VALUE"))
    store, session = _session(name)
    g = get_game(session.game)
    base = resolve_rules(preset, rules, g.name) if (preset or rules) else g.rules_from_dict(session.rules)
    new_rules = g.rules_from_dict({**g.rules_to_dict(base), **_parse_sets(sets or [])}) if sets else base
    with store.snapshot():
        events = store.log.session_log(session.id)
    if hand is not None and not any(e.hand == hand for e in events):
        raise InputError(_("session '{session}' has no hand {hand}").format(session=session.name, hand=hand),
                         _("see the hands with `pan history`"))
    result = english_for_json(as_json, lambda: do_rescore(g, session, events, new_rules, hand))
    if as_json:
        print_json({"session": session.name, **result.to_json()})
        return
    out = console()
    changed = ", ".join(f"{k} {_rule_value(v[0])} → {_rule_value(v[1])}"
                        for k, v in result.changed_rules.items()) or _("no rule changed")
    if hand is not None:
        out.print(_("Rescore of {session}, hand {hand}: {changes}").format(session=session.name, hand=hand,
                                                                         changes=changed))
    else:
        out.print(_("Rescore of {session}: {changes}").format(session=session.name, changes=changed))
    table = Table(title_justify="left")
    for col in ("player", "recorded", "rescored", "difference"):
        table.add_column(column(col), justify="left" if col == "player" else "right")
    for r in result.rows:
        table.add_row(r["name"], signed(r["recorded"]), signed(r["rescored"]), _colored(r["difference"]))
    for pool, v in result.pools.items():
        table.add_row(pool_label(pool), signed(v["recorded"]), signed(v["rescored"]),
                      signed(v["rescored"] - v["recorded"]))
    out.print(table)
    if result.illegal:
        n = len(result.illegal)
        out.print(ngettext("{n} event not allowed under these rules (skipped):",
                           "{n} events not allowed under these rules (skipped):", n).format(n=n))
        for e in result.illegal:
            if e["hand"]:
                line = _("#{seq} (hand {hand}, {what}): {why}").format(seq=e["seq"], hand=e["hand"], what=e["what"],
                                                                      why=e["why"])
            else:
                line = _("#{seq} ({what}): {why}").format(seq=e["seq"], what=e["what"], why=e["why"])
            out.print("  " + line)
    out.print(_("The stored session is unchanged."))
