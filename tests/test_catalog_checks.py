"""`scripts/catalogs.py check` over every catalog found in pancli/locale (bg, ja and es too once
they are there): each one's Plural-Forms is the Unicode CLDR's for its language as Babel gives it
(ja one form, bg two, es three), and its translations keep the card codes, the commands quoted in
backticks and the options exactly as the English writes them: they are what a player types."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from helpers import catalog_tool

TOOL = catalog_tool()
LOCALE = Path(__file__).resolve().parent.parent / "pancli" / "locale"


@pytest.mark.parametrize("lang", TOOL.languages())
def test_every_catalogs_plural_forms_are_cldrs(lang):
    assert TOOL.plural_header(TOOL.po_path(lang), lang) == []


@pytest.mark.parametrize("lang", TOOL.languages())
def test_every_catalog_keeps_card_codes_commands_and_options(lang):
    catalog = TOOL._read_po(TOOL.po_path(lang), lang)
    broken = [p for p in TOOL.problems(catalog) if "card codes" in p or "commands" in p or "options" in p]
    assert broken == []


@pytest.mark.parametrize("lang, forms", [("ja", 1), ("bg", 2), ("es", 3), ("pl", 3), ("ru", 3)])
def test_cldr_gives_each_language_its_number_of_forms(lang, forms):
    assert Catalog(locale=lang).num_plurals == forms


def po_with_header(tmp_path, lang: str, plural: str | None) -> Path:
    path = tmp_path / f"{lang}.po"
    header = f'"Plural-Forms: {plural}\\n"\n' if plural else ""
    path.write_text(f'msgid ""\nmsgstr ""\n"Project-Id-Version: pancli\\n"\n{header}"Content-Type: text/plain; '
                    f'charset=utf-8\\n"\n\nmsgid "x"\nmsgstr "y"\n', encoding="utf-8")
    return path


def test_the_check_finds_a_plural_header_that_is_not_cldrs(tmp_path):
    assert TOOL.plural_header(po_with_header(tmp_path, "ja", "nplurals=1; plural=0;"), "ja") == []
    # the header written across lines, as write_po wraps it
    long = Catalog(locale="ru").plural_forms
    wrapped = po_with_header(tmp_path, "ru", long[:40] + '"\n"' + long[40:])
    assert TOOL.plural_header(wrapped, "ru") == []
    wrong = TOOL.plural_header(po_with_header(tmp_path, "ja", "nplurals=2; plural=(n != 1);"), "ja")
    assert len(wrong) == 1 and "nplurals=1; plural=0" in wrong[0]
    assert "no Plural-Forms" in TOOL.plural_header(po_with_header(tmp_path, "bg", None), "bg")[0]


@pytest.mark.parametrize("msgid, msgstr, problem", [
    ("meld {player} 5S 5S 5S", "{player} 5С 5С 5С を出す", "card codes"),  # Cyrillic С for S
    ("the 10D is wild", "la 10d es comodín", "card codes"),
    ("Try `pan meld {player} 5S 5S 5S`.", "Опитайте `пан мелд {player} 5S 5S 5S`.", "commands"),
    ("Record it with `pan polish lost {player}`.", "Запишите это: `pan польский проиграл {player}`.", "commands"),
    ("choose one with --lang", "wybierz jeden przez --język", "options"),
])
def test_the_check_finds_a_typed_word_translated(msgid, msgstr, problem):
    catalog = Catalog(locale="bg", domain="pancli")
    catalog.add(msgid, msgstr)
    assert any(problem in p for p in TOOL.problems(catalog)), TOOL.problems(catalog)


@pytest.mark.parametrize("msgid, msgstr", [
    ("meld {player} 5S 5S 5S", "{player}：5S 5S 5Sを出す"),  # a code inside Japanese text, kept
    ("Try `pan meld {player} 5S 5S 5S`.", "試してください：`pan meld {player} 5S 5S 5S`。"),
    ("choose one with --lang", "elija uno con --lang"),
])
def test_the_check_passes_typed_words_kept(msgid, msgstr):
    catalog = Catalog(locale="ja", domain="pancli")
    catalog.add(msgid, msgstr)
    problems = [p for p in TOOL.problems(catalog) if "card codes" in p or "commands" in p or "options" in p]
    assert problems == []
