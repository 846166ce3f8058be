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
from pathlib import Path

MAX_LOG = 1_000_000
_ENTRY = "--- "  # how each entry begins


def bug_log(db) -> Path:
    return Path(str(db) + ".errors.log")


def expected_errors() -> tuple[type[BaseException], ...]:
    """The errors a line may meet that are no bug: a PanError, and a database error (sqlite3 is
    looked up, not imported: a shell that never opened the database has none)."""
    from pancli.core.errors import PanError

    sqlite3 = sys.modules.get("sqlite3")
    return (PanError,) if sqlite3 is None else (PanError, sqlite3.DatabaseError)


def report_bug(db, doing: str) -> str:
    """Write the exception being handled to the bug log; the one line that says so."""
    import time
    import traceback

    kind = type(sys.exc_info()[1]).__name__
    path = bug_log(db)
    entry = f"{_ENTRY}{time.strftime('%Y-%m-%d %H:%M:%S')} while {doing}\n{traceback.format_exc()}\n"
    try:
        if path.exists() and path.stat().st_size > MAX_LOG:
            kept = path.read_bytes()[-MAX_LOG // 2:]
            start = kept.find(_ENTRY.encode())
            path.write_bytes(kept[start:] if start >= 0 else b"")  # whole entries only
        with path.open("a", encoding="utf-8") as log:
            log.write(entry)
        where = f"the details are in {path}"
    except OSError:
        where = "the details could not be written down"
    return f"Internal error: a bug ({kind}) while {doing}; {where}; please report it"
