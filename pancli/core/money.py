"""Money and chip amounts, exact: ``decimal.Decimal`` and whole cents, never binary floats.

* A chip value is a finite decimal above 0, at most ``MAX_CHIP_VALUE`` and with at most
  ``CHIP_VALUE_PLACES`` decimal places (0.25, 0.05, 0.0125, 5). Every way in (an option, a rules
  file, an archive, a database) goes through ``chip_value``. SQLite stores it as REAL; a value
  this short (at most 11 significant digits) comes back exactly through ``repr``.
* An amount of chips typed or read (a buy-in, a cash-out, points) is a whole number from 1 to
  ``MAX_CHIPS``: a billion. Even a billion such amounts sum well inside SQLite's 64-bit integers.
* Money is shown and carried in JSON to the cent, as a decimal string ("12.50").
* A session may say its currency (ISO 4217, ``currency``): its chip value is then a whole number
  of that currency's minor units (CLDR's digits: no fraction of a yen, no 0.125 złoty), so money
  is worked out and shown in those units and the zero sum is never rounded away. Without one,
  everything is in cents as before.

Pure functions only.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from functools import lru_cache

from pancli.core.errors import InputError
from pancli.core.i18n import N_, _, ngettext
from pancli.core.ledger import MAX_CHIPS  # noqa: F401  (the bound on chips, kept where chips are)
from pancli.core.numbers import grouped, minor_text

MAX_CHIP_VALUE = Decimal(1_000_000)
CHIP_VALUE_PLACES = 4
CENT = Decimal("0.01")


# Codes in ISO 4217's list that are no money a table plays for: test and no-currency codes,
# precious metals, accounting units.
NOT_MONEY = frozenset({"XXX", "XTS", "XAU", "XAG", "XPT", "XPD", "XDR", "XBA", "XBB", "XBC", "XBD",
                       "XSU", "XUA", "XFU", "XFO", "XRE"})


class Field(str):
    """The name of a form's field (the dealer's phone's New game), given as ``where``: a refusal
    then names the field in words of its own ("Currency: XYZ is not a currency code"), where the
    command line's names its option ("--currency XYZ is not a currency code")."""


def _said(where: str, option_words: str, field_words: str) -> str:
    """The refusal's words for ``where``: a field of a form, or an option (or a rules key)."""
    return _(field_words) if isinstance(where, Field) else _(option_words)


def currency(value: object, where: str = "--currency") -> str:
    """An ISO 4217 code CLDR knows (``PLN``, ``rub`` -> ``RUB``), or InputError in one line."""
    from babel.numbers import list_currencies  # noqa: PLC0415 start-up: CLDR's list, only for a currency

    text = str(value).strip().upper() if isinstance(value, str) else ""
    if len(text) != 3 or not text.isascii() or not text.isalpha() or text in NOT_MONEY \
            or text not in list_currencies():
        raise InputError(_said(where, N_("{where} {value} is not a currency code"),
                               # Translators: {where} is a field of the phone's New game form ("Currency")
                               N_("{where}: {value} is not a currency code")).format(where=where, value=str(value)[:40]),
                         _("give an ISO 4217 code such as PLN, RUB, EUR or USD"))
    return text


@lru_cache(maxsize=1)
def currencies_in_use() -> tuple[str, ...]:
    """The ISO 4217 codes some country pays with today (CLDR), sorted: what a form offers."""
    from babel.core import get_global  # noqa: PLC0415 start-up: CLDR data, only for a form

    codes = {code for territory in get_global("territory_currencies").values()
             for code, _start, end, tender in territory if end is None and tender}
    return tuple(sorted(codes - NOT_MONEY))


def minor_places(code: str | None) -> int:
    """The decimal places of a currency's minor unit (JPY 0, PLN 2, KWD 3); 2 (cents) without one."""
    if code is None:
        return 2
    from babel.numbers import get_currency_precision  # noqa: PLC0415 start-up: CLDR data, only for a currency

    return int(get_currency_precision(code))


def minor_unit(code: str | None) -> Decimal:
    """The smallest amount of a currency's money: 0.01, 1 for JPY."""
    return Decimal(1).scaleb(-minor_places(code))


def chip_value_in(value: Decimal, code: str | None, where: str | None = "--chip-value") -> Decimal:
    """``value`` (already a chip value) when it is a whole number of ``code``'s minor units,
    or InputError in one line: rounding it would break the zero sum of a settle-up. ``where``
    None: the session's own chip value."""
    if code is None:
        return value
    if where is None:
        where = _("the session's chip value")
    unit = minor_unit(code)
    if value.quantize(unit) == value:
        return value
    places = minor_places(code)
    if places == 0:
        hint = _("{currency} has no smaller unit: give a whole number, e.g. 1").format(currency=code)
    else:
        hint = ngettext("{currency} has {n} decimal place: give e.g. {example}",
                        "{currency} has {n} decimal places: give e.g. {example}", places).format(
            currency=code, n=places, example=format(value.quantize(unit), "f") if value >= unit else format(unit, "f"))
    raise InputError(_said(where, N_("{where} {value} is not a whole number of {currency}'s smallest unit"),
                           N_("{where}: {value} is not a whole number of {currency}'s smallest unit")).format(
        where=where, value=format(value, "f"), currency=code), hint)


