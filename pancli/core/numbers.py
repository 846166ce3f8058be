"""Numbers, money and dates as the language in force writes them.

English is what pancli always printed, byte for byte, without Babel: counts as plain digits,
money to the cent with ``$`` and grouped thousands (``$1,234.50``), signed amounts ungrouped
(``+5.75``), dates and times as they are stored (ISO 8601). Any other language takes its
separators, grouping and patterns from Babel's CLDR data, loaded the first time that language
formats something (English start-up never imports Babel): Polish ``1234,50 zł``, Russian
``12,50 ₽``, Bulgarian ``12 345,50 €``, Japanese ``￥1,235``, dates ``2.12.2026`` and ``02.12.2026``.

A session with a currency (ISO 4217, core/money) shows its money in that currency's minor units
in every language (``PLN1,234.50`` in English, as CLDR writes it), the currency always the
session's and never the language's: Bulgaria has paid in euros since 2026 while CLDR's Bulgarian
still names the lev, and a Bulgarian page of a session in EUR says ``1234,50 €``, of one in JPY
``1235 JPY``; a Japanese page of a session in JPY ``￥1,235``, in whole yen. A session without one shows
English ``$`` as before, and in another language the bare amount (``12,50``): pancli never knew
which money it was.

One minus sign in every language: ASCII ``-`` (core/words.MINUS), which grep finds.
Dates arrive as the ISO text pancli stores (``2026-12-02T01:41:30+00:00``) and are shown in the
time zone they were written in, as English shows them. Pure functions only.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from typing import Any

from pancli.core.i18n import ENGLISH, language

# core/words.MINUS, the one minus sign (words calls this module, so it cannot be imported from
# there; tests/test_lang_money.py holds the two the same).
MINUS = "-"
CENT_DIGITS = 2  # the minor units of money without a currency: cents


def _babel_numbers() -> Any:
    import babel.numbers  # noqa: PLC0415 start-up: CLDR data, only for a language other than English or a currency

    return babel.numbers


# CLDR groups digits and spaces a currency with no-break spaces (U+00A0, U+202F), which pancli's
# output escapes as invisible characters (cli/output.console): they are written as plain spaces.
_HARD_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2009": " "})


# CLDR's minimumGroupingDigits, which Babel does not apply (its data leaves it out): the languages
# whose common/main/<code>.xml says 2 write a four-digit amount ungrouped and group from five
# digits on: Polish and Bulgarian 1234,50 and 12 345,50, Spanish 1234,50 and 12.345,50. Every other
# language pancli speaks groups from four digits (1 234,50 ₽; ￥1,235).
_MIN_GROUPING_TWO = frozenset({"pl", "bg", "es"})
_FOUR_DIGITS = {sep: re.compile(rf"(?<!\d)(?<!\d{re.escape(sep)})(\d){re.escape(sep)}(\d{{3}})(?!\d|{re.escape(sep)}\d)")
                for sep in (" ", ".")}


def _plain(text: object) -> str:
    out = str(text).translate(_HARD_SPACES)
    if language() in _MIN_GROUPING_TWO:
        group = _group_symbol(_locale())
        if group in _FOUR_DIGITS:
            out = _FOUR_DIGITS[group].sub(r"\1\2", out)
    return out


@lru_cache(maxsize=16)
def _group_symbol(code: str) -> str:
    return str(_babel_numbers().get_group_symbol(code)).translate(_HARD_SPACES)


def _english() -> bool:
    """Whether numbers are written as English writes them: in English, and in a language CLDR has
    no data for (the pseudo-language qps, a catalog newer than this Babel)."""
    code = language()
    return code == ENGLISH or not _known_to_cldr(code)


@lru_cache(maxsize=16)
def _known_to_cldr(code: str) -> bool:
    from babel import Locale, UnknownLocaleError  # noqa: PLC0415 start-up: CLDR data, only for another language

    try:
        Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        return False
    return True


def _locale() -> str:
    return language()


def minor_digits(currency: str | None) -> int:
    """How many decimal places a currency's money has (CLDR: JPY 0, PLN 2, KWD 3); cents without one."""
    if currency is None:
        return CENT_DIGITS
    return int(_babel_numbers().get_currency_precision(currency))


