"""The commands of the docs' ```console blocks (README.md and docs/*.md), and the fresh folders and
clean environment a file of them runs in: tests/test_docs.py runs them and compares what they
print; other tests run them in other languages."""

from __future__ import annotations

import os
import re
import shlex
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


DOCS = [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "commands.md")


EXIT = re.compile(r"^\[exit (\d+)\]$")  # the exit status of a command that does not exit 0


@dataclass
class Command:
    file: str
    line: int              # where the command is in the file
    text: str              # what follows `$ `
    expected: list[str] = field(default_factory=list)
    code: int = 0


def console_blocks(path: Path) -> list[list[tuple[int, str]]]:
    blocks, current = [], None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if current is None:
            if line.strip() == "```console":
                current = []
        elif line.strip() == "```":
            blocks.append(current)
            current = None
        else:
            current.append((number, line))
    assert current is None, f"{path.name}: a ```console block is never closed"
    return blocks


# The year the docs were written: the nights they record are recorded now, so in a command and in
# what it prints this year stands for the year it is run in (`pan standings --season 2026`).
WRITTEN_IN = re.compile(r"(?<![\d-])2026(?![\d-])")


def this_year(line: str) -> str:
    return WRITTEN_IN.sub(str(date.today().year), line)


def commands_of(path: Path) -> list[Command]:
    out: list[Command] = []
    for block in console_blocks(path):
        for number, written in block:
            line = this_year(written)
            if line.startswith("$ "):
                out.append(Command(path.name, number, line[2:]))
                continue
            assert out and out[-1].line >= block[0][0], \
                f"{path.name}:{number}: a console block must start with a `$ pan …` line"
            m = EXIT.match(line.strip())
            if m:
                out[-1].code = int(m.group(1))
            else:
                out[-1].expected.append(line)
    return out


def split_command(text: str) -> tuple[list[str], str | None]:
    """The words after `pan` (a `# comment` dropped) and a file redirected to standard input."""
    words = shlex.split(text, comments=True)
    assert words and words[0] == "pan", f"`{text}` is not a pan command: fence it as ```text"
    words = words[1:]
    stdin = None
    if len(words) >= 2 and words[-2] == "<":
        stdin, words = words[-1], words[:-2]
    assert not any(w in ("|", ">", "<", "&&", ";") for w in words), f"`{text}`: only `< FILE` is understood"
    return words, stdin


def fresh_folders(tmp: Path) -> tuple[Path, Path]:
    """A home and a working folder of their own, the examples reachable as in the repository."""
    home, cwd = tmp / "home", tmp / "work"
    home.mkdir()
    cwd.mkdir()
    (cwd / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    return home, cwd


def clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PANCLI_DB", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "FORCE_COLOR", "LINES", "COLUMNS",
                        "PAGER", "MANPAGER", "LESS")}
    return {**env, "HOME": str(home)}


class Typist:
    """The docs' commands as a person types them, seconds apart: two sessions a file begins are
    begun in two different seconds. Begun in one second on two hosts, two nights have no order but
    their devices' random ids, and the docs show them in the order they were begun."""

    def __init__(self) -> None:
        self.begun: int | None = None   # the second the last session was begun by

    @staticmethod
    def begins(words: list[str]) -> bool:
        return any(a == "session" and b == "new" for a, b in zip(words, words[1:]))

    def before(self, words: list[str]) -> None:
        if self.begun is not None and self.begins(words):
            time.sleep(max(0.0, self.begun + 1 - time.time()))

    def after(self, words: list[str]) -> None:
        if self.begins(words):
            self.begun = int(time.time())
