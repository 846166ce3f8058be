"""What a Japanese, Bulgarian (and every other catalog's) reader sees in a real terminal: each
command of a night run in a tmux window 80×30 under ``LANG=ja_JP.UTF-8`` / ``bg_BG.UTF-8`` with
``PANCLI_LANG`` set per catalog (every catalog in pancli/locale and the wide pseudo-language qpa),
read back with capture-pane (wrapped rows joined): no line past 80 cells, measured by the width
library; the same under ``--ambiguous-wide``, measured with ambiguous characters two cells (but
for Cyrillic catalogs, whose every letter is then two cells), and every table's borders at the
same cell offsets on each of its rows, for every catalog.

No sleeps: the pane's command signals ``tmux wait-for`` when it ends, and `pan table` reads what
was typed into the terminal before its prompt came up, as a person typing ahead."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import catalog_tool, tables_line_up

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

LOCALE = Path(__file__).resolve().parent.parent / "pancli" / "locale"
PAN = str(Path(sys.executable).with_name("pan"))
WIDE = "qpa"
LANGUAGES = sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/pancli.mo")) + [WIDE]
# Languages whose letters are East Asian "ambiguous": a terminal that draws them two cells wide has
# room for 40 Cyrillic letters a line, and sentences and tables do not fit 80 cells there (nobody
# reading Bulgarian or Russian sets it: docs/languages.md). Their tables must still line up.
CYRILLIC = {"bg", "ru"}
COMMANDS = [["history"], ["report"], ["settle"], ["standings"], ["player", "Ana"]]


@pytest.fixture(scope="module")
def pseudo_dir(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("pseudo")
    catalog_tool().main(["pseudo", str(folder)])
    return str(folder)


def cells(line: str, ambiguous: int) -> int:
    from wcwidth import width

    return width(line, ambiguous_width=ambiguous)


class Window:
    """A tmux server of one window 80×30 whose processes see ``env``."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.socket = str(folder / "tmux.sock")
        self.cwd = str(folder)  # where each command runs: the database named as a person would, data/…
        self.env = env
        self.runs = 0
        # A session that outlives every run: tmux exits when its last session ends, and a run
        # started while it is exiting fails ("server exited unexpectedly").
        kept = self.tmux("new-session", "-d", "-x", "80", "-y", "30", "-s", "kept", "exec cat")
        assert kept.returncode == 0, kept.stderr

    def tmux(self, *args: str, **kw) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-u", "-f", "/dev/null", "-S", self.socket, *args], env=self.env,
                              capture_output=True, text=True, **kw)

    def run(self, argv: list[str], keys: list[list[str]] = ()) -> str:
        """``argv`` in a fresh window, ``keys`` typed into it (send-keys' words), its screen and
        scrollback once it ended."""
        self.runs += 1
        signal = f"done{self.runs}"
        command = " ".join(_quoted(a) for a in argv)
        script = f"{command}; tmux -S {_quoted(self.socket)} wait-for -S {signal}; exec cat"
        started = self.tmux("new-session", "-d", "-x", "80", "-y", "30", "-c", self.cwd, "-s", signal, script)
        assert started.returncode == 0, started.stderr
        for words in keys:
            self.tmux("send-keys", "-t", signal, *words)
        self.tmux("wait-for", signal, timeout=600)
        shown = self.tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", signal).stdout
        self.tmux("kill-session", "-t", signal)
        return "\n".join(line.rstrip() for line in shown.splitlines())

    def close(self) -> None:
        self.tmux("kill-server")


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


@pytest.mark.parametrize("ambiguous_wide", [False, True], ids=["narrow", "ambiguous-wide"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_night_in_a_tmux_window_fits_80_cells(lang, ambiguous_wide, pseudo_dir, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PANCLI_", "LC_", "TMUX"))}
    env |= {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "PAGER": "cat",
            "LANG": "bg_BG.UTF-8" if lang == "bg" else "ja_JP.UTF-8", "PANCLI_LANG": lang, "TERM": "xterm-256color"}
    if lang == WIDE:
        env["PANCLI_LOCALE_DIR"] = pseudo_dir
    if ambiguous_wide:
        env["PANCLI_AMBIGUOUS_WIDE"] = "1"
    ambiguous = 2 if ambiguous_wide else 1
    window = Window(tmp_path, env)
    screens = {}
    try:
        screens["demo"] = window.run([PAN, "demo"])
        db = Path("data", "pancli", "demo.db")
        assert (tmp_path / db).is_file(), screens["demo"]
        for words in COMMANDS:
            screens[" ".join(words)] = window.run([PAN, "--db", str(db), *words])
        # the table shell: a command typed (full-width, as a Japanese keyboard types it), then quit
        # (typed ahead: a Ctrl-D typed before the prompt is up would be the terminal's end of input)
        screens["table"] = window.run([PAN, "--db", str(db), "table"],
                                      keys=[["-l", "ｂｏａｒｄ"], ["Enter"], ["-l", "quit"], ["Enter"]])
    finally:
        window.close()
    from pancli.cli.terminal import LETTERS

    problems = []
    for name, screen in screens.items():
        assert screen.strip(), name
        for line in screen.splitlines():
            if cells(line, ambiguous) > 80 and not (ambiguous_wide and lang in CYRILLIC):
                problems.append(f"{name}: {cells(line, ambiguous)} cells: {line!r}")
        # every table's borders line up: drawn in ASCII under the opt-in, in box drawing otherwise
        # (read as ASCII here to find the same borders)
        ascii_ = screen if ambiguous_wide else screen.translate(LETTERS)
        bad = tables_line_up(re.sub(r"(?m)^\+(?!-)", " +", ascii_), ambiguous)  # "+8.50" begins no table
        problems += [f"{name}: borders not lined up: {b}" for b in bad]
        if ambiguous_wide:
            drawn = set(screen) & (set("♠♥♦♣▀▄█") | {chr(c) for c in range(0x2500, 0x2580)})
            if drawn:
                problems.append(f"{name}: drawn under the opt-in: {sorted(drawn)}")
    drawn_as = "+--" if ambiguous_wide else "━"
    if lang != WIDE and not (ambiguous_wide and lang in CYRILLIC):  # qpa's headers: no table fits
        problems += [f"{name}: no table drawn with {drawn_as}" for name in ("standings", "table")
                     if drawn_as not in screens[name]]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40]) + "\n\n" + screens["table"]
