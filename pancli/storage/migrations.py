"""The schema of a pancli database and every migration of it, in order, applied by one runner:
sqlite-utils' Migrations (``upgrade``).

A database from any earlier pancli is brought up to date by the steps it has not had, and a new
one by all of them, the same way and recorded the same way (``_sqlite_migrations``); a step is
never changed once released, only followed by a new one. sqlite-utils is imported only when a
step is due (a new database, or an older one): with what it imports (click, dateutil, pluggy) it
costs a process about 60 ms, paid once by a database's first command.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations

SCHEMA_SET = "pancli"

Step = Callable[["Database"], None]

_STEPS: list[Step] = []  # every migration of the schema, in order; each function's name is its migration's


def _step(fn: Step) -> Step:
    _STEPS.append(fn)
    return fn


@_step
def m001_initial(db: Database) -> None:
    db.executescript(_SCHEMA_V1)


@_step
def m002_covering_indexes(db: Database) -> None:
    db.executescript(_SCHEMA_V2)


@_step
def m003_totals(db: Database) -> None:
    db.executescript(_SCHEMA_V3)


@_step
def m004_hand_totals(db: Database) -> None:
    db.executescript(_SCHEMA_V4)


@_step
def m005_payment_codes(db: Database) -> None:
    for statement in _SCHEMA_V5:
        db.execute(statement)


@_step
def m006_device_identity(db: Database) -> None:
    for statement in _SCHEMA_V6:
        db.execute(statement)


@_step
def m007_device_keys(db: Database) -> None:
    for statement in _SCHEMA_V7:
        db.execute(statement)
    # A database whose device id nobody can have seen yet (no session, never synced) takes the
    # id its public key gives (pancli.core.signing.device_id_of), so the id cannot be claimed
    # without the key; an older device keeps its random id, bound to its key on first sight.
    unseen = db.execute("SELECT (SELECT count(*) FROM sessions) + (SELECT count(*) FROM devices) "
                        "+ (SELECT count(*) FROM settings WHERE key = 'sync_folder')").fetchone()[0] == 0
    if unseen:
        from pancli.core import signing  # noqa: PLC0415 start-up: loads cryptography, once per new database

        seed = db.execute("SELECT value FROM settings WHERE key = 'device_key'").fetchone()[0]
        db.execute("UPDATE settings SET value = ? WHERE key = 'device_id'",
                   [signing.device_id_of(signing.public_key(bytes.fromhex(seed)))])


@_step
def m008_check_marks(db: Database) -> None:
    db.execute(_SCHEMA_V8)


@_step
def m009_dealer_actions(db: Database) -> None:
    db.execute(_SCHEMA_V9)


@_step
def m010_append_indexes(db: Database) -> None:
    db.executescript(_SCHEMA_V10)


@_step
def m011_sessions_origin(db: Database) -> None:
    db.execute(_SCHEMA_V11)


@_step
def m012_session_currency_language(db: Database) -> None:
    for statement in _SCHEMA_V12:
        db.execute(statement)


@_step
def m013_club(db: Database) -> None:
    db.executescript(_SCHEMA_V13)


@_step
def m014_drop_voided_views(db: Database) -> None:
    db.executescript(_SCHEMA_V14)


@_step
def m015_folder_file_identity(db: Database) -> None:
    db.executescript(_SCHEMA_V15)


@_step
def m017_club_seasons(db: Database) -> None:
    db.executescript(_SCHEMA_V17)


@_step
def m018_club_held_parts(db: Database) -> None:
    db.executescript(_SCHEMA_V18)


@_step
def m019_club_folders(db: Database) -> None:
    db.executescript(_SCHEMA_V19)


def upgrade(conn: sqlite3.Connection) -> None:
    """Every step ``conn``'s database has not had (all of them for a new, empty one), applied and
    recorded by sqlite-utils' Migrations, each in a savepoint of the caller's transaction. The
    connection is left as it was: no plugins are loaded or run on it, no pragma is set."""
    from sqlite_utils import Database  # noqa: PLC0415 start-up: sqlite-utils, only when a step is due

    schema_migrations().apply(Database(conn, recursive_triggers=False, execute_plugins=False))


def schema_migrations() -> Migrations:
    from sqlite_utils.migrations import Migrations  # noqa: PLC0415 start-up: sqlite-utils, only when a step is due

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

# Who wrote a file in a synced folder (`pan sync`): every database has an Ed25519 key pair, its
# private half a random 32-byte seed kept here with the device id and never written to the
# folder. ``devices`` pins each device's public key on first sight (trust on first use) and keeps
# when it was first seen. ``sync_files`` remembers each file read in the folder (its size, mtime
# and the fingerprint and signature at its end) and what it held, so an unchanged file is not
# parsed again; it is a cache: emptying it costs one slower sync, never a wrong answer.
_SCHEMA_V7 = (
    "INSERT INTO settings (key, value) SELECT 'device_key', lower(hex(randomblob(32))) "
    "WHERE NOT EXISTS (SELECT 1 FROM settings WHERE key = 'device_key')",
    "ALTER TABLE devices ADD COLUMN public_key TEXT",
    "ALTER TABLE devices ADD COLUMN first_seen TEXT",
    "UPDATE devices SET first_seen = seen_at",
    "CREATE TABLE sync_files (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, "
    "tail TEXT NOT NULL, device TEXT NOT NULL, uid TEXT NOT NULL, events INTEGER NOT NULL, "
    "closed INTEGER NOT NULL, fingerprint TEXT NOT NULL)",
)

# What `pan db check` verified of each session, so that the next check replays only the events
# recorded since and reads the rest against a digest (sha256 of every column of the events, their
# payments and tallies, and the session's game, seats and rules, piece by piece: ``pieces`` is
# JSON [[first seq, last seq, digest], ...]), and the running totals of the hands no new event
# can change against another. A mark is used only by the pancli and SQLite
# versions that wrote it; any other re-verifies everything. Independent of every other step.
_SCHEMA_V8 = """
CREATE TABLE IF NOT EXISTS check_marks (
    session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
    last_seq INTEGER NOT NULL,      -- the last event checked
    last_event INTEGER NOT NULL,    -- its id
    digest TEXT NOT NULL,           -- sha256 over the pieces' digests, in order
    pieces TEXT NOT NULL,
    hands_below INTEGER NOT NULL,   -- the hand_totals rows of the hands before this one (over for
    hands_digest TEXT NOT NULL,     -- good when it was dealt) as checked: sha256 of their columns
    pancli TEXT NOT NULL,           -- the pancli version that checked
    sqlite TEXT NOT NULL,           -- and the SQLite that wrote the digest's text
    checked_at TEXT NOT NULL
);
"""

# What the dealer's phone sent (`pan serve --dealer`): the key it made for each action, a digest
# of the request, and the answer given, written in the transaction of the action's events, so a
# retried request is answered again instead of recorded twice.
_SCHEMA_V9 = ("CREATE TABLE dealer_actions (key TEXT PRIMARY KEY, session_id INTEGER NOT NULL "
               "REFERENCES sessions(id), digest TEXT NOT NULL, result TEXT NOT NULL, created_at TEXT NOT NULL)")

# Fewer pages written per recorded event (a line at the table wrote 15.8 a commit): a session's
# payments and tallies were indexed three ways and two, the covering indexes by player, so each
# event's rows landed on several leaves of each. One index each now, in the order events are
# recorded (a new event's rows go on the last leaf), covering what the reports and the undo read
# (a player's moves, a session's, an event's) and in the order the log is read back (by event,
# then as written: ``id``, named so that the index gives that order without a sort).
_SCHEMA_V10 = """
CREATE INDEX IF NOT EXISTS payments_session_moves ON payments(session_id, event_id, id, payer, payee, chips);
CREATE INDEX IF NOT EXISTS tallies_session_counts ON tallies(session_id, event_id, id, player, stat, amount);
DROP INDEX IF EXISTS payments_session;
DROP INDEX IF EXISTS payments_event;
DROP INDEX IF EXISTS payments_session_cover;
DROP INDEX IF EXISTS tallies_session;
DROP INDEX IF EXISTS tallies_session_cover;
"""

# An imported session is found by the fingerprint of its archive: sync asks once a session, so a
# club's folder of thousands of sessions made that a scan of them all for each.
_SCHEMA_V11 = "CREATE INDEX IF NOT EXISTS sessions_origin ON sessions(origin) WHERE origin IS NOT NULL"

# A session's currency (ISO 4217: its chip value is in whole minor units of it) and its house
# language (what the phone pages speak when a phone asks for none). NULL in every older
# session: money in cents shown as before, and the phones' own choice.
_SCHEMA_V12 = (
    "ALTER TABLE sessions ADD COLUMN currency TEXT",
    "ALTER TABLE sessions ADD COLUMN language TEXT",
)

# The club (pancli/core/club.py): what was last read of each roster file of the synced folder
# (an unchanged file is not read or verified again: the roster's cost grows with what is new),
# and the roster as folded, projected onto this database: each person, and who sat in each seat
# of each session held here (a seat the club does not know has no row: its typed name stands).
_SCHEMA_V13 = """
CREATE TABLE club_files (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    body BLOB, digest TEXT, refusal TEXT);
CREATE TABLE club_persons (id TEXT PRIMARY KEY, name TEXT NOT NULL, leader TEXT NOT NULL,
    retired INTEGER NOT NULL, names TEXT NOT NULL);
