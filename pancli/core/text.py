"""Text for people and scripts, the same on every face: payments as a dealer calls them, one-line
errors that cannot forge output, and JSON that shows every character as itself."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pancli.core.i18n import N_, _
from pancli.core.names import inert
from pancli.core.reasons import shown_reason
from pancli.core.width import break_points, cells as width_cells, has_unspaced

if TYPE_CHECKING:
    from decimal import Decimal

    from pancli.core.ledger import Payment


def one_line(text: str) -> str:
    """An error quotes what the user typed: a newline or other control character in it is shown
    escaped (\\n), so the explanation stays one line and cannot forge output of its own."""
    return inert(text)


_QUOTED = re.compile(r"`[^`]*`")
_KEEP = "\x00"  # stands for a space inside `a command`, so the command is never broken
# A space inside an amount (core/numbers writes CLDR's no-break spaces as plain ones): between
# two groups of digits, or before the currency's sign.
_GROUPED = re.compile(r"(?<=\d) (?=\d|zł|[\u20a0-\u20cf$€£¥])")


def cells(text: str) -> int:
    """How many terminal cells the text takes: two for a wide (CJK, emoji) character, none for a
    combining mark, one for the rest; ambiguous ones (♠, Cyrillic) as the terminal is said to draw
    them (``pancli.core.width``)."""
    return width_cells(text.replace(_KEEP, " "))


def word_pieces(word: str, room: int) -> list[str]:
    """A word of a script written without spaces (Japanese) cut into the pieces a line may break
    between (``break_points``: its phrases, never before 。 or 、), a phrase wider than ``room``
    cut where Unicode allows; any other word whole. A quoted `command` is never cut."""
    if cells(word) <= room or not has_unspaced(word):
        return [word]
    allowed, preferred = break_points(word)
    quoted = [m.span() for m in _QUOTED.finditer(word)]
    allowed = [i for i in allowed if not any(a < i < b for a, b in quoted)]
    pieces, start = [], 0
    for end in [i for i in allowed if i in preferred] + [len(word)]:
        while cells(word[start:end]) > room:  # a phrase too long for a line: cut where Unicode allows
            fitting = [i for i in allowed if start < i < end and cells(word[start:i]) <= room]
            if not fitting:
                break
            pieces.append(word[start:fitting[-1]])
            start = fitting[-1]
        pieces.append(word[start:end])
        start = end
    return pieces


def wrap_words(line: str, width: int) -> list[str]:
    """A line broken between words to fit ``width`` terminal cells, never inside a word or a quoted
    `command`; the lines after the first are indented two more than the first. A word of a script
    written without spaces (Japanese) breaks where Unicode's line breaking allows, by phrase. A
    line that fits is kept as it is."""
    if cells(line) <= width:
        return [line]
    lead = " " * (len(line) - len(line.lstrip(" ")))
    kept = _QUOTED.sub(lambda m: m.group(0).replace(" ", _KEEP), line[len(lead):])
    kept = _GROUPED.sub(_KEEP, kept)  # 2 491 349,65 zł: one amount, as Polish and Russian group it
    first, *rest = re.split(r"( +)", kept)
    room = max(1, width - len(lead) - 2)
    units = [("", piece) for piece in word_pieces(first, room)]
    for space, word in zip(rest[::2], rest[1::2]):
        pieces = word_pieces(word, room)
        units += [(space, pieces[0])] + [("", piece) for piece in pieces[1:]]
    lines, current = [], lead + units[0][1]
    for space, word in units[1:]:
        if cells(current + space + word) <= width:
            current += space + word
        else:
            lines.append(current)
            current = lead + "  " + word
    lines.append(current)
    return [x.replace(_KEEP, " ") for x in lines]


# The pools as a payment line names them (pancli.core.ledger's TOPS and HOUSE): stored as these
# codes, shown in the language in force.
_POOLS = {"(tops)": N_("(tops)"), "(house)": N_("(house)")}


# A payment into a pool, one whole sentence a pool: Polish and Russian decline it after "pays".
# Translators: {chips} is a bare number of chips; {reason} the game's words for why
_PAYS_POOL = {
    "(tops)": (N_("{payer} pays (tops) {chips}: {reason}"), N_("{payers} pay (tops) {chips} each: {reason}")),
    "(house)": (N_("{payer} pays (house) {chips}: {reason}"), N_("{payers} pay (house) {chips} each: {reason}")),
}


def shown_party(name: str) -> str:
    """A payer or payee as a line shows it: a player's name, or a pool ("(tops)") in the
    language in force."""
    pool = _POOLS.get(name)
    return _(pool) if pool else name


def payment_lines(payments: Iterable[Payment | Mapping[str, Any]]) -> list[str]:
    """Payments grouped as a dealer calls them: 'Ben, Cruz pay Ana 4 each: reason'."""
    groups: dict[tuple[str, int, str], list[str]] = {}
    for p in payments:
        if isinstance(p, Mapping):
            payer, payee, chips = p["payer"], p["payee"], p["chips"]
            reason = shown_reason(p.get("code"), p.get("params") or {}, p["reason"])
        else:
            payer, payee, chips, reason = p.payer, p.payee, p.chips, shown_reason(p.code, p.params, p.reason)
        groups.setdefault((payee, chips, reason), []).append(payer)
    return called_lines(groups)


def called_lines(groups: Mapping[tuple[str, int, str], list[str]]) -> list[str]:
    """The lines of ``payment_lines``: its payers grouped by (payee, chips, reason as shown), in
    the order first paid."""
    lines = []
    for (payee, chips, reason), payers in groups.items():
        if len(payers) == 1:
            said = _(_PAYS_POOL[payee][0]) if payee in _PAYS_POOL else _("{payer} pays {payee} {chips}: {reason}")
            lines.append(said.format(payer=shown_party(payers[0]), payee=shown_party(payee), chips=chips,
                                     reason=reason))
        else:
            said = (_(_PAYS_POOL[payee][1]) if payee in _PAYS_POOL
                    else _("{payers} pay {payee} {chips} each: {reason}"))
            lines.append(said.format(payers=", ".join([_(_POOLS[p]) if p in _POOLS else p for p in payers]),
                                     payee=shown_party(payee), chips=chips, reason=reason))
    return lines


def _json_default(value: object) -> str:
    from decimal import Decimal  # noqa: PLC0415 start-up: decimal, only where a view shows money

    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _escape_hidden(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if code > 0xFFFF:  # a UTF-16 surrogate pair, as JSON writes characters outside the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(data: Any) -> str:
    """JSON for scripts: readable non-ASCII letters kept, but every character that would not show
    as itself (C1 controls, bidirectional overrides, zero-width spaces…) escaped as \\uXXXX; money
    as exact decimal strings; never Infinity or NaN."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, default=_json_default)
    return re.sub(r"[^\x20-\x7e]", lambda m: m.group(0) if m.group(0).isprintable() else _escape_hidden(m), text)




