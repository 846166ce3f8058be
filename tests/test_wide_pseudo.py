"""The wide pseudo-language ``qpa`` (every message in full-width letters and padded with kana,
two cells a character, no space in the padding) run over the README's and the manual's
transcripts, as ``qps`` is in test_pseudo_language.py: no line a person reads past 80 cells,
measured by the width library, under either width of ambiguous characters."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import catalog_tool

WIDE = "qpa"


@pytest.fixture(scope="module")
def pseudo_dir(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("pseudo")
    catalog_tool().main(["pseudo", str(folder)])
    assert (folder / WIDE / "LC_MESSAGES" / "pancli.mo").is_file()
    return str(folder)


def cells(line: str, ambiguous: int = 1) -> int:
    from wcwidth import width

    return width(line, ambiguous_width=ambiguous)


def transcripts(lang: str, locale_dir: str, tmp_path: Path, monkeypatch, extra: tuple[str, ...] = ()):
    """Every command of the README's and the manual's transcripts, run in ``lang`` at 80 columns,
    each file in a fresh folder as tests/test_docs.py runs them: (where, words, output)."""
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
        for cmd in doc_commands.commands_of(doc):
            words, stdin = doc_commands.split_command(cmd.text)
            if "--lang" in words:
                continue  # an example of another language
            data = (cwd / stdin).read_text(encoding="utf-8") if stdin else None
            result = CliRunner().invoke(app, [*extra, "--lang", lang, *words], input=data, prog_name="pan",
                                        terminal_width=80)
            yield f"{doc.name}:{cmd.line} $ {cmd.text}", words, result.output


def too_wide(words: list[str], output: str, ambiguous: int) -> list[str]:
    """The lines of ``output`` past 80 cells. What is for scripts is left out: JSON, CSV, an
    archive, and the lines piped output keeps whole so that grep finds them (one line an event
    of the history, one a session of the list)."""
    if {"--json", "--csv", "--format", "export", "--format-doc"} & set(words) or "-o" in words:
        return []
    # an error is one line however long (one line to grep, as tests/test_fuzz.py holds it)
    return [f"{cells(x, ambiguous)} cells: {x[:90]!r}" for x in output.splitlines()
            if cells(x, ambiguous) > 80 and not x.startswith("⟦Ｅｒｒｏｒ:")]


@pytest.mark.parametrize("ambiguous", [1, 2])
def test_the_transcripts_in_the_wide_pseudo_language_fit_80_cells(pseudo_dir, tmp_path, monkeypatch, ambiguous):
    extra = ("--ambiguous-wide",) if ambiguous == 2 else ()
    problems = [f"{where}: {line}" for where, words, output in transcripts(WIDE, pseudo_dir, tmp_path, monkeypatch, extra)
                for line in too_wide(words, output, ambiguous)]
    assert not problems, f"{len(problems)} lines past 80 cells:\n" + "\n".join(problems[:60])
