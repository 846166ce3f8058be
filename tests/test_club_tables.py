"""`pan player`, `pan versus` and `pan standings --season` print exactly what they printed before
their tables were made cheaper to draw: a generated club (three games, persons of the roster and
names typed at tables, a name that looks like markup, a Japanese name, a long one that makes a
table compact at 40 cells, money per chip) is shown at COLUMNS 40, 80 and 200, piped and as on a
terminal (colours asked for with FORCE_COLOR), in English and Japanese, and as --json; each
output is compared byte for byte with the one the earlier code printed
(tests/fixtures/tables_golden/outputs.json.gz; made by ``make.py`` there)."""

from __future__ import annotations

import gzip
import io
import json
import random
import re
import sqlite3
from pathlib import Path

import pytest
from rich.table import Table
from typer.testing import CliRunner

from pancli.app import archive, archive_import
from pancli.cli import app, long_table
from pancli.cli.output import console, styled
from pancli.storage.store import Store

from helpers import Pan

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "tables_golden" / "outputs.json.gz"

SEATS = ("QQA", "QQB", "QQC", "QQD")
# Each game's night, recorded once through `pan` with these seats and copied for every night.
NIGHTS = {
    "panguingue": (["--chip-value", "0.25"], ["deal", "drop QQC", "meld QQB 5S 5S 5S", "add QQB 5S",
                                                "meld QQA JH QH KH", "meld QQB 2C 3C 4C 5C", "out QQB 6D 6H 6C"]),
    "contract": ([], ["contract lay qqa 7S 7H 7D / QC QD QS"]),
    "polish": ([], ["polish lost qqb"]),
}
# Who sits: Ana typed three ways (one person of the club), Ben and a Japanese name of the club, the
# others names typed at tables only (one of them markup to rich, one too long for 40 cells).
PEOPLE = [["Ana", "ana", "Anna K."], ["Ben"], ["ベンジャミン・フランクリン"], ["[red]Dee[/red]"],
          ["Eve Łukaszewiczówna-Brzęczyszczykiewicz"], ["Fay"]]
COUNTS = {"panguingue": 36, "contract": 4, "polish": 3}

COMMANDS = {
    "player": ["player", "Ana"], "player-ben": ["player", "Ben"], "player-jp": ["player", "ベンジャミン"],
    "versus": ["versus", "Ana", "Ben"], "season": ["standings", "--season", "2025"],
    "season-all": ["standings", "--season", "all"],
    "season-polish": ["standings", "--season", "all", "--game", "polish"],
}
# (language, COLUMNS, on a terminal, --json)
WAYS = [(lang, width, tty, False) for lang in ("en", "ja") for width in (40, 80, 200) for tty in (False, True)] + [
    ("en", 80, False, True)]


def case_id(command: str, lang: str, width: int, tty: bool, as_json: bool) -> str:
    return f"{command}-{lang}-{width}-{'tty' if tty else 'piped'}" + ("-json" if as_json else "")


CASES = [(c, *way) for c in COMMANDS for way in WAYS]


def template(folder: Path, name: str) -> str:
    """The game's night recorded through `pan` and exported, its device and global id taken out."""
    pan = Pan(folder / f"template-{name}.db")
    options, lines = NIGHTS[name]
    pan(f"session new night --game {name} --players {','.join(SEATS)} " + " ".join(options))
    for line in lines:
        pan(line)
    pan("session close", ok=False)  # a deal of contract or Polish Pan may stay in play
    text = pan("export night --format toml -o -").stdout
    return "\n".join(line for line in text.splitlines() if not line.startswith(("device =", "uid =")))


def build(folder: Path) -> Path:
    """The club: every game's nights imported into one host (named, dated and seated by a seeded
    draw), the host's folder synced, the roster made and synced again."""
    db = folder / "host.db"
    rng = random.Random(41)
    n = 0
    for name, count in COUNTS.items():
        plain = template(folder, name)
        store = Store(db)
        try:
            for i in range(count):
                n += 1
                who = rng.sample(PEOPLE, len(SEATS))
                text = plain.replace('name = "night"', f'name = "{name[:3]}{i:03d}"')
                for seat, spellings in zip(SEATS, who, strict=True):
                    text = text.replace(seat, rng.choice(spellings))
                stamp = f"{2025 + n % 2}-{1 + n * 7 % 12:02d}-{1 + n * 5 % 28:02d}"
                text = re.sub(r'created_at = "[^"]+"', f'created_at = "{stamp}T20:00:00+00:00"', text)
                text = re.sub(r'closed_at = "[^"]+"', f'closed_at = "{stamp}T23:00:00+00:00"', text)
                archive_import.import_document(store, archive.parse(text), make_current=False)
        finally:
            store.close()
    pan = Pan(db)
    pan(f"sync {folder / 'shared'} --create --device-name host")
    pan("club init Club")
    pan("club add Ana --alias ana --alias 'Anna K.'")
    pan("club add Ben")
    pan("club add ベンジャミン・フランクリン")
    pan("sync")
    return db


