"""Every ```console block of README.md and docs/*.md is run, in order, one file at a time on a fresh
database, and must print what it shows and exit as it shows (the convention is in
docs/development.md). docs/commands.md is generated from the commands themselves (see test_help.py): its
blocks are usage lines, not a session.

What is compared is what is printed: the only placeholders are dates and times (a date or time the
docs show stands for any date or time of the same shape), the year the docs were written (2026,
standing for the year they are run in), and a `…` line for any lines. Each file
is run three ways: in-process (fast), and, in the slow suite, as real `pan` processes, piped with
COLUMNS=80 and at an 80-column pseudo-terminal (where the width, colour and pager come from the
terminal itself).

Run by hand to see every difference of one file at once:  python tests/test_docs.py docs/turns.md
"""

from __future__ import annotations

import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
from datetime import date
from pathlib import Path

import pytest

from doc_commands import (
    DOCS,
    ROOT,
    Command,
    Typist,
    clean_env,
    commands_of,
    fresh_folders,
    split_command,
    this_year,
)
from helpers import HANG

WIDTH = 80                              # the terminal the docs were written at
ANY = "…"                               # a line that is exactly this stands for any lines (or none)
# A date or a time of day (ISO, with seconds and an offset or not): the placeholders of the docs.
WHEN = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:[+-]\d{2}:\d{2}|Z)?)?"
                  r"|(?<![\d:])\d{2}:\d{2}(?::\d{2})?(?![\d:])")
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?")
PAN = Path(sys.executable).with_name("pan")  # the console script installed with pancli


def line_pattern(expected: str) -> re.Pattern:
    """The printed line the docs' line stands for: itself, each date or time standing for any of
    its shape."""
    parts, end = [], 0
    for m in WHEN.finditer(expected):
        parts += [re.escape(expected[end:m.start()]), re.sub(r"\d", r"\\d", re.escape(m.group(0)))]
        end = m.end()
    return re.compile("".join(parts) + re.escape(expected[end:]) + r"\Z")


