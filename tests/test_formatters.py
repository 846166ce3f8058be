"""The one signed-number formatter (pancli.core.words.signed) and the one signed-money formatter
(pancli.core.words.signed_money): what they write, and that no other module writes its own."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from hypothesis import given, strategies as st

from pancli.core.money import cents_text
from pancli.core.words import MINUS, signed, signed_money

PACKAGE = Path(__file__).resolve().parent.parent / "pancli"


@given(st.integers(min_value=-10**12, max_value=10**12).filter(bool))
def test_signed_writes_the_sign_of_every_number_but_zero(n):
    assert signed(n) == signed(n, zero="+0") == f"{n:+d}"
    assert signed(n).startswith("+" if n > 0 else MINUS)


def test_zero_is_written_as_the_place_asks():
    assert signed(0) == "0"  # a balance or a total
    assert signed(0, zero="+0") == "+0"  # a move during play
    assert signed_money(Decimal("0.00")) == "0.00"
    assert signed_money(Decimal("0.00"), zero="+0.00") == "+0.00"


@given(st.integers(min_value=-10**9, max_value=10**9).filter(bool))
def test_signed_money_is_to_the_cent(cents):
    x = (Decimal(cents) / 100).quantize(Decimal("0.01"))
    assert signed_money(x) == f"{x:+.2f}"
    assert cents_text(cents).replace("$", "").replace(",", "") == signed_money(x).lstrip("+")


# A format spec with a sign (`{n:+d}`, `{x:+.2f}`, '%+d') or a hand-made "+" before a number.
_OWN_SIGN = re.compile(r"""\{[^{}]*:\+[^{}]*\}|%\+|f["']\+\{""")


def test_no_module_writes_a_sign_of_its_own():
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in (".py", ".html", ".js") or path.name in ("words.py", "money.py"):
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _OWN_SIGN.search(line):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{i}: {line.strip()}")
    assert not found, "write signs with pancli.core.words.signed or signed_money:\n" + "\n".join(found)


@given(st.integers(min_value=-10**12, max_value=10**12), st.sampled_from(["0.00", "+0.00", "-"]))
def test_the_lean_signed_money_equals_the_language_aware_one_in_english(cents, zero):
    """words.signed_money writes English without loading core/numbers (start-up): a lean twin of
    numbers.signed_amount, held equal here."""
    from pancli.core.numbers import signed_amount

    x = Decimal(cents) / 100
    assert signed_money(x, zero) == signed_amount(x, zero)


# A dollar amount written by hand: a format spec of money ("${x:,.2f}", "$%.2f") outside core/numbers.
_OWN_MONEY = re.compile(r"""\$\{[^{}]*:[^{}]*f\}|\$%[-+,.0-9]*f""")


def test_money_is_written_by_core_numbers_alone():
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in (".py", ".html", ".js") or path.name == "numbers.py":
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _OWN_MONEY.search(line):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{i}: {line.strip()}")
    assert not found, "write money with pancli.core.numbers (money_text, chip_price):\n" + "\n".join(found)


@given(st.integers(min_value=1, max_value=10**9), st.sampled_from([None, "PLN", "JPY", "USD", "EUR"]),
       st.sampled_from(["en", "pl", "ru"]))
def test_every_face_writes_the_same_money(units, currency, lang):
    """The CLI's settle-up (cents_text), the pages' filter (amount) and core/numbers agree."""
    from pancli.core.numbers import minor_digits, money_text
    from pancli.storage.catalogs import speaking
    from pancli.web.filters import amount

    with speaking(lang):
        x = Decimal(units).scaleb(-minor_digits(currency))
        assert cents_text(units, currency) == amount(x, currency) == money_text(x, currency)
        assert cents_text(-units, currency) == amount(-x, currency)


def test_a_chip_of_an_eighth_and_a_night_over_a_thousand_read_alike_on_every_face():
    from pancli.core.numbers import chip_price
    from pancli.web.filters import amount, chip_price as page_price

    assert chip_price(Decimal("0.125")) == page_price(0.125) == "$0.125"
    assert cents_text(123450) == amount(1234.5) == "$1,234.50"


# A thousands separator written by hand ("{n:,}", f"{x:,.2f}"): English's comma in every language.
_OWN_GROUPING = re.compile(r"""\{[^{}]*:,[^{}]*\}""")


def test_large_numbers_are_grouped_by_core_numbers_alone():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "numbers.py":
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _OWN_GROUPING.search(line):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{i}: {line.strip()}")
    assert not found, "group digits with pancli.core.numbers.grouped:\n" + "\n".join(found)


def test_a_refused_count_says_its_bound_as_the_language_groups_digits(tmp_path):
    from helpers import Pan

    pan = Pan(tmp_path / "p.db")
    pan("session new fri --players Ana,Ben")
    assert "1,000,000,000" in pan("buyin Ana 0", ok=False).output
    assert "1 000 000 000" in pan("--lang pl buyin Ana 0", ok=False).output
    assert "1 000 000 000" in pan("--lang ru buyin Ana 0", ok=False).output
