"""Terminals that draw East Asian "ambiguous" characters two cells wide (an option of iTerm2,
WezTerm, VTE, xterm that many Japanese, Chinese and Korean users turn on): ``--ambiguous-wide``
or ``PANCLI_AMBIGUOUS_WIDE=1``.

Under it, what `pan` prints is drawn with characters every terminal shows the same width:
suits as letters (5S 5H 5D 5C, the codes the commands take), tables with ASCII borders, the
report's sparklines as an ASCII ramp (``_.:-=+*#``), the QR
code in two spaces a module (``qr_compact``), and every width measured with ambiguous characters
(Cyrillic, ł, ·, …) two cells, rich's tables included (rich alone counts them one).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TextIO

from pancli.cli.letters import LETTERS  # what is printed instead under the opt-in
from pancli.core.text import cells, wrap_words
from pancli.core.width import ambiguous_wide, char_cells, has_unspaced, use_ambiguous_wide

ENV = "PANCLI_AMBIGUOUS_WIDE"
FLAG = "--ambiguous-wide"


def wanted(argv: list[str], environ: Mapping[str, str] | None = None) -> bool:
    """Whether this command line asks for the opt-in: the flag before ``--``, or the variable set
    to anything but empty or 0."""
    for arg in argv:
        if arg == "--":
            break
        if arg == FLAG:
            return True
    value = (os.environ if environ is None else environ).get(ENV, "").strip().lower()
    return value not in ("", "0", "no", "false", "off")


class Shown:
    """A standard stream as a terminal of wide scripts needs it: a line of a script written
    without spaces (Japanese) too wide for the output is broken as ``wrap_words`` breaks it (by
    phrase, never before 。), wherever it was printed; and, under the opt-in, suits written as
    letters and box drawing as ASCII. Text of ASCII alone passes as it is, at once."""

    def __init__(self, stream: TextIO, letters: bool, fit: bool = True) -> None:
        self._stream = stream
        self._letters = letters
        self._fits = fit  # standard error is not fitted: an error is one line, however long
        self._pending = ""  # the start of a line not ended yet: fitted when its end comes
        self._width: int | None = None

    def write(self, text: Any) -> int:
        if not isinstance(text, str):
            written: int = self._stream.write(text)  # bytes, through a binary stream's own write
            return written
        count = len(text)
        if self._letters:
            text = text.translate(LETTERS)
        if not self._fits:
            self._stream.write(text)
            return count
        if not self._pending and text.isascii():
            self._stream.write(text)
            return count
        text = self._pending + text
        done, _nl, self._pending = text.rpartition("\n")
        if _nl:
            if has_unspaced(done):  # a line may be too wide: each fitted
                self._stream.write("\n".join(self._fit(line) for line in done.split("\n")) + "\n")
            else:  # no line is fitted: all of them written as they are, at once
                self._stream.write(done + "\n")
        return count

    def write_unspaced(self, text: str) -> int:
        """Whole lines known to hold no character of a script written without spaces
        (``has_unspaced``), so none is fitted: written as ``write`` writes them, without looking."""
        if self._pending or not text.endswith("\n"):
            self.write(text)
            return len(text)
        self._stream.write(text.translate(LETTERS) if self._letters else text)
        return len(text)

    def write_whole(self, text: str) -> int:
        """Lines that are never to be broken, whatever script they hold (a JSON document: a string
        cut in two is not JSON), written as ``write_unspaced`` writes them."""
        return self.write_unspaced(text)

    def _fit(self, line: str) -> str:
        if line.isascii() or not has_unspaced(line):
            return line
        plain = _ANSI.sub("", line)
        if self._width is None:
            self._width = _width_of(self._stream)
        if cells(plain) <= self._width:
            return line
        return "\n".join(wrap_words(plain, self._width))

    def flush(self) -> None:
        if self._pending:
            pending, self._pending = self._pending, ""
            self._stream.write(pending)
        self._stream.flush()

    def writelines(self, lines: Iterable[Any]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def as_drawn(text: str) -> str:
    """Text as the standard streams print it (``Shown``), for text that reaches the terminal
    another way (a pager): suits as letters and ASCII borders under the opt-in, a Japanese line
    too long for the terminal broken by phrase."""
    drawn = io.StringIO()
    shown = Shown(drawn, ambiguous_wide())
    shown.write(text)
    shown.flush()
    return drawn.getvalue()


def _width_of(stream: TextIO) -> int:
    """The width a stream's lines are laid out in: its terminal's, or piped COLUMNS when it is a
    sane number (else 80), as cli/output's ``output_width`` says (not imported: output imports
    the wrapper, which imports this module)."""
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        terminal = False
    if terminal:
        return shutil.get_terminal_size((80, 24)).columns
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and 20 <= int(columns) <= 1000 else 80


def _narrow_rich() -> None:
    """rich measured as pancli measures: ambiguous characters two cells, but for the suits and box
    drawing the streams write as one-cell letters. Done once a process, when a wide terminal is used."""
    import rich.cells  # noqa: PLC0415 rich: only under --ambiguous-wide
    import rich.segment  # noqa: PLC0415 rich: only under --ambiguous-wide

    if getattr(rich.cells, "_pancli_wide", False):
        return
    def size(character: str, unicode_version: str = "auto") -> int:
        return 1 if character in LETTERS_FROM else char_cells(character)

    ascii_only = frozenset(map(chr, range(0x20, 0x7F))).issuperset
    for module in (rich.cells, rich.segment):  # segment took both by name
        if hasattr(module, "get_character_cell_size"):
            module.get_character_cell_size = size  # type: ignore[attr-defined]
        # rich's fast path for text it takes to be all one cell (Latin-1, Cyrillic, box drawing):
        # a private name of rich's, replaced as the measure is (rich has no switch for it, #4199)
        if hasattr(module, "_is_single_cell_widths"):
            setattr(module, "_is_single_cell_widths", ascii_only)  # noqa: B010
    rich.cells._pancli_wide = True  # type: ignore[attr-defined]


LETTERS_FROM = frozenset(chr(c) for c in LETTERS)


def use_wide(wide: bool) -> None:
    """Measure ambiguous characters as the terminal draws them, from now on in this process."""
    use_ambiguous_wide(wide)
    rich = sys.modules.get("rich.cells")
    if rich is not None and hasattr(rich, "cached_cell_len"):
        rich.cached_cell_len.cache_clear()  # widths measured the other way
    if wide and rich is not None:
        _narrow_rich()


def rich_as_wide() -> None:
    """Before rich draws anything under the opt-in: its widths as pancli's (called by ``console``)."""
    if ambiguous_wide():
        _narrow_rich()


@contextmanager
def shown_streams(wide: bool) -> Iterator[None]:
    """Standard output and error as ``Shown`` inside the block (a command's run): lines of a
    script without spaces fitted to the width, and when ``wide`` suits as letters and ASCII
    borders, ambiguous characters measured two cells."""
    before = ambiguous_wide()
    if wide:
        use_wide(True)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Shown(sys.stdout, wide), Shown(sys.stderr, wide, fit=False)
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass  # a reader gone or a stream closed: what main says of it was said
        sys.stdout, sys.stderr = saved
        if wide:
            use_wide(before)