def chip_value(value: object, where: str = "--chip-value") -> Decimal:
    """A chip value as an exact Decimal, or InputError in one line."""
    hint = _("give an amount above 0 and at most {most}, e.g. 0.25").format(most=grouped(int(MAX_CHIP_VALUE)))
    # Translators: {where} is an option (--chip-value) or a rules key; {value} is what was typed
    not_money = _said(where, N_("{where} {value} is not an amount of money"),
                      # Translators: {where} is a field of the phone's New game form ("Money per chip")
                      N_("{where}: {value} is not an amount of money"))
    if isinstance(value, bool) or value is None:
        raise InputError(not_money.format(where=where, value=repr(value)), hint)
    try:
        d = Decimal(repr(value)) if isinstance(value, float) else Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise InputError(not_money.format(where=where, value=repr(str(value)[:40])), hint) from None
    if not d.is_finite() or d <= 0 or d > MAX_CHIP_VALUE:
        raise InputError(not_money.format(where=where, value=str(value)[:40]), hint)
    places = Decimal(1).scaleb(-CHIP_VALUE_PLACES)
    if d.quantize(places) != d:
        more = ngettext("{where}: {value} has more than {n} decimal place",
                        "{where}: {value} has more than {n} decimal places", CHIP_VALUE_PLACES) \
            if isinstance(where, Field) else \
            ngettext("{where} {value} has more than {n} decimal place",
                     "{where} {value} has more than {n} decimal places", CHIP_VALUE_PLACES)
        raise InputError(more.format(
            where=where, value=str(value)[:40], n=CHIP_VALUE_PLACES), hint)
    return Decimal(format(d.quantize(places).normalize(), "f"))  # 0.2500 -> 0.25, 1E+2 -> 100


def stored_chip_value(value: object) -> Decimal | None:
    """The chip value kept with a session (a REAL, or a rules knob); None when there is none."""
    if value is None or value == 0:
        return None
    return chip_value(value, _("the session's chip value"))


def shown_chip_value(value: object) -> Decimal | None:
    """The chip value for standings and reports: an unusable one (an older database may hold
    anything) shows no money rather than failing the report; settle-up refuses it."""
    try:
        return stored_chip_value(value)
    except InputError:
        return None


def chips(value: object, wrong: str = N_("{value} is not a number of chips")) -> int:
    """A whole number of chips from 1 to MAX_CHIPS, or InputError in one line (``wrong``, a
    message marked with N_, says what was wanted)."""
    hint = _("give a whole number above 0 and at most {most}").format(most=grouped(MAX_CHIPS))
    text = str(value).strip()
    if isinstance(value, bool):
        raise InputError(_(wrong).format(value=text), hint)
    if isinstance(value, int):
        n = value
    else:
        try:
            n = int(text.replace("_", "x"), 10)
        except ValueError:
            raise InputError(_(wrong).format(value=text[:40]), hint) from None
    if n <= 0 or n > MAX_CHIPS:
        raise InputError(_(wrong).format(value=text[:40]), hint)
    return n


def amount(chips_: int | Decimal, value: Decimal, code: str | None = None) -> Decimal:
    """The money for a number of chips, to the cent (half to even), or to ``code``'s minor unit."""
    return (Decimal(chips_) * value).quantize(CENT if code is None else minor_unit(code), rounding=ROUND_HALF_EVEN)


def to_cents(balances: dict[str, int], value: Decimal, code: str | None = None) -> dict[str, int]:
    """Each balance in whole cents (or whole minor units of ``code``), rounded so they sum to
    what the chips sum to (zero for a ledger): each is rounded down, then the units left over
    go one each to the largest remainders (ties by name)."""
    scale = Decimal(100) if code is None else Decimal(1).scaleb(minor_places(code))
    exact = {n: Decimal(b) * value * scale for n, b in balances.items()}
    floor = {n: int(x.to_integral_value(rounding="ROUND_FLOOR")) for n, x in exact.items()}
    target = int((sum(exact.values(), Decimal(0))).to_integral_value(rounding=ROUND_HALF_EVEN))
    left = target - sum(floor.values())
    order = sorted(exact, key=lambda n: (-(exact[n] - floor[n]), n))
    for n in order[:max(left, 0)]:
        floor[n] += 1
    return floor


def cents_text(cents: int, code: str | None = None) -> str:
    """$12.50, -$3.25 (the one minus sign: pancli.core.words.MINUS) in English without a
    currency; the language's and the currency's way otherwise (core/numbers.money_text).
    ``cents`` are whole minor units of ``code`` when it is given."""
    return minor_text(cents, code)


def cents_decimal(cents: int, code: str | None = None) -> Decimal:
    """Whole minor units as the decimal amount JSON carries ("12.50"; "500" for yen)."""
    if code is None:
        return (Decimal(cents) / 100).quantize(CENT)
    return Decimal(cents).scaleb(-minor_places(code)).quantize(minor_unit(code))
