"""A new database gets its schema without sqlite-utils (create_schema); an older one is upgraded
by sqlite-utils' Migrations. Both must end with the very same schema and the same record of
the steps, or a database made today would upgrade differently tomorrow."""

import sqlite3

import sqlite_utils

from pancli.storage.migrations import KNOWN_MIGRATIONS, SCHEMA_SET, schema_migrations
from pancli.storage.store import Store


def test_a_new_database_is_upgraded_by_the_migrations_later(tmp_path):
    """sqlite-utils reads the record create_schema wrote: nothing is pending, nothing re-applied.
    (tests/test_old_data.py holds the schema and the record to the ones sqlite-utils makes.)"""
    Store(tmp_path / "new.db").close()
    con = sqlite3.connect(tmp_path / "new.db", isolation_level=None)
    assert schema_migrations().pending(sqlite_utils.Database(con)) == []
    applied = [r[0] for r in con.execute("SELECT name FROM _sqlite_migrations WHERE migration_set = ?", [SCHEMA_SET])]
    stamps = [r[0] for r in con.execute("SELECT applied_at FROM _sqlite_migrations")]
    assert set(applied) == KNOWN_MIGRATIONS and len(applied) == len(KNOWN_MIGRATIONS)
    assert all(s.endswith("+00:00") for s in stamps)  # as sqlite-utils writes them
    con.close()