CREATE TABLE club_seats (session_id INTEGER NOT NULL REFERENCES sessions(id), seat TEXT NOT NULL COLLATE NOCASE,
    person TEXT, ambiguous TEXT, PRIMARY KEY (session_id, seat));
CREATE INDEX club_seats_person ON club_seats(person, session_id) WHERE person IS NOT NULL;
"""

# What an undo voids is said once, in pancli/storage/voided.py (by an undo of the event's own
# session); the first schema's views said it again (an undo of any session), and nothing read
# them. Running totals (``totals``, ``hand_totals``) hold what ``balances`` summed.
_SCHEMA_V14 = """
DROP VIEW IF EXISTS balances;
DROP VIEW IF EXISTS effective_tallies;
DROP VIEW IF EXISTS effective_payments;
DROP VIEW IF EXISTS effective_events;
DROP VIEW IF EXISTS voided_events;
"""

# What a sync remembers of each file of the folder gains the file's change time and inode: a file
# whose size, mtime, ctime and inode are all as last seen is not opened again (an edit in place
# that restored the size and mtime still changes the ctime). NULL where they were not kept (rows
# from before, a file seen while it was still changing, Windows): such a file is read as before.
# And the roster as last folded (pancli/core/club.py ``state``), kept beside the files it was
# folded from, so that a sync continues the fold with the new entries instead of folding the chain
# again; it is a cache: dropped, it is folded again from club_files.
_SCHEMA_V15 = """
ALTER TABLE sync_files ADD COLUMN ctime_ns INTEGER;
ALTER TABLE sync_files ADD COLUMN ino INTEGER;
ALTER TABLE club_files ADD COLUMN ctime_ns INTEGER;
ALTER TABLE club_files ADD COLUMN ino INTEGER;
CREATE TABLE club_state (id INTEGER PRIMARY KEY CHECK (id = 1), club TEXT NOT NULL, version TEXT NOT NULL,
    summary TEXT NOT NULL, state TEXT NOT NULL);
