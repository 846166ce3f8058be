"""Wide scripts in the terminal: widths in cells (ambiguous characters one cell or two), Japanese
lines broken by phrase where Unicode allows, never before 。 or 、."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pancli.core import width
from pancli.core.text import wrap_words

from helpers import tables_line_up

# UAX #14's classes CL, CP, EX and NS (the ones found in Japanese text): no line starts with one.
NO_START = set("、。，．」』）】〕〉》］｝)]!?！？ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・：；")


@pytest.fixture
def ambiguous_wide():
    width.use_ambiguous_wide(True)
    yield
    width.use_ambiguous_wide(False)


def test_cells_count_wide_and_ambiguous_characters():
    assert width.cells("5S 5S 5S") == 8
    assert width.cells("５Ｓ") == 4
    assert width.cells("チップ") == 6
    assert width.cells("5♠ 5♥ 5♦") == 8
    assert width.cells("Łukasz") == 6
    assert width.cells("e\u0301") == 1  # a combining accent takes no cell
    assert width.cells("\x1b[31m5♥\x1b[0m") == 2


def test_ambiguous_characters_two_cells_when_the_terminal_draws_them_wide(ambiguous_wide):
    assert width.cells("5♠ 5♥ 5♦") == 10  # ♦ is neutral: one cell either way
    assert width.cells("Łukasz") == 7
    assert width.cells("Борис") == 10
    assert width.cells("5S 5S 5S") == 8


JAPANESE = ("このメルドは同じランクの三枚のカードで、スペードのときは条件として各プレイヤーから"
            "チップを二枚ずつ受け取ります。「`pan check 5S 5S 5S`」と入力すると、判定が表示されます。")


@pytest.mark.parametrize("cols", [26, 33, 40, 61, 80])
def test_a_japanese_line_breaks_by_phrase_within_the_width(cols):
    lines = wrap_words(JAPANESE, cols)
    assert len(lines) > 1
    assert all(width.cells(x) <= cols for x in lines), lines
    assert lines[0] + "".join(x[2:] for x in lines[1:]) == JAPANESE  # nothing lost, no space added
    for x in lines[1:]:
        assert x.startswith("  ") and x[2] not in NO_START, lines
    assert any("`pan check 5S 5S 5S`" in x for x in lines), lines  # a quoted command is never cut


def test_the_wide_pseudo_text_breaks_between_full_width_letters():
    text = "⟦" + "ＡＢＣＤＥＦＧＨＩＪ" * 8 + "。⟧"
    lines = wrap_words(text, 80)
    assert [width.cells(x) <= 80 for x in lines] == [True] * len(lines) and len(lines) == 3
    assert not lines[-1].strip().startswith("。")


def test_an_english_line_loads_no_width_library_nor_line_breaker():
    """English start-up is unchanged: a line of one-cell characters is measured by its length."""
    code = ("import sys\nfrom pancli.core.text import wrap_words\n"
            "assert len(wrap_words('a plain English line that goes on past the width ' * 3, 40)) > 2\n"
            "assert len(wrap_words('Łukasz płaci Borisowi cztery żetony za układ ' * 3, 40)) > 2\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('wcwidth', 'budoux')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- the opt-in for terminals that draw ambiguous characters wide ---------------------------------

SUITS_AND_BOXES = set("♠♥♦♣") | {chr(c) for c in range(0x2500, 0x2580)} | set("▀▄█")


@pytest.fixture
def demo_db(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from pancli.cli import app

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PANCLI_DB", raising=False)
    monkeypatch.delenv("PANCLI_AMBIGUOUS_WIDE", raising=False)
    assert CliRunner().invoke(app, ["demo"], prog_name="pan", terminal_width=80).exit_code == 0
    return str(tmp_path / "data" / "pancli" / "demo.db")


def run(*words, env=None):
    from typer.testing import CliRunner

    from pancli.cli import app

    result = CliRunner().invoke(app, list(words), prog_name="pan", terminal_width=80, env=env)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("how", ["flag", "env"])
def test_ambiguous_wide_draws_letter_suits_and_ascii_borders_that_line_up(demo_db, how):
    for command in (["board"], ["standings"], ["history", "--last", "12"], ["report"], ["settle"],
                    ["player", "Ana"]):
        words = ["--db", demo_db, *command]
        out = run("--ambiguous-wide", *words) if how == "flag" else run(*words, env={"PANCLI_AMBIGUOUS_WIDE": "1"})
        assert not SUITS_AND_BOXES & set(out), (command, out)
        assert not tables_line_up(out, 2), (command, out)
        if command[0] != "history":  # piped, the history is one line an event (for grep)
            assert all(width_of(x, 2) <= 80 for x in out.splitlines()), (command, out)
    assert "5H" in run("--ambiguous-wide", "--db", demo_db, "history") and "|" in run("--ambiguous-wide", "--db", demo_db, "standings")
    plain = run("--db", demo_db, "history")
    assert "♥" in plain  # the opt-in ends with its command: the next one draws suits again
    assert not width.ambiguous_wide()


def test_ambiguous_wide_measures_cyrillic_two_cells_in_tables(demo_db):
    out = run("--ambiguous-wide", "--lang", "ru", "--db", demo_db, "settle")
    assert not tables_line_up(out, 2), out
    assert all(width_of(x, 2) <= 80 for x in out.splitlines()), out


def width_of(line: str, ambiguous: int) -> int:
    from wcwidth import width as measure

    return measure(line, ambiguous_width=ambiguous)


def test_the_qr_code_is_drawn_without_half_blocks_under_ambiguous_wide():
    from pancli.cli.commands.sessions.serve import _qr

    assert set("▀▄█") & set(_qr("http://192.168.1.20:8000/?token=abc"))
    width.use_ambiguous_wide(True)
    try:
        square = _qr("http://192.168.1.20:8000/?token=abc")
    finally:
        width.use_ambiguous_wide(False)
    assert not SUITS_AND_BOXES & set(square)
    rows = [x for x in square.splitlines() if x.strip()]
    assert max(width_of(x, 2) for x in rows) <= 80 and len(rows) > 25


# -- what a Japanese keyboard types ----------------------------------------------------------------

@pytest.mark.parametrize("as_json", [False, True])
def test_check_reads_full_width_cards_commands_and_ideographic_spaces(as_json):
    json = ["--json"] if as_json else []
    ruling = run("check", "5S", "5S", "5S", *json)
    assert ruling.startswith("{" if as_json else "5♠ 5♠ 5♠")
    assert run("check", "５Ｓ　５Ｓ　５Ｓ", *json) == ruling  # one argument, ideographic spaces
    assert run("check", "５Ｓ", "５Ｓ", "５Ｓ", *json) == ruling
    assert run("ｃｈｅｃｋ", "５Ｓ", "５ｓ", "5♠", *(["－－ｊｓｏｎ"] if as_json else [])) == ruling


def test_the_table_shell_reads_full_width_words_and_keeps_a_name_as_typed(tmp_path, monkeypatch):
    from pancli.cli.shell.table_shell import TableShell

    monkeypatch.delenv("PANCLI_DB", raising=False)
    shell = TableShell(db=str(tmp_path / "pan.db"))
    try:
        assert shell.execute("session new fri --players Ａｎａ,Ben,Cruz").ok
        assert shell.execute("ｄｅａｌ").ok
        melded = shell.execute("ｍｅｌｄ　ａｎａ　５Ｓ　５Ｓ　５Ｓ")
        assert melded.ok, melded.err
        assert "Ａｎａ melds 5♠ 5♠ 5♠" in melded.out  # found by NFKC, shown as it was given
        assert shell.execute("ｍ ｂｅｎ ７Ｈ　７Ｈ　７Ｈ").ok  # an alias, full-width
        board = shell.execute("ｂｏａｒｄ －－ｊｓｏｎ")
        assert board.ok and '"name": "Ａｎａ"' in board.out
    finally:
        shell.close()
