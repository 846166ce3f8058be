"""No line a person reads escapes the translation layer: in the pseudo-language ``qps`` every
message is wrapped in ⟦…⟧, and the README's and the manual's transcripts, every command's help
and every page, run in it, show no word outside the markers but what is data: player and session
names, card codes, numbers, dates, tags, rules keys, commands and their options.
"""

from __future__ import annotations

import re
import shlex
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import command_paths

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def qps(qps_dir):
    return Path(qps_dir)


# What a line may show outside the markers: it is data or a name the code gives, not a sentence.
WORD = re.compile(r"[^\W\d_](?:[\w'’-]*\w)?")
CARD = re.compile(r"^(?:[2-9TJQKA]|10)[SHDC]$")
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")


def outside_markers(text: str) -> str:
    """The text with every marked message taken out, innermost first (a message inside another)."""
    while True:
        shorter = MARKED.sub(" ", text)
        if shorter == text:
            return text
        text = shorter


def data_words() -> set[str]:
    """Words that are data wherever they show: tags, rules keys, reason codes, game and command
    names, options (each as the code spells it, never translated)."""
    from pancli.games import GAMES

    words = {"pan", "pancli", "panguingue", "qps", "en", "pl", "ru", "db", "json", "csv", "toml", "html",
             "http", "https", "sqlite", "litestream", "utf", "id", "ok", "stdin", "stdout"}
    import typer

    from pancli.cli.registry import app as root

    for path in command_paths(typer.main.get_command(root)):  # `pan --help` lists them as typed
        words.update(path)
    for game in GAMES.values():
        words.add(game.name)
        schema = game.schema
        for knob in schema.knobs.values():  # the rules files' keys and their values
            words.add(knob.name)
            for value in (knob.allowed if isinstance(knob.allowed, (tuple, list, set, frozenset)) else ()):
                words.update(WORD.findall(str(value)))
        for name in schema.presets:
            words.update(WORD.findall(name))
    return {w.lower() for w in words}


OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*|\S*[/\\]\S*|\S+\.(?:db|toml|json|csv|html|pan|md)\b")


def unmarked(output: str, allowed: set[str]) -> list[str]:
    """The lines of ``output`` that show a word outside the markers which is not data: options,
    paths, identifiers (``valle_suited``), metavars (``PATH``) and card codes are data."""
    bad = []
    for line in outside_markers(output).splitlines():
        words = [w for w in WORD.findall(OPTION.sub(" ", line))
                 if w.lower() not in allowed and not CARD.match(w) and not w.isupper() and "_" not in w
                 and len(w) > 1]
        if words:
            bad.append(f"{line.strip()[:100]!r}  (unmarked: {', '.join(words[:6])})")
    return bad


def transcripts_in(lang: str, locale_dir: str, word: re.Pattern, tmp_path, monkeypatch):
    """Every command of the README's and the manual's transcripts, run in ``lang`` with the
    catalogs of ``locale_dir``, each file in a fresh folder as tests/test_docs.py runs them:
    (where, the command's words, what it printed, the words the file types: data wherever they
    show). Commands that choose another language are left out."""
    import doc_commands

    from pancli.cli import app

    for doc in doc_commands.DOCS:
        folder = tmp_path / doc.stem
        folder.mkdir()
        home, cwd = doc_commands.fresh_folders(folder)
        monkeypatch.chdir(cwd)
        for var, value in doc_commands.clean_env(home).items():
            monkeypatch.setenv(var, value)
        monkeypatch.setenv("PANCLI_LOCALE_DIR", locale_dir)
        monkeypatch.setenv("COLUMNS", "80")
        monkeypatch.setenv("NO_COLOR", "1")
        commands = doc_commands.commands_of(doc)
        typed = {w.lower() for cmd in commands for part in shlex.split(cmd.text, comments=True)
                 for w in word.findall(part)}
        for cmd in commands:
            words, stdin = doc_commands.split_command(cmd.text)
            if "--lang" in words:
                continue  # an example of another language
            data = (cwd / stdin).read_text(encoding="utf-8") if stdin else None
            if data:
                typed |= {w.lower() for w in word.findall(data)}
            result = CliRunner().invoke(app, ["--lang", lang, *words], input=data, prog_name="pan",
                                        terminal_width=80)
            yield f"{doc.name}:{cmd.line} $ {cmd.text}", words, result.output, typed


