"""A bug at `pan table` fails loudly: one line to the table, its traceback in the bug log beside the
database (pancli.cli.shell.bugs), the data as it was; never a missing board or a hidden error."""

from __future__ import annotations

import sqlite3

import pytest

from pancli.app.recorder import Recorder
from pancli.cli.shell.board import prompt_text
from pancli.cli.shell.bugs import bug_log
from pancli.cli.shell.table_shell import TableShell
from pancli.games.panguingue.game import Panguingue


def events(db) -> list:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id, kind, payload FROM events ORDER BY id").fetchall()


def planted(*args, **kwargs):
    raise ZeroDivisionError("a planted bug")


def test_a_bug_in_a_command_is_one_line_and_a_log_entry_and_records_nothing(sh, monkeypatch):
    before = events(sh.db)
    monkeypatch.setattr(Recorder, "record_many", planted)
    r = sh.execute("deal")
    assert r.status == 70 and r.out == ""
    [line] = r.err.splitlines()
    assert line == (f"Internal error: a bug (ZeroDivisionError) while running `deal`; the details are in "
                    f"{bug_log(sh.db)}; please report it; nothing was recorded by this line")
    log = bug_log(sh.db).read_text(encoding="utf-8")
    assert "while running `deal`" in log and "ZeroDivisionError: a planted bug" in log and "Traceback" in log
    assert events(sh.db) == before
    monkeypatch.undo()
    assert sh.execute("deal").ok  # the shell goes on


def test_a_bug_while_drawing_the_board_says_the_line_was_recorded(sh, monkeypatch):
    monkeypatch.setattr(Panguingue, "hand_over_lines", planted)
    r = sh.execute("deal")
    assert r.ok, r.err  # the deal is recorded
    assert r.err.endswith("; please report it; the line was recorded\n") and len(r.err.splitlines()) == 1
    assert "ZeroDivisionError" in r.err and "after `deal`" in r.err
    assert [kind for _, kind, _ in events(sh.db)][-1] == "deal"
    assert "ZeroDivisionError: a planted bug" in bug_log(sh.db).read_text(encoding="utf-8")


def test_a_bug_in_the_game_is_not_hidden_by_the_prompt(sh, monkeypatch):
    """The prompt once showed no status when the game's own code failed, and nothing said why."""
    assert sh.execute("deal").ok
    monkeypatch.setattr(Panguingue, "status", planted)
    with pytest.raises(ZeroDivisionError):
        prompt_text(sh)


def test_the_bug_log_stays_bounded(sh, monkeypatch):
    import pancli.cli.shell.bugs as bugs

    monkeypatch.setattr(bugs, "MAX_LOG", 4000)
    monkeypatch.setattr(Recorder, "record_many", planted)
    for _ in range(40):
        assert sh.execute("deal").status == 70
    assert bug_log(sh.db).stat().st_size < 4000 + 4000
    assert bug_log(sh.db).read_text(encoding="utf-8").startswith("--- 20")  # whole entries


def test_a_bug_in_bash_completion_offers_nothing_and_is_logged(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from pancli.cli import app
    from pancli.cli.params import PlayerType

    db = tmp_path / "pan.db"
    shell = TableShell(db=str(db))
    assert shell.execute("session new fri --players Ana,Ben,Cruz").ok
    shell.close()
    env = {"_PAN_COMPLETE": "complete_bash", "COMP_WORDS": "pan drop a", "COMP_CWORD": "2", "PANCLI_DB": str(db)}
    assert CliRunner(env=env).invoke(app, [], prog_name="pan").stdout.split() == ["Ana"]
    assert not bug_log(db).exists()
    monkeypatch.setattr(PlayerType, "candidates", planted)
    r = CliRunner(env=env).invoke(app, [], prog_name="pan")
    assert r.exit_code == 0 and r.stdout.split() == []
    log = bug_log(db).read_text(encoding="utf-8")
    assert "while completing a word" in log and "ZeroDivisionError: a planted bug" in log


def test_a_bug_in_a_words_type_fails_the_line_once_and_is_logged(sh, monkeypatch):
    """A line of plain words (the fast path) does not take a bug in converting a word for a word
    the parse should refuse: the bug is met once, said in one line and logged."""
    from pancli.cli.params import PlayerType

    assert sh.execute("deal").ok
    calls = []

    def buggy(self, value, param, ctx):
        calls.append(value)
        raise ZeroDivisionError("a planted bug")

    monkeypatch.setattr(PlayerType, "convert", buggy)
    r = sh.execute("drop ana")
    assert r.status == 70 and len(r.err.splitlines()) == 1 and "ZeroDivisionError" in r.err
    assert calls == ["ana"]
    assert "ZeroDivisionError: a planted bug" in bug_log(sh.db).read_text(encoding="utf-8")


def test_a_bug_in_completing_a_meld_number_is_not_taken_for_a_word_that_is_no_player(sh, monkeypatch):
    from pancli.cli.shell.bugs import expected_errors

    assert sh.execute("deal").ok
    monkeypatch.setattr(Recorder, "player", planted)
    from pancli.cli.params import MeldNumberType

    with pytest.raises(ZeroDivisionError):
        MeldNumberType().candidates(sh.context, "", ("ana",))
    assert ZeroDivisionError not in expected_errors()
