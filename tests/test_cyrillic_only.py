"""No English leaks through a Russian screen. tests/test_pseudo_language.py proves that every line
is a message of the catalog, but a message's placeholder may still be filled with an English word
(a reason, a game's title, a ruling glued from code). Here the README's and the manual's
transcripts, every command's help and every page are run in Russian, and every Latin-letter word
left once data is taken out is a leak. Data is precise: the names and words the commands type,
card codes, commands and their --options, rules-file keys and their values, condition tags and
reason codes (identifiers as the code spells them), metavars (PATH), paths and file names, and
what a message quotes in `backquotes` (a command to type). --json stays English and is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import command_paths

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "pancli" / "locale"

# A Latin-letter word (Cyrillic words are the language itself).
LATIN = re.compile(r"[A-Za-z](?:[\w'’-]*[A-Za-z0-9])?")
CARD = re.compile(r"^(?:[2-9TJQKA]|10)[SHDC]$")
# Data that shows as it is typed: options, paths, file names, URLs, `quoted commands`, identifiers.
DATA = re.compile(
    r"`[^`\n]*`?"                                  # a command or a value quoted for typing (maybe cut)
    r"|\bpan(?: [^\s,;]+)+"                        # `pan …` typed as an example, to the line's end
    r"|\b(?:(?:10|[2-9TJQKA])[SHDCshdc♠♥♦♣],?)+(?![\w])"  # cards run together: 5s5h5d, 5♠,5♠
    r"|\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b"              # an id: 852ef648
    r"|\b\d+(?:ms|s|m|h)\b"                         # a duration as typed: 250ms, 1s
    r"|\bx[<>]=?"                                  # the framework's range: [x>=0.05]
    r"|\b\w+-\d{4}-\d\d-\d\d\b"                     # a session named by its date: fri-2026-11-27
    r"|(?<![\w-])--?[A-Za-z][\w-]*"                # an option: --db, -n
    r"|https?://\S+"                               # an address
    r"|\S*[/\\]\S*"                                # a path
    r"|\S+\.(?:db|toml|json|csv|html|pan|md|txt|sqlite|mo|po|svg|key)\b"  # a file name
    r"|\b[A-Za-z]\w*_\w+\b"                        # an identifier: valle_suited, chip_value
)


# The names the examples of the help and the manual give players and nights.
EXAMPLE_NAMES = {"ana", "ben", "cruz", "dee", "eve", "fay", "ola", "piotr", "zosia", "friday", "friday-copy"}
# Names of programs, keys and paper that every language writes as they are.
PROPER_NAMES = {"grep", "less", "git", "printf", "syncthing", "nextcloud", "excel", "markdown", "letter",
                "ctrl-c", "ctrl-d", "enter", "piki", "cofane", "openskill"}


def typed_words() -> set[str]:
    """Words typed at a prompt or as an argument's value, read as they are: the shell's quit, the
    QR codes `pan serve` shows on request, sync's trust and forget."""
    from pancli.cli.shell.line import QUIT_WORDS

    return {*QUIT_WORDS, "players", "tv", "dealer", "trust", "forget"}


def data_words() -> set[str]:
    """Words that are data wherever they show: rules keys and their values, presets, game and
    command names as the code spells them; and the few names every language keeps."""
    import typer

    from pancli.cli.registry import app as root
    from pancli.core.knobs import BOOL, format_value
    from pancli.games import GAMES

    words = {"pan", "pancli", "panguingue", "en", "pl", "ru", "db", "json", "csv", "toml", "html",
             "http", "https", "sqlite", "litestream", "utf", "id", "stdin", "stdout", "english", "polski",
             "tv", "qr"}
    group = typer.main.get_command(root)
    for path in command_paths(group):
        words.update(path)
        command = group
        for name in path:
            command = command.get_command(None, name)  # type: ignore[attr-defined]
        for param in command.params:  # values an option or argument takes: stock|hand|upcard, trust
            choices = getattr(param.type, "choices", None) or ()
            words.update(str(c) for c in choices)
            metavar = getattr(param, "metavar", None) or ""
            if "|" in metavar:
                words.update(LATIN.findall(metavar))
    words |= EXAMPLE_NAMES | PROPER_NAMES | typed_words()
    from pancli.storage.catalogs import language_names
    for own_name in language_names().values():  # the language switch names each in its own words
        words.update(LATIN.findall(own_name))
    for game in GAMES.values():
        words.add(game.name)
        schema = game.schema
        for knob in schema.knobs.values():
            words.add(knob.name)
            allowed = knob.allowed if isinstance(knob.allowed, (tuple, list, set, frozenset)) else ()
            for value in (*allowed, knob.default):  # as a rules file writes them: true, not True
                words.update(LATIN.findall(format_value(value)))
            if knob.kind == BOOL:
                words.update(("true", "false"))
        for name in schema.presets:
            words.update(LATIN.findall(name))
            words.update(name.split("-"))  # a preset's name may wrap at its hyphen
    return {w.lower() for w in words}


