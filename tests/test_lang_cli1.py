"""The recording and report commands in Polish and Russian: a night recorded in English reads in
the table's language (history, board, standings, report, settle-up, player, sessions, db check,
rescore, `pan check`, `pan turn`, `pan rules show`, the demo and script mode), counts take each
language's three plural forms, and what scripts read (`--json`, `pan export --format csv`) is the
same in every language; `pan report --csv`, a score sheet for people, is labelled in the language.

These read the catalog pancli ships (pancli/locale).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pancli.cli import app
from pancli.core.i18n import ngettext
from pancli.storage import catalogs

from helpers import Table

NIGHT = ["session new night --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25", "deal", "drop cruz",
         "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH", "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C",
         "deal", "drop cruz", "meld dee AS 2S 3S", "undo"]


@pytest.fixture
def night(tmp_path):
    """Two hands recorded in English: Ben went out in the first; in the second, in play, Cruz dropped."""
    pan = Table(tmp_path / "pan.db")
    for line in NIGHT:
        pan(line)
    return pan


def fits(text: str, width: int = 80) -> bool:
    return all(len(line) <= width for line in text.splitlines())


def test_english_is_what_it_was_whatever_the_catalogs(night):
    default = CliRunner().invoke(app, ["--db", night.db, "report"], env={"COLUMNS": "80"}).output
    assert night("report") == default
    assert "Running total, hand by hand" in default and "conds: conditions laid" in default


@pytest.mark.parametrize("lang, words", [
    ("pl", {"history": ["#1    rozdanie 1", "(cofnięte)"],
            "board": ["night · rozdanie 2 · rozdaje Ana, zaczyna Ben", "w toku", "gracz", "w tym rozdaniu"],
            "standings": ["Wyniki · night", "gracz", "wynik", "kwota", "(góra)"],
            "report": ["night · panguingue", "2 rozdania", "Wynik narastająco", "rekord"],
            "settle": ["Rozliczenie · night · 0,25 za żeton", "Sprawdzenie: salda sumują się do 0 żetonów"],
            "player ben": ["Ben: 1 sesja, 2 rozdania, wygrane 1", "Najlepszy wieczór: night"],
            "sessions": ["sesja", "gracze", "najwięcej wygrał", "* bieżąca sesja."],
            "db check": ["OK: kontrola spójności zaliczona", "1 sesja", "11 zdarzeń", "każda sesja sumuje się do zera"],
            "rescore --preset cardroom-ca": ["Przeliczenie sesji night:", "po przeliczeniu",
                                             "Zapisana sesja się nie zmieniła."],
            "history --hand 9": ["Brak zdarzeń w rozdaniu 9."]}),
    ("ru", {"history": ["#1    сдача 1", "(отменено)"],
            "board": ["night · сдача 2 · сдаёт Ana, старший Ben", "идёт игра", "игрок", "в этой сдаче"],
            "standings": ["Результаты · night", "игрок", "итог", "деньги", "(верхушки)"],
            "report": ["night · panguingue", "2 сдачи", "Нарастающий итог по сдачам", "рекорд"],
            "settle": ["Расчёт · night · 0,25 за фишку", "Проверка: сумма балансов — 0 фишек"],
            "player ben": ["Ben: 1 сессия, 2 сдачи, выиграно 1", "Лучший вечер: night"],
            "sessions": ["сессия", "игроки", "главный победитель", "* текущая сессия."],
            "db check": ["OK: проверка целостности пройдена", "1 сессия", "событий и 13 платежей"],
            "rescore --preset cardroom-ca": ["Пересчёт сессии night:", "пересчитано", "Сохранённая сессия не изменилась."],
            "history --hand 9": ["Нет событий в сдаче 9."]}),
])
def test_a_night_recorded_in_english_reads_in_the_tables_language(night, lang, words):
    for command, expected in words.items():
        shown = night(command, lang)
        for phrase in expected:
            assert phrase in shown, f"pan --lang {lang} {command}: {phrase!r} not in\n{shown}"
        # piped, history keeps an event or a payment to a line (grep finds it whole)
        assert fits(shown) or command.startswith("history"), \
            f"pan --lang {lang} {command} is wider than 80 columns:\n{shown}"
        english = night(command)
        assert shown != english, f"pan --lang {lang} {command} is still English"


@pytest.mark.parametrize("command", ["board --json", "standings --json", "report --json", "history --json",
                                     "settle --json", "sessions --json", "player ana --json",
                                     "rescore --preset cardroom-ca --json", "export --format csv", "export --format json",
                                     "rules show --json", "check --arrange KS KS KS 5H 5H 5H 5H AC 2C 3C 4C --json",
                                     "check 5S 5S 5H --add 5S --json", "turn take 5S --from stock --hand 5S 5S --json"])
def test_what_scripts_read_is_the_same_in_every_language(night, command):
    codes = {"check 5S 5S 5H --add 5S --json": 1}
    english = night(command, code=codes.get(command, 0))
    if command == "export --format json":  # its exported_at aside, nothing differs
        english = json.loads(english)
    for lang in ("pl", "ru"):
        shown = night(command, lang, code=codes.get(command, 0))
        assert (json.loads(shown) if command == "export --format json" else shown) == english, (command, lang)


def test_the_score_sheet_for_a_spreadsheet_is_labelled_in_the_language_english_as_before(night, tmp_path):
    sheets = {}
    for lang in ("en", "pl", "ru"):
        path = tmp_path / f"sheet-{lang}.csv"
        night(f"report --csv {path}", lang)
        sheets[lang] = path.read_text(encoding="utf-8-sig").splitlines()  # after its byte order mark
    assert sheets["en"][0] == "hand,Ana,Ben,Cruz,Dee" and sheets["en"][-2].startswith("total,")
    assert sheets["pl"][0] == "rozdanie,Ana,Ben,Cruz,Dee" and sheets["pl"][-2].startswith("razem,")
    assert sheets["ru"][0] == "сдача,Ana,Ben,Cruz,Dee" and sheets["ru"][-1].startswith("деньги,")
    # the numbers are the same cells in every language
    assert [row.split(",")[1:] for row in sheets["pl"]] == [row.split(",")[1:] for row in sheets["en"]]


@pytest.mark.parametrize("lang, forms", [
    ("pl", {1: "1 sesja", 2: "2 sesje", 5: "5 sesji", 12: "12 sesji", 22: "22 sesje", 25: "25 sesji"}),
    ("ru", {1: "1 сессия", 2: "2 сессии", 5: "5 сессий", 11: "11 сессий", 21: "21 сессия", 24: "24 сессии"}),
])
def test_counts_take_the_three_forms_of_each_language(lang, forms):
    with catalogs.speaking(lang):
        for n, expected in forms.items():
            assert ngettext("{n} session", "{n} sessions", n).format(n=n) == expected


@pytest.mark.parametrize("lang, lines", [
    ("pl", ["5♠ 5♠ 5♠", "  prawidłowy komplet, ", "(valle_suited)", "  warte 4 od każdego płacącego"]),
    ("ru", ["5♠ 5♠ 5♠", "  правильный комплект, ", "(valle_suited)", "  стоит 4 с каждого плательщика"]),
])
def test_a_ruling_of_pan_check_in_the_language_with_its_tag_and_cards_as_they_are(tmp_path, lang, lines):
    pan = Table(tmp_path / "pan.db")
    shown = pan("check 5S 5S 5S", lang)
    for line in lines:
        assert line in shown
    arranged = pan("check --arrange KS KS KS 5H 5H 5H 5H AC 2C 3C 4C", lang)
    assert {"pl": "11 kart w 3 układach", "ru": "11 карт в 3 комбинациях"}[lang] in arranged
    refused = pan("check", lang, code=2)  # exit codes are the language's too
    assert {"pl": "brak kart do sprawdzenia", "ru": "нет карт для проверки"}[lang] in refused
    turned = pan("turn force 5S --from stock --melds '5S 5S 5S' --demanded", lang)
    assert {"pl": "5♠ (odrzucona karta ze stosu zakrytego): musi ją wziąć",
            "ru": "5♠ (отвергнутая карта из резерва): нужно её взять"}[lang] in turned


@pytest.mark.parametrize("lang, head, allowed", [
    ("pl", "Zasady stołu: zestaw cardroom-ca, wszystkie ustawienia (47)", "dozwolone: "),
    ("ru", "Правила стола: набор cardroom-ca, все настройки (47)", "допустимо: "),
])
def test_rules_show_translates_what_knobs_do_never_their_keys(tmp_path, lang, head, allowed):
    pan = Table(tmp_path / "pan.db")
    shown = pan("rules show --all --preset cardroom-ca", lang)
    assert shown.startswith(head)
    assert allowed in shown and "* ante = 1  (hoyle: 0)" in shown and "  packs = 8" in shown
    assert "--all" not in shown  # with --all there is no line pointing at it
    assert {"pl": "47 ustawień, jak w zestawie hoyle", "ru": "47 настроек, как в наборе hoyle"}[lang] in \
        pan("rules check " + str(_rules_file(pan, tmp_path)), lang)


def _rules_file(pan, tmp_path):
    path = tmp_path / "house.toml"
    pan(f"rules init {path}")
    return path


@pytest.mark.parametrize("lang, stopped, refused", [
    ("pl", "Zatrzymano w wierszu 3: wiersze przed nim są zapisane.", "1 wiersz odrzucony."),
    ("ru", "Остановлено на строке 3: строки до неё записаны.", "1 строка отклонена."),
])
def test_script_mode_says_where_it_stopped_in_the_language(tmp_path, lang, stopped, refused):
    script = tmp_path / "night.pan"
    script.write_text("session new s --players A,B,C\ndeal\nmeld a 5S 5S 5H\ndrop b\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "a.db"), "--lang", lang, "table", "--script", str(script)],
                                env={"COLUMNS": "80"})
    assert result.exit_code == 1 and stopped in result.output
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "b.db"), "--lang", lang, "table", "--script", str(script),
                                      "--keep-going"], env={"COLUMNS": "80"})
    assert result.exit_code == 1 and refused in result.output


@pytest.mark.parametrize("lang, opening, table, next_", [
    ("pl", "Przykładowy wieczór: siedmiu graczy", "Wyniki · tonight", "Spróbuj dalej:"),
    ("ru", "Пример вечера: семь игроков", "Результаты · tonight", "Что дальше:"),
])
def test_the_demo_reads_as_a_host_would_say_it(tmp_path, monkeypatch, lang, opening, table, next_):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    result = CliRunner().invoke(app, ["--lang", lang, "demo"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    for phrase in (opening, table, next_, "pan --db "):
        assert phrase in result.output
    assert fits(result.output)


def test_every_line_of_these_commands_is_a_message_of_the_catalog(night, tmp_path, monkeypatch):
    """In the pseudo-language every message is inside ⟦…⟧: a line of words outside them is one
    nobody wrapped (names, numbers, dates, cards, paths and table borders aside)."""
    import importlib.util
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("catalogs_script", root / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    qps = tmp_path / "qps"
    script.main(["pseudo", str(qps)])
    monkeypatch.setenv("PANCLI_LOCALE_DIR", str(qps))
    data = {"ana", "ben", "cruz", "dee", "night", "copy", "panguingue", "hoyle", "cardroom", "ca", "sqlite", "wal",
            "toml", "csv", "json", "db", "mb", "ok"}
    word = re.compile(r"[A-Za-z][A-Za-z'-]+")
    archive = tmp_path / "night.toml"
    for command in ["standings", "sessions", "report", "history --hand 9", "session show", "session use night",
                    "player ben", "db status", "db check", f"db backup {tmp_path / 'b.db'}",
                    f"export -o {archive}", f"import {archive} --as copy", f"import {archive} --as copy",
                    "rescore --preset cardroom-ca", "standings --season all", "check --arrange 5S 5S 5S AC 2C 3C",
                    "session use night", "board"]:
        shown = night(command, "qps")
        depth = 0  # a message wrapped over several lines: the lines between its markers are inside it
        for line in shown.splitlines():
            inside = depth > 0 or "⟦" in line or "⟧" in line
            depth += line.count("⟦") - line.count("⟧")
            if inside:
                continue
            # paths, file names and identifiers (migrations, rules keys) are data
            words = [w for w in word.findall(re.sub(r"\S*[/._]\S*", " ", line)) if w.lower() not in data]
            assert not words, f"pan --lang qps {command}: {line!r} is not from the catalog"
    # what scripts read has no message in it: JSON is English, whatever the rulings' words
    for command, code in [("check 5S 5S 5H --add 5S --json", 1), ("check 5S 5S 5H --json", 1),
                          ("check --arrange KS KS KS 5H 5H 5H 5H AC 2C 3C 4C --json", 0),
                          ("turn take 5S --from stock --hand 5S 5S --json", 0),
                          ("turn drawn 4C --hand 5S 5S --melds 'AH 2H 3H' --json", 1),
                          ("board --json", 0), ("history --json", 0), ("report --json", 0)]:
        assert "⟦" not in night(command, "qps", code=code), command
    batch = night("check --batch", "qps", code=2, stdin="5S 5S 5S\n5S 5S 5H\n5S 5S 5S + 5S\n9S 9S 9S\n")
    assert "⟦" not in batch and len(batch.splitlines()) == 4
