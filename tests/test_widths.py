"""Output that fits the terminal: every command's output rendered at 60, 80 and 120 columns
(COLUMNS, as a piped command or a narrow terminal reads it) breaks lines between words, never
inside one; tables and reports fit the width; widths are counted in terminal cells, so a CJK
name lines up with the others."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from pancli.cli import app

from helpers import command_paths

ROOT_DIR = Path(__file__).resolve().parent.parent
WIDTHS = (60, 80, 120)
WIDE = 1000

# Read-only commands whose output is a table, a report or a list: each fits the width.
REPORTS = [
    "board", "standings", "standings --season all", "history", "history --hand 2",
    "report", "settle", "sessions", "session list", "session show", "player ana", "player 王芳",
    "rules show", "rules show --all", "rules show --preset cardroom-ca", "rules show --game contract --all",
    "rules show --game polish --all", "check --arrange KS KS KS 5H 5H 5H 5H AC 2C 3C 4C",
    "check --out KS KH KD KC / 2D 3D 4D 5D / 5S 5S 5S", "check 5S 5S 5H",
    "turn drawn QH --hand 2C 3C --melds AS 2S 3S --next-flat 6H 7H JH / 4C 4C 4C / KS KS KS KS",
    "db status", "db check --full", "rescore --preset cardroom-ca",
    "contract check --deal 1 7S 7H 7D / 7C 7S 7H", "polish check --pile '9H TS JD QC KH' --take --seats Ola,Piotr,Zosia "
    "--mover Piotr --preset piki-cofane", "polish deal-sizes 5",
]
# The other games' sessions, in a database of their own: their boards and standings.
OTHER_GAMES = {
    # settle-up in bank mode: buy-ins, a cash-out, a stack below zero, chips left on the tops
    "bank": ["session new night --players Ana,Ben,王芳 --chip-value 0.5", "buyin ana 20", "buyin ben 20",
             "buyin 王芳 5", "deal", "drop ben", "meld ana 5S 5S 5S", "meld ana 3S 3S 3S", "cashout ben 18"],
    "contract": ["session new tuesday --game contract --players Ana,Ben,Cruz,王芳 --dealer 王芳",
                 "contract lay ana 7S 7H 7D / QC QD QS", "contract lay ben KS KH KC / 4D 4C 4S",
                 "contract layoff ana 1 7C", "contract out ana --discard 2H", "contract left ben 9C 9D",
                 "contract left cruz AS 5H 5D", "contract left 王芳 --points 12",
                 'contract deal --out ben --left "Ana=AH AD" --left Cruz=12 --left "王芳=2C 3C"'],
    "polish": ["session new friday --game polish --players Ola,Piotr,Zosia", "polish lost piotr", "polish nolose",
               "polish lost ola"],
    # a player's career over the three games: a table per game, each in its own columns
    "mixed": ["session new tuesday --game contract --players Ana,Ben,王芳 --dealer 王芳",
              'contract deal --out ana --left "Ben=9C 9D" --left 王芳=12',
              "session new friday --game polish --players Ana,Piotr,王芳", "polish lost piotr", "polish lost ana",
              "session new night --players Ana,Ben,王芳 --chip-value 0.5", "deal", "drop ben", "meld ana 5S 5S 5S"],
}
OTHER_REPORTS = {"bank": ["settle", "settle --chip-value 1", "sessions", "session list"],
                 "contract": ["contract status", "standings", "history", "report", "settle",
                              "standings --season all --game contract"],
                 "polish": ["polish status", "standings", "history", "report", "settle",
                            "standings --season all --game polish"],
                 "mixed": ["player ana", "player 王芳", "player ben", "settle tuesday", "report tuesday", "sessions"]}
NOT_WRAPPED = {"history", "history --hand 2"}  # piped, one event (or payment) per line, for grep

_SPLIT = re.compile(r"[\s\u2500-\u257f]+")  # spaces and box-drawing rules
_CHART = set("▁▂▃▄▅▆▇█")


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> Path:
    """The README's evening of examples/tonight.pan, with Gus seated as 王芳 (two cells a character)."""
    db = tmp_path_factory.mktemp("widths") / "pan.db"
    script = (ROOT_DIR / "examples" / "tonight.pan").read_text(encoding="utf-8")
    script = script.replace("Gus", "王芳").replace("gus", "王芳")
    r = CliRunner().invoke(app, ["--db", str(db), "table", "--quiet"], input=script)
    assert r.exit_code == 0, r.output
    return db


def render(db: Path, line: str, width: int) -> str:
    r = CliRunner(env={"COLUMNS": str(width)}).invoke(app, ["--db", str(db), *shlex.split(line)], prog_name="pan")
    assert r.exit_code in (0, 1), f"pan {line}: {r.output}"
    return r.stdout


