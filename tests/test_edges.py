"""Trust at the edges: names, text shown to people, money, numbers, files and foreign databases.

Each test here is one promise a hostile user once broke."""

from __future__ import annotations

import json

import pytest

from helpers import Pan, db_dump, pan_in_process


def run(pan: Pan, *words: str, code: int | None = None):
    """`pan WORDS…` with the words exactly as given (control characters and all)."""
    result = pan_in_process(pan.db, list(words), ok=False)
    if code is not None:
        assert result.exit_code == code, f"pan {words!r} exited {result.exit_code}: {result.output}"
    return result
from pancli.storage.store import Store

BAD = "\x1b[31m\u202e\x9b"  # an escape sequence, a bidirectional override, a C1 control


def hidden_in(text: str) -> list[str]:
    return [ch for ch in text if not ch.isprintable() and ch != "\n"]


# -- names ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, why", [
    ("Ana,\x1b[2JBen", "control"), ("Ana,Be\u200bn", "invisible"), ("Ana,Ben\u202e", "invisible"),
    ("Ana,B\x85en", "control"), ("Ana,B\x7fen", "control"), ("Ana,ana", "looks the same"),
    ("Ana,A\u200dna", "invisible"), ("Ana," + "x" * 41, "at most 40"), ("Ana,B\tx", "control"),
])
def test_player_names_are_refused_in_one_line(pan, players, why):
    r = run(pan, "session", "new", "fri", "--players", players, code=2)
    assert why in r.output and len(r.output.strip().splitlines()) == 1
    assert "\x1b" not in r.output and "\u202e" not in r.output


def test_names_are_normalised_and_session_names_checked(pan):
    pan("session new '  fri  ' --players ' Ana , Jose\u0301 ,Ben'")
    assert [p["name"] for p in pan.json("standings")["players"]] == ["Ana", "Jos\u00e9", "Ben"]
    assert pan.json("session show")["name"] == "fri"
    r = run(pan, "session", "new", "a\nb", "--players", "A,B", code=2)
    assert "control" in r.output
    pan("session new " + "s" * 81 + " --players A,B", code=2)
    pan("seat add 'ana'", code=2)
    r = run(pan, "seat", "add", "A\u00adna", code=2)
    assert "invisible" in r.output
    pan("seat add Dee")
    assert "Dee" in pan("standings").output


# -- text shown to people ---------------------------------------------------------------------

def test_markup_in_a_name_is_shown_literally_everywhere(pan, tmp_path):
    pan("session new '[bold]fri' --players '[/red]Ben,[green]Ana,Cruz' --chip-value 0.25")
    pan("deal")
    drop = pan("drop '[/'")
    assert "[/red]Ben drops" in drop.output
    for line in ("standings", "board", "history", "report", "settle", "sessions", "session list", "player '[/red]'"):
        out = pan(line).output
        assert "[/red]Ben" in out, line
    assert "[bold]fri" in pan("standings").output


def _old_database_with_bad_names(path) -> None:
    """A database an older pancli wrote, when any name was taken."""
    from pancli.games import game

    store = Store(path, create=True)
    g = game("panguingue")
    with store.lock():
        sid = store.create_session(f"fri{BAD}", g.name, [f"Ben{BAD}", "Ana"], None,
                                   g.rules_to_dict(g.schema.defaults), 0.25)
        store.set_setting("current_session", str(sid))
    store.close()


def test_text_from_an_old_database_is_made_inert(tmp_path):
    db = tmp_path / "old.db"
    _old_database_with_bad_names(db)
    pan = Pan(db)
    pan("deal")
    pan("drop ben")
    for line in ("standings", "board", "history", "report", "settle", "sessions", "session list", "session show",
                 "undo", "db check"):
        out = pan(line).output
        assert not hidden_in(out), (line, out)
    for line in ("standings", "history", "settle", "report", "sessions"):
        text = pan(line + " --json").stdout
        assert not hidden_in(text), line
        assert "\\u001b" in text and "\\u202e" in text and "\\u009b" in text, line
        json.loads(text)  # still JSON, and the names read back exactly
    assert f"Ben{BAD}" in [p["name"] for p in pan.json("standings")["players"]]
