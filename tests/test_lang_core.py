"""Core and storage in Polish and Russian, from pancli's shipped catalogs (pancli/locale): the
settle-up's sentences with each language's three plural forms, the bank's and undo's lines, the
refusals of names, rules and the database, and the knobs' descriptions (keys never translated).
English stays the messages themselves."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from pancli.cli import app
from pancli.core import numbers, settle as stl
from pancli.core.errors import InputError
from pancli.core.names import check_new_player, clean_name
from pancli.games import GAMES, game
from pancli.storage import catalogs

runner = CliRunner()


@pytest.fixture(autouse=True)
def english_after():
    """A command run in-process leaves its language in force: each test ends in English."""
    yield
    catalogs.use_language("en")


def pan(db, *args: str, lang: str | None = None, code: int = 0):
    result = runner.invoke(app, [*(["--lang", lang] if lang else []), "--db", str(db), *args])
    assert result.exit_code == code, result.output
    return result


def test_the_catalogs_are_shipped():
    for lang in ("pl", "ru"):
        assert lang in catalogs.available()
        assert catalogs.catalog(lang) is not None


# -- plurals: one, few, many -----------------------------------------------------------------

@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["+1 chip", "+3 chips", "-5 chips", "+22 chips", "0 chips"]),
    ("pl", ["+1 żeton", "+3 żetony", "-5 żetonów", "+22 żetony", "0 żetonów"]),
    ("ru", ["+1 фишка", "+3 фишки", "-5 фишек", "+22 фишки", "0 фишек"]),
])
def test_signed_chips_take_the_languages_plural_forms(lang, said):
    with catalogs.speaking(lang):
        assert [stl.signed_chips(n) for n in (1, 3, -5, 22, 0)] == said


def test_twenty_one_is_one_in_russian_and_many_in_polish():
    with catalogs.speaking("ru"):
        assert stl.signed_chips(21) == "+21 фишка"
    with catalogs.speaking("pl"):
        assert stl.signed_chips(21) == "+21 żetonów"


@settings(max_examples=60, deadline=None)
@given(st.integers(-10_000, 10_000), st.sampled_from(["pl", "ru"]))
def test_every_form_of_a_settle_up_sentence_keeps_its_count(n, lang):
    """Whatever the count, each plural form is filled (no placeholder left, no KeyError) and says
    the count."""
    party = stl.Party("Ana", n, n)
    with catalogs.speaking(lang):
        for line in (stl.signed_chips(n), stl.position(party, True), stl.position(party, False),
                     stl.money(n, None)):
            assert (str(abs(n)) in line or numbers.number(abs(n)) in line) and "{" not in line and "chip" not in line


# -- settle-up ---------------------------------------------------------------------------------

def _banked():
    return stl.settle({"Ana": 8, "Ben": -3, "Cruz": -5}, {"Ana": {"buyin": 20}, "Ben": {"buyin": 1},
                                                          "Cruz": {"buyin": 5, "cashout": 0}},
                      Decimal("0.25"), ["Ana", "Ben", "Cruz"])


def test_settle_up_in_english_is_unchanged():
    s = _banked()
    with catalogs.speaking("en"):
        assert stl.mode_line(s).startswith("Bank mode: chips were bought at the bank")
        assert stl.bank_line(s) == "The bank sold 26 chips, so it pays back $6.50 (26 chips)."
        assert [stl.transfer_line(t, s) for t in s.transfers][0] == \
            "The bank pays Ana $6.50 (26 chips) — the bank owes 26 chips back, Ana holds 28 chips"
        assert stl.to_json(s)["parties"][1]["line"] == \
            "Ben bought 1 chip, lost 3 in play and holds -2: Ben pays $0.50."


def test_settle_up_in_polish():
    s = _banked()
    with catalogs.speaking("pl"):
        assert stl.bank_line(s) == "Bank sprzedał 26 żetonów, więc oddaje 6,50 (26 żetonów)."
        line = stl.transfer_line(s.transfers[0], s)
        # the receiver first, the payer after a colon: no name needs a case ending
        assert line == "Ana dostaje 6,50 (26 żetonów) od: bank — bank musi oddać 26 żetonów, Ana ma 28 żetonów"
        assert stl.transfer_line(s.transfers[1], s) == \
            "Ana dostaje 0,50 (2 żetony) od: Ben — Ben: brakuje 2 żetonów, Ana ma 28 żetonów"
        assert stl.settles(s.parties[1], s) == "płaci 0,50"
        assert stl.mode_line(s).startswith("Tryb banku:")


def test_settle_up_in_russian():
    s = _banked()
    with catalogs.speaking("ru"):
        assert stl.bank_line(s) == "Банк продал 26 фишек, поэтому возвращает 6,50 (26 фишек)."
        line = stl.transfer_line(s.transfers[0], s)
        assert line == "Ana получает 6,50 (26 фишек) от: банк — банк должен вернуть 26 фишек, Ana: на руках 28 фишек"
        assert stl.to_json(s)["parties"][1]["line"] == "Ben: куплена 1 фишка, в игре -3, на руках -2: Ben платит 0,50."
        assert stl.party_name(stl.BANK) == "банк" and stl.party_name("Ana") == "Ana"


def test_a_night_recorded_in_english_settles_in_polish_and_russian(tmp_path):
    db = tmp_path / "pan.db"
    pan(db, "session", "new", "friday", "--players", "Ana,Ben,Cruz")
    pan(db, "buyin", "Ana", "20")
    assert pan(db, "buyin", "Ben", "3", lang="pl").output.strip() == "Ben kupuje 3 żetony."
    assert pan(db, "buyin", "Cruz", "1", lang="ru").output.strip() == "Cruz покупает 1 фишку."
    english = pan(db, "settle", "--chip-value", "0.25").output
    assert "The bank pays Ana $5.00 (20 chips)" in english
    polish = pan(db, "settle", "--chip-value", "0.25", lang="pl").output
    assert "Ana dostaje 5,00 (20 żetonów) od: bank" in polish and "Bank sprzedał 24 żetony" in polish
    russian = pan(db, "settle", "--chip-value", "0.25", lang="ru").output
    assert "Ana получает 5,00 (20 фишек) от: банк" in russian and "Банк продал 24 фишки" in russian
    assert pan(db, "undo", lang="ru").output.strip() == "Отменено #3: Cruz покупает 1 фишку"
    # the same database still reads in English: nothing stored was translated
    after = pan(db, "settle", "--chip-value", "0.25").output
    assert "The bank sold 23 chips, so it pays back $5.75 (23 chips)." in after
    data = pan(db, "settle", "--json").stdout
    assert '"mode": "bank"' in data and '"line": "The bank pays Ana' in data


# -- refusals ----------------------------------------------------------------------------------

def test_database_refusals_are_one_line_in_each_language(tmp_path):
    missing = tmp_path / "none" / "pan.db"
    for lang, words in (("pl", "brak bazy danych w"), ("ru", "нет базы данных в")):
        out = pan(missing, "settle", lang=lang, code=2).output
        assert words in out and len(out.strip().splitlines()) == 1 and "Traceback" not in out
    assert not missing.exists()
    db = tmp_path / "pan.db"
    pan(db, "session", "new", "friday", "--players", "Ana,Ben")
    out = pan(db, "session", "new", "friday", "--players", "Ana,Ben", lang="ru", code=2).output
    assert "сессия с именем 'friday' уже есть" in out and "`pan session use`" in out
    out = pan(db, "settle", "sunday", lang="pl", code=2).output
    assert "brak sesji o nazwie 'sunday'" in out and "`pan session list`" in out


def test_name_refusals_in_russian_and_polish():
    with catalogs.speaking("ru"), pytest.raises(InputError) as e:
        check_new_player("ana", ["Ana"])
    assert e.value.message == "'ana' выглядит так же, как 'Ana' (уже за столом)"
    with catalogs.speaking("pl"), pytest.raises(InputError) as e:
        clean_name("", "session")
    assert e.value.message == "nazwa sesji nie może być pusta" and e.value.hint == "wpisz nazwę"


def test_rules_refusals_keep_keys_and_values_untranslated():
    schema = game("panguingue").schema
    with catalogs.speaking("pl"), pytest.raises(InputError) as e:
        schema.from_dict({"antee": 1}, where="rules.toml: ")
    assert e.value.message == "rules.toml: nieznana zasada 'antee' (czy chodziło o 'ante'?)"
    assert "`pan rules show`" in e.value.hint
    with catalogs.speaking("ru"), pytest.raises(InputError) as e:
        schema.from_dict({"ante": 9})
    assert e.value.message == "ante = 9: значение вне допустимых пределов"
    assert e.value.hint == "ante принимает значения от 0 до 2"


# -- the knobs: descriptions translated, keys never --------------------------------------------

@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_every_knob_note_and_topic_has_its_translation(lang):
    with catalogs.speaking(lang):
        for g in GAMES:
            schema = game(g).schema
            for name, k in schema.knobs.items():
                assert k.description_text() and k.description_text() != k.help, (g, name)
                assert k.name == name
            for preset in schema.presets:
                assert schema.note_text(preset) != schema.notes[preset], (g, preset)
            for topic, _names in schema.by_topic():
                assert not topic or schema.topic_text(topic) != topic


def test_knob_words_in_english_are_the_help_itself():
    for g in GAMES:
        for k in game(g).schema.knobs.values():
            assert k.description_text() == k.help
            if k.kind not in ("cards", "money", "word"):
                assert k.allowed_words() == k.allowed_text()
    word = game("polish").schema.knobs["word"]
    assert word.allowed_words() == "1-10 letters"
    with catalogs.speaking("ru"):
        assert word.allowed_words() == "1-10 букв"
        assert word.allowed_text() == "1-10 letters"  # what JSON and rules files write


def test_payment_lines_name_the_pools_in_each_language():
    from pancli.core.ledger import HOUSE, TOPS, Payment
    from pancli.core.text import payment_lines

    pays = [Payment("Ana", TOPS, 2, None, said="drops"), Payment("Ben", TOPS, 2, None, said="drops"),
            Payment(HOUSE, "Cruz", 1, None, said="x")]
    assert payment_lines(pays) == ["Ana, Ben pay (tops) 2 each: drops", "(house) pays Cruz 1: x"]
    with catalogs.speaking("pl"):
        assert payment_lines(pays) == ["na górę idzie po 2 od: Ana, Ben; drops", "Cruz dostaje 1 od: (kasyno); x"]
    with catalogs.speaking("ru"):
        assert payment_lines(pays) == ["на верхушки идёт по 2 от: Ana, Ben; drops", "Cruz получает 1 от: (заведение); x"]


def test_game_titles_of_the_rules():
    schema = game("contract").schema
    assert schema.title_text() == "Contract rummy (five deals)" == schema.title
    with catalogs.speaking("ru"):
        assert schema.title_text() not in ("", schema.title)  # the game's own words for its name


@pytest.mark.parametrize(("length", "pl", "ru"), [(41, "41 znaków", "41 символ"), (42, "42 znaki", "42 символа"),
                                                  (45, "45 znaków", "45 символов")])
def test_a_long_name_is_refused_with_its_length_in_the_right_form(length, pl, ru):
    for lang, said in (("pl", pl), ("ru", ru)):
        with catalogs.speaking(lang), pytest.raises(InputError) as e:
            clean_name("x" * length)
        assert e.value.message.endswith(said), e.value.message
    with pytest.raises(InputError) as e:
        clean_name("x" * length)
    assert e.value.message == f"the player name '{'x' * 40}…' is {length} characters long"
