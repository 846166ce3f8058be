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
    assert {"pl", "ru"} <= set(catalog_tool().languages())


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


@pytest.mark.parametrize("lang, msgid, msgstr", [
    ("pl", "{payer} pays {payee} {chips}: {reason}", "{payer} płaci {payee} {chips}: {reason}"),
    ("pl", "did you mean {player}? ({players})", "czy chodzi o {player}? ({players})"),
    ("ru", "{player} takes a seat after {after}", "{player} садится после {after}"),
    ("ru", "{payers} pay {payee} {chips} each: {reason}", "{payers} платят {payee} по {chips}: {reason}"),
])
def test_the_check_finds_a_name_where_the_language_would_decline_it(lang, msgid, msgstr):
    """"Yuki płaci Kasia 6,50 zł": Kasia would be "Kasi" there. A name of these messages stays at
    the start or after a colon ("Kasia dostaje 6,50 zł od: Yuki"), so no name is ever declined."""
    from babel.messages.catalog import Catalog

    c = catalog_tool()
    catalog = Catalog(locale=lang, domain="pancli")
    catalog.add(msgid, msgstr)
    assert any("would be declined" in p for p in c.problems(catalog))
    good = Catalog(locale=lang, domain="pancli")
    good.add(msgid, {m.id: m.string for m in c._read_po(c.po_path(lang))}[msgid])  # as shipped
    assert not any("would be declined" in p for p in c.problems(good))


def test_every_message_that_names_a_person_in_a_declined_slot_is_in_the_catalog():
    """The list of messages the check holds names real messages (a message reworded in English
    must be reworded in the list too)."""
    c = catalog_tool()
    template = {m.id if isinstance(m.id, str) else m.id[0] for m in c._read_po(c.POT) if m.id}
    assert [m for m in c.NOMINATIVE if m not in template] == []
