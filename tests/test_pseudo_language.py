"""No line a person reads escapes the translation layer: in the pseudo-language ``qps`` every
message is wrapped in ⟦…⟧, and the README's and the manual's transcripts, every command's help
and every page, run in it, show no word outside the markers but what is data: player and session
names, card codes, numbers, dates, tags, rules keys, commands and their options.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import command_paths
from language_samples import PAGE_NAMES, pages_in, transcripts_in

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


def test_every_page_speaks_only_through_the_catalog(qps, tmp_path, monkeypatch):
    monkeypatch.setenv("PANCLI_LOCALE_DIR", str(qps))
    allowed = data_words() | PAGE_NAMES | {"english", "русский", "tv"}
    problems = [f"{where}: {line}" for where, text in pages_in("qps", tmp_path) for line in unmarked(text, allowed)]
    assert not problems, f"{len(problems)} page lines outside the catalog:\n" + "\n".join(problems[:80])
