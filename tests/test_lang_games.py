"""The contract game, Polish Pan and the clock in Polish and Russian: a night recorded in English
reads in the table's language, the five contracts in the seeds' words, plurals by count, and
what `--json` prints stays English.

These read the shipped catalog (pancli/locale).
"""

from __future__ import annotations

import json

import pytest

from pancli.core.grouping import MELDS_HELP
from pancli.storage import catalogs

from helpers import Table


@pytest.fixture
def night(tmp_path):
    """Deal 1 of a contract game played in English, Ana out with Ben's and Cruz's hands to record."""
    pan = Table(tmp_path / "pan.db")
    pan("session new night --game contract --players Ana,Ben,Cruz --dealer Cruz")
    pan('contract lay ana "7S 7H 7D + QC QD QS"')
    pan("contract layoff ana 1 7C")
    pan("contract out ana --discard 2H")
    pan("contract left ben 9C 9D")
    return pan


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("deal, pl, ru", [
    (1, "dwa komplety", "два комплекта"),
    (2, "komplet i sekwens", "один комплект и один секвенс"),
    (3, "dwa sekwensy", "два секвенса"),
    (4, "trzy komplety", "три комплекта"),
    (5, "dwa komplety i sekwens", "два комплекта и секвенс"),
])
def test_the_five_contracts_are_said_in_the_tables_words(deal, pl, ru):
    from pancli.games.contract.engine import describe_contract

    english = describe_contract(deal)
    with catalogs.speaking("pl"):
        assert describe_contract(deal) == pl
    with catalogs.speaking("ru"):
        assert describe_contract(deal) == ru
    assert describe_contract(deal) == english  # the language ends with the block


def test_a_deal_recorded_in_english_reads_in_polish_and_russian(night):
    english = night("contract status")
    assert "deal 1 of 5 · contract: 2 sets · Cruz deals" in english
    polish = lines(night("contract status", "pl"))
    assert polish[0] == "night · rozdanie 1 z 5 · kontrakt: dwa komplety · rozdaje Cruz"
    assert "układ 1: 7♠ 7♥ 7♦ 7♣  (komplet gracza Ana)" in polish
    assert polish[-1] == "Suma: Ana +0, Ben +0, Cruz +0"
    russian = lines(night("contract status", "ru"))
    assert russian[0] == "night · розыгрыш 1 из 5 · норматив: два комплекта · сдаёт Cruz"
    assert "комбинация 2: Q♣ Q♦ Q♠  (комплект игрока Ana)" in russian
    # the same events, the words of history in each language
    assert "Ana dokłada 7♣ do układu 1" in night("history", "pl")
    assert "Ana выходит, сбросив 2♥" in night("history", "ru")
    assert night("contract status") == english  # English is byte for byte what it was


def test_scoring_a_deal_in_polish_and_russian(tmp_path):
    for lang, expected in (
        ("pl", ["Rozdanie 1: Ana +20 za wyjście", "Rozdanie 1: Ben -18, karty w ręce: 9♣ 9♦",
                "Rozdanie 1: Cruz +0, bez kart w ręce", "Suma po rozdaniu 1: Ana +20, Ben -18, Cruz +0"]),
        ("ru", ["Розыгрыш 1: Ana +20 за выход", "Розыгрыш 1: Ben -18, карты на руке: 9♣ 9♦",
                "Розыгрыш 1: Cruz +0, карт на руке нет", "Итог после розыгрыша 1: Ana +20, Ben -18, Cruz +0"]),
    ):
        pan = Table(tmp_path / f"{lang}.db")
        pan("session new night --game contract --players Ana,Ben,Cruz")
        pan('contract lay ana "7S 7H 7D + QC QD QS"', lang)
        pan("contract out ana --discard 2H", lang)
        pan("contract left ben 9C 9D", lang)
        assert lines(pan("contract left cruz --points 0", lang)) == expected


def test_refusals_are_one_line_in_the_tables_language(night):
    out = night("contract left ana 5S", "pl", code=1)
    assert lines(out) == ["Błąd: wyjście: Ana; bez kart w ręce: zapisz ręce pozostałych graczy"]
    out = night("contract layoff cruz 1 7C", "ru", code=1)
    assert lines(out) == ["Ошибка: в розыгрыше 1 уже был выход: Ana: вместо докладывания запишите карты "
                          "на руках у остальных"]


