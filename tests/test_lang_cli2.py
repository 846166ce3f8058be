"""The frame of `pan` in other languages: help texts translated as click formats them (and the
English objects untouched), typer's and click's own words, `pan table`, and the lines of sync,
serve and replicate.

Polish and Russian run against the shipped catalog (pancli/locale).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import command_paths

ROOT = Path(__file__).resolve().parent.parent
LOCALES = str(ROOT / "pancli" / "locale")
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")


@pytest.fixture
def qps(qps_dir):
    return qps_dir


@pytest.fixture(autouse=True)
def english_after():
    """Each test leaves the process speaking English, as it found it."""
    yield
    from pancli.core import i18n

    i18n.use_catalog(i18n.ENGLISH, None)


def run(args, locales=None, db=None, input=None):
    from pancli.cli import app

    env = {"PANCLI_LOCALE_DIR": locales} if locales else {}
    if db is not None:
        env["PANCLI_DB"] = str(db)
    return CliRunner().invoke(app, args, env=env, input=input, prog_name="pan")


def _root():
    import typer

    from pancli.cli.registry import app

    return typer.main.get_command(app)


def _argument_names() -> set[str]:
    """The names of the commands' arguments, which click shows as the code spells them."""
    root, found = _root(), set()
    for path in command_paths(root):
        cmd = root
        for name in path:
            cmd = cmd.get_command(None, name)
        found |= {p.name for p in cmd.params if p.param_type_name == "argument" and p.name}
    return found


def unmarked(text: str) -> list[str]:
    """The words outside every marker (a message nobody translated): commands, options, metavars
    in capitals, card codes and what is quoted in backticks are data."""
    while (shorter := MARKED.sub(" ", text)) != text:
        text = shorter
    text = re.sub(r"⟦.*", " ", text)  # a short help cut to its column loses its closing marker
    text = re.sub(r"`[^`]*`|--?[\w-]+|\b[A-Z][A-Z_]+\b|\b\d+[SHDC]\b", " ", text)
    names = {"pan"} | {name for path in command_paths(_root()) for name in path} | _argument_names()
    return [w for w in re.findall(r"[^\W\d_]{3,}", text) if w not in names]


def test_every_command_translates_its_help():
    from pancli.cli.words.help_language import HelpInLanguage

    root = _root()
    assert isinstance(root, HelpInLanguage)
    for path in command_paths(root):
        cmd = root
        for name in path:
            cmd = cmd.get_command(None, name)
        assert isinstance(cmd, HelpInLanguage), f"pan {' '.join(path)} is a {type(cmd).__name__}"


def test_the_catalog_has_every_help_text():
    from pancli.cli.words.help_catalog import help_messages

    listed = {text for text, _where in help_messages()}
    root = _root()
    missing = []
    for path in command_paths(root):
        cmd = root
        for name in path:
            cmd = cmd.get_command(None, name)
        if cmd.help and cmd.help not in listed:
            missing.append(" ".join(path))
        missing += [f"{' '.join(path)} {p.name}" for p in cmd.params if p.help and p.help not in listed]
    assert not missing
    assert {"Show this message and exit.", "[OPTIONS]", "COMMAND [ARGS]...", "cards", "player"} <= listed
    wheres = {where for _text, where in help_messages()}
    assert all(Path(w).is_file() for w in wheres)  # each names the file that wrote it


def test_help_in_the_pseudo_language_is_all_marked_and_english_stays_as_it_was(qps):
    before = [run(args).output for args in (["--help"], ["meld", "-h"], ["session", "-h"], ["contract", "-h"])]
    for args in (["--lang", "qps", "--help"], ["--lang", "qps", "meld", "-h"], ["--lang", "qps", "session", "-h"],
                 ["--lang", "qps", "contract", "lay", "-h"], ["--lang", "qps", "sync", "-h"]):
        result = run(args, qps)
        assert result.exit_code == 0, result.output
        assert "⟦" in result.output
        assert not unmarked(result.output), (args, unmarked(result.output))
    after = [run(args).output for args in (["--help"], ["meld", "-h"], ["session", "-h"], ["contract", "-h"])]
    assert after == before  # the objects keep their English texts
    assert "Usage: pan [OPTIONS]" in after[0] and "⟦" not in "".join(after)
    meld = run(["--lang", "qps", "meld", "-h"], qps).output
    assert "⟦Usage:⟧ pan meld ⟦[OPTIONS]⟧ {⟦name⟧} {⟦cards⟧}..." in meld  # argument names are shown words too


def test_click_and_typer_words_in_the_pseudo_language(qps, tmp_path):
    assert run(["session", "new", "fri", "--players", "Ana,Ben,Cruz"], None, tmp_path / "x.db").exit_code == 0
    missing = run(["--lang", "qps", "meld", "ana"], qps, tmp_path / "x.db")
    assert missing.exit_code == 2
    assert "⟦Error: ⟦Missing argument 'cards'.⟧⟧" in missing.output
    needs = run(["--lang", "qps", "check", "--preset"], qps)
    assert "⟦Option '--preset' requires an argument.⟧" in needs.output
    mistyped = run(["--lang", "qps", "mld"], qps)
    assert mistyped.output.startswith("⟦Error: ⟦no command 'mld': did you mean meld?")
    english = run(["meld", "ana"], None, tmp_path / "x.db")
    assert english.output == "Error: Missing argument 'cards'.\n"