def same(expected: list[str], actual: list[str]) -> bool:
    return len(expected) == len(actual) and all(line_pattern(e).match(a) for e, a in zip(expected, actual))


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines are the expected ones, each `…` line standing for any lines."""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == ANY:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return same(parts[0], actual)
    first, *middle, last = parts
    if not same(first, actual[:len(first)]):
        return False
    pos = len(first)
    end = len(actual) - len(last)
    if end < pos or (last and not same(last, actual[end:])):
        return False
    for part in middle:
        for i in range(pos, end - len(part) + 1):
            if same(part, actual[i:i + len(part)]):
                pos = i + len(part)
                break
        else:
            return False
    return True


def normalise(text: str) -> list[str]:
    """The lines printed, as the docs write them: no colour or other escape, no trailing spaces."""
    lines = [line.rstrip() for line in ANSI.sub("", text).replace("\r\n", "\n").splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def compare(cmd: Command, code: int, output: str, problems: list[str], outputs: dict | None) -> None:
    actual = normalise(output)
    if outputs is not None:
        outputs[cmd.line] = actual + ([f"[exit {code}]"] if code else [])
    expected = [line.rstrip() for line in cmd.expected]
    if code != cmd.code or not matches(expected, actual):
        shown = "\n".join(f"    {x}" for x in actual)
        problems.append(f"{cmd.file}:{cmd.line}: $ {cmd.text}\n  exit {code} "
                        f"(the docs show {cmd.code}); it printed:\n{shown}")


def run_file(path: Path, tmp: Path, monkeypatch, outputs: dict | None = None) -> list[str]:
    """Run every command of the file in-process in a fresh folder and home; the differences found
    (and, given a dict, what each command printed, by line number, for rewriting the docs by hand)."""
    from typer.testing import CliRunner

    from pancli.cli import app

    home, cwd = fresh_folders(tmp)
    monkeypatch.chdir(cwd)
    for var, value in clean_env(home).items():
        monkeypatch.setenv(var, value)
    for var in ("PANCLI_DB", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "FORCE_COLOR", "LINES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    runner = CliRunner()
    problems: list[str] = []
    typist = Typist()
    for cmd in commands_of(path):
        words, stdin = split_command(cmd.text)
        data = (cwd / stdin).read_text(encoding="utf-8") if stdin else None
        typist.before(words)
        result = runner.invoke(app, words, input=data, prog_name="pan", terminal_width=WIDTH)
        typist.after(words)
        if result.exception and not isinstance(result.exception, SystemExit):
            problems.append(f"{cmd.file}:{cmd.line}: $ {cmd.text}\n  raised {result.exception!r}")
            continue
        compare(cmd, result.exit_code, result.output, problems, outputs)
    return problems


def run_at_a_terminal(args: list[str], env: dict, cwd: Path, stdin) -> tuple[int, str]:
    """One command at an 80-column pseudo-terminal (standard output and error; input from the
    file given, else the terminal), tall enough that nothing is paged."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 1000, WIDTH, 0, 0))
    proc = subprocess.Popen(args, stdin=stdin or slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                            start_new_session=True)
    os.close(slave)
    chunks = []
    try:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # the terminal is closed: the command has ended
                break
            if not data:
                break
            chunks.append(data)
        code = proc.wait(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return code, b"".join(chunks).decode("utf-8", "replace")


def run_file_in_processes(path: Path, tmp: Path, terminal: bool) -> list[str]:
    """Run every command of the file as a real `pan` process: piped, with COLUMNS=80, or at an
    80-column pseudo-terminal, as a person at a terminal sees it."""
    home, cwd = fresh_folders(tmp)
    env = clean_env(home)
    if terminal:
        env.update(TERM="xterm-256color", PAGER="cat")
        env.pop("NO_COLOR", None)
    else:
        env.update(COLUMNS=str(WIDTH), NO_COLOR="1", TERM="dumb")
    problems: list[str] = []
    typist = Typist()
    for cmd in commands_of(path):
        words, stdin = split_command(cmd.text)
        typist.before(words)
        with open(cwd / stdin, "rb") if stdin else open(os.devnull, "rb") as given:
            if terminal:
                code, output = run_at_a_terminal([str(PAN), *words], env, cwd, given if stdin else None)
            else:
                done = subprocess.run([str(PAN), *words], stdin=given, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, env=env, cwd=cwd, timeout=HANG)
                code, output = done.returncode, done.stdout.decode("utf-8", "replace")
        typist.after(words)
        compare(cmd, code, output, problems, None)
    return problems


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_documented_commands_print_what_the_docs_show(path, tmp_path, monkeypatch):
    problems = run_file(path, tmp_path, monkeypatch)
    assert not problems, "\n\n".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("terminal", [False, True], ids=["piped-80-columns", "80-column-terminal"])
@pytest.mark.parametrize("path", [p for p in DOCS if commands_of(p)], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_real_pan_processes_print_what_the_docs_show(path, terminal, tmp_path):
    assert PAN.exists(), f"{PAN}: pancli is not installed in this Python's environment"
    problems = run_file_in_processes(path, tmp_path, terminal)
    assert not problems, "\n\n".join(problems)


def test_the_year_the_docs_were_written_stands_for_this_year():
    year = str(date.today().year)
    assert this_year("$ pan standings --season 2026") == f"$ pan standings --season {year}"
    assert this_year("Closed season: panguingue 2026 (2 sessions)") == f"Closed season: panguingue {year} (2 sessions)"
    assert this_year("  2026-12-07 friday: +4") == "  2026-12-07 friday: +4"  # a date is a placeholder already
    assert this_year("12026 or 20261") == "12026 or 20261"


def test_dates_and_times_are_the_only_placeholders():
    assert matches(["Synced on 2026-11-27 at 21:00"], ["Synced on 2027-01-02 at 09:15"])
    assert matches(["│ ana-laptop   │ 2026-11-27 21:00 │"], ["│ ana-laptop   │ 2026-12-01 15:08 │"])
    assert matches(["at 2026-11-27T21:00:00+00:00."], ["at 2026-12-01T15:08:03+00:00."])
    assert not matches(["Wrote friday.db"], ["Wrote /tmp/work/friday.db"])  # no folder is rewritten
    assert not matches(["Saved to ~/.config/pancli/pancli.db"], ["Saved to /home/x/.config/pancli/pancli.db"])
    assert not matches(["Synced ben-laptop with shared: nothing changed."],
                       ["Synced ben-laptop with /tmp/x/work/shared: nothing changed."])
    assert not matches(["Hand 1: Cruz deals"], ["Hand 2: Cruz deals"])  # numbers are compared
    assert not matches(["2026-11-27"], ["2026-11-27 "]) and not matches(["21:00"], ["21:00:00"])
    assert normalise("Synced a with /tmp/w/shared: x  \r\n\x1b[31mred\x1b[0m\n\n") == [
        "Synced a with /tmp/w/shared: x", "red"]  # escapes and trailing spaces go, folders stay


def test_the_wildcard_line():
    assert matches(["a", ANY, "d"], ["a", "b", "c", "d"])
    assert matches(["a", ANY], ["a"])
    assert matches([ANY, "c", ANY], ["a", "b", "c", "d"])
    assert not matches(["a", ANY, "d"], ["a", "b"])
    assert not matches(["a"], ["a", "b"])


TOPICS = ("disputes.md", "recording.md", "table-shell.md", "reports.md", "house-rules.md", "other-games.md",
          "data-and-sync.md", "turns.md")  # the manual's pages whose examples are sessions


def test_every_documented_file_has_commands_that_run():
    assert all(commands_of(ROOT / "docs" / name) for name in TOPICS)


def fenced(path: Path, kind: str) -> list[list[str]]:
    """The lines of each ```KIND block of a file."""
    blocks, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if current is None and line.strip() == f"```{kind}":
            current = []
        elif current is not None and line.strip() == "```":
            blocks.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_ci_runs_exactly_the_readmes_whole_check():
    whole = next(b for b in fenced(ROOT / "README.md", "sh") if b and b[0] == "python3 -m venv .venv-ci")
    ci = [x for x in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if x not in ("set +e", "set -e")]  # the script's own bookkeeping, to read pytest's status
    start = ci.index(whole[0])
    assert ci[start:start + len(whole)] == whole


def test_the_readme_is_short_and_its_first_night_runs(tmp_path, monkeypatch):
    """The README stays a host's page (under 200 lines), and its first night, every command but
    `pan serve` (which runs until Ctrl-C), runs on a fresh database as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    night = next(b for b in fenced(ROOT / "README.md", "text") if any("pan serve --dealer" in x for x in b))
    from typer.testing import CliRunner

    from pancli.cli import app

    monkeypatch.setenv("HOME", str(tmp_path))
    runner = CliRunner()
    ran = 0
    for line in night:
        words, _ = split_command(line[2:])
        if words[0] == "serve":
            continue
        result = runner.invoke(app, ["--db", str(tmp_path / "friday.db"), *words])
        assert result.exit_code == 0, f"{line}\n{result.output}"
        ran += 1
    assert ran == 9 and "everyone is square" in result.output


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)|<img src=\"([^\"]+)\"")


@pytest.mark.parametrize("path", [*DOCS, ROOT / "docs" / "commands.md", ROOT / "CHANGELOG.md"],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_to_a_file_of_the_repository_finds_it(path):
    links = [a or b for a, b in LINK.findall(path.read_text(encoding="utf-8"))]
    missing = [x for x in links if "://" not in x and not (path.parent / x).exists()]
    assert not missing, f"{path.name} links to files that are not there: {missing}"


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