# -- CSV for a spreadsheet ------------------------------------------------------------------------
# Every CSV pancli writes (`pan report --csv`, `pan export --format csv`) goes through this one
# writer: a text a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return first)
# is written with a leading apostrophe, so a name like `=HYPERLINK(…)` or `-2+3` stays text; numbers
# (int, Decimal) are written as numbers; `pan report --csv` writes its money so that a spreadsheet in
# any language reads a number (``spreadsheet_number``), while `pan export` keeps the bytes it always wrote.

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """``text`` as a spreadsheet keeps it as text: one it would take for a formula gets a leading
    apostrophe."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class SpreadsheetNumber(str):
    """A number already written as a spreadsheet reads one (``spreadsheet_number``): never guarded."""


def spreadsheet_number(value: Decimal) -> SpreadsheetNumber:
    """An amount (money) as a number that a spreadsheet reads as a number in every language: a
    whole amount as its digits (``-25``), any other as its digits times a power of ten
    (``-1250E-2`` for -12.50). A decimal sign is not one: a spreadsheet in Polish or Russian
    reads ``-12.50`` as text (or ``12.10`` as a date), one in English reads ``-12,50`` as text."""
    if value == value.to_integral_value():
        return SpreadsheetNumber(int(value))
    sign, digits, exponent = value.as_tuple()
    return SpreadsheetNumber(("-" if sign else "") + "".join(map(str, digits)) + f"E{exponent}")


def spreadsheet_row(values: Iterable[Any]) -> list[Any]:
    """A row of a CSV for a spreadsheet: every text through ``spreadsheet_text``, numbers (int,
    Decimal, a SpreadsheetNumber) as they are."""
    return [spreadsheet_text(v) if isinstance(v, str) and not isinstance(v, SpreadsheetNumber) else v for v in values]


class SpreadsheetWriter:
    """``csv.writer`` whose every row goes through ``spreadsheet_row``."""

    def __init__(self, out: Any, lineterminator: str = "\r\n"):
        import csv  # noqa: PLC0415 start-up: only the commands that write CSV

        self.writer = csv.writer(out, lineterminator=lineterminator)

    def writerow(self, values: Iterable[Any]) -> None:
        self.writer.writerow(spreadsheet_row(values))
