"""SQLite storage: sessions, the append-only event log, and the payments and tallies of each event.

The log is the truth. An undo is itself an event (``kind = 'undo'``, ``undo_of`` = the voided
event), so nothing is ever updated or deleted; views give the effective events and payments.
Every recorded command is one IMMEDIATE transaction, committed (WAL, synchronous=FULL) before
the command reports success.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import contextmanager
from functools import lru_cache
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from pancli.core.errors import InputError, StoreError
from pancli.storage.care import DatabaseCare
from pancli.storage.queries import ReportQueries
from pancli.storage.sync import SyncQueries

SCHEMA_SET = "pancli"


def data_dir() -> Path:
    """The user's data folder for pancli: $XDG_DATA_HOME/pancli (~/.local/share/pancli) on Linux
    and other Unixes, ~/Library/Application Support/pancli on macOS, %LOCALAPPDATA%\\pancli on Windows."""
    import sys

    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "pancli"
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or os.environ.get("APPDATA")
        return (Path(base) if base else home / "AppData" / "Local") / "pancli"
    xdg = os.environ.get("XDG_DATA_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share") / "pancli"


def legacy_path() -> Path:
    """Where pancli 0.1 kept the database: the user's config folder (click's app dir)."""
    from typer import get_app_dir

    return Path(get_app_dir("pancli")) / "pancli.db"


def default_path() -> Path:
    """pancli.db in the user's data folder; a database still at the old place (the config folder,
    from pancli 0.1) is used where it is while none exists at the new one, with a note on stderr."""
    path = data_dir() / "pancli.db"
    if path.exists():
        return path
    old = legacy_path()
    if old != path and old.is_file():
        _note_legacy(str(old), str(path.parent))
        return old
    return path


@lru_cache(maxsize=None)
def _note_legacy(old: str, new_folder: str) -> None:
    import sys

    sys.stderr.write(f"Note: using the database at its old place {old}; move it (with any -wal and -shm "
                     f"files next to it) into {new_folder} and this note goes away.\n")


def resolve_path(path: str | os.PathLike | None) -> Path:
    return Path(path).expanduser() if path else default_path()


_STEPS: list = []  # every migration of the schema, in order; each function's name is its migration's


def _step(fn):
    _STEPS.append(fn)
    return fn


@_step
def m001_initial(db):
    db.executescript(_SCHEMA_V1)


@_step
def m002_covering_indexes(db):
    db.executescript(_SCHEMA_V2)


@_step
def m003_totals(db):
    db.executescript(_SCHEMA_V3)


@_step
def m004_hand_totals(db):
    db.executescript(_SCHEMA_V4)


@_step
def m005_payment_codes(db):
    for statement in _SCHEMA_V5:
        db.execute(statement)


@_step
def m006_device_identity(db):
    for statement in _SCHEMA_V6:
        db.execute(statement)


def _migrations():
    from sqlite_utils.migrations import Migrations

    migrations = Migrations(SCHEMA_SET)
    for fn in _STEPS:
        migrations()(fn)
    return migrations


_SCHEMA_V1 = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    game TEXT NOT NULL,
    created_at TEXT NOT NULL,
    players TEXT NOT NULL,          -- JSON list, seating order in the direction of play
    dealer TEXT,
    rules TEXT NOT NULL,            -- JSON: every house-rule knob, copied at creation
    chip_value REAL,
    closed_at TEXT,
    origin TEXT                     -- fingerprint of the archive a session was imported from
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    hand INTEGER,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,          -- JSON, as the game core reads it
    created_at TEXT NOT NULL,
    undo_of INTEGER REFERENCES events(id),
    UNIQUE (session_id, seq)
);
CREATE INDEX events_undo_of ON events(undo_of) WHERE undo_of IS NOT NULL;
CREATE INDEX events_session_kind ON events(session_id, kind, id);
CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events(id),
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    hand INTEGER,
    payer TEXT NOT NULL,
    payee TEXT NOT NULL,
    chips INTEGER NOT NULL,
    reason TEXT NOT NULL
);
CREATE INDEX payments_session ON payments(session_id, event_id);
CREATE INDEX payments_event ON payments(event_id);
CREATE TABLE tallies (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events(id),
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    hand INTEGER,
    player TEXT NOT NULL,
    stat TEXT NOT NULL,
    amount INTEGER NOT NULL
);
CREATE INDEX tallies_session ON tallies(session_id, event_id);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);
CREATE VIEW voided_events AS
    SELECT undo_of AS id FROM events WHERE undo_of IS NOT NULL;
CREATE VIEW effective_events AS
    SELECT * FROM events WHERE kind != 'undo' AND id NOT IN (SELECT id FROM voided_events);
CREATE VIEW effective_payments AS
    SELECT p.* FROM payments p WHERE p.event_id NOT IN (SELECT id FROM voided_events);
CREATE VIEW effective_tallies AS
    SELECT t.* FROM tallies t WHERE t.event_id NOT IN (SELECT id FROM voided_events);
CREATE VIEW balances AS
    SELECT session_id, player, SUM(chips) AS net FROM (
        SELECT session_id, payee AS player, chips FROM effective_payments
        UNION ALL
        SELECT session_id, payer AS player, -chips FROM effective_payments
    ) GROUP BY session_id, player;
"""

