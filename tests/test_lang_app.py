"""The application layer in Polish and Russian: its refusals, db check's findings, the dealer's
words and the sync conflict report read in the language chosen, from a night recorded in English;
what it writes (archives) is the same whatever the language. In the pseudo-language every line
of it is inside the catalog's markers.

The Polish and Russian tests read the catalog pancli ships.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pancli.cli import app

from helpers import CYCLE, PLAYERS, run_sql

ROOT = Path(__file__).resolve().parent.parent
def pan(db, line: str, lang: str | None = None, env: dict | None = None, code: int | None = 0):
    args = ["--db", str(db), *(["--lang", lang] if lang else []), *shlex.split(line)]
    result = CliRunner().invoke(app, args, prog_name="pan", env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    if code is not None:
        assert result.exit_code == code, f"pan {line}: {result.output}"
    return result


def night(db) -> None:
    for line in ["session new fri --players Ana,Ben,Cruz", "deal", "drop cruz", "meld ana 5S 5S 5S",
                 "meld ben JH QH KH"]:
        pan(db, line)


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "pan.db"
    night(path)
    return path


@pytest.mark.parametrize("lang, lines", [
    ("pl", ["Sesja sat (Panguingue): Ana, Ben. Pierwszy rozdaje Ben. To teraz bieżąca sesja.",
            "Error: archiwum nothere.toml nie istnieje: sprawdź ścieżkę; `pan export` zapisuje sessions/NAME.toml",
            "Error: nie ma gracza 'zed' w żadnej sesji: gracze: Ana, Ben, Cruz",
            "Error: nie podano folderu, a ta baza jeszcze się nie synchronizowała: pan sync FOLDER"]),
    ("ru", ["Сессия sat (Пангинь): Ana, Ben. Первый сдающий: Ben. Теперь это текущая сессия.",
            "Error: архива nothere.toml нет: проверьте путь; `pan export` пишет sessions/NAME.toml",
            "Error: игрока 'zed' нет ни в одной сессии: игроки: Ana, Ben, Cruz",
            "Error: папка не указана, а эта база ещё не синхронизировалась: pan sync FOLDER"]),
])
def test_a_night_recorded_in_english_answers_in_the_language_chosen(db, lang, lines):
    said = [pan(db, "session new sat --players Ana,Ben --dealer Ben", lang).output,
            pan(db, "import nothere.toml", lang, code=2).output,
            pan(db, "player zed", lang, code=2).output,
            pan(db, "sync", lang, code=2).output]
    assert [s.strip().replace("Błąd:", "Error:").replace("Ошибка:", "Error:") for s in said] == lines


@pytest.mark.parametrize("lang, finding", [
    ("pl", "sesja 'fri': sumy bieżące różnią się od sum dziennika"),
    ("ru", "сессия 'fri': текущие итоги расходятся с суммами журнала"),
    ("en", "session 'fri': the running totals differ from the sums of the log"),
])
def test_db_check_says_what_it_found_in_the_language_chosen(db, lang, finding):
    run_sql(db, "UPDATE totals SET amount = amount + 1 WHERE player = 'Ana' AND stat = '(net)'")
    bad = pan(db, "db check", lang, code=1)
    assert finding in bad.output


def test_db_check_worker_processes_find_in_the_language_chosen(tmp_path, monkeypatch):
    """A long session is checked in parts by processes of their own: their findings are in the
    command's language too."""
    from pancli.app.check import session as parts

    monkeypatch.setattr(parts, "PARALLEL_FROM", 10)
    db = tmp_path / "long.db"
    pan(db, f"session new long --players {PLAYERS} --dealer F")
    for _hand in range(6):
        for line in CYCLE:
            pan(db, line)
    run_sql(db, "UPDATE payments SET chips = chips + 1 WHERE id = (SELECT max(id) FROM payments)")
    bad = pan(db, "db check", "ru", code=1)
    assert "сессия 'long', событие #" in bad.output and "ядро платит" in bad.output, bad.output


def test_an_archive_is_the_same_whatever_the_language_it_was_exported_in(db, tmp_path):
    from pancli.app import archive

    texts = {}
    for lang in ("en", "pl", "ru"):
        out = tmp_path / f"fri-{lang}.toml"
        pan(db, f"export fri -o {out}", lang)
        texts[lang] = out.read_text(encoding="utf-8")
    prints = {lang: archive.fingerprint(archive.parse(text)) for lang, text in texts.items()}
    assert len(set(prints.values())) == 1
    other = tmp_path / "other.db"
    pan(other, f"import {tmp_path / 'fri-pl.toml'}", "ru")
    assert pan(other, "standings --json").output == pan(db, "standings --json").output


