"""Money per session in every language (issue 40): the currency is always the session's, never the
language's, written as the Unicode CLDR writes it in the reader's language: a Bulgarian session in
euros says ``1234,50 €`` and ``12 345,50 €`` (CLDR's minimumGroupingDigits 2 for bg, as for pl and
es: a four-digit amount is not grouped), a Japanese one ``￥1,235`` in whole yen. Through the one
formatter (core/numbers), `pan settle` and the settle page."""

from __future__ import annotations

import gettext
import subprocess
import sys
import warnings
from decimal import Decimal

import pytest

from pancli.core import numbers, words
from pancli.core.i18n import speaking_catalog

from helpers import Pan, child_env, every_language

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def speaking(code: str):
    return speaking_catalog(code, gettext.NullTranslations())


@pytest.mark.parametrize("code, eur4, eur5, yen, bare4, count5", [
    ("bg", "1234,50 €", "12 345,50 €", "1235 JPY", "1234,50", "12 345"),
    ("ja", "€1,234.50", "€12,345.50", "￥1,235", "1,234.50", "12,345"),
    ("es", "1234,50 €", "12.345,50 €", "1235 JPY", "1234,50", "12.345"),
    ("pl", "1234,50 €", "12 345,50 €", "1235 JPY", "1234,50", "12 345"),
    ("ru", "1 234,50 €", "12 345,50 €", "1 235 ¥", "1 234,50", "12 345"),
])
def test_each_language_writes_the_sessions_currency_as_cldr_does(code, eur4, eur5, yen, bare4, count5):
    with speaking(code):
        assert numbers.money_text(Decimal("1234.5"), "EUR") == eur4
        assert numbers.money_text(Decimal("12345.5"), "EUR") == eur5
        assert numbers.money_text(Decimal("-1234.5"), "EUR") == "-" + eur4
        assert numbers.money_text(Decimal(1235), "JPY") == yen
        assert numbers.minor_text(1235, "JPY") == yen  # the yen is its own minor unit
        assert numbers.money_text(Decimal("1234.5")) == bare4  # no currency: the amount alone
        assert numbers.number(12345) == count5
        assert words.signed_money(Decimal("1234.5"), currency="EUR") == "+" + eur4


def test_a_bulgarian_session_never_says_the_lev_nor_a_japanese_one_cents():
    with speaking("bg"):
        assert "лв" not in numbers.money_text(Decimal("12.5"), "EUR")
        assert numbers.money_text(Decimal("12.5"), "BGN") == "12,50 лв."  # only a session kept in leva
    with speaking("ja"):
        assert numbers.money_text(Decimal(1235), "JPY") == "￥1,235"
        assert numbers.chip_price(Decimal(95), "JPY") == "￥95"
        assert numbers.signed_amount(Decimal(-65), currency="JPY") == "-￥65"


def bank_night(env: dict, db, extra: str) -> None:
    for line in (f"session new fri --players Ana,Ben,Cruz {extra}", "buyin Ana 20", "buyin Ben 20", "cashout Ana 7"):
        done = subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), *line.split()], env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, (line, done.stdout, done.stderr)


@pytest.fixture(scope="module")
def locale(tmp_path_factory):
    return every_language(tmp_path_factory.mktemp("locale"))[0]


@pytest.mark.parametrize("lang, extra, said", [
    # 20 chips of 617.25 €, 13 of them: 12 345,00 € and 8024,25 €
    ("bg", "--currency EUR --chip-value 617.25", ["12 345,00 €", "8024,25 €", "617,25 €"]),
    ("es", "--currency EUR --chip-value 617.25", ["12.345,00 €", "8024,25 €", "617,25 €"]),
    # 20 chips of ￥95, 13 of them: whole yen
    ("ja", "--currency JPY --chip-value 95", ["￥1,900", "￥1,235", "￥95"]),
])
def test_pan_settle_is_in_the_sessions_currency_as_the_language_writes_it(tmp_path, locale, lang, extra, said):
    env = {**child_env(), "PANCLI_LOCALE_DIR": str(locale), "PANCLI_LANG": lang}
    db = tmp_path / "p.db"
    bank_night(env, db, extra)
    out = subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), "settle"], env=env,
                         capture_output=True, text=True, check=True).stdout
    for text in said:
        assert text in out, (text, out)
    assert "лв" not in out and "$" not in out and "BGN" not in out
    assert ".00" not in out if lang == "ja" else True


def test_the_settle_page_is_in_the_sessions_currency_in_bulgarian(tmp_path, locale, monkeypatch):
    from pancli.web.app import create_app

    db = tmp_path / "p.db"
    pan = Pan(db)
    for line in ("session new fri --players Ana,Ben,Cruz --currency EUR --chip-value 617.25",
                 "buyin Ana 20", "buyin Ben 20", "cashout Ana 7"):
        pan(line)
    monkeypatch.setenv("PANCLI_LOCALE_DIR", str(locale))
    with TestClient(create_app(db, "t")) as c:
        page = c.get("/settle", params={"token": "t", "lang": "bg"}).text
        yen = c.get("/settle", params={"token": "t", "lang": "ja"}).text
    assert '<html lang="bg">' in page and "12 345,00 €" in page and "8024,25 €" in page and "лв" not in page
    assert '<html lang="ja">' in yen and "€12,345.00" in yen
