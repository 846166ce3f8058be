"""Wide scripts in the terminal: widths in cells (ambiguous characters one cell or two), Japanese
lines broken by phrase where Unicode allows, never before 。 or 、."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pancli.core import width
from pancli.core.text import wrap_words

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
