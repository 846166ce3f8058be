"""Numbers, money and dates in Polish and Russian (core/numbers), English exactly as before, and
the money part's messages under `--lang pl` / `--lang ru` with the shipped catalog."""

from __future__ import annotations

import gettext
import os
import subprocess
import sys
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from pancli.cli import app
from pancli.core import numbers, words
from pancli.core.i18n import speaking_catalog
from pancli.core.money import cents_text

from helpers import Pan


def speaking(code: str):
    """``code`` in force with the messages as written: only the numbers change."""
    return speaking_catalog(code, gettext.NullTranslations())


def test_one_minus_sign():
    assert numbers.MINUS == words.MINUS == "-"


# -- English: exactly what pancli always printed, without Babel ----------------------------

@settings(max_examples=300, deadline=None)
@given(st.integers(-10**11, 10**11))
def test_english_money_is_as_it_was(cents):
    x = (Decimal(cents) / 100).quantize(Decimal("0.01"))
    assert numbers.money_text(x) == cents_text(cents) == (f"${abs(x):,.2f}" if cents >= 0 else f"-${abs(x):,.2f}")
    assert numbers.minor_text(cents) == cents_text(cents)
    assert words.signed_money(x) == (f"{x:+.2f}" if cents else "0.00")


def test_english_numbers_and_dates_are_as_they_were():
    assert [numbers.number(1234567), numbers.grouped(1_000_000), numbers.decimal_text(Decimal("0.0125"))] == \
        ["1234567", "1,000,000", "0.0125"]
    assert [words.signed(12345), words.signed(-3), words.signed(0, zero="+0")] == ["+12345", "-3", "+0"]
    assert [numbers.chip_price(Decimal("0.5")), numbers.chip_price(Decimal("0.125")),
            numbers.chip_price(Decimal(1000))] == ["$0.50", "$0.125", "$1,000.00"]
    stored = "2026-12-02T01:41:30+00:00"
    assert numbers.date_text(stored) == "2026-12-02" and numbers.datetime_text(stored) == stored


def test_english_start_up_does_not_load_babel():
    code = ("import sys; from pancli.cli import app; from pancli.core import words, numbers, money; "
            "words.signed(-3); words.signed_money(1.5); money.cents_text(1250); "
            "numbers.date_text('2026-12-02'); print(any(m.startswith('babel') for m in sys.modules))")
    env = {k: v for k, v in os.environ.items() if k not in ("PANCLI_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == "False"


# -- Polish and Russian ----------------------------------------------------------------------

@pytest.mark.parametrize("code, pln, rub, bare, signed, date, when", [
    ("pl", "12,50 zł", "-1234,50 RUB", "1234,50", "-1234,50", "2.12.2026", "2.12.2026, 01:41"),
    ("ru", "12,50 PLN", "-1 234,50 ₽", "1 234,50", "-1234,50", "02.12.2026", "02.12.2026, 01:41"),
])
def test_each_language_writes_money_and_dates_its_own_way(code, pln, rub, bare, signed, date, when):
    with speaking(code):
        assert numbers.money_text(Decimal("12.5"), "PLN") == pln
        assert numbers.money_text(Decimal("-1234.5"), "RUB") == rub
        assert numbers.money_text(Decimal("1234.5")) == bare  # no currency: the amount alone
        assert cents_text(123450) == bare and cents_text(1250, "PLN") == pln
        assert words.signed_money(Decimal("-1234.5")) == signed
        assert words.signed_money(Decimal(0), zero="+0.00") == "+0,00"
        # the session's currency is said wherever money is: a signed amount too
        assert words.signed_money(Decimal(500), currency="JPY") == "+" + numbers.money_text(Decimal(500), "JPY")
        assert words.signed_money(Decimal("-6.5"), currency="PLN") == "-" + pln.replace("12,50", "6,50")
        assert words.signed(-12345) == "-12 345"
        assert numbers.decimal_text(Decimal("0.0125")) == "0,0125"
        assert numbers.date_text("2026-12-02T01:41:30+00:00") == date
        assert numbers.datetime_text("2026-12-02T01:41:30+00:00") == when
        assert numbers.datetime_text("2026-12-02") == date
        assert numbers.date_text("not a date") == "not a date"  # shown as stored, never an error


@settings(max_examples=200, deadline=None)
@given(st.integers(-10**12, 10**12), st.sampled_from(["pl", "ru"]), st.sampled_from(["PLN", "RUB", "JPY", "KWD", None]))
def test_another_language_shows_the_same_amount(units, code, currency):
    """Whatever the language writes, it is the same number: its digits and sign survive."""
    with speaking(code):
        text = numbers.minor_text(units, currency)
    assert "\xa0" not in text and "\u202f" not in text  # plain spaces: the terminal shows them
    digits = "".join(ch for ch in text if ch.isdigit())
    assert int(digits) == abs(units) and text.startswith("-") == (units < 0)


# -- the CLI in Polish and Russian (the shipped catalog, or PANCLI_LOCALE_DIR's) ----------

def lang_pan(tmp_path, code: str):
    runner = CliRunner()

    def run(line: str, exit_code: int = 0) -> str:
        result = runner.invoke(app, ["--lang", code, "--db", str(tmp_path / "p.db"), *line.split()])
        assert result.exit_code == exit_code, result.output
        return result.output

    return run


@pytest.mark.parametrize("code, refused, started, price", [
    ("pl", "nie jest całkowitą liczbą najmniejszych jednostek JPY", "Pierwszy rozdaje Ana", "0,05 zł"),
    ("ru", "не целое число наименьших единиц JPY", "Первый сдающий: Ana", "0,05 PLN"),
])
def test_a_night_in_polish_and_russian(tmp_path, code, refused, started, price):
    pan = lang_pan(tmp_path, code)
    assert refused in pan("session new fri --players Ana,Ben,Cruz --currency JPY --chip-value 0.5", 2)
    assert started in pan("session new fri --players Ana,Ben,Cruz --currency PLN --chip-value 0.05")
    Pan(tmp_path / "p.db")("buyin Ana 20000")  # recorded in English: the database holds no words
    out = pan("settle")
    assert price in out and ("1000,00" if code == "pl" else "1 000,00") in out  # 20,000 chips at 0.05: grouped as CLDR groups (Polish not below 10 000), decimal comma, never "$"
    assert "$" not in out


def test_a_language_without_cldr_data_writes_numbers_as_english():
    with speaking("qps"):  # the pseudo-language: its messages are marked, its numbers English
        assert numbers.money_text(Decimal("1234.5")) == "$1,234.50"
        assert words.signed_money(Decimal("-3.25")) == "-3.25" and words.signed(-12345) == "-12345"
        assert numbers.date_text("2026-12-02T01:41:30+00:00") == "2026-12-02"


@pytest.mark.parametrize("typed, lang, stored", [("0,50", "pl", 0.5), ("1 000,5", "ru", 1000.5), ("0.25", "pl", 0.25),
                                                 ("0.25", "en", 0.25)])
def test_a_chip_value_is_read_as_the_language_writes_it(tmp_path, typed, lang, stored):
    from helpers import sql_value

    db = tmp_path / "pan.db"
    Pan(db)(f"--lang {lang} session new s --players Ana,Ben --chip-value '{typed}'")
    assert sql_value(db, "SELECT chip_value FROM sessions") == stored


def test_english_takes_no_decimal_comma(tmp_path):
    out = Pan(tmp_path / "pan.db")("session new s --players Ana,Ben --chip-value 0,50", code=2).output
    assert "--chip-value '0,50' is not an amount of money" in out