@pytest.mark.parametrize("lang, preview", [
    ("pl", "Cofnięcie zabierze #4: "), ("ru", "Отмена заберёт #4: "), ("en", "Undo takes back #4: "),
])
def test_the_dealer_page_words_are_made_in_the_request_language(db, monkeypatch, lang, preview):
    from pancli.app.actions import undo_preview
    from pancli.storage import catalogs
    from pancli.storage.store import Store

    store = Store(db, create=False)
    try:
        with catalogs.speaking(lang):
            said = undo_preview(store, None)
        english = undo_preview(store, None)
    finally:
        store.close()
    assert said["text"].startswith(preview) and said["seq"] == english["seq"] == 4
    assert english["text"].startswith("Undo takes back #4: ")


CONFLICT = {"session": "fri", "device": "0123456789abcdef0123456789abcdef", "device_label": "ana-laptop",
            "this_device": False, "ahead": False, "seq": None, "field": "dealer", "why": "",
            "sides": [{"where": "this database", "session": "fri", "events": 5, "last": 5, "closed": False,
                       "event": None, "hand": None, "payments": [], "value": "Ana"},
                      {"where": "/sync/0123/fri.toml", "session": "fri", "events": 1, "last": 1, "closed": False,
                       "event": None, "hand": None, "payments": [], "value": "Ben", "device_label": "ana-laptop"}]}


@pytest.mark.parametrize("lang, lines", [
    ("en", ["Conflict in session fri, recorded on ana-laptop (01234567): the copies differ in the first dealer.",
            "Here, the first dealer: Ana.", "In ana-laptop's copy, the first dealer: Ben.",
            "The folder's copy is ~/sync/0123/fri.toml"]),
    ("pl", ["Konflikt w sesji fri, zapisywanej na ana-laptop (01234567): kopie różnią się pierwszym rozdającym.",
            "Tutaj, pierwszy rozdający: Ana.", "W kopii urządzenia ana-laptop, pierwszy rozdający: Ben.",
            "Kopia w folderze to ~/sync/0123/fri.toml"]),
    ("ru", ["Конфликт в сессии fri, записанной на ana-laptop (01234567): копии расходятся в первом сдающем.",
            "Здесь, первый сдающий: Ana.", "В копии устройства ana-laptop, первый сдающий: Ben.",
            "Копия в папке: ~/sync/0123/fri.toml"]),
])
def test_a_sync_conflict_is_reported_in_whole_sentences_of_the_language(monkeypatch, lang, lines):
    from pancli.app.sync.conflicts import conflict_text
    from pancli.storage import catalogs

    with catalogs.speaking(lang):
        said = conflict_text(CONFLICT, "home", ("/sync", "~/sync"))
    assert said[:4] == lines
    assert len(said) == 6 and all(len(line) < 200 for line in said)


# -- the pseudo-language: every line of the application layer is a message of the catalog ------

@pytest.fixture
def qps(qps_dir):
    return {"PANCLI_LOCALE_DIR": qps_dir}


MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
# What may stand outside the markers: the CLI's own "Error:" (its part), paths, names, numbers.
DATA = re.compile(r"Error:|Błąd:|Ошибка:|\S*[/\\.]\S*|'[^']*'|\b(?:Ana|Ben|Cruz|zed|fri|sat|pan|sync|FOLDER)\b|[\d#:(),.;-]+")


def outside(text: str) -> str:
    while (shorter := MARKED.sub(" ", text)) != text:
        text = shorter
    return DATA.sub(" ", text).strip()


def test_every_refusal_of_the_application_layer_is_inside_the_markers(db, tmp_path, qps):
    (tmp_path / "bad.json").write_text('{"format": "pancli"', encoding="utf-8")
    (tmp_path / "folder").mkdir()
    for line, code in [("import nothere.toml", 2), (f"import {tmp_path / 'bad.json'}", 2), ("player zed", 2),
                       ("sync", 2), (f"export fri -o {db}", 2), (f"db backup {tmp_path / 'no' / 'x.db'}", 2),
                       ("sync trust zzzzzzzz", 2), ("replicate zz://x", 2),
                       ("session new sat --players Ana,Ben", 0)]:
        said = pan(db, line, "qps", env=qps, code=code).output
        assert "⟦" in said and outside(said) == "", f"pan {line}: {said}"
    run_sql(db, "UPDATE totals SET amount = amount + 1 WHERE player = 'Ana' AND stat = '(net)'")
    said = pan(db, "db check", "qps", env=qps, code=1).output
    assert "⟦session 'fri': the running totals differ from the sums of the log⟧" in said


def test_every_field_two_copies_can_differ_in_has_its_whole_sentences():
    """A conflict names the field the copies differ in inside a sentence: each field a session
    never changes (and when it closed) has its own two messages, never a word glued in."""
    from pancli.app.archive import HEADER_KEYS
    from pancli.app.sync.conflicts import FIELD_VERSIONS, FIELDS_DIFFER

    for field in (*HEADER_KEYS, "closed_at"):
        assert "{copy}" in FIELD_VERSIONS[field] and "{value}" in FIELD_VERSIONS[field]
        assert FIELDS_DIFFER[field].startswith("the copies differ in ")