def test_plurals_take_each_languages_three_forms(tmp_path):
    pan = Table(tmp_path / "pan.db")
    assert lines(pan("polish deal-sizes 2", "pl")) == ["2 gracze: 12, 12"]
    assert lines(pan("polish deal-sizes 5", "pl")) == ["5 graczy: 5, 5, 5, 5, 4"]
    assert lines(pan("polish deal-sizes 2", "ru")) == ["2 игрока: 12, 12"]
    assert lines(pan("polish deal-sizes 5", "ru")) == ["5 игроков: 5, 5, 5, 5, 4"]
    assert lines(pan("polish deal-sizes 5")) == ["5 players: 5, 5, 5, 5, 4"]
    pan("session new pn --game polish --players Ana,Ben,Cruz")
    pan("polish lost ben")
    assert lines(pan("polish status", "pl"))[0] == "Po 1 rozdaniu: Ana -, Cruz -, Ben P"
    pan("polish nolose")
    assert lines(pan("polish status", "ru"))[0] == "После 2 сдач: Ana -, Cruz -, Ben P"


def test_polish_pan_in_its_own_words(tmp_path):
    pan = Table(tmp_path / "pan.db")
    out = pan('polish check --pile "9H 9S TD" --play JC --seats A,B,C --mover B', "pl")
    assert lines(out) == ["Prawidłowo: J♣ idzie na 10♦: wyższa wartość", "Stos teraz: 9♥ 9♠ 10♦ J♣",
                          "Następny ruch: C"]
    out = pan('polish check --pile "9H 9S" --take', "pl")
    assert "wzięcie na czysto" in out
    out = pan('polish check --pile "9H 9S TD" --play 9C', "ru", code=1)
    assert lines(out) == ["Неправильно: 9♣ младше, чем 10♦ наверху; сыграйте 10 или старше или возьмите"]
    pan("session new pn --game polish --players Ana,Ben")
    assert lines(pan("polish lost ana", "pl")) == ["Rozdanie 1: Ana zostaje z kartami: bierze P (Ana ma P)"]


def test_json_stays_english_in_every_language(night):
    for lang in ("pl", "ru"):
        checked = json.loads(night("contract check --deal 1 7S 7H 7D / QC QD QS --json", lang))
        assert checked["contract"] == "2 sets"
        assert checked["reason"] == "valid contract for deal 1 (2 sets): set of 7s; set of queens"
        assert json.loads(night("contract status --json", lang))["contract"] == "2 sets"
        bought = json.loads(night("contract buy --discarder A --asker C --seats A,B,C --json", lang))
        assert bought["reason"].startswith("B agreed: C takes 1 pack card")
        played = json.loads(night('polish check --pile "9H 9S TD" --play JC --json', lang))
        assert played["reason"] == "J♣ goes on the 10♦: higher rank"
    # and the people's words in that language are right beside it
    assert lines(night("contract buy --discarder A --asker C --seats A,B,C", "ru"))[-1] == "Дальше ходит: A  (пропускают: B)"


def test_the_score_sheet_and_the_clock_words_translate():
    from pancli.games.contract.engine import apply, new_state
    from pancli.games.contract.rules import ContractRules
    from pancli.games.contract.sheet import sheet
    from pancli.games.polish.words import event_words

    state = new_state(ContractRules(), ["Ana", "Ben"])
    for event in ({"kind": "contract", "player": "Ana", "melds": [["7S", "7H", "7D"], ["QC", "QD", "QS"]]},
                  {"kind": "out", "player": "Ana", "discard": "2H"}, {"kind": "hand", "player": "Ben", "points": 5}):
        state = apply(state, event).state
    with catalogs.speaking("pl"):
        polish = sheet(state)
        assert polish["note_label"] == "kontrakt" and polish["rows"][0]["note"] == "dwa komplety"
        assert polish["result"] == "Następne rozdanie 2 z 5: komplet i sekwens."
        assert event_words({"kind": "clock_flag", "player": "Ana"}) == "koniec czasu: Ana"
    with catalogs.speaking("ru"):
        assert sheet(state)["caption"] == "очки за каждый розыгрыш, ниже нарастающий итог (побеждает наибольший)"
    english = sheet(state)
    assert (english["unit"], english["round"], english["note_label"]) == ("points", "deal", "contract")


def test_the_whole_contracts_help_is_the_melds_help():
    """The contract action's help is written out whole for the catalog: it must say what the
    shared words of MELDS_HELP say, as the `pan contract lay` help does."""
    from pancli.games.contract.actions import ACTIONS

    lay = next(a for a in ACTIONS if a.name == "lay")
    melds = next(p for p in lay.params if p.name == "melds")
    assert melds.help == f"The whole contract, {MELDS_HELP}."
