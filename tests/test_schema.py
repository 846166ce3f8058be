"""A new database gets its schema without sqlite-utils (create_schema); an older one is upgraded
by sqlite-utils' Migrations. Both must end with the very same schema and the same record of
the steps, or a database made today would upgrade differently tomorrow."""

import sqlite3

import sqlite_utils

from pancli.storage.migrations import KNOWN_MIGRATIONS, SCHEMA_SET, schema_migrations
from pancli.storage.store import Store


def schema(path) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        objects = con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        steps = con.execute("SELECT migration_set, name FROM _sqlite_migrations ORDER BY id").fetchall()
    finally:
        con.close()
    return objects + steps


def test_a_new_database_has_the_schema_the_migrations_make(tmp_path):
    Store(tmp_path / "new.db").close()
    con = sqlite3.connect(tmp_path / "migrated.db", isolation_level=None)
    schema_migrations().apply(sqlite_utils.Database(con))
    con.close()
    assert schema(tmp_path / "new.db") == schema(tmp_path / "migrated.db")
    con = sqlite3.connect(tmp_path / "new.db")
    applied = [r[0] for r in con.execute("SELECT name FROM _sqlite_migrations WHERE migration_set = ?", [SCHEMA_SET])]
    stamps = [r[0] for r in con.execute("SELECT applied_at FROM _sqlite_migrations")]
    con.close()
    assert set(applied) == KNOWN_MIGRATIONS and len(applied) == len(KNOWN_MIGRATIONS)
    assert all(s.endswith("+00:00") for s in stamps)  # as sqlite-utils writes them


def test_a_new_database_is_upgraded_by_the_migrations_later(tmp_path):
    """sqlite-utils reads the record create_schema wrote: nothing is pending, nothing re-applied."""
    Store(tmp_path / "new.db").close()
    con = sqlite3.connect(tmp_path / "new.db", isolation_level=None)
    assert schema_migrations().pending(sqlite_utils.Database(con)) == []
    con.close()
