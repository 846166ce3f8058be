"""The dealer's action keys (`pan serve --dealer`): each action a phone sends carries a key it
made itself; the key, a digest of what was asked and the words answered are stored in the same
transaction as the action's events, so a retry finds them and nothing is recorded twice."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pancli.core.json_types import JsonObject


@dataclass(frozen=True)
class StoredAction:
    key: str
    session_id: int
    digest: str
    result: JsonObject  # the words answered, as the phone was sent them


class ActionLog:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def find(self, key: str) -> StoredAction | None:
        row = self.conn.execute("SELECT key, session_id, digest, result FROM dealer_actions WHERE key = ?",
                                [key]).fetchone()
        if row is None:
            return None
        return StoredAction(row[0], row[1], row[2], json.loads(row[3]))

    def put(self, key: str, session_id: int, digest: str, result: JsonObject) -> None:
        """Inside the transaction that records the action's events (Store.lock)."""
        self.conn.execute("INSERT INTO dealer_actions (key, session_id, digest, result, created_at) "
                          "VALUES (?, ?, ?, ?, ?)",
                          [key, session_id, digest, json.dumps(result, sort_keys=True),
                           datetime.now(UTC).isoformat(timespec="seconds")])

    def count(self) -> int:
        n: int = self.conn.execute("SELECT count(*) FROM dealer_actions").fetchone()[0]
        return n
