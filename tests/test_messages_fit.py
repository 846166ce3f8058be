"""Every message of every catalog (pancli/locale/*, and the pseudo-languages qps and qpa), rendered
with sample values through the wrapper the command line uses (``wrap_words``), fits 80 terminal
cells, measured by the width library with ambiguous characters one cell and two; the column
headers, drawn unwrapped by word, fit the tables they head."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import catalog_tool

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = {"player": "Ana", "players": "Ana, Ben, Cruz", "payer": "Ben", "payers": "Ben, Cruz", "payee": "Ana",
           "name": "Ana", "session": "friday", "cards": "5♠ 5♠ 5♠", "card": "5♠", "chips": "12", "n": "3",
           "count": "3", "amount": "$12.50", "money": "$12.50", "path": "/home/ana/.local/share/pancli/pancli.db",
           "db": "/home/ana/.local/share/pancli/pancli.db"}


def catalogs(pseudo_dir: str) -> list[tuple[str, dict[str, list[str]]]]:
    """(language, {msgid: its translations}) for every catalog in pancli/locale and the pseudo ones."""
    tool = catalog_tool()
    found = []
    for lang in tool.languages():
        catalog = tool._read_po(tool.po_path(lang), lang)
        found.append((lang, {str(m.id): [s for s in (m.string if isinstance(m.string, tuple) else (m.string,)) if s]
                             for m in catalog if m.id}))
    template = tool._read_po(tool.POT)
    for code, say in ((tool.PSEUDO, tool.pseudo_text), (tool.WIDE_PSEUDO, tool.wide_text)):
        found.append((code, {str(m.id): [say(s) for s in (m.id if isinstance(m.id, tuple) else (m.id,))]
                             for m in template if m.id}))
    return found


def rendered(text: str) -> str:
    """A message with each placeholder given a sample value (a word of its own name otherwise)."""
    text = re.sub(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}", lambda m: SAMPLES.get(m.group(1), m.group(1)), text)
    return re.sub(r"%\((\w+)\)[sdr]", lambda m: SAMPLES.get(m.group(1), m.group(1)), text)


@pytest.fixture(scope="module")
def all_catalogs(tmp_path_factory):
    return catalogs(str(tmp_path_factory.mktemp("pseudo")))


def cells(text: str, ambiguous: int) -> int:
    from wcwidth import width

    return width(text, ambiguous_width=ambiguous)


@pytest.mark.parametrize("ambiguous", [1, 2])
def test_every_message_of_every_catalog_fits_80_cells_once_wrapped(all_catalogs, ambiguous):
    from pancli.core import width
    from pancli.core.text import wrap_words

    width.use_ambiguous_wide(ambiguous == 2)
    try:
        problems = []
        for lang, messages in all_catalogs:
            for msgid, strings in messages.items():
                for string in strings:
                    for line in rendered(string).split("\n"):
                        for part in wrap_words(line, 80):
                            if cells(part, ambiguous) > 80:
                                problems.append(f"{lang}: {cells(part, ambiguous)} cells: {part[:70]!r} ({msgid[:40]!r})")
    finally:
        width.use_ambiguous_wide(False)
    assert {lang for lang, _m in all_catalogs} >= {"pl", "ru", "qps", "qpa"}
    assert not problems, f"{len(problems)} lines past 80 cells:\n" + "\n".join(problems[:40])


def test_the_column_headers_of_every_catalog_fit_their_tables(all_catalogs):
    """A header is broken between its words, never inside one: the widest table's headers
    (the standings of a night in chips: player, net, money and the counts) each as wide as its
    longest word, with a cell of padding each side and a rule between, fit 80 cells. Every
    language's catalog and qps; not the wide qpa, whose every word is made 2.7 times as wide as
    English to find lines nobody wrapped (a header in Japanese breaks between any two kana).
    Ambiguous characters one cell: Russian's headers in a terminal that draws Cyrillic two cells
    wide need 102 cells, and the table breaks words there (see docs/languages.md)."""
    from pancli.cli.render import COLUMNS
    from pancli.games.protocol import TALLIES

    widest = ["player", "net", "money", *TALLIES]
    problems = []
    for lang, messages in all_catalogs:
        if lang == "qpa":
            continue
        headers = [(messages.get(COLUMNS[c]) or [COLUMNS[c]])[0] for c in widest if c in COLUMNS]
        need = sum(max(cells(w, 1) for w in h.split()) + 3 for h in headers) + 1
        if need > 80:
            problems.append(f"{lang}: {need} cells for {headers}")
    assert not problems, problems