def test_an_unknown_language_is_one_line():
    result = run(["--lang", "xx", "standings"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    from pancli.storage.catalogs import available

    assert result.output == f"Error: --lang xx is not a language pancli speaks: give one of {', '.join(available())}\n"


def test_the_shell_speaks_the_language_it_was_started_in(qps, tmp_path):
    db = tmp_path / "pan.db"
    assert run(["session", "new", "fri", "--players", "Ana,Ben,Cruz"], None, db).exit_code == 0
    result = run(["--lang", "qps", "table", "-k"], qps, db, input='help\ntable\nredo\n"x\nhelp meld\n')
    out = result.output
    for said in ("⟦Commands (the same as `pan COMMAND`, without `pan`):⟧", "⟦⟦Recording a hand⟧: deal",
                 "⟦Error: ⟦you are at the table already", "⟦Error: ⟦nothing to redo",
                 "⟦cannot read the line: ⟦no closing quotation⟧⟧", "⟦Usage:⟧ pan meld",
                 "⟦Lay a new meld; its condition is paid at once by every payer."):
        assert said in out, said


def test_the_bug_line_at_the_table_is_a_whole_message(qps, tmp_path):
    from pancli.cli.shell.bugs import report_bug
    from pancli.storage.catalogs import speaking

    os.environ["PANCLI_LOCALE_DIR"] = qps
    try:
        with speaking("qps"):
            try:
                raise ZeroDivisionError
            except ZeroDivisionError:
                line = report_bug(tmp_path / "pan.db", "running", "deal")
    finally:
        os.environ.pop("PANCLI_LOCALE_DIR")
    assert line.startswith("⟦Internal error: a bug (ZeroDivisionError) while running `deal`; ⟦the details are in ")
    assert "while running `deal`" in (tmp_path / "pan.db.errors.log").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang, said", [
    ("pl", ["Użycie: pan meld", "Wyłóż nowy układ", "Opcje:", "Pokaż ten opis i zakończ."]),
    ("ru", ["Использование: pan meld", "Выложить новую комбинацию", "Параметры:",
            "Показать эту справку и выйти."]),
])
def test_help_in_polish_and_russian(lang, said):
    result = run(["--lang", lang, "meld", "-h"], LOCALES)
    assert result.exit_code == 0
    for words in said:
        assert words in result.output
    assert all(len(line) <= 80 for line in result.output.splitlines())
    panels = run(["--lang", lang, "--help"], LOCALES).output
    assert ("Zapis rozdania:" if lang == "pl" else "Запись сдачи:") in panels
    assert all(len(line) <= 80 for line in panels.splitlines())


@pytest.mark.parametrize("lang, said", [
    ("pl", ["Błąd: Brak argumentu 'cards'.", "Błąd: Opcja '--preset' wymaga argumentu.",
            "Błąd: nie ma polecenia 'mld': czy chodzi o meld? (`pan -h` wymienia polecenia)"]),
    ("ru", ["Ошибка: Не указан аргумент 'cards'.", "Ошибка: Параметру '--preset' нужно значение.",
            "Ошибка: нет команды 'mld': может быть, meld? (`pan -h` перечисляет команды)"]),
])
def test_framework_errors_in_polish_and_russian(lang, said, tmp_path):
    assert run(["session", "new", "fri", "--players", "Ana,Ben,Cruz"], None, tmp_path / "x.db").exit_code == 0
    outputs = [run(["--lang", lang, *args], LOCALES, tmp_path / "x.db").output.strip()
               for args in (["meld", "ana"], ["check", "--preset"], ["mld"])]
    assert outputs == said


def test_sync_status_in_polish(tmp_path):
    db = tmp_path / "pan.db"
    assert run(["session", "new", "fri", "--players", "Ana,Ben,Cruz"], None, db).exit_code == 0
    folder = tmp_path / "sync"
    result = run(["--lang", "pl", "sync", str(folder), "--create", "--device-name", "laptop"], LOCALES, db)
    assert result.exit_code == 0, result.output
    assert "Zapisano fri (0 zdarzeń)." in result.output
    assert f"Zsynchronizowano laptop z {folder}: zmieniła się 1 sesja." in result.output
    status = run(["--lang", "pl", "sync", "--status"], LOCALES, db).output
    assert "To urządzenie to laptop; synchronizuje się z" in status
    assert "urządzenie" in status and "* to urządzenie." in status
    assert "--json" not in status
    as_json = run(["--lang", "pl", "sync", "--status", "--json"], LOCALES, db).output
    assert '"devices"' in as_json  # JSON keys stay as they are
