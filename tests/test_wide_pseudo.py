"""The wide pseudo-language ``qpa`` (every message in full-width letters and padded with kana,
two cells a character, no space in the padding) run over the README's and the manual's
transcripts, as ``qps`` is in test_pseudo_language.py: no line a person reads past 80 cells,
measured by the width library, under either width of ambiguous characters."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import catalog_tool
from language_samples import transcripts_run

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
    """Every command of the README's and the manual's transcripts, run in ``lang`` at 80 columns:
    (where, words, output)."""
    for _commands, where, words, _data, output in transcripts_run(lang, locale_dir, tmp_path, monkeypatch, extra):
        yield where, words, output


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
