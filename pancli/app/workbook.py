"""The night as a spreadsheet (`pan report --xlsx`): a workbook written by XlsxWriter with a sheet
for each part of the report (the standings, the settle-up where chips change hands, the night
hand by hand or deal by deal), headed in the reader's language.

Every number is a number cell: chips and points as whole numbers (with their sign), money with
the number format of the session's currency (its symbol and pattern as the reader's language
writes them), so any spreadsheet in any language reads the value and shows it its own way.
Every name and word is a text cell, written as text: a name that looks like a formula
(``=HYPERLINK("x")``, ``+1+2``, ``@SUM(A1)``) stays that text, whole, and is never run.
"""

from __future__ import annotations

import io
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from pancli.core.i18n import _, language, pgettext
from pancli.core.settle import party_name
from pancli.games import GAMES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pancli.app.view_types import SettleJson, StandingsJson
    from pancli.core.json_types import JsonObject
    from pancli.core.rows import Session
    from pancli.storage.store import Store

SHEET_NAME = re.compile(r"[\[\]:*?/\\]")  # what a sheet's name may not hold
SHEET_NAME_MOST = 31


def night_workbook(store: Store, session: Session) -> bytes:
    """The workbook of ``session``, as the bytes of an .xlsx file."""
    from pancli.app.recorder import Recorder  # noqa: PLC0415 start-up: only the workbook reads all of these
    from pancli.app.reports import sheet_grid  # noqa: PLC0415
    from pancli.app.views import settle_json, settle_result, standings_data  # noqa: PLC0415

    standings = standings_data(Recorder(store, session))
    settled = settle_json(session, settle_result(store, session)[0])
    return workbook_bytes(session, standings, settled, sheet_grid(store, session))


def heads() -> dict[str, str]:
    """The columns' headers in the language in force (the same words as the tables')."""
    return {"player": pgettext("column", "player"), "who": pgettext("column", "who"),
            "chips": pgettext("column", "chips"), "money": pgettext("column", "money"),
            "hands": pgettext("column", "hands"), "won": pgettext("column", "won"),
            "dropped": pgettext("column", "dropped"), "conditions": pgettext("column", "conditions"),
            "points": pgettext("column", "points"), "word": pgettext("column", "word"),
            "letters": pgettext("column", "letters"), "deals_played": pgettext("column", "deals played"),
            "deals_lost": pgettext("column", "deals lost"), "deals_won": pgettext("column", "deals won"),
            "games_lost": pgettext("column", "games lost"), "place": pgettext("column", "place"),
            "loser": pgettext("column", "loser"), "contract": pgettext("column", "contract"),
            "hand": pgettext("sheet", "hand"), "deal": pgettext("sheet", "deal"),
            "total": pgettext("sheet", "total"), "outside": pgettext("sheet", "outside hands"),
            "result": pgettext("sheet", "result"),
            # Translators: the settle-up sheet of the spreadsheet: who pays, who is paid
            "payer": pgettext("column", "pays"), "payee": pgettext("column", "is paid")}


def money_format(currency: str | None, digits: int) -> str:
    """A number format for money: the session's currency in the reader's language's pattern
    (``#,##0.00 [$zł]``, ``[$$]#,##0.00``), or a plain amount to its minor unit without one."""
    amount = "#,##0" + ("." + "0" * digits if digits else "")
    if currency is None:
        return amount
    from babel import Locale  # noqa: PLC0415
    from babel.numbers import get_currency_symbol  # noqa: PLC0415 start-up: CLDR data, only for a currency

    try:
        locale = Locale.parse(language())
    except (ValueError, LookupError):
        locale = Locale.parse("en")
    symbol = get_currency_symbol(currency, locale=locale).replace('"', "")
    pattern = locale.currency_formats["standard"].pattern.split(";")[0]
    before = pattern.index("¤") < pattern.index("0") if "¤" in pattern and "0" in pattern else True
    spaced = "\u00a0¤" in pattern or " ¤" in pattern or "¤\u00a0" in pattern or "¤ " in pattern
    sign = f"[${symbol}]"
    gap = "\\ " if spaced else ""
    return f"{sign}{gap}{amount}" if before else f"{amount}{gap}{sign}"


def sheet_title(text: str, taken: set[str]) -> str:
    """A sheet's name a spreadsheet takes: none of []:*?/\\, at most 31 characters, unique."""
    name = SHEET_NAME.sub(" ", text).strip("' ")[:SHEET_NAME_MOST] or "-"
    base, n = name, 2
    while name.lower() in taken:
        suffix = f" {n}"
        name = base[:SHEET_NAME_MOST - len(suffix)] + suffix
        n += 1
    taken.add(name.lower())
    return name