def _pattern(digits: int, grouped: bool = True) -> str:
    return ("#,##0" if grouped else "0") + ("." + "0" * digits if digits else "")


def number(n: int) -> str:
    """A count: ``1234`` in English (as ever), grouped as the language groups it elsewhere."""
    if _english():
        return str(n)
    text = _plain(_babel_numbers().format_decimal(abs(n), locale=_locale()))
    return f"{MINUS}{text}" if n < 0 else text


def grouped(n: int) -> str:
    """A large bound said in a sentence: ``1,000,000,000`` in English, grouped per language."""
    if _english():
        return f"{n:,}"
    return number(n)


def decimal_text(d: Decimal | int) -> str:
    """An exact decimal with every digit it has (a chip value: ``0.25``, ``0.0125``, ``5``):
    English as ``str`` writes a normalised Decimal, another language with its decimal sign."""
    text = format(d, "f") if isinstance(d, Decimal) else str(d)
    if _english():
        return text
    return _plain(_babel_numbers().format_decimal(Decimal(text), locale=_locale(), decimal_quantization=False))


def _amount(x: Decimal, currency: str | None, digits: int, grouped_: bool = True) -> str:
    """A positive amount of money without its sign."""
    b = _babel_numbers()
    loc = "en" if _english() else _locale()
    if currency is not None:
        return _plain(b.format_currency(x, currency, locale=loc, currency_digits=True))
    return _plain(b.format_decimal(x, format=_pattern(digits, grouped_), locale=loc))


def money_text(amount: Decimal | int, currency: str | None = None) -> str:
    """Money to its minor unit: ``$12.50``, ``-$3.25`` (English, no currency, as ever);
    ``12,50 zł``, ``-12,50 ₽`` (Polish and Russian, with the session's currency)."""
    x = Decimal(amount)
    if currency is None and _english():
        d = abs(x)
        return f"${d:,.2f}" if x >= 0 else f"{MINUS}${d:,.2f}"
    text = _amount(abs(x), currency, minor_digits(currency))
    return f"{MINUS}{text}" if x < 0 else text


def chip_price(value: Decimal, currency: str | None = None) -> str:
    """What a chip is worth, with every digit it has: ``$0.50``, ``$0.125``, ``$1,000.00``
    (English, no currency, as ever); ``0,125`` in Polish without one; ``0,05 zł`` with PLN
    (a whole number of its minor units)."""
    if currency is None and _english():
        return f"${value:,.2f}" if value == value.quantize(Decimal("0.01")) else f"${value:,f}"
    if currency is not None:
        return money_text(value, currency)
    return _plain(_babel_numbers().format_decimal(value, format="#,##0.00##", locale=_locale()))


def minor_text(units: int, currency: str | None = None) -> str:
    """Money counted in whole minor units (cents, grosze, kopecks; yen for JPY)."""
    return money_text(Decimal(units).scaleb(-minor_digits(currency)), currency)


def typed_decimal(text: str) -> str:
    """An amount a person typed, as the language in force writes it, in the plain form Decimal
    reads: ``0,50`` and ``1 000,50`` in Polish or Russian are ``0.50`` and ``1000.50``; a plain
    ``0.50`` is read as it is wherever the language does not group with a point. English, and
    anything that is no amount, is given back as typed, for the caller to refuse in its words.
    The one reader of typed amounts (a chip value at the keyboard or on the phone)."""
    s = text.strip()
    if _english():
        return s
    b = _babel_numbers()
    decimal, group = b.get_decimal_symbol(_locale()), b.get_group_symbol(_locale()).translate(_HARD_SPACES)
    s = s.translate(_HARD_SPACES)
    if group == " ":
        s = s.replace(" ", "")
    if decimal != "." and decimal in s and "." not in s and group != decimal:
        s = s.replace(decimal, ".")
    return s


def currency_name(code: str) -> str:
    """A currency's name in the language in force (CLDR): ``złoty polski``, ``Polish Zloty``."""
    return str(_babel_numbers().get_currency_name(code, locale="en" if _english() else _locale()))


