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
