"""The prompt of `pan table` in this process (prompt_toolkit reading a pipe, writing plain text): a
bug while it draws the prompt or completes a word is one line and a log entry, and the night goes on."""

from __future__ import annotations

import io
import sqlite3

from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.plain_text import PlainTextOutput

from pancli.cli.params import PlayerType
from pancli.cli.shell.bugs import bug_log
from pancli.cli.shell.completion import completer
from pancli.cli.shell.prompt import interactive
from pancli.cli.shell.table_shell import TableShell
from pancli.games.panguingue.game import Panguingue


def planted(*args, **kwargs):
    raise ZeroDivisionError("a planted bug")


def typed(sh: TableShell, keys: str) -> str:
    """What the prompt showed (outside the lines' own output) while ``keys`` were typed, in words."""
    shown = io.StringIO()
    with create_pipe_input() as keyboard:
        keyboard.send_text(keys)
        keyboard.close()  # then the end of the input: the prompt never waits for more
        with create_app_session(input=keyboard, output=PlainTextOutput(shown)):
            assert interactive(sh) == 0
    return " ".join(shown.getvalue().split())


def kinds(db) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [kind for (kind,) in conn.execute("SELECT kind FROM events ORDER BY id")]


def test_the_prompt_shows_where_the_table_stands(sh):
    assert "fri> " in typed(sh, "\x04")
    assert "fri · hand 1> " in typed(sh, "deal\r\x04")
    assert kinds(sh.db)[-1] == "deal"


def test_a_bug_while_drawing_the_prompt_is_one_line_and_the_night_goes_on(sh, monkeypatch):
    monkeypatch.setattr(Panguingue, "status", planted)
    shown = typed(sh, "deal\r\x04")
    said = (f"✗ Internal error: a bug (ZeroDivisionError) while showing the prompt; the details are in "
            f"{bug_log(sh.db)}; please report it.")
    assert shown.count(said) == 2  # before the line and after it
    assert "pan> deal" in shown  # the plain prompt stands in
    assert "Everything is saved." in shown  # leaving still shows the standings' next steps
    assert kinds(sh.db)[-1] == "deal"
    log = bug_log(sh.db).read_text(encoding="utf-8")
    assert log.count("while showing the prompt") == 2 and "ZeroDivisionError: a planted bug" in log


def test_a_bug_while_completing_a_word_offers_nothing_and_is_logged(sh, monkeypatch):
    def offered(text: str) -> list[str]:
        found = completer(sh).get_completions(Document(text), CompleteEvent(completion_requested=True))
        return [c.text for c in found]

    assert sh.execute("deal").ok
    assert offered("drop a") == ["Ana"]
    assert not bug_log(sh.db).exists()
    monkeypatch.setattr(PlayerType, "candidates", planted)
    assert offered("drop a") == []
    log = bug_log(sh.db).read_text(encoding="utf-8")
    assert "while completing a word" in log and "ZeroDivisionError: a planted bug" in log
    monkeypatch.undo()
    assert offered("drop b") == ["Ben"]  # Tab works again once the bug is gone