def words(text: str) -> set[str]:
    return {w for w in _SPLIT.split(text) if w and not set(w) <= _CHART}


def broken_words(narrow: str, wide: str) -> set[str]:
    """Words of the narrow rendering that the wide one never prints: a word cut by a line break,
    or shortened with an ellipsis."""
    return words(narrow) - words(wide)


def help_lines() -> list[str]:
    import typer

    root = typer.main.get_command(app)
    return [" ".join([*path, "--help"]) for path in [(), *command_paths(root)]]


@pytest.mark.parametrize("line", REPORTS)
def test_every_report_fits_60_80_and_120_columns_without_breaking_a_word(evening, line):
    wide = render(evening, line, WIDE)
    for width in WIDTHS:
        out = render(evening, line, width)
        assert not broken_words(out, wide), f"pan {line} at {width} columns breaks {broken_words(out, wide)}"
        too_long = [x for x in out.splitlines() if cell_len(x) > width and line not in NOT_WRAPPED]
        assert not too_long, f"pan {line} at {width} columns: {too_long[0]!r} is {cell_len(too_long[0])} cells"
        assert not [x for x in out.splitlines() if x != x.rstrip() and cell_len(x) >= width - 1 and
                    not x.strip().startswith(("│", "┃", "┏", "┡", "└"))], f"pan {line}: padded to the width"


@pytest.mark.parametrize("game", sorted(OTHER_GAMES))
def test_the_other_games_reports_fit_too(tmp_path, game):
    db = tmp_path / "pan.db"
    for line in OTHER_GAMES[game]:
        r = CliRunner().invoke(app, ["--db", str(db), *shlex.split(line)])
        assert r.exit_code == 0, f"pan {line}: {r.output}"
    for line in OTHER_REPORTS[game]:
        wide = render(db, line, WIDE)
        for width in WIDTHS:
            out = render(db, line, width)
            assert not broken_words(out, wide), f"pan {line} at {width} columns breaks {broken_words(out, wide)}"
            if line != "history":
                too_long = [x for x in out.splitlines() if cell_len(x) > width]
                assert not too_long, f"pan {line} at {width} columns: {too_long[0]!r}"


def test_every_help_breaks_lines_between_words(evening):
    for line in help_lines():
        wide = render(evening, line, WIDE)
        for width in WIDTHS:
            out = render(evening, line, width)
            assert not broken_words(out, wide), f"pan {line} at {width} columns breaks {broken_words(out, wide)}"


def test_the_test_sees_a_word_broken_mid_word():
    assert broken_words("the condi\ntions laid", "the conditions laid") == {"condi", "tions"}
    assert broken_words("┃ conditi… ┃", "┃ conditions ┃") == {"conditi…"}