def workbook_bytes(session: Session, standings: StandingsJson, settled: SettleJson | None,
                   sheet: JsonObject | None) -> bytes:
    """The workbook from what the standings, the settle-up and the score sheet say."""
    import xlsxwriter  # noqa: PLC0415 start-up: only `pan report --xlsx` writes a workbook

    from pancli.core.numbers import minor_digits  # noqa: PLC0415

    words = heads()
    g = GAMES.get(session.game)
    currency = standings.get("currency")
    out = io.BytesIO()
    # Text goes in as text, always: write_string, and none of XlsxWriter's guesses from a string.
    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_numbers": False,
                                     "strings_to_formulas": False, "strings_to_urls": False})
    bold = book.add_format({"bold": True})
    formats = {"int": book.add_format({"num_format": "0"}),
               "signed": book.add_format({"num_format": "+0;-0;0"}),
               "money": book.add_format({"num_format": money_format(currency, minor_digits(currency))})}
    taken: set[str] = set()

    def table(title: str, header: Sequence[str], rows: Sequence[Sequence[tuple[str, Any]]]) -> None:
        """One sheet: a header in bold, then rows of (kind, value): text, int, signed or money."""
        ws = book.add_worksheet(sheet_title(title, taken))
        widths = [len(h) for h in header]
        for c, h in enumerate(header):
            ws.write_string(0, c, h, bold)
        for r, row in enumerate(rows, 1):
            for c, (kind, value) in enumerate(row):
                if value is None or value == "":
                    continue
                if kind == "text":
                    ws.write_string(r, c, str(value))
                    shown = len(str(value))
                else:
                    number = Decimal(str(value))
                    ws.write_number(r, c, int(number) if kind != "money" else float(number), formats[kind])
                    shown = len(str(value)) + (4 if kind == "money" else 1)
                if c >= len(widths):
                    widths.append(0)
                widths[c] = max(widths[c], shown)
        for c, w in enumerate(widths):
            ws.set_column(c, c, min(max(w + 2, 6), 48))
        ws.freeze_panes(1, 0)

    # -- the standings
    chip_value = standings.get("chip_value")
    rows_out: list[list[tuple[str, Any]]] = []
    if "columns" in standings:  # a game that ranks its own: place, player, its columns
        cols = list(standings["columns"])
        header = [words["place"], words["player"], *(words.get(c, c.replace("_", " ")) for c in cols)]
        for row in standings["players"]:
            rows_out.append([("int", row.get("place")), ("text", row["name"]),
                             *((("text" if isinstance(row.get(c), str) else "signed" if c == "points" else "int"),
                                row.get(c, 0)) for c in cols)])
    else:
        counts = list(g.tallies) if g is not None else []
        header = [words["player"], words["chips"], *([words["money"]] if chip_value else []),
                  *(words.get(c, c.replace("_", " ")) for c in counts)]
        for row in standings["players"]:
            rows_out.append([("text", row["name"]), ("signed", row["net"]),
                             *([("money", row.get("money"))] if chip_value else []),
                             *(("int", row.get(c, 0)) for c in counts)])
        for pool, chips in (standings.get("pools") or {}).items():
            rows_out.append([("text", party_name(f"({pool})")), ("signed", chips)])
    table(_("Standings"), header, rows_out)

    # -- the settle-up, where chips change hands
    transfers = settled["transfers"] if settled is not None else []
    if settled is not None and (g is None or g.in_chips or transfers):
        priced = settled.get("chip_value") is not None
        rows_out = [[("text", party_name(t["payer"])), ("text", party_name(t["payee"])), ("int", t["chips"]),
                     *([("money", t.get("money"))] if priced else [])] for t in transfers]
        rows_out.append([])
        rows_out.append([("text", words["who"]), ("text", words["chips"]),
                         *([("text", words["money"])] if priced else [])])
        for p in settled["parties"]:
            rows_out.append([("text", party_name(p["name"])), ("signed", p["balance"]),
                             *([("money", p.get("money"))] if priced else [])])
        table(_("Settle-up"), [words["payer"], words["payee"], words["chips"], *([words["money"]] if priced else [])],
              rows_out)

    # -- the night hand by hand (or deal by deal)
    if sheet is not None:
        by_deal = sheet["round"] == "deal"
        note = str(sheet["note_label"]) if sheet.get("note_label") else None
        running = any(row.get("running") is not None for row in sheet["rows"])
        so_far = words["total"] if sheet["unit"] == "points" else words.get(sheet["unit"], sheet["unit"])
        header = [words.get(str(sheet["round"]), str(sheet["round"])), *([words.get(note, note)] if note is not None else []),
                  *sheet["players"], *([f"{p} ({so_far})" for p in sheet["players"]] if running else [])]
        kind = "signed" if sheet.get("signed") else "int"

        def scores(values: Sequence[Any]) -> list[tuple[str, Any]]:
            return [("text", v) if isinstance(v, str) else (kind, v) for v in values]

        pad: list[tuple[str, Any]] = [("text", "")] if note else []
        rows_out = [[("int", row["number"]), *([("text", row.get("note") or "")] if note else []),
                     *scores(row["scores"]), *(scores(row["running"]) if running and row.get("running") else [])]
                    for row in sheet["rows"]]
        if sheet.get("outside"):
            rows_out.append([("text", words["outside"]), *pad, *scores(sheet["outside"])])
        rows_out.append([("text", words["total"]), *pad, *scores(sheet["totals"])])
        if sheet.get("money"):
            rows_out.append([("text", words["money"]), *pad, *(("money", m) for m in sheet["money"])])
        if sheet.get("result"):
            rows_out.append([("text", words["result"]), ("text", sheet["result"])])
        table(_("Deal by deal") if by_deal else _("Hand by hand"), header, rows_out)

    book.close()
    return out.getvalue()
