"""A session's currency and house language: refused in one line when unknown, a chip value in
whole minor units of the currency, settle-up in them, kept by the database, archives and sync."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from pancli.core.errors import InputError
from pancli.core.money import chip_value, chip_value_in, currency, minor_places, to_cents
from pancli.core.settle import settle

from helpers import Pan, history_digest, run_sql, sql_value

FIXTURES = Path(__file__).parent / "fixtures"


def one_line_error(result) -> str:
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


# -- the codes -------------------------------------------------------------------------------

@pytest.mark.parametrize("typed, code", [("PLN", "PLN"), ("rub", "RUB"), (" eur ", "EUR"), ("JPY", "JPY")])
def test_a_currency_is_an_iso_4217_code(typed, code):
    assert currency(typed) == code


@pytest.mark.parametrize("typed", ["ZZZ", "XAU", "XXX", "XTS", "PL", "PLNN", "zł", "", "12€", "ЕВР", None, 5])
def test_anything_else_is_refused(typed):
    with pytest.raises(InputError, match="is not a currency code"):
        currency(typed)


def test_minor_units_are_cldrs():
    assert (minor_places("PLN"), minor_places("RUB"), minor_places("JPY"), minor_places("KWD")) == (2, 2, 0, 3)
    assert minor_places(None) == 2  # cents, as without a currency


@pytest.mark.parametrize("value, code", [("0.5", "JPY"), ("0.125", "PLN"), ("0.001", "RUB"), ("0.0005", "KWD")])
def test_a_fraction_of_the_smallest_unit_is_refused(value, code):
    with pytest.raises(InputError, match=f"is not a whole number of {code}'s smallest unit"):
        chip_value_in(chip_value(value), code)


@pytest.mark.parametrize("value, code", [("1", "JPY"), ("0.05", "PLN"), ("0.125", "KWD"), ("0.125", None)])
def test_whole_minor_units_are_kept(value, code):
    assert chip_value_in(chip_value(value), code) == Decimal(value)


@st.composite
def nights(draw):
    names = draw(st.lists(st.sampled_from("ABCDEFGH"), min_size=2, max_size=8, unique=True))
    nets = draw(st.lists(st.integers(-10**6, 10**6), min_size=len(names) - 1, max_size=len(names) - 1))
    return dict(zip(names, nets + [-sum(nets)]))


@settings(max_examples=300, deadline=None)
@given(nights(), st.sampled_from(["JPY", "PLN", "RUB", "KWD", "HUF", "EUR", None]), st.integers(1, 10**6),
       st.integers(0, 4))
def test_the_zero_sum_holds_in_minor_units_for_any_currencys_digits(nets, code, units, shift):
    """A chip worth a whole number of minor units: every balance is exact in them, the rounded
    balances still sum to zero and the payments square everyone."""
    value = Decimal(units).scaleb(-minor_places(code) + shift if shift <= minor_places(code) else 0)
    value = chip_value(format(value, "f")) if value <= 1_000_000 else Decimal(1)
    value = chip_value_in(value, code)
    minor = to_cents(nets, value, code)
    assert sum(minor.values()) == 0
    scale = Decimal(1).scaleb(minor_places(code))
    assert all(Decimal(minor[n]) == Decimal(b) * value * scale for n, b in nets.items())  # nothing rounded
    s = settle(nets, None, value, currency=code)
    assert s.square() and s.currency == code
    assert all(isinstance(t.chips, int) for t in s.transfers)


# -- pan session new --------------------------------------------------------------------------

@pytest.mark.parametrize("args, said", [
    ("--currency ZZZ", "Error: --currency ZZZ is not a currency code: give an ISO 4217 code such as PLN, "
                       "RUB, EUR or USD"),
    ("--currency JPY --chip-value 0.5", "Error: --chip-value 0.5 is not a whole number of JPY's smallest "
                                        "unit: JPY has no smaller unit: give a whole number, e.g. 1"),
    ("--currency PLN --chip-value 0.125", "Error: --chip-value 0.125 is not a whole number of PLN's smallest "
                                          "unit: PLN has 2 decimal places: give e.g. 0.12"),
    ("--house-language de", "Error: --house-language de is not a language pancli speaks: give one of {known}"),
])
def test_session_new_refuses_in_one_line_and_creates_nothing(tmp_path, args, said):
    from pancli.storage.catalogs import available

    said = said.replace("{known}", ", ".join(available()))
    pan = Pan(tmp_path / "p.db")
    result = pan(f"session new fri --players Ana,Ben {args}", code=2)
    assert one_line_error(result) == said
    assert not (tmp_path / "p.db").exists()


def test_a_session_keeps_its_currency_and_house_language(tmp_path):
    pan = Pan(tmp_path / "p.db")
    pan("session new fri --players Ana,Ben,Cruz --currency pln --chip-value 0.05 --house-language PL")
    assert sql_value(pan.db, "SELECT currency || ' ' || language FROM sessions") == "PLN pl"
    pan("session new sat --players Ana,Ben")
    assert sql_value(pan.db, "SELECT count(*) FROM sessions WHERE name = 'sat' AND currency IS NULL "
                             "AND language IS NULL") == 1


def bank_night(pan: Pan, extra: str) -> None:
    pan(f"session new fri --players Ana,Ben,Cruz {extra}")
    for line in ("buyin Ana 20", "buyin Ben 20", "cashout Ana 7"):
        pan(line)


def test_settle_up_is_in_the_sessions_currency(tmp_path):
    pan = Pan(tmp_path / "p.db")
    bank_night(pan, "--currency PLN --chip-value 0.05")
    out = pan("settle").output
    assert "Settle-up · fri · PLN0.05 a chip" in out and "receives PLN0.65" in out and "$" not in out
    data = pan.json("settle")
    assert data["currency"] == "PLN" and [t["money"] for t in data["transfers"]] == ["1.00", "0.65"]
    yen = Pan(tmp_path / "y.db")
    bank_night(yen, "--currency JPY --chip-value 5")
    data = yen.json("settle")
    assert [t["money"] for t in data["transfers"]] == ["100", "65"]  # whole yen, no .00
    assert "receives ¥65" in yen("settle").output
    assert yen.json("standings")["currency"] == "JPY"


def test_without_a_currency_settle_up_is_as_it_was(tmp_path):
    pan = Pan(tmp_path / "p.db")
    bank_night(pan, "--chip-value 0.05")
    assert "Settle-up · fri · $0.05 a chip" in pan("settle").output
    assert "currency" not in pan.json("settle") and "currency" not in pan.json("standings")


def test_a_typed_chip_value_is_refused_in_a_fraction_of_the_currencys_unit(tmp_path):
    pan = Pan(tmp_path / "p.db")
    bank_night(pan, "--currency JPY --chip-value 5")
    assert "is not a whole number of JPY's smallest unit" in one_line_error(pan("settle --chip-value 0.5", code=2))


# -- archives and sync -----------------------------------------------------------------------

def test_an_archive_carries_them_only_when_set_and_imports_with_the_same_fingerprint(tmp_path):
    pan = Pan(tmp_path / "a.db")
    bank_night(pan, "--currency PLN --chip-value 0.05 --house-language ru")
    pan("session new plain --players Ana,Ben --chip-value 0.25")
    pan("buyin Ana 5")
    for name in ("fri", "plain"):
        for fmt in ("toml", "json"):
            out = tmp_path / f"{name}.{fmt}"
            pan(f"export {name} --format {fmt} -o {out}")
            text = out.read_text(encoding="utf-8")
            if name == "fri":
                assert ('currency = "PLN"' in text and 'language = "ru"' in text) if fmt == "toml" else \
                    (json.loads(text)["session"]["currency"] == "PLN" and json.loads(text)["session"]["language"] == "ru")
            else:
                assert "currency" not in text and "language" not in text
            other = Pan(tmp_path / f"{name}-{fmt}.db")
            other(f"import {out}")
            held = sql_value(other.db, f"SELECT coalesce(currency, '-') || coalesce(language, '-') FROM sessions "
                                       f"WHERE name = '{name}'")
            assert held == ("PLNru" if name == "fri" else "--")
            assert "present" in other(f"import {out} --json").output  # the same fingerprint: already there
            assert "integrity check passed" in other("db check").output


def test_an_archive_whose_currency_is_unsound_is_refused(tmp_path):
    pan = Pan(tmp_path / "a.db")
    bank_night(pan, "--currency PLN --chip-value 0.05")
    out = tmp_path / "fri.toml"
    pan(f"export fri -o {out}")
    text = out.read_text(encoding="utf-8")
    for wrong, said in (('currency = "ZZZ"', "is not a currency code"), ('currency = "pln"', "as pancli writes it"),
                        ('currency = "JPY"', "is not a whole number of JPY's smallest unit")):
        bad = tmp_path / "bad.toml"
        bad.write_text(text.replace('currency = "PLN"', wrong), encoding="utf-8")
        other = Pan(tmp_path / "other.db")
        assert said in one_line_error(other(f"import {bad}", code=2))
    bad.write_text(text.replace('currency = "PLN"', 'currency = "PLN"\nlanguage = "xx"'), encoding="utf-8")
    assert "is not a language pancli speaks" in one_line_error(Pan(tmp_path / "o2.db")(f"import {bad}", code=2))


def test_sync_brings_them_in_and_reports_a_contradiction(tmp_path):
    ana, ben, shared = Pan(tmp_path / "ana.db"), Pan(tmp_path / "ben.db"), tmp_path / "shared"
    bank_night(ana, "--currency RUB --chip-value 1 --house-language ru")
    ana(f"sync {shared} --create --device-name ana-laptop")
    ben(f"sync {shared} --device-name ben-laptop")
    assert sql_value(ben.db, "SELECT currency || language FROM sessions WHERE name = 'fri'") == "RUBru"
    # ana's copy says another currency (an edit of her database): ben's sync refuses it, and says so
    run_sql(ana.db, "UPDATE sessions SET currency = 'EUR'")
    ana("buyin Cruz 1")
    ana(f"sync {shared}")
    out = ben(f"sync {shared}", code=1).output
    assert "the copies differ in\n  the currency" in out or "the copies differ in the currency" in out
    assert "Here, the currency: RUB." in out and "In ana-laptop's copy, the currency: EUR." in out
    assert sql_value(ben.db, "SELECT currency FROM sessions WHERE name = 'fri'") == "RUB"
    assert sql_value(ben.db, "SELECT count(*) FROM events e JOIN sessions s ON s.id = e.session_id "
                             "WHERE s.name = 'fri'") == 3


# -- old data --------------------------------------------------------------------------------

@pytest.mark.parametrize("fixture", ["v0_1/pancli.db", "v0_2/ana.db", "main_9347d07/pancli.db"])
def test_old_databases_gain_the_columns_empty_and_keep_their_history(tmp_path, fixture):
    db = tmp_path / "old.db"
    shutil.copy(FIXTURES / fixture, db)
    before = history_digest(db)
    pan = Pan(db)
    assert "integrity check passed" in pan("db check").output
    assert sql_value(db, "SELECT count(*) FROM sessions WHERE currency IS NOT NULL OR language IS NOT NULL") == 0
    assert sql_value(db, "SELECT count(*) FROM _sqlite_migrations WHERE name = 'm012_session_currency_language'") == 1
    if fixture.startswith("main"):  # a database at the schema before this step: only the empty columns differ
        assert history_digest(db) == before


def test_money_is_said_in_the_sessions_currency_wherever_it_shows(tmp_path):
    pan = Pan(tmp_path / "p.db")
    bank_night(pan, "--currency PLN --chip-value 0.05 --house-language pl")
    for line in ("--lang pl standings", "--lang pl report", "--lang pl player Ana", "--lang pl settle"):
        assert " zł" in pan(line).output, line
    assert "PLN" in pan("standings").output  # English writes the code, as CLDR does
    shown = pan("--lang pl session show").output
    assert "Wartość żetonu: 0,05 zł" in shown and "(PLN)" in shown and "Polski" in shown
    data = pan.json("session show")
    assert data["currency"] == "PLN" and data["language"] == "pl"


def test_a_career_adds_money_up_only_within_one_currency(tmp_path):
    pan = Pan(tmp_path / "p.db")
    bank_night(pan, "--currency PLN --chip-value 0.05")
    one = pan.json("player Ana")
    assert one["currency"] == "PLN" and one["money"] is not None
    pan("session new sat --players Ana,Ben --currency USD --chip-value 1")
    pan("buyin Ana 3")
    both = pan.json("player Ana")
    assert both["money"] is None and both["currency"] is None  # no total of złoty and dollars
    assert {n["currency"] for n in both["nights"]} == {"PLN", "USD"}


def test_the_dealers_tonight_box_says_the_money_in_the_sessions_currency(tmp_path):
    from pancli.app.actions import dealer_table
    from pancli.storage.catalogs import speaking
    from pancli.storage.store import Store

    pan = Pan(tmp_path / "p.db")
    pan("session new fri --players Ana,Ben,Cruz --dealer Cruz --currency PLN --chip-value 0.50")
    pan("deal")
    pan("drop Ana")
    store = Store(pan.db, create=False)
    try:
        with speaking("pl"):
            rows = {r["name"]: r for r in dealer_table(store, None)["standings"]}
    finally:
        store.close()
    assert rows["Ana"]["chips"] < 0 and rows["Ana"]["money"].endswith(" zł") and rows["Ana"]["money"].startswith("-")
    plain = Pan(tmp_path / "q.db")
    plain("session new sat --players Ana,Ben")
    store = Store(plain.db, create=False)
    try:
        assert all(r["money"] is None for r in dealer_table(store, None)["standings"])  # no chip value: chips alone
    finally:
        store.close()