def test_piped_output_is_80_columns_unless_columns_says_otherwise(evening, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    out = CliRunner().invoke(app, ["--db", str(evening), "rules", "show", "--all"]).stdout
    assert max(cell_len(x) for x in out.splitlines()) <= 80
    assert all(x == x.rstrip() for x in out.splitlines()), "no padding to a width when piped"
    standings = CliRunner().invoke(app, ["--db", str(evening), "standings"]).stdout
    assert standings.splitlines()[0] == "Standings · tonight"  # the title is not padded either


def test_names_line_up_in_terminal_cells(evening):
    """王芳 is four cells wide: the chart's marks, the standings' and the settle-up's columns start
    where the other players' do."""
    report = render(evening, "report", 80)
    chart = [x for x in report.splitlines() if any(ch in _CHART for ch in x)]
    starts = {cell_len(x[:next(i for i, ch in enumerate(x) if ch in _CHART)]) for x in chart}
    assert len(chart) == 7 and len(starts) == 1, chart
    settle = [x for x in render(evening, "settle", 80).splitlines() if x.startswith("  ") and " pays " not in x]
    ends = {cell_len(x[:x.index(" chips")]) for x in settle}
    assert len(settle) == 7 and len(ends) == 1, settle
    table = [x for x in render(evening, "standings", 80).splitlines() if x.startswith("│")]
    assert len({cell_len(x) for x in table}) == 1


# -- pan rules show -------------------------------------------------------------------------


def test_rules_show_lists_only_what_differs_by_topic_and_all_with_all(tmp_path):
    db = tmp_path / "none.db"
    shown = render(db, "rules show --preset cardroom-ca", 80)
    assert shown.splitlines()[0] == "House rules: preset cardroom-ca, 6 of 47 knobs differ from hoyle."
    assert "Antes, drops and tops\n  ante = 1  (hoyle: 0)\n    chips each player puts on the tops to be dealt in\n" in shown
    assert "packs =" not in shown and "Conditions" not in shown  # unchanged knobs and topics stay out
    every = render(db, "rules show --preset cardroom-ca --all", 80)
    assert every.count(" = ") == 47 and "* ante = 1  (hoyle: 0)" in every and "  packs = 8\n" in every
    topics = [x for x in every.splitlines() if x and not x.startswith(" ") and not x.startswith(("House", "*", "(recorded"))]
    assert topics == ["The pack", "Seating and rotation", "Antes, drops and tops", "The turn", "Melds",
                      "Conditions", "Going out and irregularities"]
    assert render(db, "rules show", 80).splitlines()[0] == "House rules: preset hoyle, the game's default."
    assert not db.exists()  # looking for a session never makes a database


def test_rules_show_without_options_explains_the_current_session(tmp_path):
    db = tmp_path / "pan.db"
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "cardroom-ca"\ndrop_cost = 3\n', encoding="utf-8")
    r = CliRunner().invoke(app, ["--db", str(db), "session", "new", "fri", "--players", "Ana,Ben",
                                 "--rules", str(rules)])
    assert r.exit_code == 0, r.output
    shown = render(db, "rules show", 80)
    assert shown.splitlines()[0] == "House rules: session fri, 1 of 47 knobs differs from cardroom-ca."
    assert "  drop_cost = 3  (cardroom-ca: 0)\n" in shown


# -- pan table's help -----------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_the_tables_help_fits_one_screen_and_names_every_command(evening, width):
    from pancli.cli.shell.help import help_text
    from pancli.cli.shell.table_shell import ALIASES, TableShell

    sh = TableShell(db=str(evening))
    try:
        text = help_text(sh, width=width)
        lines = text.splitlines()
        assert len(lines) <= 20 and all(cell_len(x) <= width for x in lines), text
        flat = " ".join(text.split())
        for name, cmd in sh.command.all_commands().items():
            if name not in ("table", "demo") and not cmd.hidden:
                assert name in flat, name
        for alias, name in ALIASES.items():
            assert f"{name} ({alias})" in flat
        assert "help COMMAND" in flat and "redo" in flat
        whole = sh.execute("help meld").out
        assert "Usage: pan meld" in whole and "Example: pan meld" in whole
    finally:
        sh.close()


def test_wrap_words_never_breaks_a_word_or_a_quoted_command():
    from pancli.core.text import wrap_words

    line = "  Still to record: the cards left of Ben, Cruz, Dee (`pan contract left NAME CARDS`)."
    assert wrap_words(line, 52) == ["  Still to record: the cards left of Ben, Cruz, Dee",
                                    "    (`pan contract left NAME CARDS`)."]
    assert wrap_words("short", 10) == ["short"]
    assert wrap_words("a rejected_stock_card_meld_now b", 10) == ["a", "  rejected_stock_card_meld_now", "  b"]


def test_the_list_of_sessions_fits_with_a_session_from_another_device(tmp_path):
    """A synced session's long name (friday@ana-laptop) and its read-only mark are never cut."""
    ana, ben, shared = tmp_path / "ana.db", tmp_path / "ben.db", tmp_path / "shared"
    for db, line in [(ana, "session new friday --players Ana,Ben,Cruz"), (ana, "deal"), (ana, "meld ana 5S 5S 5S"),
                     (ana, f"sync {shared} --create --device-name ana-laptop"),
                     (ben, "session new friday --players Ben,Cruz,Dee"), (ben, f"sync {shared} --device-name ben-laptop")]:
        r = CliRunner().invoke(app, ["--db", str(db), *shlex.split(line)])
        assert r.exit_code == 0, f"pan {line}: {r.output}"
    for line in ("sessions", "session list"):
        wide = render(ben, line, WIDE)
        assert "friday@ana-laptop" in wide and "ana-laptop" in wide
        for width in WIDTHS:
            out = render(ben, line, width)
            assert not broken_words(out, wide), f"pan {line} at {width} columns breaks {broken_words(out, wide)}"
            too_long = [x for x in out.splitlines() if cell_len(x) > width]
            assert not too_long, f"pan {line} at {width} columns: {too_long[0]!r}"


def test_a_ruling_in_colour_wraps_as_the_piped_one_does():
    """At a terminal (FORCE_COLOR asks for the same path) pan check keeps its colours and breaks
    its lines where piped output does, the later lines indented under the first."""
    ansi = re.compile(r"\x1b\[[0-9;]*m")
    piped = CliRunner(env={"COLUMNS": "80"}).invoke(app, ["check", "5S", "5S", "5H"]).stdout
    coloured = CliRunner(env={"COLUMNS": "80", "FORCE_COLOR": "1"}).invoke(app, ["check", "5S", "5S", "5H"]).stdout
    assert "\x1b[" in coloured
    assert ansi.sub("", coloured) == piped
    assert piped.splitlines()[-1] == "    different suits"
