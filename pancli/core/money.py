"""Money and chip amounts, exact: ``decimal.Decimal`` and whole cents, never binary floats.

* A chip value is a finite decimal above 0, at most ``MAX_CHIP_VALUE`` and with at most
  ``CHIP_VALUE_PLACES`` decimal places (0.25, 0.05, 0.0125, 5). Every way in (an option, a rules
  file, an archive, a database) goes through ``chip_value``. SQLite stores it as REAL; a value
  this short (at most 11 significant digits) comes back exactly through ``repr``.
* An amount of chips typed or read (a buy-in, a cash-out, points) is a whole number from 1 to
  ``MAX_CHIPS``: a billion. Even a billion such amounts sum well inside SQLite's 64-bit integers.
* Money is shown and carried in JSON to the cent, as a decimal string ("12.50").

Pure functions only.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

from pancli.core.errors import InputError
from pancli.core.ledger import MAX_CHIPS  # noqa: F401  (the bound on chips, kept where chips are)
from pancli.core.words import MINUS

MAX_CHIP_VALUE = Decimal(1_000_000)
CHIP_VALUE_PLACES = 4
CENT = Decimal("0.01")


def chip_value(value: object, where: str = "--chip-value") -> Decimal:
    """A chip value as an exact Decimal, or InputError in one line."""
    hint = f"give an amount above 0 and at most {MAX_CHIP_VALUE:,}, e.g. 0.25"
    if isinstance(value, bool) or value is None:
        raise InputError(f"{where} {value!r} is not an amount of money", hint)
    try:
        d = Decimal(repr(value)) if isinstance(value, float) else Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise InputError(f"{where} {str(value)[:40]!r} is not an amount of money", hint) from None
    if not d.is_finite() or d <= 0 or d > MAX_CHIP_VALUE:
        raise InputError(f"{where} {str(value)[:40]} is not an amount of money", hint)
    places = Decimal(1).scaleb(-CHIP_VALUE_PLACES)
    if d.quantize(places) != d:
        raise InputError(f"{where} {str(value)[:40]} has more than {CHIP_VALUE_PLACES} decimal places", hint)
    return Decimal(format(d.quantize(places).normalize(), "f"))  # 0.2500 -> 0.25, 1E+2 -> 100


def stored_chip_value(value: object) -> Decimal | None:
    """The chip value kept with a session (a REAL, or a rules knob); None when there is none."""
    if value is None or value == 0:
        return None
    return chip_value(value, "the session's chip value")


def shown_chip_value(value: object) -> Decimal | None:
    """The chip value for standings and reports: an unusable one (an older database may hold
    anything) shows no money rather than failing the report; settle-up refuses it."""
    try:
        return stored_chip_value(value)
    except InputError:
        return None


def chips(value: object, what: str = "chips") -> int:
    """A whole number of chips from 1 to MAX_CHIPS, or InputError in one line."""
    hint = f"give a whole number above 0 and at most {MAX_CHIPS:,}"
    text = str(value).strip()
    if isinstance(value, bool):
        raise InputError(f"{text} is not a number of {what}", hint)
    if isinstance(value, int):
        n = value
    else:
        try:
            n = int(text.replace("_", "x"), 10)
        except ValueError:
            raise InputError(f"{text[:40]} is not a number of {what}", hint) from None
    if n <= 0 or n > MAX_CHIPS:
        raise InputError(f"{text[:40]} is not a number of {what}", hint)
    return n


def amount(chips_: int | Decimal, value: Decimal) -> Decimal:
    """The money for a number of chips, to the cent (half to even)."""
    return (Decimal(chips_) * value).quantize(CENT, rounding=ROUND_HALF_EVEN)


def to_cents(balances: dict[str, int], value: Decimal) -> dict[str, int]:
    """Each balance in whole cents, rounded so the cents sum to what the chips sum to (zero for a
    ledger): each is rounded down, then the cents left over go one each to the largest
    remainders (ties by name)."""
    exact = {n: Decimal(b) * value * 100 for n, b in balances.items()}
    floor = {n: int(x.to_integral_value(rounding="ROUND_FLOOR")) for n, x in exact.items()}
    target = int((sum(exact.values(), Decimal(0))).to_integral_value(rounding=ROUND_HALF_EVEN))
    left = target - sum(floor.values())
    order = sorted(exact, key=lambda n: (-(exact[n] - floor[n]), n))
    for n in order[:max(left, 0)]:
        floor[n] += 1
    return floor


def cents_text(cents: int) -> str:
    """$12.50, -$3.25 (the one minus sign: pancli.core.words.MINUS)."""
    d = Decimal(abs(cents)) / 100
    return f"${d:,.2f}" if cents >= 0 else f"{MINUS}${d:,.2f}"


def cents_decimal(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(CENT)