# Python's spelling of a value is never data: a rules file writes true and false.
PYTHON = {"True", "False", "None"}


def leaks(output: str, allowed: set[str]) -> list[str]:
    """The lines of ``output`` with a Latin word that is not data."""
    bad = []
    for line in output.splitlines():
        words = [w for w in LATIN.findall(DATA.sub(" ", line))
                 if w in PYTHON or (w.lower() not in allowed and not CARD.match(w) and not w.isupper()
                                    and len(w) > 1)]
        if words:
            bad.append(f"{line.strip()[:100]!r}  (English: {', '.join(words[:6])})")
    return bad


@pytest.fixture
def russian(monkeypatch):
    """The shipped Russian catalog (tests/conftest.py clears any PANCLI_LOCALE_DIR of the shell)."""
    monkeypatch.setenv("PANCLI_LOCALE_DIR", str(LOCALE))
    return str(LOCALE)


def test_the_readme_and_the_manual_speak_russian_only(russian, tmp_path, monkeypatch):
    from language_samples import transcripts_in

    allowed = data_words()
    problems: list[str] = []
    for where, words, output, typed in transcripts_in("ru", russian, LATIN, tmp_path, monkeypatch):
        if "--json" in words:  # for scripts: English in every language
            continue
        for line in leaks(output, allowed | typed):
            problems.append(f"{where}: {line}")
    assert not problems, f"{len(problems)} lines leak English:\n" + "\n".join(problems[:120])


def test_every_help_speaks_russian_only(russian):
    import typer

    from pancli.cli import app
    from pancli.cli.registry import app as root

    allowed = data_words()
    problems: list[str] = []
    for path in [(), *command_paths(typer.main.get_command(root))]:
        result = CliRunner().invoke(app, ["--lang", "ru", *path, "--help"], prog_name="pan", terminal_width=80)
        for line in leaks(result.output, allowed | {w.lower() for w in path}):
            problems.append(f"pan {' '.join(path)} --help: {line}")
    assert not problems, f"{len(problems)} help lines leak English:\n" + "\n".join(problems[:120])


def test_every_page_speaks_russian_only(russian, tmp_path):
    from language_samples import PAGE_NAMES, pages_in

    allowed = data_words() | PAGE_NAMES
    problems = [f"{where}: {line}" for where, text in pages_in("ru", tmp_path) for line in leaks(text, allowed)]
    assert not problems, f"{len(problems)} page lines leak English:\n" + "\n".join(problems[:120])


@pytest.mark.parametrize("args", [["rules", "show", "--markdown"], ["rules", "show", "--all"],
                                  ["rules", "show", "--all", "--game", "contract"],
                                  ["rules", "show", "--all", "--game", "polish"]])
def test_the_rules_reference_speaks_russian_only(russian, args, tmp_path):
    """The reference of every knob: keys, values and presets are the rules files' words; what a
    knob is and does is Russian. (A database of its own: the user's default one may hold a
    session whose name is English.)"""
    from pancli.cli import app

    result = CliRunner().invoke(app, ["--db", str(tmp_path / "none.db"), "--lang", "ru", *args], prog_name="pan",
                                terminal_width=80)
    assert result.exit_code == 0, result.output
    problems = leaks(result.output, data_words() | {"hoyle", "bicycle"})
    assert not problems, f"{len(problems)} lines leak English:\n" + "\n".join(problems[:120])


def test_the_dealers_new_game_form_speaks_russian_only(russian, tmp_path):
    """The dealer page's new-game form shows each game's title and each preset's note from the
    dealer's API: the reader's words, while the names sent back stay the code's."""
    from starlette.testclient import TestClient

    from pancli.web.app import create_app

    from helpers import Pan

    db = tmp_path / "pan.db"
    Pan(db)("session new tonight --players Ana,Ben,Cruz --dealer Ana")
    with TestClient(create_app(db, "players", dealer_token="dealer"), base_url="http://testserver") as client:
        client.cookies.set("pan_lang", "ru")
        r = client.get("/dealer/api/new-game", headers={"x-pan-dealer": "dealer"})
    assert r.status_code == 200, r.text
    shown = [g["title"] for g in r.json()["games"]]
    shown += [p["note"] for g in r.json()["games"] for p in g["presets"]]
    problems = [line for text in shown for line in leaks(text, data_words() | {"hoyle", "bicycle"})]
    assert not problems, f"{len(problems)} texts leak English:\n" + "\n".join(problems)
    assert {p["name"] for g in r.json()["games"] for p in g["presets"]} >= {"hoyle", "cardroom-ca"}
