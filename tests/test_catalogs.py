"""The catalogs are current with the code, valid and complete: every message extracted from the
code, the pages, the scripts and the help is in the template, each language holds exactly those
messages, every one translated (no fuzzy guess), its placeholders the same as the English, its
plurals in the language's number of forms, and the compiled .mo made from its .po."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import catalog_tool

ROOT = Path(__file__).resolve().parent.parent


def test_the_catalogs_are_current_valid_complete_and_compiled(capsys):
    code = catalog_tool().main(["check"])
    out = capsys.readouterr().out
    assert code == 0, out


def test_polish_and_russian_are_shipped():
    assert catalog_tool().languages() == ["pl", "ru"]


@pytest.mark.parametrize("msgid, msgstr, problem", [
    ("{player} stays", "{gracz} gra", "placeholders"),
    ("{n} chip", "", "untranslated"),
])
def test_the_check_finds_a_broken_translation(msgid, msgstr, problem):
    from babel.messages.catalog import Catalog

    c = catalog_tool()
    catalog = Catalog(locale="pl", domain="pancli")
    catalog.add(msgid, msgstr)
    assert any(problem in p for p in c.problems(catalog))


def test_the_check_finds_a_plural_with_too_few_forms():
    from babel.messages.catalog import Catalog

    c = catalog_tool()
    catalog = Catalog(locale="ru", domain="pancli")
    catalog.add(("{n} chip", "{n} chips"), ("{n} фишка", "{n} фишки"))
    assert any("plural forms" in p for p in c.problems(catalog))
