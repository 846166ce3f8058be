"""The Panguingue engine in Polish and Russian: rulings, conditions, event lines and errors read
from the shipped catalogs (pancli/locale), while what is stored stays English."""

import re
import shlex
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pancli.cli import app
from pancli.core.i18n import ENGLISH, use_catalog
from pancli.games.panguingue import conditions, reasons
from pancli.games.panguingue.game import Panguingue
from pancli.games.panguingue.rules import DEFAULTS
from pancli.games.panguingue.rulings import judge, judge_addition
from pancli.storage.catalogs import speaking

LOCALE = Path(__file__).resolve().parent.parent / "pancli" / "locale"
runner = CliRunner()


def pan(db, line: str, lang: str = "en", code: int = 0) -> str:
    args = (["--lang", lang] if lang != "en" else []) + ["--db", str(db), *shlex.split(line)]
    result = runner.invoke(app, args, env={"PANCLI_LOCALE_DIR": str(LOCALE)})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == code, f"`pan {line}` ({lang}) exited {result.exit_code}: {result.output}"
    return result.output


@pytest.fixture
def night(tmp_path):
    db = tmp_path / "pan.db"
    pan(db, "session new fri --players Ana,Ben,Cruz")
    return db


@pytest.fixture(autouse=True)
def shipped_catalogs(monkeypatch):
    """The shipped catalogs, and English again after each test: a command run with --lang leaves
    its language in force in this process, where the next test would read it."""
    monkeypatch.setenv("PANCLI_LOCALE_DIR", str(LOCALE))
    use_catalog(ENGLISH, None)
    yield
    use_catalog(ENGLISH, None)


def test_check_says_the_condition_in_each_language(tmp_path):
    db = tmp_path / "pan.db"
    assert "one-suit valle set in spades" in pan(db, "check 5S 5S 5S")
    assert "jednokolorowy komplet valle w pikach" in pan(db, "check 5S 5S 5S", "pl")
    assert "одномастный комплект валле в пиках" in pan(db, "check 5S 5S 5S", "ru")
    # one whole message per suit: the suit is declined, never glued
    assert "sekwens A-2-3 w kierach" in pan(db, "check AH 2H 3H", "pl")
    assert "секвенция A-2-3 в червах" in pan(db, "check AH 2H 3H", "ru")


def test_an_illegal_meld_is_refused_in_polish_and_russian(tmp_path):
    db = tmp_path / "pan.db"
    assert "4♥ 5♥ 7♥ to nie sekwens w kierach: 5 i 7 nie sąsiadują" in pan(db, "check 4H 5H 7H", "pl", code=1)
    assert "4♥ 5♥ 7♥ — не секвенция в червах: 5 и 7 не соседи" in pan(db, "check 4H 5H 7H", "ru", code=1)


def test_a_night_recorded_in_polish_reads_in_polish_and_stores_english(night, tmp_path):
    said = pan(night, "deal", "pl")
    assert "Rozdanie 1: rozdaje Ana, zaczyna Ben." in said
    assert "Cruz pasuje i kładzie 2 żetony na górę." in pan(night, "drop cruz", "pl")
    out = pan(night, "meld ana 5S 5S 5S", "pl")
    assert "jako układ 1: jednokolorowy komplet valle w pikach, po 4 od każdego płacącego" in out
    refused = pan(night, "drop ben", "pl", code=1)
    assert "Ben nie może pasować: gra się zaczęła" in refused and "Traceback" not in refused
    # the same night typed in English stores the very same reasons: they are English data
    english = tmp_path / "en.db"
    pan(english, "session new fri --players Ana,Ben,Cruz")
    for line in ("deal", "drop cruz", "meld ana 5S 5S 5S"):
        pan(english, line)

    def stored(db):
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT payer, payee, chips, reason, code, params FROM payments ORDER BY id").fetchall()

    assert stored(night) == stored(english)
    assert ("Ben", "Ana", 4, "5♠ 5♠ 5♠, one-suit valle set in spades", "condition",
            '{"cards":["5S","5S","5S"],"meld":1,"tag":"valle_suited"}') in stored(night)


def test_russian_plurals_of_chips(night):
    pan(night, "deal", "ru")
    assert "Cruz пасует и кладёт 2 фишки на верхушки." in pan(night, "drop cruz", "ru")
    pan(night, "meld ana 5S 5S 5S", "ru")
    pan(night, "add ana 5S", "ru")
    out = pan(night, "foul ana --meld 1", "ru")
    assert "Комбинация 1 игрока Ana запрещённая" in out and "возвращает 6 фишек." in out


