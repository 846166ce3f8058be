"""SQL for several hosts or tables (`pan sync`): this database's device id and key, sessions by
their global id, the devices met in a synced folder (each with its pinned public key), and what
was last seen of each file in the folder.

One part of a ``Store``, over its connection; pancli/app/sync/ decides what the answers mean.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from pancli.core.rows import Session
from pancli.storage.mapping import SESSION_COLUMNS, session_row


class SyncQueries:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn  # the Store's

    def device_id(self) -> str:
        """This database's device id: random, made by the migration that added it, never changed."""
        row = self.conn.execute("SELECT value FROM settings WHERE key = 'device_id'").fetchone()
        device: str = row[0]
        return device

    def device_key(self) -> bytes:
        """This device's private signing key (a 32-byte Ed25519 seed, made by migration m007)."""
        row = self.conn.execute("SELECT value FROM settings WHERE key = 'device_key'").fetchone()
        return bytes.fromhex(row[0])

    def session_by_global_id(self, device: str, uid: str) -> Session | None:
        row = self.conn.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE device = ? AND uid = ?", [device, uid]).fetchone()
        return session_row(row) if row else None

    def sessions_of_device(self, device: str) -> list[Session]:
        return [session_row(r) for r in self.conn.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE device = ? ORDER BY id", [device])]

    def name_taken(self, name: str) -> bool:
        return self.conn.execute("SELECT 1 FROM sessions WHERE name = ?", [name]).fetchone() is not None

    def note_device(self, device: str, label: str | None, last_sync: str | None, seen_at: str) -> None:
        """Remember a device met in the folder (or this one): its label, when it last synced and
        when it was first and last seen."""
        self.conn.execute(
            "INSERT INTO devices (id, label, last_sync, seen_at, first_seen) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET label = coalesce(excluded.label, label), "
            "last_sync = CASE WHEN excluded.last_sync > coalesce(last_sync, '') THEN excluded.last_sync ELSE last_sync END, "
            "seen_at = excluded.seen_at, first_seen = coalesce(first_seen, excluded.seen_at)",
            [device, label, last_sync, seen_at, seen_at])

    def pin_key(self, device: str, key: str, seen_at: str) -> None:
        """Bind a device to its public key (trust on first use, or `pan sync trust`)."""
        self.conn.execute(
            "INSERT INTO devices (id, public_key, seen_at, first_seen) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET public_key = excluded.public_key, "
            "first_seen = coalesce(first_seen, excluded.first_seen)",
            [device, key, seen_at, seen_at])

    def forget_device(self, device: str) -> bool:
        """Drop a device and its pinned key; its sessions held here stay (read-only)."""
        return self.conn.execute("DELETE FROM devices WHERE id = ?", [device]).rowcount > 0

    def pinned_keys(self) -> dict[str, str]:
        return {r[0]: r[1] for r in self.conn.execute("SELECT id, public_key FROM devices WHERE public_key IS NOT NULL")}

    def devices(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.conn.execute(
            "SELECT id, label, last_sync, seen_at, first_seen, public_key FROM devices ORDER BY id")]

    def held_lengths(self, device: str | None = None) -> dict[tuple[str | None, str | None], tuple[int, bool]]:
        """Per session held here (of ``device`` only, if given), by global id: its number of
        events and whether it is closed."""
        where, params = ("WHERE s.device = ?", [device]) if device is not None else ("", [])
        return {(r[0], r[1]): (r[2], r[3]) for r in self.conn.execute(
            "SELECT s.device, s.uid, coalesce((SELECT max(seq) FROM events e WHERE e.session_id = s.id), 0), "
            f"s.closed_at IS NOT NULL FROM sessions s {where}", params)}

    # -- what was last seen of each file in the folder (a cache: see migration m007) ------------

    _FILE_COLUMNS = ("path", "size", "mtime_ns", "tail", "device", "uid", "events", "closed", "fingerprint",
                     "ctime_ns", "ino")

    def seen_files(self) -> dict[str, dict[str, Any]]:
        columns = self._FILE_COLUMNS
        return {r[0]: dict(zip(columns, r, strict=True)) for r in self.conn.execute(
            f"SELECT {', '.join(columns)} FROM sync_files")}

    def seen_paths(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT path FROM sync_files")}

    def remember_files(self, rows: list[dict[str, Any]]) -> None:
        columns = self._FILE_COLUMNS
        self.conn.executemany(
            f"INSERT OR REPLACE INTO sync_files ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})",
            rows)

    def forget_files(self, paths: list[str]) -> None:
        self.conn.executemany("DELETE FROM sync_files WHERE path = ?", [[p] for p in paths])

    def contributions(self) -> list[dict[str, Any]]:
        """Per device: how many sessions and events of it this database holds, and its newest event."""
        return [dict(r) for r in self.conn.execute(
            "SELECT s.device, count(DISTINCT s.id) AS sessions, count(e.id) AS events, "
            "max(e.created_at) AS last_event FROM sessions s LEFT JOIN events e ON e.session_id = s.id "
            "GROUP BY s.device ORDER BY s.device")]