"""

# The club's closed seasons (`pan club season close`), projected from the roster as folded, as the
# seats are: each season's name and the content fingerprints of the sessions it counts, with a
# row of an empty fingerprint for every season (a season of no session is still closed). Rebuilt
# from the roster at every reading of the folder; a season the roster no longer counts goes.
_SCHEMA_V17 = """
CREATE TABLE club_seasons (name TEXT NOT NULL, fingerprint TEXT NOT NULL, PRIMARY KEY (name, fingerprint))
    WITHOUT ROWID;
"""

# The roster as last folded keeps apart the two parts that grow with the chain, so that a sync
# reads and writes only what its new entries touch: the aliases, in the order they were folded
# (appended, never rewritten), and the seats the roster attributes, by session, each with the entry
# that attributed it. The rest of the fold stays in club_state, dropped here: it is folded again,
# in its new form, at the next sync.
_SCHEMA_V18 = """
CREATE TABLE club_held_aliases (n INTEGER PRIMARY KEY, folded TEXT NOT NULL, person TEXT NOT NULL,
    by TEXT NOT NULL, given TEXT NOT NULL);
CREATE INDEX club_held_aliases_folded ON club_held_aliases (folded);
CREATE INDEX club_held_aliases_person ON club_held_aliases (person);
CREATE TABLE club_held_seats (session TEXT NOT NULL, seat TEXT NOT NULL, person TEXT NOT NULL,
    digest TEXT NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (session, seat)) WITHOUT ROWID;
DELETE FROM club_state;
"""

# What a sync knows of each device's roster folder as a whole: how many of its first files (in the
# order of their names) were settled entries at the last reading, and a hash of their listing
# (name, size, mtime, ctime, inode), so that a folder whose chain only grew is not compared file by
# file with club_files. Empty until a sync fills it: that sync compares every file, as before.
_SCHEMA_V19 = """
CREATE TABLE club_folders (path TEXT PRIMARY KEY, files INTEGER NOT NULL, listing TEXT NOT NULL);
"""

KNOWN_MIGRATIONS = frozenset(fn.__name__ for fn in _STEPS)
