"""One line at `pan table`: the words the shell reads otherwise than `pan` (aliases, its own
words) and what the line did (``LineResult``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# One-letter aliases for the frequent commands.
ALIASES = {"m": "meld", "a": "add", "d": "drop", "o": "out", "u": "undo", "b": "board", "s": "standings"}
QUIT_WORDS = ("quit", "exit")
NOT_PLAIN = re.compile(r"[\"'\\#]|[^\S \t\r\n]")  # what shlex reads otherwise than str.split
SHELL_WORDS = ("help", "redo", "clear") + QUIT_WORDS


@dataclass
class LineResult:
    """What one line did: its exit status, what it printed, and whether it changed anything."""

    line: str
    status: int = 0
    out: str = ""
    err: str = ""
    changed: bool = False
    quit: bool = False
    skipped: bool = False
    clear: bool = False
    board: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == 0

    def text(self) -> str:
        """Everything the line showed, as plain text (errors last)."""
        return self.out + "".join(f"{line}\n" for line in self.board) + self.err
