"""Spanish, as the catalog pancli ships it (pancli/locale/es): a night recorded in English reads in
Spanish, counts take Babel's three Spanish forms (one, a multiple of a million, other), names stay
as typed, and the phone pages offer the language by its own name.
"""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from pancli.core.i18n import ngettext
from pancli.storage import catalogs

from helpers import Table, catalog_tool

NIGHT = ["session new night --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25", "deal", "drop cruz",
         "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH", "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C",
         "deal", "drop cruz", "meld dee AS 2S 3S", "undo"]


@pytest.fixture
def night(tmp_path):
    pan = Table(tmp_path / "pan.db")
    for line in NIGHT:
        pan(line)
    return pan


def test_spanish_is_shipped_under_its_own_name_with_babels_plural_forms():
    assert "es" in catalogs.available()
    assert catalogs.language_names()["es"] == "Español"
    with (catalog_tool().po_path("es")).open("rb") as f:
        catalog = read_po(f, locale="es")
    assert catalog.plural_forms == Catalog(locale="es").plural_forms
    assert not catalog_tool().problems(catalog)


@pytest.mark.parametrize("n, expected", [(1, "1 sesión"), (2, "2 sesiones"), (0, "0 sesiones"),
                                         (1_000_000, "1000000 de sesiones"), (3_000_000, "3000000 de sesiones"),
                                         (1_000_001, "1000001 sesiones")])
def test_counts_take_the_three_spanish_forms(n, expected):
    with catalogs.speaking("es"):
        assert ngettext("{n} session", "{n} sessions", n).format(n=n) == expected


@pytest.mark.parametrize("command, phrases", [
    ("history", ["#1    mano 1", "(deshecho)", "Ana, Dee pagan 4 cada uno; Ben cobra:"]),
    ("board", ["night · mano 2 · reparte Ana, empieza Ben", "se retiró", "jugador", "esta mano"]),
    ("standings", ["Posiciones · night", "jugador", "neto", "dinero", "(bote)"]),
    ("settle", ["Liquidación · night · 0,25 por ficha", "Comprobación: los saldos suman 0 fichas"]),
    ("sessions", ["sesión", "jugadores", "el que más ganó", "* la sesión actual."]),
    ("check 5S 5S 5S", ["tercia válida, tercia valle de un solo palo en picas (valle_suited)",
                        "vale 4 de cada pagador"]),
])
def test_a_night_recorded_in_english_reads_in_spanish_with_names_as_typed(night, command, phrases):
    shown = night(command, "es")
    for phrase in phrases:
        assert phrase in shown, f"pan --lang es {command}: {phrase!r} not in\n{shown}"
    assert shown != night(command)
    assert all(len(line) <= 80 for line in shown.splitlines()) or command == "history"


def test_a_refusal_in_spanish_keeps_the_card_codes_and_the_exit_code(night):
    refused = night("check 5S 6S 9S", "es", code=2)
    assert "'9S' no está en la baraja de Pan" in refused
