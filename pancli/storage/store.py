"""One open pancli database: opening it (and upgrading its schema), transactions, settings and sessions.

A Store owns one connection and gives it to its parts, each a module beside this one:
``store.log`` (the event log and its running totals), ``store.queries`` (reports and careers),
``store.care`` (counts, SQLite's checks, copies) and ``store.sync`` (devices and global ids).
Every recorded command is one IMMEDIATE transaction, committed (WAL, synchronous=FULL) before
the command reports success. An open Store keeps this process's claim on the database
(``storage/dblock.py``), so `pan restore` cannot replace the file under it. A script run by
`pan table` may hold commits (``hold_commits``): its commands then share one transaction, each
inside a savepoint of its own, and the script reports them done only once ``commit_held`` has
committed the group.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pancli.core.errors import InputError, StoreError
from pancli.core.i18n import _
from pancli.core.rows import Session
from pancli.storage import dblock, log as _log
from pancli.storage.actions import ActionLog
from pancli.storage.care import DatabaseCare
from pancli.storage.club import ClubQueries
from pancli.storage.log import EventLog
from pancli.storage.mapping import SESSION_COLUMNS, session_row
from pancli.storage.migrations import KNOWN_MIGRATIONS, SCHEMA_SET, upgrade
from pancli.storage.paths import resolve_path
from pancli.storage.queries import ReportQueries
from pancli.storage.sync import SyncQueries

BUSY_TIMEOUT_MS = 30000  # how long a statement waits for another connection's lock
TURN_EVERY = 0.25        # a writer holding commits leaves the write lock free this often (seconds)…
TURN_FOR = 0.005         # …for this long: 2% of a script's time


class Store:
    """One open database. Read-only opens never create the file."""

    log: EventLog
    queries: ReportQueries
    care: DatabaseCare
    sync: SyncQueries
    actions: ActionLog

    def __init__(self, path: str | os.PathLike[str] | None = None, create: bool = True, readonly: bool = False):
        self.path = resolve_path(path)
        self.holding: dblock.Holding | None = None
        self.hold_commits = False  # set by `pan table --script`: lock() leaves its transaction open
        self._held = False         # a transaction left open by lock(), until commit_held()
        self._waited = False       # the last BEGIN waited for another writer
        self._turn_at = time.monotonic()  # when held commits last left the lock to others
        opened = False
        try:
            if readonly:
                self._open_readonly()
            else:
                self._open(create)
            opened = True
        finally:
            if not opened:
                if hasattr(self, "conn"):
                    self.conn.close()
                if self.holding is not None:
                    self.holding.release(discard=True)  # refused: no lock file left beside the file
        self.log = EventLog(self.conn)
        self.queries = ReportQueries(self.conn)
        self.care = DatabaseCare(self.conn)
        self.sync = SyncQueries(self.conn)
        self.club = ClubQueries(self.conn)
        self.actions = ActionLog(self.conn)

    def _open(self, create: bool) -> None:
        if not self.path.exists():
            if not create:
                raise _no_database(self.path)
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(_("cannot create the folder for {path}").format(path=self.path),
                                 e.strerror or str(e)) from None
        elif self.path.is_dir():
            raise StoreError(_("{path} is a folder, not a database file").format(path=self.path),
                             _("pass --db with a file name"))
        self.holding = dblock.hold(self.path)
        try:
            self.conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.identity = _identity(self.path)
            self.conn.row_factory = sqlite3.Row
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._setup(create)
        except sqlite3.DatabaseError as e:
            raise store_error(self.path, e) from None

    def _open_readonly(self) -> None:
        """Open for reading only (`pan serve`): SQLite refuses every write on this connection, and
        nothing is created, migrated or switched (no journal mode, no pragmas that write)."""
        if not self.path.is_file():
            raise _no_database(self.path)
        self.holding = dblock.hold(self.path)
        try:
            uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
            self.conn = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self.conn.execute("PRAGMA query_only = ON")
            has_schema = self.conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = '_sqlite_migrations'").fetchone()[0]
            applied = {r[0] for r in self.conn.execute(
                "SELECT name FROM _sqlite_migrations WHERE migration_set = ?", [SCHEMA_SET])} if has_schema else set()
        except sqlite3.DatabaseError as e:
            raise store_error(self.path, e) from None
        if applied - KNOWN_MIGRATIONS:
            raise _newer(self.path, applied)
        if applied != KNOWN_MIGRATIONS:
            raise StoreError(_("{path} has no pancli data of this version yet").format(path=self.path),
                             _("run any `pan` command on it once (it upgrades the file), then read it"))

    def _setup(self, create: bool) -> None:
        c = self.conn
        # One statement, so one read snapshot: another process that finishes creating the schema
        # between two separate queries would otherwise make a new pancli database look foreign.
        # Nothing is written until the file is known to be pancli's: another program's database
        # (sqlite-utils programs have a _sqlite_migrations table too) is refused unchanged, with
        # no table created and its journal mode left as it was.
        has_table, objects = c.execute(
            "SELECT count(*) FILTER (WHERE name = '_sqlite_migrations'), count(*) FROM sqlite_master").fetchone()
        applied = {r[0] for r in c.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = ?", [SCHEMA_SET])} if has_table else set()
        if applied:
            if applied - KNOWN_MIGRATIONS:
                raise _newer(self.path, applied)
            if applied == KNOWN_MIGRATIONS:
                self._pragmas()
                return
            # an older pancli schema is upgraded, even by a reading command
        elif objects:
            raise StoreError(_("{path} is an SQLite database, but not a pancli one").format(path=self.path),
                             _("pass --db with another file; nothing was changed"))
        elif not create:
            raise StoreError(_("{path} has no pancli data yet").format(path=self.path), _("record something first"))
        self._pragmas()
        with self.lock():
            upgrade(c)  # what is still due now that this process holds the write lock: nothing, if another did it

    def _pragmas(self) -> None:
        mode = self.conn.execute("PRAGMA journal_mode").fetchone()[0]
        if mode != "wal":
            try:
                self.conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.OperationalError:
                pass  # a read-only file stays in its mode; writing will fail with a clear error
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute("PRAGMA foreign_keys = ON")

    def close(self) -> None:
        self.conn.close()
        if self.holding is not None:
            self.holding.release()

    # -- transactions -------------------------------------------------------------------

    _depth = 0  # how deep inside lock() this store is: an inner lock is a savepoint of the outer one

    @contextmanager
    def lock(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: writers queue on the lock, readers see before or after.
        Inside another lock() of this store, or inside a transaction held by ``hold_commits``,
        it is a savepoint: undone alone on an error, made durable with the outer transaction (so
        `pan sync` commits many sessions at once, and a script a group of lines). With
        ``hold_commits`` the transaction stays open for the next lock() to join, and nothing is
        durable before ``commit_held``."""
        c = self.conn
        if self._depth or self._held:
            yield from self._savepoint()
            return
        try:
            self._begin()
            self._depth = 1
            done = False
            try:
                yield c
                done = True
            finally:
                if not done:  # whatever stopped the body, the transaction is undone
                    # SQLite has already rolled back after some errors (SQLITE_FULL, SQLITE_IOERR):
                    # a second ROLLBACK would raise and hide the real reason.
                    self._rollback()
                self._depth = 0
            if self.hold_commits:
                self._held = True
            else:
                self._commit()
        except sqlite3.DatabaseError as e:
            self._rollback()
            raise store_error(self.path, e) from None

    def _commit(self) -> None:
        try:
            self.check_same_file()  # replaced since BEGIN: the rows would be lost with the old file
        except StoreError:
            self._rollback()
            raise
        self.conn.execute("COMMIT")

    def _savepoint(self) -> Iterator[sqlite3.Connection]:
        """A lock() inside a transaction: kept with it, or undone alone."""
        c = self.conn
        self._depth += 1
        name = f"inner{self._depth}"
        try:
            c.execute(f"SAVEPOINT {name}")
            done = False
            try:
                yield c
                done = True
            finally:
                if not done and c.in_transaction:  # after SQLITE_FULL or an I/O error SQLite may have rolled back all
                    c.execute(f"ROLLBACK TO {name}")
                    c.execute(f"RELEASE {name}")
            c.execute(f"RELEASE {name}")
        except sqlite3.DatabaseError as e:
            raise store_error(self.path, e) from None
        finally:
            self._depth -= 1

    @property
    def in_group(self) -> bool:
        """A group of held commands is open: this connection holds the write lock, so nothing
        another process records can come in until ``commit_held``."""
        return self._held

    def commit_held(self) -> None:
        """Commit the commands that held commits have gathered, if any: once this returns they
        are durable. Raises a StoreError if they could not be kept (a full disk): none of them is."""
        if not self._held:
            return
        self._held = False
        if not self.conn.in_transaction:  # SQLite rolled the whole group back after an error
            raise StoreError(_("a write to {path} failed, so the lines not yet reported done were not "
                               "recorded").format(path=self.path), _("see the error above; run those lines again"))
        try:
            self._commit()
        except sqlite3.DatabaseError as e:
            self._rollback()
            raise store_error(self.path, e) from None
        now = time.monotonic()
        if self._waited or now - self._turn_at >= TURN_EVERY:
            # Another writer may be waiting (it asks every 2 ms, see _begin): leave it the lock a
            # moment, so that a command typed in another terminal does not wait for the script.
            time.sleep(TURN_FOR)
            self._turn_at = time.monotonic()

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.DatabaseError:
                pass  # the transaction is gone either way; the first error is the one to report

    def _begin(self) -> None:
        # While another writer has the lock, ask again every 2 ms rather than at SQLite's own
        # back-off (up to 100 ms apart): a script that commits in groups leaves short gaps.
        c = self.conn
        c.execute("PRAGMA busy_timeout = 0")
        try:
            self._waited = False
            deadline = time.monotonic() + 60
            while True:
                try:
                    c.execute("BEGIN IMMEDIATE")
                    break
                except sqlite3.OperationalError as e:
                    if "locked" not in str(e) and "busy" not in str(e) or time.monotonic() > deadline:
                        raise
                    self._waited = True
                    time.sleep(0.002)
        finally:
            c.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        try:
            self.check_same_file()
        except StoreError:
            self._rollback()
            raise

    identity: tuple[int, int] | None = None  # the database file's (st_dev, st_ino) when this Store opened it

    def check_same_file(self) -> None:
        """Refuse to write when the file at the database's path is no longer the one this Store
        opened (a restore put another in its place, or it was removed): what is written would
        go to the old file, which nobody will read again."""
        if self.identity is not None and _identity(self.path) != self.identity:
            raise StoreError(_("{path} is no longer the file this pan opened: another was put in its place "
                               "(a restore?) or it was removed").format(path=self.path),
                             _("start pan again to use the file there now; nothing was recorded"))

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every query inside sees the same committed state."""
        c = self.conn
        if self._depth or self._held:  # inside lock(), or a held group: its transaction is the snapshot
            yield c
            return
        try:
            c.execute("BEGIN")
            try:
                yield c
            finally:
                c.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            raise store_error(self.path, e) from None

    # -- settings and sessions ----------------------------------------------------------

    def setting(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_setting(self, key: str, value: str | None) -> None:
        self.conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", [key, value])

    def create_session(self, name: str, game: str, players: list[str], dealer: str | None,
                       rules: dict[str, Any], chip_value: float | None, origin: str | None = None,
                       created_at: str | None = None, device: str | None = None, uid: str | None = None,
                       currency: str | None = None, language: str | None = None) -> int:
        """A new session; its global id is (``device``, ``uid``): this device's and a fresh uid
        unless given (a session imported from another device keeps its own). ``currency`` and
        ``language`` (the house language) stay NULL unless given."""
        c = self.conn
        if c.execute("SELECT 1 FROM sessions WHERE name = ?", [name]).fetchone():
            raise InputError(_("a session named '{name}' exists already").format(name=name),
                             _("choose another name, or `pan session use` it"))
        cur = c.execute(
            "INSERT INTO sessions (name, game, created_at, players, dealer, rules, chip_value, origin, device, uid, "
            "currency, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [name, game, created_at or _log.now(), json.dumps(players), dealer, json.dumps(rules), chip_value, origin,
             device or self.sync.device_id(), uid or uuid.uuid4().hex, currency, language])
        assert cur.lastrowid is not None  # sqlite3 sets it after an INSERT into a rowid table such as sessions
        return cur.lastrowid

    def close_session(self, session_id: int, when: str | None = None) -> None:
        self.conn.execute("UPDATE sessions SET closed_at = ? WHERE id = ? AND closed_at IS NULL",
                          [when or _log.now(), session_id])

    def session_tail(self, session_id: int) -> tuple[str | None, int, int]:
        """When the session was closed (None: open), the id and the seq of its last event (0: none)."""
        row = self.conn.execute(
            "SELECT closed_at, (SELECT coalesce(max(id), 0) FROM events WHERE session_id = s.id), "
            "(SELECT coalesce(max(seq), 0) FROM events WHERE session_id = s.id) FROM sessions s WHERE id = ?",
            [session_id]).fetchone()
        return tuple(row) if row else (None, 0, 0)

    def closed_at(self, session_id: int) -> str | None:
        row = self.conn.execute("SELECT closed_at FROM sessions WHERE id = ?", [session_id]).fetchone()
        return row[0] if row else None

    def data_version(self) -> int:
        """SQLite's data version: it changes when another connection commits."""
        try:
            version: int = self.conn.execute("PRAGMA data_version").fetchone()[0]
            return version
        except sqlite3.DatabaseError as e:
            raise store_error(self.path, e) from None

    def last_event_id_of_all(self) -> int:
        last: int = self.conn.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0]
        return last

    def sessions_changed_since(self, event_id: int) -> dict[int, int]:
        """Sessions with events after ``event_id``: their id and last seq."""
        return dict(self.conn.execute(
            "SELECT session_id, max(seq) FROM events WHERE id > ? GROUP BY session_id", [event_id]).fetchall())

    def change_mark(self) -> tuple[Any, ...]:
        """Something that changes whenever anything is recorded, undone or made current."""
        return tuple(self.conn.execute(
            "SELECT (SELECT max(id) FROM events), (SELECT value FROM settings WHERE key = 'current_session')"
        ).fetchone())

    def sessions(self) -> list[Session]:
        return [session_row(r) for r in self.conn.execute(f"SELECT {SESSION_COLUMNS} FROM sessions ORDER BY id")]

    def session(self, name: str | None = None) -> Session:
        """The named session, or the current one."""
        c = self.conn
        if name is None:
            current = self.setting("current_session")
            row = c.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?", [current]).fetchone() if current else None
            if row is None:
                raise InputError(_("no current session"), _("start one with `pan session new NAME --players A,B,C`"))
            return session_row(row)
        row = c.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE name = ?", [name]).fetchone()
        if row is None:
            rows = c.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE name LIKE ? ORDER BY id",
                             [name.replace("%", "").replace("_", "") + "%"]).fetchall()
            if len(rows) == 1:
                return session_row(rows[0])
            names = ", ".join(r[1] for r in rows)
            raise InputError(_("no session named '{name}' (several start so: {names})").format(name=name, names=names)
                             if rows else _("no session named '{name}'").format(name=name),
                             _("see them with `pan session list`"))
        return session_row(row)

    def session_from(self, origin: str) -> str | None:
        """The name of the session imported from the archive with this fingerprint, if any."""
        row = self.conn.execute("SELECT name FROM sessions WHERE origin = ?", [origin]).fetchone()
        return row[0] if row else None

    def session_named(self, name: str) -> Session | None:
        """The session of exactly this name (case-insensitively), or None."""
        row = self.conn.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE name = ?", [name]).fetchone()
        return session_row(row) if row else None

    def name_imported(self, session_id: int, name: str, origin: str, device: str | None, uid: str | None) -> None:
        """A session imported under a placeholder gets its name, the fingerprint of its archive
        and, where the archive gave one, its global id (all known once every event is in)."""
        self.conn.execute("UPDATE sessions SET name = ?, origin = ? WHERE id = ?", [name, origin, session_id])
        if device is not None:
            self.conn.execute("UPDATE sessions SET device = ?, uid = ? WHERE id = ?", [device, uid, session_id])

    def set_closed(self, session_id: int, closed_at: str) -> None:
        self.conn.execute("UPDATE sessions SET closed_at = ? WHERE id = ?", [closed_at, session_id])