def test_the_readme_and_the_manual_speak_only_through_the_catalog(qps, tmp_path, monkeypatch):
    allowed = data_words()
    problems: list[str] = []
    for where, words, output, typed in transcripts_in("qps", str(qps), WORD, tmp_path, monkeypatch):
        if "--json" in words:  # for scripts: English in every language
            if "⟦" in output:
                problems.append(f"{where}: --json speaks the language")
            continue
        for line in unmarked(output, allowed | typed):
            problems.append(f"{where}: {line}")
    assert not problems, f"{len(problems)} lines outside the catalog:\n" + "\n".join(problems[:80])


def test_every_help_speaks_only_through_the_catalog(qps, monkeypatch):
    from pancli.cli import app
    from pancli.cli.registry import app as root

    monkeypatch.setenv("PANCLI_LOCALE_DIR", str(qps))
    import typer

    allowed = data_words()
    problems: list[str] = []
    group = typer.main.get_command(root)
    for path in [(), *command_paths(group)]:
        result = CliRunner().invoke(app, ["--lang", "qps", *path, "--help"], prog_name="pan", terminal_width=80)
        for line in unmarked(result.output, allowed | {w.lower() for w in path}):
            problems.append(f"pan {' '.join(path)} --help: {line}")
    assert not problems, f"{len(problems)} help lines outside the catalog:\n" + "\n".join(problems[:80])


class _Text(HTMLParser):
    """What a person reads on a page: its text and the attributes a browser shows or speaks
    (titles, labels, placeholders, alt texts, button values); scripts and styles left out."""

    SHOWN = ("title", "aria-label", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.hidden += 1
        for name, value in attrs:
            if value and (name in self.SHOWN or (name == "value" and tag in ("button", "input")
                                                                   and dict(attrs).get("type") in ("submit", "button"))):
                self.lines.append(value)
        self.lines.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self.hidden = max(0, self.hidden - 1)
        self.lines.append("\n")

    def handle_data(self, data):
        if not self.hidden:
            self.lines.append(data)


def page_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.lines)


PAGE_NAMES = {"ana", "ben", "cruz", "dee", "ola", "piotr", "zosia", "tonight", "rummy", "polski"}


def pages_in(lang: str, folder: Path):
    """Every page of a night of each game (the players', TV and dealer's pages, and the error
    page), as a phone reading ``lang`` gets it: (where, the text a person reads)."""
    from starlette.testclient import TestClient

    from pancli.web.app import create_app

    from helpers import Pan

    db = folder / "pan.db"
    pan = Pan(db)
    pan("session new tonight --players Ana,Ben,Cruz,Dee --dealer Dee --chip-value 0.25")
    for line in ["deal", "drop cruz", "meld ben 5S 5S 5S", "add ben 5S", "meld ana JH QH KH",
                 "meld ben 2C 3C 4C 5C", "out ben 6D 6H 6C", "deal", "meld dee AS 2S 3S", "undo"]:
        pan(line)
    pan("session new rummy --game contract --players Ana,Ben,Cruz,Dee --dealer Dee")
    pan('contract lay ana "7S 7H 7D + QC QD QS"')
    pan("session new polski --game polish --players Ola,Piotr,Zosia")
    pan("polish lost piotr")
    with TestClient(create_app(db, "players", dealer_token="dealer"), base_url="http://testserver") as client:
        client.cookies.set("pan_lang", lang)
        for session in ("tonight", "rummy", "polski"):
            for path in ["/", "/tv", "/history", "/settle", "/sessions", "/player/Ana", "/player/Ola"]:
                r = client.get(path, params={"token": "players", "session": session})
                if r.status_code != 404:
                    yield f"{path}?session={session}", page_text(r.text)
            r = client.get("/dealer", params={"dealer": "dealer", "session": session})
            yield f"/dealer?session={session}", page_text(r.text)
        r = client.get("/nowhere", params={"token": "players"})
        yield "/nowhere", page_text(r.text)


def test_every_page_speaks_only_through_the_catalog(qps, tmp_path, monkeypatch):
    monkeypatch.setenv("PANCLI_LOCALE_DIR", str(qps))
    allowed = data_words() | PAGE_NAMES | {"english", "русский", "tv"}
    problems = [f"{where}: {line}" for where, text in pages_in("qps", tmp_path) for line in unmarked(text, allowed)]
    assert not problems, f"{len(problems)} page lines outside the catalog:\n" + "\n".join(problems[:80])