def signed_number(n: int, zero: str = "0") -> str:
    """``+3``, ``-3``, ``zero`` for none: core/words.signed in the language in force."""
    if n == 0:
        return zero
    sign = "+" if n > 0 else MINUS
    return sign + (str(abs(n)) if _english() else number(abs(n)))


def signed_amount(x: Decimal | float, zero: str = "0.00", currency: str | None = None) -> str:
    """Money won or lost with its sign, to the minor unit: ``+5.75``, ``-3.25`` (English without a
    currency, as ever: ungrouped, no symbol); ``+5,75`` in Polish; with the session's currency
    its symbol as the language writes it: ``+12,50 zł``, ``-500 ¥``, ``+PLN12.50``. ``zero`` is
    said for none, as English writes it (``0.00`` or ``+0.00``): another language or currency
    writes that zero its own way, keeping the ``+``."""
    digits = minor_digits(currency)
    if _english() and currency is None and not x:
        return zero
    size = abs(Decimal(str(x)))
    if currency is not None:
        text = _amount(size, currency, digits)
    elif _english():  # ungrouped, as English has always written a signed amount
        text = f"{size:.{digits}f}"
    else:
        text = _amount(size, None, digits, grouped_=False)
    sign = "+" if x > 0 or (not x and zero.startswith("+")) else MINUS if x < 0 else ""
    return sign + text


# -- dates ---------------------------------------------------------------------------------

_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?")
_FIELD = re.compile(r"'([^']*)'|(y+|M+|d+|H+|m+|s+)|([A-Za-z])")


@lru_cache(maxsize=16)
def _date_patterns(code: str) -> tuple[str, str, str]:
    """CLDR's short date and time patterns of a language, and how it joins them (``{1}, {0}``)."""
    import babel.dates  # noqa: PLC0415 start-up: CLDR data, only for a language other than English

    return (babel.dates.get_date_format("short", locale=code).pattern,
            babel.dates.get_time_format("short", locale=code).pattern,
            str(babel.dates.get_datetime_format("short", locale=code)))


def _filled(pattern: str, parts: dict[str, str]) -> str | None:
    """A CLDR pattern of numeric fields filled from ``parts``; None when it asks for words (a month's
    name), which the stored text cannot give without a calendar."""
    out: list[str] = []
    at = 0
    for m in _FIELD.finditer(pattern):
        out.append(pattern[at:m.start()])
        at = m.end()
        if m[1] is not None:
            out.append(m[1] or "'")
        elif m[2] is not None:
            letter, width = m[2][0], len(m[2])
            if width > 2 and letter != "y":
                return None
            value = parts[letter]
            out.append(value if letter == "y" and width != 2 else
                       value[-2:] if letter == "y" else value.zfill(width) if width == 2 else str(int(value)))
        else:
            return None
    out.append(pattern[at:])
    return "".join(out)


def _parts(text: str) -> dict[str, str] | None:
    m = _ISO.match(text)
    if not m:
        return None
    y, mo, d, h, mi, s = m.groups()
    return {"y": y, "M": mo, "d": d, "H": h or "00", "m": mi or "00", "s": s or "00", "time": "1" if h else ""}


def date_text(stored: str) -> str:
    """The day of a stored time: ``2026-12-02`` in English (as ever), ``2.12.2026`` in Polish."""
    if _english():
        return stored[:10]
    parts = _parts(stored)
    if parts is None:
        return stored[:10]
    return _filled(_date_patterns(_locale())[0], parts) or stored[:10]


def datetime_text(stored: str) -> str:
    """A stored time to the minute in the language's short form: English shows the stored text
    as it is (``2026-12-02T01:41:30+00:00``, or ``2026-12-02 01:41`` as a caller cut it)."""
    if _english():
        return stored
    parts = _parts(stored)
    if parts is None:
        return stored
    day_pattern, time_pattern, joined = _date_patterns(_locale())
    day = _filled(day_pattern, parts)
    if day is None:
        return stored
    if not parts["time"]:
        return day
    hour = _filled(time_pattern, parts)
    if hour is None:
        return stored
    return joined.replace("{1}", day).replace("{0}", hour)
