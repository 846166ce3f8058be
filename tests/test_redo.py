"""Redo is written once (pancli/app/redo.py): the table shell's `redo` and the dealer's Redo read
what undo took back from the log, whoever undid it, and record it again the same way."""

from __future__ import annotations

from pathlib import Path

from pancli.cli.shell.table_shell import TableShell

from helpers import pan_in_process

PANCLI = Path(__file__).resolve().parent.parent / "pancli"


def night(db) -> TableShell:
    pan_in_process(db, "session new fri --players Ana,Ben,Cruz --dealer Cruz")
    sh = TableShell(db, board=False)
    assert sh.execute("deal").ok and sh.execute("m ana 5s5s5s").ok
    return sh


def test_the_shell_redoes_what_an_undo_anywhere_took_back(tmp_path):
    db = tmp_path / "pan.db"
    sh = night(db)
    before = pan_in_process(db, "standings --json").output
    pan_in_process(db, "undo")  # at another terminal (or the dealer's phone): the log says it
    r = sh.execute("redo")
    assert r.ok and "Redid: Ana melds 5♠ 5♠ 5♠" in r.out, r.err
    assert pan_in_process(db, "standings --json").output == before
    r = sh.execute("redo")
    assert r.status == 1 and "nothing to redo" in r.err
    sh.close()


def test_the_shell_and_the_dealer_say_and_record_a_redo_in_one_place():
    said = [p for p in PANCLI.rglob("*.py") if '"Redid: {event}"' in p.read_text(encoding="utf-8")]
    assert [p.relative_to(PANCLI).as_posix() for p in said] == ["app/redo.py"]
    assert "redo_stack" not in (PANCLI / "cli" / "shell" / "table_shell.py").read_text(encoding="utf-8")