# For long sessions (measured on 10,000 hands, 132,000 events): standings sum a whole session's
# payments and tallies, which these covering indexes serve from the index alone (balances
# 0.6 s -> 0.08 s); a session's last event, its undos and the events since a checkpoint were
# found by scanning all of the session's events (25-50 ms each), now by a short index search.
_SCHEMA_V2 = """
CREATE INDEX IF NOT EXISTS payments_session_cover ON payments(session_id, payer, payee, chips, event_id);
CREATE INDEX IF NOT EXISTS tallies_session_cover ON tallies(session_id, player, stat, amount, event_id);
CREATE INDEX IF NOT EXISTS events_session_id ON events(session_id, id);
CREATE INDEX IF NOT EXISTS events_session_undo ON events(session_id, undo_of) WHERE undo_of IS NOT NULL;
"""

# Standings read running totals kept with every append, so `pan standings` costs the same on
# the first night and after 300,000 events (summing 1.5 million payment rows took 0.5 s).
# They are a projection: `pan db check` recomputes them from the effective log.
NET = "(net)"  # the stat holding a player's net chips; tally stats are plain words
_SCHEMA_V3 = f"""
CREATE TABLE totals (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    player TEXT NOT NULL,
    stat TEXT NOT NULL,
    amount INTEGER NOT NULL,
    PRIMARY KEY (session_id, player, stat)
) WITHOUT ROWID;
INSERT INTO totals (session_id, player, stat, amount)
    SELECT session_id, player, '{NET}', net FROM balances WHERE net != 0;
INSERT INTO totals (session_id, player, stat, amount)
    SELECT session_id, player, stat, SUM(amount) FROM effective_tallies GROUP BY session_id, player, stat
    HAVING SUM(amount) != 0;
"""

# Each player's net per hand, kept the same way, for the running-total chart of `pan report`.
_SCHEMA_V4 = """
CREATE TABLE hand_totals (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    hand INTEGER NOT NULL,          -- 0 for payments outside any hand
    player TEXT NOT NULL,
    net INTEGER NOT NULL,
    PRIMARY KEY (session_id, hand, player)
) WITHOUT ROWID;
INSERT INTO hand_totals (session_id, hand, player, net)
    SELECT session_id, hand, player, SUM(chips) FROM (
        SELECT session_id, coalesce(hand, 0) AS hand, payee AS player, chips FROM effective_payments
        UNION ALL
        SELECT session_id, coalesce(hand, 0) AS hand, payer AS player, -chips FROM effective_payments
    ) GROUP BY session_id, hand, player HAVING SUM(chips) != 0;
"""

# Why each payment was made, as data: a code from its game's vocabulary and its parameters as
# canonical JSON (keys sorted, no spaces; see pancli.core.ledger.Params). Rows written by pancli
# 0.1 keep NULL in both: they are compared by players and chips only, never by their reason text.
_SCHEMA_V5 = (
    "ALTER TABLE payments ADD COLUMN code TEXT",
    "ALTER TABLE payments ADD COLUMN params TEXT",
)