def shown(db: Path, command: str, lang: str, width: int, tty: bool, as_json: bool) -> str:
    """What the command prints, in-process: piped, or as on a terminal (FORCE_COLOR: colours and
    the terminal's own rendering, at the width COLUMNS says)."""
    env = {"COLUMNS": str(width), "LINES": "50", "FORCE_COLOR": "1" if tty else None, "NO_COLOR": None,
           "TERM": "xterm-256color" if tty else "dumb", "COLORTERM": None, "PANCLI_LANG": None, "LANG": None,
           "LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None}
    args = ["--db", str(db), "--lang", lang, *COMMANDS[command], *(["--json"] if as_json else [])]
    result = CliRunner(env=env).invoke(app, args)
    assert result.exit_code == 0, result.output
    if not as_json:
        return result.stdout
    con = sqlite3.connect(db)  # a person's id is drawn at random when the club adds them: by name
    try:
        ids = dict(con.execute("SELECT id, name FROM club_persons"))
    finally:
        con.close()
    return re.sub("|".join(ids), lambda m: f"<{ids[m[0]]}>", result.stdout)


@pytest.fixture(scope="module")
def club(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("club"))


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        return json.load(f)


def test_the_club_has_what_the_goldens_need(club, golden):
    assert set(golden) == {case_id(*c) for c in CASES}
    for key, text in golden.items():  # --json: one line, a document, however wide its names
        if key.endswith("-json"):
            assert text.count("\n") == 1 and json.loads(text), key
    player = json.loads(golden[case_id("player", "en", 80, False, True)])
    assert {g["game"] for g in player["games"]} == {"panguingue", "polish"} and player["opponents"]
    assert "\x1b[" in golden[case_id("player-ben", "en", 80, True, False)]  # coloured nets on a terminal
    assert "[red]Dee[/red]" in golden[case_id("season", "en", 80, False, False)]  # a name shown literally
    compact = golden[case_id("season-all", "en", 40, False, False)]
    assert "┃" not in compact and "Łukaszewiczówna" in compact  # too wide for its longest words: no rules


@pytest.mark.parametrize(("command", "lang", "width", "tty", "as_json"), CASES, ids=[case_id(*c) for c in CASES])
def test_the_text_is_byte_for_byte_what_it_was(club, golden, command, lang, width, tty, as_json):
    got = shown(club, command, lang, width, tty, as_json)
    expected = golden[case_id(command, lang, width, tty, as_json)]
    if got != expected:  # the first line that differs, to read
        for n, (a, b) in enumerate(zip(got.splitlines(), expected.splitlines()), 1):
            assert a == b, f"line {n}"
    assert got == expected


def season_like(rows: int) -> Table:
    """A table as a season draws it: names (wide, markup-like), a coloured net, counts."""
    table = Table(title="Season 2025 · 1667 sessions · 30 devices", title_justify="left")
    for col in ("player", "net", "nights"):
        table.add_column(col, justify="left" if col == "player" else "right")
    names = ["Ana", "ベンジャミン・フランクリン", "[red]Dee[/red]", "Eve\x1b[31m", "Łukasz"]
    for i in range(rows):
        net = (i * 37) % 29 - 14
        table.add_row(f"{names[i % len(names)]} {i}", styled((f"{net:+d}" if net else "0",
                                                               "green" if net > 0 else ("red" if net < 0 else None))),
                      str(i))
    return table


def printed(table: Table, width: int, tty: bool) -> str:
    out = io.StringIO()
    console(file=out, width=width, force_terminal=tty, color_system="standard" if tty else None).print(table)
    return out.getvalue()


@pytest.mark.parametrize("tty", [False, True], ids=["piped", "tty"])
@pytest.mark.parametrize("width", [20, 42, 80])
def test_a_long_table_is_drawn_as_rich_draws_it_without_laying_out_each_cell(monkeypatch, width, tty):
    from rich.padding import Padding

    laid_out = 0
    render = Padding.__rich_console__

    def counted(self, *args):
        nonlocal laid_out
        laid_out += 1
        return render(self, *args)

    monkeypatch.setattr(Padding, "__rich_console__", counted)
    fast = printed(season_like(200), width, tty)
    fast_cells = laid_out
    monkeypatch.setattr(long_table, "long_table", lambda table: table)  # rich alone
    laid_out = 0
    assert printed(season_like(200), width, tty) == fast
    assert laid_out >= 3 * 201  # rich lays out every cell and header (at 42 twice: fitting it renders it once)
    # Where the cells fit their columns the rows after the first are written without rich's layout
    # of each cell (the first is drawn by rich, to check it); at 20 cells they wrap: rich draws them.
    assert laid_out - fast_cells == (3 * 199 if width >= 42 else 0), (laid_out, fast_cells)
