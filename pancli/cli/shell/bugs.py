"""A bug met at `pan table`: one line to the person at the table, the traceback in a log.

pancli keeps no log of its own (`pan serve` logs to its terminal), so the traceback goes to a
file beside the database, ``DATABASE.errors.log`` next to ``DATABASE.history``: the person who
reports the bug finds it where the night's data is, and a shell on another database never
mixes its bugs in. The log is bounded (``MAX_LOG`` bytes, its oldest half dropped past that).
Errors pancli expects (every PanError, a database error) are never bugs: they are said in one
line by the command that met them.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pancli.core.errors import PanError
from pancli.core.i18n import N_, _

T = TypeVar("T")

MAX_LOG = 1_000_000
_ENTRY = "--- "  # how each entry begins


def tab_offers(db: Callable[[], object], find: Callable[[], T], nothing: T) -> T:
    """Tab's one edge, at the prompt and in click's completion: what ``find`` offers; nothing when
    there is no database or session yet (an expected error), and nothing for a bug, which is
    logged beside the database ``db()`` names (a line printed now would tear the prompt)."""
    try:
        return find()
    except expected_errors():
        return nothing
    except Exception:
        report_bug(db(), "completing a word")
        return nothing


def bug_log(db: object) -> Path:
    return Path(str(db) + ".errors.log")


def expected_errors() -> tuple[type[BaseException], ...]:
    """The errors a line may meet that are no bug: a PanError, and a database error (sqlite3 is
    looked up, not imported: a shell that never opened the database has none)."""
    sqlite3 = sys.modules.get("sqlite3")
    return (PanError,) if sqlite3 is None else (PanError, sqlite3.DatabaseError)


# What a bug at the table says to the person, per situation: whole messages (the bug log itself
# stays in English, for whoever reads the report).
BUG_LINES = {
    "running": N_("Internal error: a bug ({kind}) while running `{line}`; {where}; please report it; "
                  "nothing was recorded by this line"),
    "board": N_("Internal error: a bug ({kind}) while showing the board after `{line}`; {where}; please "
                "report it; the line was recorded"),
    "showing the session": N_("Internal error: a bug ({kind}) while showing the session; {where}; please "
                              "report it"),
    "showing the prompt": N_("Internal error: a bug ({kind}) while showing the prompt; {where}; please "
                             "report it"),
    "showing a line's output": N_("Internal error: a bug ({kind}) while showing a line's output; {where}; "
                                  "please report it"),
    "showing the standings": N_("Internal error: a bug ({kind}) while showing the standings; {where}; please "
                                "report it"),
    "completing a word": N_("Internal error: a bug ({kind}) while completing a word; {where}; please "
                            "report it"),
}
# The same situations in the log.
_LOGGED = {"running": "running `{line}`", "board": "showing the board after `{line}`"}


def report_bug(db: object, doing: str, line: str = "") -> str:
    """Write the exception being handled to the bug log; the one line that says so. ``doing`` is
    one of ``BUG_LINES`` (``line``: the line typed, for "running" and "board")."""
    kind = type(sys.exc_info()[1]).__name__
    path = bug_log(db)
    logged = _LOGGED.get(doing, doing).format(line=line)
    entry = f"{_ENTRY}{time.strftime('%Y-%m-%d %H:%M:%S')} while {logged}\n{traceback.format_exc()}\n"
    try:
        if path.exists() and path.stat().st_size > MAX_LOG:
            kept = path.read_bytes()[-MAX_LOG // 2:]
            start = kept.find(_ENTRY.encode())
            path.write_bytes(kept[start:] if start >= 0 else b"")  # whole entries only
        with path.open("a", encoding="utf-8") as log:
            log.write(entry)
        where = _("the details are in {path}").format(path=path)
    except OSError:
        where = _("the details could not be written down")
    said = BUG_LINES.get(doing)
    if said is None:  # a situation not listed: said in its own (English) words
        return _("Internal error: a bug ({kind}) while {doing}; {where}; please report it").format(
            kind=kind, doing=doing, where=where)
    return _(said).format(kind=kind, line=line, where=where)