# Several hosts or tables (`pan sync`): every database has a random device id, made once and
# kept; every session has a global id, the device that records it (its only writer) and a random
# uid of its own. Sessions of an older database become this device's, each with a fresh uid.
# ``devices`` remembers each device met in a synced folder: its label and when it last synced.
_SCHEMA_V6 = (
    "INSERT INTO settings (key, value) SELECT 'device_id', lower(hex(randomblob(16))) "
    "WHERE NOT EXISTS (SELECT 1 FROM settings WHERE key = 'device_id')",
    "ALTER TABLE sessions ADD COLUMN device TEXT",
    "ALTER TABLE sessions ADD COLUMN uid TEXT",
    "UPDATE sessions SET device = (SELECT value FROM settings WHERE key = 'device_id'), "
    "uid = lower(hex(randomblob(16)))",
    "CREATE UNIQUE INDEX sessions_global_id ON sessions(device, uid)",
    "CREATE TABLE devices (id TEXT PRIMARY KEY, label TEXT, last_sync TEXT, seen_at TEXT)",
)

KNOWN_MIGRATIONS = frozenset(fn.__name__ for fn in _STEPS)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store(ReportQueries, DatabaseCare, SyncQueries):
    """One open database. Read-only opens never create the file."""

    def __init__(self, path: str | os.PathLike | None = None, create: bool = True, readonly: bool = False):
        self.path = resolve_path(path)
        if readonly:
            self._open_readonly()
            return
        if not self.path.exists():
            if not create:
                raise StoreError(f"no database at {self.path}",
                                 "record something first (`pan session new …`), or pass --db PATH")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"cannot create the folder for {self.path}", e.strerror or str(e)) from None
        elif self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a database file", "pass --db with a file name")
        try:
            self.conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            self.conn.execute("PRAGMA busy_timeout = 30000")
            self._setup(create)
        except sqlite3.DatabaseError as e:
            raise store_error(self.path, e) from None

    def _open_readonly(self) -> None:
        """Open for reading only (`pan serve`): SQLite refuses every write on this connection, and
        nothing is created, migrated or switched (no journal mode, no pragmas that write)."""
        from urllib.parse import quote

        if not self.path.is_file():
            raise StoreError(f"no database at {self.path}", "record something first (`pan session new …`), or pass --db PATH")
        try:
            uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
            self.conn = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            self.conn.execute("PRAGMA busy_timeout = 30000")
            self.conn.execute("PRAGMA query_only = ON")
            has_schema = self.conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = '_sqlite_migrations'").fetchone()[0]
            applied = {r[0] for r in self.conn.execute(
                "SELECT name FROM _sqlite_migrations WHERE migration_set = ?", [SCHEMA_SET])} if has_schema else set()
        except sqlite3.DatabaseError as e:
            raise store_error(self.path, e) from None
        if applied - KNOWN_MIGRATIONS:
            raise StoreError(f"{self.path} was written by a newer pancli (schema {sorted(applied)[-1]})",
                             "upgrade pancli to read it; nothing was changed")
        if applied != KNOWN_MIGRATIONS:
            raise StoreError(f"{self.path} has no pancli data of this version yet",
                             "run any `pan` command on it once (it upgrades the file), then read it")

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
                raise StoreError(f"{self.path} was written by a newer pancli (schema {sorted(applied)[-1]})",
                                 "upgrade pancli to read it; nothing was changed")
            if applied == KNOWN_MIGRATIONS:
                self._pragmas()
                return
            # an older pancli schema is upgraded, even by a reading command
        elif objects:
            raise StoreError(f"{self.path} is an SQLite database, but not a pancli one",
                             "pass --db with another file; nothing was changed")
        elif not create:
            raise StoreError(f"{self.path} has no pancli data yet", "record something first")
        self._pragmas()
        import sqlite_utils

        db = sqlite_utils.Database(c)
        with self.lock():
            _migrations().apply(db)

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

    # -- transactions -------------------------------------------------------------------

    @contextmanager
    def lock(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: writers queue on the lock, readers see before or after."""
        c = self.conn
        try:
            self._begin()
            try:
                yield c
            except BaseException:
                # SQLite has already rolled back after some errors (SQLITE_FULL, SQLITE_IOERR):
                # a second ROLLBACK would raise and hide the real reason.
                self._rollback()
                raise
            c.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            self._rollback()
            raise store_error(self.path, e) from None

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.DatabaseError:
                pass  # the transaction is gone either way; the first error is the one to report

    def _begin(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) and "busy" not in str(e) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every query inside sees the same committed state."""
        c = self.conn
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
                       rules: dict, chip_value: float | None, origin: str | None = None,
                       created_at: str | None = None, device: str | None = None, uid: str | None = None) -> int:
        """A new session; its global id is (``device``, ``uid``): this device's and a fresh uid
        unless given (a session imported from another device keeps its own)."""
        import uuid

        c = self.conn
        if c.execute("SELECT 1 FROM sessions WHERE name = ?", [name]).fetchone():
            raise InputError(f"a session named '{name}' exists already", "choose another name, or `pan session use` it")
        cur = c.execute(
            "INSERT INTO sessions (name, game, created_at, players, dealer, rules, chip_value, origin, device, uid) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [name, game, created_at or now(), json.dumps(players), dealer, json.dumps(rules), chip_value, origin,
             device or self.device_id(), uid or uuid.uuid4().hex])
        return cur.lastrowid

    def close_session(self, session_id: int, when: str | None = None) -> None:
        self.conn.execute("UPDATE sessions SET closed_at = ? WHERE id = ? AND closed_at IS NULL",
                          [when or now(), session_id])

    def closed_at(self, session_id: int) -> str | None:
        row = self.conn.execute("SELECT closed_at FROM sessions WHERE id = ?", [session_id]).fetchone()
        return row[0] if row else None

    def data_version(self) -> int:
        """SQLite's data version: it changes when another connection commits."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def last_event_id_of_all(self) -> int:
        return self.conn.execute("SELECT coalesce(max(id), 0) FROM events").fetchone()[0]

    def sessions_changed_since(self, event_id: int) -> dict[int, int]:
        """Sessions with events after ``event_id``: their id and last seq."""
        return dict(self.conn.execute(
            "SELECT session_id, max(seq) FROM events WHERE id > ? GROUP BY session_id", [event_id]).fetchall())

    def change_mark(self) -> tuple:
        """Something that changes whenever anything is recorded, undone or made current."""
        return tuple(self.conn.execute(
            "SELECT (SELECT max(id) FROM events), (SELECT value FROM settings WHERE key = 'current_session')"
        ).fetchone())

    def sessions(self) -> list[dict]:
        return [self._session_row(r) for r in self.conn.execute("SELECT * FROM sessions ORDER BY id")]

    def session(self, name: str | None = None) -> dict:
        """The named session, or the current one."""
        c = self.conn
        if name is None:
            current = self.setting("current_session")
            row = c.execute("SELECT * FROM sessions WHERE id = ?", [current]).fetchone() if current else None
            if row is None:
                raise InputError("no current session", "start one with `pan session new NAME --players A,B,C`")
            return self._session_row(row)
        row = c.execute("SELECT * FROM sessions WHERE name = ?", [name]).fetchone()
        if row is None:
            rows = c.execute("SELECT * FROM sessions WHERE name LIKE ? ORDER BY id",
                             [name.replace("%", "").replace("_", "") + "%"]).fetchall()
            if len(rows) == 1:
                return self._session_row(rows[0])
            names = ", ".join(r["name"] for r in rows)
            raise InputError(f"no session named '{name}'" + (f" (several start so: {names})" if rows else ""),
                             "see them with `pan session list`")
        return self._session_row(row)

    def session_from(self, origin: str) -> str | None:
        """The name of the session imported from the archive with this fingerprint, if any."""
        row = self.conn.execute("SELECT name FROM sessions WHERE origin = ?", [origin]).fetchone()
        return row[0] if row else None

    def session_named(self, name: str) -> dict | None:
        """The session of exactly this name (case-insensitively), or None."""
        row = self.conn.execute("SELECT * FROM sessions WHERE name = ?", [name]).fetchone()
        return self._session_row(row) if row else None

    def set_closed(self, session_id: int, closed_at: str) -> None:
        self.conn.execute("UPDATE sessions SET closed_at = ? WHERE id = ?", [closed_at, session_id])

    @staticmethod
    def _session_row(row) -> dict:
        d = dict(row)
        d["players"] = json.loads(d["players"])
        d["rules"] = json.loads(d["rules"])
        return d

    # -- events ---------------------------------------------------------------------------

    def last_event_id(self, session_id: int) -> int:
        row = self.conn.execute("SELECT max(id) FROM events WHERE session_id = ?", [session_id]).fetchone()
        return row[0] or 0

    def append(self, session_id: int, kind: str, payload: dict, hand: int | None,
               payments=(), tallies=(), undo_of: int | None = None, created_at: str | None = None) -> int:
        c = self.conn
        seq = c.execute("SELECT coalesce(max(seq), 0) + 1 FROM events WHERE session_id = ?", [session_id]).fetchone()[0]
        cur = c.execute(
            "INSERT INTO events (session_id, seq, hand, kind, payload, created_at, undo_of) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [session_id, seq, hand, kind, json.dumps(payload, ensure_ascii=False), created_at or now(), undo_of])
        event_id = cur.lastrowid
        c.executemany(
            "INSERT INTO payments (event_id, session_id, hand, payer, payee, chips, reason, code, params) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(event_id, session_id, hand, p.payer, p.payee, p.chips, p.reason, p.code, p.params.to_json())
             for p in payments])
        c.executemany(
            "INSERT INTO tallies (event_id, session_id, hand, player, stat, amount) VALUES (?, ?, ?, ?, ?, ?)",
            [(event_id, session_id, hand, t.player, t.stat, t.amount) for t in tallies])
        moves = [(p.payer, p.payee, p.chips) for p in payments]
        changes = [(t.player, t.stat, t.amount) for t in tallies]
        hand_of_moves = hand
        if undo_of is not None:  # the voided event's payments and tallies come off the totals
            moves += [(payee, payer, chips) for payer, payee, chips in c.execute(
                "SELECT payer, payee, chips FROM payments WHERE event_id = ?", [undo_of])]
            changes += [(r[0], r[1], -r[2]) for r in c.execute(
                "SELECT player, stat, amount FROM tallies WHERE event_id = ?", [undo_of])]
            hand_of_moves = c.execute("SELECT hand FROM events WHERE id = ?", [undo_of]).fetchone()[0]
        nets = [(payee, chips) for _, payee, chips in moves] + [(payer, -chips) for payer, _, chips in moves]
        changes += [(player, NET, chips) for player, chips in nets]
        c.executemany(
            "INSERT INTO totals (session_id, player, stat, amount) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (session_id, player, stat) DO UPDATE SET amount = amount + excluded.amount",
            [(session_id, player, stat, amount) for player, stat, amount in changes if amount])
        c.executemany(
            "INSERT INTO hand_totals (session_id, hand, player, net) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (session_id, hand, player) DO UPDATE SET net = net + excluded.net",
            [(session_id, hand_of_moves or 0, player, chips) for player, chips in nets if chips])
        return event_id

    def effective_events(self, session_id: int, since_id: int = 0) -> list[dict]:
        rows = self.conn.execute(
            "SELECT id, seq, hand, kind, payload, created_at FROM events WHERE session_id = ? AND id >= ? "
            "AND kind != 'undo' AND id NOT IN (SELECT undo_of FROM events WHERE session_id = ? "
            "AND undo_of IS NOT NULL) ORDER BY id",
            [session_id, since_id, session_id]).fetchall()
        return [_event_row(r) for r in rows]

    def last_effective(self, session_id: int, kind: str | None = None) -> dict | None:
        sql = ("SELECT id, seq, hand, kind, payload, created_at FROM events WHERE session_id = ? AND kind != 'undo' "
               "AND id NOT IN (SELECT undo_of FROM events WHERE session_id = ? AND undo_of IS NOT NULL)")
        args: list[Any] = [session_id, session_id]
        if kind:
            sql += " AND kind = ?"
            args.append(kind)
        row = self.conn.execute(sql + " ORDER BY id DESC LIMIT 1", args).fetchone()
        return _event_row(row) if row else None

    def all_events(self, session_id: int, hand: int | None = None) -> list[dict]:
        """Every event, voided ones and undos included, with its payments (params parsed; code and
        params None in rows written before payments had codes)."""
        sql = ("SELECT e.id, e.seq, e.hand, e.kind, e.payload, e.created_at, e.undo_of, "
               "(SELECT u.id FROM events u WHERE u.undo_of = e.id) AS voided_by FROM events e WHERE e.session_id = ?")
        args: list[Any] = [session_id]
        if hand is not None:
            sql += " AND e.hand = ?"
            args.append(hand)
        events = [dict(r) | {"payload": json.loads(r["payload"])} for r in self.conn.execute(sql + " ORDER BY e.id", args)]
        by_id = {e["id"]: e for e in events}
        for e in events:
            e["payments"] = []
        if events:
            rows = self.conn.execute(
                "SELECT event_id, payer, payee, chips, reason, code, params FROM payments "
                "WHERE session_id = ? AND event_id >= ? "
                "ORDER BY id", [session_id, events[0]["id"]])
            for r in rows:
                if r["event_id"] in by_id:
                    by_id[r["event_id"]]["payments"].append(
                        dict(r) | {"params": json.loads(r["params"]) if r["params"] is not None else None})
        return events

    def session_log(self, session_id: int, first_seq: int = 1, last_seq: int | None = None) -> list[dict]:
        """Every event of a session in order (or those numbered ``first_seq`` to ``last_seq``), undos
        and voided events included, each with its stored payments and tallies in the order they were
        written: three ordered scans, whatever its length.

        Each event: id, seq, hand, kind, payload (parsed), created_at, undo_of (an event id),
        payments [(payer, payee, chips, code, params, reason)] with params as JSON text (code and
        params are None in rows written before payments had codes), tallies [(player, stat, amount)].
        Payments or tallies whose event is not one of the session's are left out (stray_rows
        counts them).
        """
        c = self.conn.cursor()
        c.row_factory = None  # plain tuples: a long session has hundreds of thousands of rows
        events: list[dict] = []
        payments: dict[int, list] = {}
        tallies: dict[int, list] = {}
        loads = json.loads
        for eid, seq, hand, kind, payload, created_at, undo_of in c.execute(
                "SELECT id, seq, hand, kind, payload, created_at, undo_of FROM events "
                "WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY id",
                [session_id, first_seq, last_seq if last_seq is not None else 2 ** 62]):
            payments[eid], tallies[eid] = [], []
            events.append({"id": eid, "seq": seq, "hand": hand, "kind": kind, "payload": loads(payload),
                           "created_at": created_at, "undo_of": undo_of,
                           "payments": payments[eid], "tallies": tallies[eid]})
        if not events:
            return events
        ids = [session_id, events[0]["id"], events[-1]["id"]]
        for r in c.execute("SELECT event_id, payer, payee, chips, code, params, reason FROM payments "
                           "WHERE session_id = ? AND event_id BETWEEN ? AND ? ORDER BY event_id, id", ids):
            into = payments.get(r[0])
            if into is not None:
                into.append(r[1:])
        for r in c.execute("SELECT event_id, player, stat, amount FROM tallies "
                           "WHERE session_id = ? AND event_id BETWEEN ? AND ? ORDER BY id", ids):
            into = tallies.get(r[0])
            if into is not None:
                into.append(r[1:])
        return events

    def checkpoint_seqs(self, session_id: int, kind: str) -> list[int]:
        """The seq of every effective (never undone) event of ``kind`` in a session, in order."""
        return [r[0] for r in self.conn.execute(
            "SELECT seq FROM events WHERE session_id = ? AND kind = ? AND id NOT IN "
            "(SELECT undo_of FROM events WHERE session_id = ? AND undo_of IS NOT NULL) ORDER BY seq",
            [session_id, kind, session_id])]

    def stray_rows(self, session_id: int) -> tuple[int, int]:
        """How many of a session's payments, and how many of its tallies, belong to no event of
        that session or say another hand than their event."""
        return tuple(self.conn.execute(
            f"SELECT count(*) FROM {table} r LEFT JOIN events e ON e.id = r.event_id "
            "WHERE r.session_id = ? AND (e.id IS NULL OR e.session_id != r.session_id OR r.hand IS NOT e.hand)",
            [session_id]).fetchone()[0] for table in ("payments", "tallies"))

    def events_between(self, session_id: int, first_seq: int, last_seq: int) -> list[dict]:
        """The events numbered ``first_seq`` to ``last_seq``, shaped as ``all_events``: a short
        index search, so a page of a 10,000-hand night costs what a page of one hand does."""
        rows = self.conn.execute(
            "SELECT e.id, e.seq, e.hand, e.kind, e.payload, e.created_at, e.undo_of, "
            "(SELECT u.id FROM events u WHERE u.undo_of = e.id) AS voided_by FROM events e "
            "WHERE e.session_id = ? AND e.seq BETWEEN ? AND ? ORDER BY e.seq",
            [session_id, first_seq, last_seq]).fetchall()
        events = [dict(r) | {"payload": json.loads(r["payload"]), "payments": []} for r in rows]
        by_id = {e["id"]: e for e in events}
        if events:
            for r in self.conn.execute(
                    "SELECT event_id, payer, payee, chips, reason, code, params FROM payments "
                    "WHERE event_id IN (SELECT value FROM json_each(?)) ORDER BY id", [json.dumps(list(by_id))]):
                by_id[r["event_id"]]["payments"].append(
                    dict(r) | {"params": json.loads(r["params"]) if r["params"] is not None else None})
        return events

    def event_hands(self, session_id: int, after_seq: int = 0) -> list[tuple[int, int | None]]:
        """(seq, hand) of each event after ``after_seq``, in order: where each hand lies in the log."""
        cur = self.conn.cursor()
        cur.row_factory = None  # plain tuples: a 10,000-hand night has 130,000 of them
        return cur.execute("SELECT seq, hand FROM events WHERE session_id = ? AND seq > ? ORDER BY seq",
                           [session_id, after_seq]).fetchall()

    def last_seq(self, session_id: int) -> int:
        return self.conn.execute("SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ?",
                                 [session_id]).fetchone()[0]

    def payments_of(self, event_id: int) -> list[dict]:
        return [dict(r) for r in self.conn.execute(
            "SELECT payer, payee, chips, reason, code, params FROM payments WHERE event_id = ? ORDER BY id",
            [event_id])]

    def balances(self, session_id: int) -> dict[str, int]:
        """Net chips per player and pool, from the running totals."""
        return {player: amount for player, amount in self.conn.execute(
            "SELECT player, amount FROM totals WHERE session_id = ? AND stat = ? AND amount != 0 ORDER BY player",
            [session_id, NET])}

    def tallies(self, session_id: int) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for player, stat, total in self.conn.execute(
                "SELECT player, stat, amount FROM totals WHERE session_id = ? AND stat != ? AND amount != 0",
                [session_id, NET]):
            out.setdefault(player, {})[stat] = total
        return out

    def hand_nets(self, session_id: int) -> dict[tuple[int, str], int]:
        """Each player's net chips per hand (hand 0: outside any hand), from the running totals."""
        return {(hand, player): net for hand, player, net in self.conn.execute(
            "SELECT hand, player, net FROM hand_totals WHERE session_id = ? AND net != 0", [session_id])}


