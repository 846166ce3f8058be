"""SQL for several hosts or tables (`pan sync`): this database's device id, sessions by their
global id, and the devices met in a synced folder.

One part of a ``Store``, over its connection; pancli/app/sync.py decides what the answers mean.
"""

from __future__ import annotations

import sqlite3

from pancli.core.rows import Session
from pancli.storage.mapping import SESSION_COLUMNS, session_row


class SyncQueries:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn  # the Store's

    def device_id(self) -> str:
        """This database's device id: random, made by the migration that added it, never changed."""
        row = self.conn.execute("SELECT value FROM settings WHERE key = 'device_id'").fetchone()
        return row[0]

    def session_by_global_id(self, device: str, uid: str) -> Session | None:
        row = self.conn.execute(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE device = ? AND uid = ?", [device, uid]).fetchone()
        return session_row(row) if row else None

    def sessions_of_device(self, device: str) -> list[Session]:
        return [session_row(r) for r in self.conn.execute(
            f"SELECT {SESSION_COLUMNS} FROM sessions WHERE device = ? ORDER BY id", [device])]

    def name_taken(self, name: str) -> bool:
        return self.conn.execute("SELECT 1 FROM sessions WHERE name = ?", [name]).fetchone() is not None

    def note_device(self, device: str, label: str | None, last_sync: str | None, seen_at: str) -> None:
        """Remember a device met in the folder (or this one): its label and when it last synced."""
        self.conn.execute(
            "INSERT INTO devices (id, label, last_sync, seen_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET label = coalesce(excluded.label, label), "
            "last_sync = CASE WHEN excluded.last_sync > coalesce(last_sync, '') THEN excluded.last_sync ELSE last_sync END, "
            "seen_at = excluded.seen_at",
            [device, label, last_sync, seen_at])

    def devices(self) -> list[dict]:
        return [dict(r) for r in self.conn.execute("SELECT id, label, last_sync, seen_at FROM devices ORDER BY id")]

    def contributions(self) -> list[dict]:
        """Per device: how many sessions and events of it this database holds, and its newest event."""
        return [dict(r) for r in self.conn.execute(
            "SELECT s.device, count(DISTINCT s.id) AS sessions, count(e.id) AS events, "
            "max(e.created_at) AS last_event FROM sessions s LEFT JOIN events e ON e.session_id = s.id "
            "GROUP BY s.device ORDER BY s.device")]
