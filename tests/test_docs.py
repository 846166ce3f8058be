"""Every ```console block of README.md and docs/*.md is run, in order, one file at a time on a fresh
database, and must print what it shows and exit as it shows (the convention is in README.md,
Development). docs/commands.md is generated from the commands themselves (see test_help.py): its
blocks are usage lines, not a session.

Run by hand to see every difference of one file at once:  python tests/test_docs.py docs/turns.md
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "commands.md")
WIDTH = 80                              # the terminal the docs were written at
FROZEN = "2026-11-27T21:00:00+00:00"   # every recorded time, so dates in the output stay put
ANY = "…"                               # a line that is exactly this stands for any lines (or none)
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


def commands_of(path: Path) -> list[Command]:
    out: list[Command] = []
    for block in console_blocks(path):
        for number, line in block:
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


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines are the expected ones, each `…` line standing for any lines."""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == ANY:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return actual == parts[0]
    first, *middle, last = parts
    if actual[:len(first)] != first:
        return False
    pos = len(first)
    end = len(actual) - len(last)
    if end < pos or (last and actual[end:] != last):
        return False
    for part in middle:
        for i in range(pos, end - len(part) + 1):
            if actual[i:i + len(part)] == part:
                pos = i + len(part)
                break
        else:
            return False
    return True


def normalise(text: str, home: Path, cwd: Path) -> list[str]:
    text = text.replace(str(cwd) + os.sep, "").replace(str(home), "~")
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run_file(path: Path, tmp: Path, monkeypatch, outputs: dict | None = None) -> list[str]:
    """Run every command of the file in a fresh folder and home; the differences found (and, given a
    dict, what each command printed, by line number, for rewriting the docs by hand)."""
    from typer.testing import CliRunner

    from pancli.cli import app
    from pancli.storage import log

    home, cwd = tmp / "home", tmp / "work"
    home.mkdir()
    cwd.mkdir()
    (cwd / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("HOME", str(home))
    for var in ("PANCLI_DB", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "FORCE_COLOR", "LINES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setattr(log, "now", lambda: FROZEN)
    runner = CliRunner()
    problems = []
    for cmd in commands_of(path):
        words, stdin = split_command(cmd.text)
        data = (cwd / stdin).read_text(encoding="utf-8") if stdin else None
        result = runner.invoke(app, words, input=data, prog_name="pan", terminal_width=WIDTH)
        if result.exception and not isinstance(result.exception, SystemExit):
            problems.append(f"{cmd.file}:{cmd.line}: $ {cmd.text}\n  raised {result.exception!r}")
            continue
        actual = normalise(result.output, home, cwd)
        if outputs is not None:
            outputs[cmd.line] = actual + ([f"[exit {result.exit_code}]"] if result.exit_code else [])
        expected = [line.rstrip() for line in cmd.expected]
        if result.exit_code != cmd.code or not matches(expected, actual):
            shown = "\n".join(f"    {x}" for x in actual)
            problems.append(f"{cmd.file}:{cmd.line}: $ {cmd.text}\n  exit {result.exit_code} "
                            f"(the docs show {cmd.code}); it printed:\n{shown}")
    return problems


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_documented_commands_print_what_the_docs_show(path, tmp_path, monkeypatch):
    problems = run_file(path, tmp_path, monkeypatch)
    assert not problems, "\n\n".join(problems)


def test_the_wildcard_line():
    assert matches(["a", ANY, "d"], ["a", "b", "c", "d"])
    assert matches(["a", ANY], ["a"])
    assert matches([ANY, "c", ANY], ["a", "b", "c", "d"])
    assert not matches(["a", ANY, "d"], ["a", "b"])
    assert not matches(["a"], ["a", "b"])


def test_every_documented_file_has_commands_that_run():
    assert all(commands_of(p) for p in DOCS if p.name in ("README.md", "turns.md", "other-games.md"))


if __name__ == "__main__":  # pragma: no cover - a tool for writing the docs
    # python tests/test_docs.py FILE…          every difference
    # python tests/test_docs.py --write FILE…  put what each command prints into the file (then
    #                                           read the diff, and put back the `…` lines you want)
    import tempfile

    from _pytest.monkeypatch import MonkeyPatch

    write = "--write" in sys.argv
    for name in [a for a in sys.argv[1:] if a != "--write"]:
        outputs: dict = {}
        with tempfile.TemporaryDirectory() as tmp:
            mp = MonkeyPatch()
            try:
                found = run_file(ROOT / name, Path(tmp), mp, outputs)
            finally:
                mp.undo()
        if write:
            lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
            keep, inside, skipping = [], False, False
            for number, line in enumerate(lines, 1):
                if not inside and line.strip() == "```console":
                    inside = True
                elif inside and line.strip() == "```":
                    inside = skipping = False
                elif inside and line.startswith("$ "):
                    keep.append(line)
                    keep.extend(outputs.get(number, []))
                    skipping = True
                    continue
                elif inside and skipping:
                    continue
                keep.append(line)
            (ROOT / name).write_text("\n".join(keep) + "\n", encoding="utf-8")
        print("\n\n".join(found) or f"{name}: every command prints what the docs show")