def _event_row(r) -> dict:
    d = dict(r)
    d["payload"] = json.loads(d["payload"])
    return d


def _disk_full(path: Path) -> bool:
    try:
        st = os.statvfs(path.parent)
    except (OSError, AttributeError):
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def _folder_read_only(path: Path) -> bool:
    return path.exists() and not os.access(path.parent, os.W_OK)


def store_error(path: Path, e: sqlite3.DatabaseError) -> StoreError:
    text = str(e)
    if "readonly" in text or "read-only" in text:
        return StoreError(f"{path} is read-only", "check the file's permissions; nothing was recorded")
    if "not a database" in text or "file is encrypted" in text:
        return StoreError(f"{path} is not an SQLite database", "pass --db with a pancli database file")
    # A full disk shows as SQLITE_FULL, or as SQLITE_IOERR when the WAL index cannot grow.
    if "disk is full" in text or "database or disk is full" in text or ("disk I/O error" in text and _disk_full(path)):
        return StoreError(f"the disk holding {path} is full", "free some space; nothing was recorded")
    if "malformed" in text:
        return StoreError(f"{path} is damaged ({text})", "restore it from a backup copy; nothing was recorded")
    if "unable to open" in text and _folder_read_only(path):
        # SQLite must write its -wal and -shm files beside the database, even to read it.
        return StoreError(f"cannot open {path}: its folder is read-only",
                          "pancli needs a writable folder next to the database; nothing was recorded")
    if "unable to open" in text:
        return StoreError(f"cannot open {path}", "check that the folder exists and is writable")
    if "locked" in text or "busy" in text:
        return StoreError(f"{path} stayed locked by another pancli for too long", "try again")
    return StoreError(f"database error in {path}: {text}", "nothing was recorded")
