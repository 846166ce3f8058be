"""One schema runner: sqlite-utils' Migrations applies every step, to a new database and to one
written by any earlier pancli, and records them as it always has. A new database and every stored
one upgraded must end with the very same schema and the same record of the steps, or a database
made today would upgrade differently tomorrow."""

import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlite_utils
from sqlite_utils.migrations import Migrations

from pancli.storage.migrations import _STEPS, KNOWN_MIGRATIONS, SCHEMA_SET, schema_migrations
from pancli.storage.store import Store

FIXTURES = Path(__file__).parent / "fixtures"
STORED = sorted(str(p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*.db"))  # 0.1, 0.2, main_9347d07


def stored_copy(name: str, folder: Path) -> Path:
    """A copy of a stored database (with its -wal, where one was kept) in ``folder``."""
    source = FIXTURES / name
    target = folder / name.replace("/", "_")
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
    return target


def schema(path: Path) -> tuple[set[tuple[str, str, str, str]], list[str]]:
    """Every object of the database (its SQL with runs of white space made one space) and the
    names of the steps recorded, in the order they were applied."""
    con = sqlite3.connect(path)
    try:
        objects = {(kind, name, table, re.sub(r"\s+", " ", sql or "").strip())
                   for kind, name, table, sql in con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")}
        steps = [r[0] for r in con.execute("SELECT name FROM _sqlite_migrations WHERE migration_set = ? ORDER BY id",
                                           [SCHEMA_SET])]
        return objects, steps
    finally:
        con.close()


@pytest.fixture(scope="module")
def new_schema(tmp_path_factory):
    path = tmp_path_factory.mktemp("new") / "new.db"
    Store(path).close()
    return schema(path)


# The first schema's views: each voided an event named by an undo of any session, and nothing read
# them (what an undo voids is said once, in pancli/storage/voided.py); step m014 drops them.
OLD_VIEWS = {"voided_events", "effective_events", "effective_payments", "effective_tallies", "balances"}


def views(objects: set[tuple[str, str, str, str]]) -> set[str]:
    return {name for kind, name, _, _ in objects if kind == "view"}


def test_every_step_is_recorded_once_in_order_on_a_new_database(new_schema):
    assert new_schema[1] == [fn.__name__ for fn in _STEPS]
    assert set(new_schema[1]) == KNOWN_MIGRATIONS
    assert "m014_drop_voided_views" in new_schema[1]
    assert views(new_schema[0]) == set()


@pytest.mark.parametrize("name", STORED)
def test_a_stored_database_upgraded_has_the_new_databases_schema_and_record(name, tmp_path, new_schema):
    path = stored_copy(name, tmp_path)
    assert views(schema(path)[0]) == OLD_VIEWS
    Store(path).close()
    objects, steps = schema(path)
    assert steps == new_schema[1]
    assert objects == new_schema[0], sorted(objects ^ new_schema[0])
    assert views(objects) == set()


def test_a_new_database_is_made_by_sqlite_utils_migrations(tmp_path, monkeypatch):
    """The very runner that upgrades an older database makes a new one: Migrations.apply, once,
    with every step pending; afterwards it finds nothing to do."""
    seen: list[list[str]] = []
    apply = Migrations.apply

    def counted(self, db, **kwargs):
        seen.append([m.name for m in self.pending(db)])
        return apply(self, db, **kwargs)

    monkeypatch.setattr(Migrations, "apply", counted)
    Store(tmp_path / "new.db").close()
    assert seen == [[fn.__name__ for fn in _STEPS]]
    con = sqlite3.connect(tmp_path / "new.db", isolation_level=None)
    assert schema_migrations().pending(sqlite_utils.Database(con, execute_plugins=False)) == []
    stamps = [r[0] for r in con.execute("SELECT applied_at FROM _sqlite_migrations")]
    assert all(s.endswith("+00:00") for s in stamps)  # as sqlite-utils writes them
    con.close()


UPGRADE = """
import sys
from pancli.storage.store import Store
store = Store(sys.argv[1])
plugins = sys.modules.get("sqlite_utils.plugins")
print("sqlite_utils" in sys.modules, plugins is not None and plugins._plugins_loaded,
      store.conn.execute("PRAGMA recursive_triggers").fetchone()[0])
store.close()
"""


def run_upgrade(path: Path) -> list[str]:
    return subprocess.run([sys.executable, "-c", UPGRADE, str(path)], capture_output=True, text=True,
                          check=True).stdout.split()


def test_sqlite_utils_is_loaded_only_where_a_step_is_due_and_leaves_the_connection_as_it_was(tmp_path):
    """A new or older database loads sqlite-utils, without its plugins' entry points and without
    switching the connection's recursive triggers on; an up-to-date one does not load it."""
    old = stored_copy("main_9347d07/pancli.db", tmp_path)
    assert run_upgrade(old) == ["True", "False", "0"]
    assert run_upgrade(tmp_path / "new.db") == ["True", "False", "0"]
    assert run_upgrade(old) == ["False", "False", "0"]
    assert run_upgrade(tmp_path / "new.db") == ["False", "False", "0"]
