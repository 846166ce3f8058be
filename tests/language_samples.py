"""What a person reads in a language, for the tests that it is all that language: every command of
the README's and the manual's transcripts run in it, and every page of a night of each game as a
phone reading it gets them."""

from __future__ import annotations

import re
import shlex
from html.parser import HTMLParser
from pathlib import Path

from typer.testing import CliRunner


def transcripts_run(lang: str, locale_dir: str, tmp_path, monkeypatch, extra: tuple[str, ...] = ()):
    """Every command of the README's and the manual's transcripts, run in ``lang`` (after the
    options ``extra``) at 80 columns with the catalogs of ``locale_dir``, each file in a fresh
    folder as tests/test_docs.py runs them: (the file's commands, where, the command's words, what
    it read on its input, what it printed). Commands that choose another language are left out."""
    from pancli.cli import app

    import doc_commands

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
        for cmd in commands:
            words, stdin = doc_commands.split_command(cmd.text)
            if "--lang" in words:
                continue  # an example of another language
            data = (cwd / stdin).read_text(encoding="utf-8") if stdin else None
            result = CliRunner().invoke(app, [*extra, "--lang", lang, *words], input=data, prog_name="pan",
                                        terminal_width=80)
            yield commands, f"{doc.name}:{cmd.line} $ {cmd.text}", words, data, result.output


def transcripts_in(lang: str, locale_dir: str, word: re.Pattern, tmp_path, monkeypatch):
    """``transcripts_run``'s commands: (where, the command's words, what it printed, the words the
    file types: data wherever they show)."""
    doc, typed = None, set()
    for commands, where, words, data, output in transcripts_run(lang, locale_dir, tmp_path, monkeypatch):
        if commands is not doc:  # a new file: the words its commands type
            doc = commands
            typed = {w.lower() for cmd in commands for part in shlex.split(cmd.text, comments=True)
                     for w in word.findall(part)}
        if data:
            typed |= {w.lower() for w in word.findall(data)}
        yield where, words, output, typed


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