def test_history_of_an_english_night_in_both_languages(night):
    for line in ("deal", "drop cruz", "meld ana 5S 5S 5S"):
        pan(night, line)
    english = pan(night, "history")
    assert "Ana deals hand 1" in english and "Ana melds 5♠ 5♠ 5♠" in english
    assert "rozdanie 1: rozdaje Ana" in pan(night, "history", "pl")
    russian = pan(night, "history", "ru")
    assert "сдача 1: сдаёт Ana" in russian and "Cruz пасует" in russian and "Ana выкладывает 5♠ 5♠ 5♠" in russian


def test_rulings_are_kept_per_language():
    # the rulings are cached: a phone reading Russian must not get the English one said before
    english = judge(("4H", "5H", "7H"), DEFAULTS).reason
    with speaking("ru"):
        russian = judge(("4H", "5H", "7H"), DEFAULTS).reason
        added = judge_addition(("5S", "5S", "5S"), conditions.VALLE_SUITED, ("5S",), DEFAULTS).reason
    assert english.startswith("4♥ 5♥ 7♥ is not a rope in hearts")
    assert russian.startswith("4♥ 5♥ 7♥ — не секвенция в червах")
    assert added == "5♠ добавлено: одномастный комплект валле в пиках: по 2 с каждого плательщика"
    assert judge(("4H", "5H", "7H"), DEFAULTS).reason == english


def test_payment_reasons_are_shown_in_the_language_and_stored_in_english():
    params = {"meld": 1, "tag": "valle_suited", "cards": ["5S", "5S", "5S"]}
    pay = reasons.payment("Ben", "Ana", 4, "condition", params)
    with speaking("pl"):
        assert pay.reason == "5♠ 5♠ 5♠, one-suit valle set in spades"
        assert Panguingue().payment_words("condition", params) == "5♠ 5♠ 5♠, jednokolorowy komplet valle w pikach"
        assert Panguingue().payment_words("no such code", {}) is None
    assert Panguingue().payment_words("drop", {}) == "drops (goes on top)"


# What a Polish or Russian table says of a payment, its receiver a name that needs no case ending
# ("Kasia dostaje po 4 od: Łukasz, Yuki"), never after a verb that would decline it ("płaci Kasia").
SEATS = ["Łukasz", "Kasia", "Dima", "Yuki"]
NAME = "|".join(SEATS)
NAMES = rf"(?:{NAME}|\(góra\)|\(верхушки\))(?:, (?:{NAME}))*"
RECEIVES = {"pl": rf"(?:(?:{NAME}) dostaje|na górę idzie|dla kasyna) (?:po )?\S+(?: \(\d+ żeton\w*\))? od: {NAMES}(?:;| —) .+",
            "ru": rf"(?:(?:{NAME}) получает|на верхушки идёт|заведению идёт) (?:по )?\S+(?: \(\d+ фиш\w*\))? от: {NAMES}(?:;| —) .+"}


def test_every_payment_of_an_english_night_names_its_receiver_where_no_case_is_needed(tmp_path):
    db = tmp_path / "pan.db"
    pan(db, "session new friday --players Łukasz,Kasia,Dima,Yuki --dealer Yuki --chip-value 0.5")
    for line in ["deal", "drop dima", "meld kasia 5S 5S 5S", "add kasia 5S", "meld łukasz JH QH KH",
                 "meld kasia 2C 3C 4C 5C", "out kasia 6D 6H 6C", "deal", "meld yuki 3H 3H 3H"]:
        pan(db, line)
    for lang in ("pl", "ru"):
        history = [line.strip() for line in pan(db, "history", lang).splitlines() if line.startswith("        ")]
        settled = pan(db, "settle", lang).replace("\n    ", " ").splitlines()
        start = next(i for i, line in enumerate(settled) if line[:1].isdigit() and line.rstrip().endswith(":"))
        paid = [line for line in settled[start + 1:]]
        paid = paid[:next((i for i, line in enumerate(paid) if not line.startswith("  ")), len(paid))]
        payments = history + [line.strip() for line in paid]
        assert len(payments) >= 10, payments
        for line in payments:
            assert re.fullmatch(RECEIVES[lang], line), (lang, line)
        # and no verb in the past agrees with a name ("Kasia wyszedł", "Olga спасовал")
        past = {"pl": r"\w+(?:ł|ła|łby|łaby)", "ru": r"\w+(?:л|ла)"}[lang]
        for command in ("history", "standings", "report", "settle", "board"):
            said = pan(db, command, lang)
            assert not re.search(rf"\b(?:{NAME})\s+(?:już\s+|уже\s+)?{past}\b", said), (lang, command, said)
