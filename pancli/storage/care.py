"""SQL for looking after the database: counts, SQLite's own checks, and a consistent copy.

One part of a ``Store``, over its connection; pancli/app/dbcare.py decides what the answers mean.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from pancli.core.errors import StoreError
from pancli.storage.migrations import SCHEMA_SET


class DatabaseCare:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn  # the Store's

    def counts(self) -> dict:
        """Rows of every kind, undos, imported sessions, applied migrations, SQLite and journal mode."""
        c = self.conn
        out = {t: c.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
               for t in ("sessions", "events", "payments", "tallies")}
        out["undos"] = c.execute("SELECT count(*) FROM events WHERE kind = 'undo'").fetchone()[0]
        out["imported_sessions"] = c.execute("SELECT count(*) FROM sessions WHERE origin IS NOT NULL").fetchone()[0]
        out["migrations"] = [r[0] for r in c.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = ? ORDER BY applied_at, name", [SCHEMA_SET])]
        out["sqlite"] = sqlite3.sqlite_version
        out["journal_mode"] = c.execute("PRAGMA journal_mode").fetchone()[0]
        return out

    def integrity_problem(self) -> str | None:
        """SQLite's integrity and foreign-key checks: the first problem, or None."""
        return _integrity_problem(self.conn)

    @staticmethod
    def integrity_problem_at(path) -> str | None:
        """The same checks on a connection of their own, so they can run in another thread while
        this one replays the log (SQLite lets go of Python's lock while it checks)."""
        conn = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=ro", uri=True, timeout=30,
                               check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            # A page cache the size of a long history: the check revisits pages (3.1 s -> 2.2 s
            # on 10,000 hands). Memory is taken only as pages are read, and freed at the end.
            conn.execute("PRAGMA cache_size = -131072")
            return _integrity_problem(conn)
        finally:
            conn.close()

    def copy_to(self, path) -> dict:
        """A consistent copy of the whole database into a new file (SQLite's backup API, one read
        transaction), in rollback-journal mode and checked; returns its check and counts."""
        try:
            target = sqlite3.connect(path)
            try:
                self.conn.backup(target)
                target.execute("PRAGMA journal_mode = DELETE")
                return {"check": target.execute("PRAGMA quick_check").fetchone()[0],
                        "events": target.execute("SELECT count(*) FROM events").fetchone()[0],
                        "sessions": target.execute("SELECT count(*) FROM sessions").fetchone()[0]}
            finally:
                target.close()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot back up to {path}: {e}", "check the folder is writable") from None


def _integrity_problem(conn) -> str | None:
    rows = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    if rows != ["ok"]:
        return "SQLite integrity check: " + "; ".join(rows[:3])
    fk = conn.execute("PRAGMA foreign_key_check").fetchall()
    if fk:
        return f"foreign key check: table {fk[0][0]} row {fk[0][1]} points to a missing {fk[0][2]}"
    return None