def _disk_full(path: Path) -> bool:
    try:
        st = os.statvfs(path.parent)
    except (OSError, AttributeError):
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def _folder_read_only(path: Path) -> bool:
    return path.exists() and not os.access(path.parent, os.W_OK)


def _no_database(path: Path) -> StoreError:
    return StoreError(_("no database at {path}").format(path=path),
                      _("record something first (`pan session new …`), or pass --db PATH"))


def _newer(path: Path, applied: set[str]) -> StoreError:
    return StoreError(_("{path} was written by a newer pancli (schema {schema})").format(
        path=path, schema=sorted(applied)[-1]), _("upgrade pancli to read it; nothing was changed"))


def store_error(path: Path, e: sqlite3.DatabaseError) -> StoreError:
    text = str(e)
    if "readonly" in text or "read-only" in text:
        return StoreError(_("{path} is read-only").format(path=path),
                          _("check the file's permissions; nothing was recorded"))
    if "not a database" in text or "file is encrypted" in text:
        return StoreError(_("{path} is not an SQLite database").format(path=path),
                          _("pass --db with a pancli database file"))
    # A full disk shows as SQLITE_FULL, or as SQLITE_IOERR when the WAL index cannot grow.
    if "disk is full" in text or "database or disk is full" in text or ("disk I/O error" in text and _disk_full(path)):
        return StoreError(_("the disk holding {path} is full").format(path=path),
                          _("free some space; nothing was recorded"))
    if "malformed" in text:
        # Translators: {error} is SQLite's own message, in English
        return StoreError(_("{path} is damaged ({error})").format(path=path, error=text),
                          _("restore it from a backup copy; nothing was recorded"))
    if "unable to open" in text and _folder_read_only(path):
        # SQLite must write its -wal and -shm files beside the database, even to read it.
        return StoreError(_("cannot open {path}: its folder is read-only").format(path=path),
                          _("pancli needs a writable folder next to the database; nothing was recorded"))
    if "unable to open" in text:
        return StoreError(_("cannot open {path}").format(path=path),
                          _("check that the folder exists and is writable"))
    if "locked" in text or "busy" in text:
        return StoreError(_("{path} stayed locked by another pancli for too long").format(path=path), _("try again"))
    # Translators: {error} is SQLite's own message, in English
    return StoreError(_("database error in {path}: {error}").format(path=path, error=text),
                      _("nothing was recorded"))


def _identity(path: Path) -> tuple[int, int] | None:
    """The file at ``path`` (through links): its device and inode; None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino
